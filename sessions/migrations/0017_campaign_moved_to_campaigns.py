import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0001_initial"),
        ("mesa", "0016_tools_world_action_resolution"),
    ]

    # State only: the foreign keys point at the same table (sheets_campaign), now campaigns'.
    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="randomtable",
                    name="campaign",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="random_tables",
                        to="campaigns.campaign",
                    ),
                ),
                migrations.AlterField(
                    model_name="roll",
                    name="campaign",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="rolls",
                        to="campaigns.campaign",
                    ),
                ),
                migrations.AlterField(
                    model_name="week",
                    name="campaign",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="weeks",
                        to="campaigns.campaign",
                    ),
                ),
            ],
        ),
    ]
