import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0001_initial"),
        ("canon", "0002_skill_tables"),
    ]

    # State only: the foreign keys point at the same table (sheets_campaign), now campaigns'.
    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="correction",
                    name="campaign",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="corrections",
                        to="campaigns.campaign",
                    ),
                ),
                migrations.AlterField(
                    model_name="decision",
                    name="campaign",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="decisions",
                        to="campaigns.campaign",
                    ),
                ),
                migrations.AlterField(
                    model_name="divergence",
                    name="campaign",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="divergences",
                        to="campaigns.campaign",
                    ),
                ),
                migrations.AlterField(
                    model_name="skillcatalogueentry",
                    name="campaign",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="skills",
                        to="campaigns.campaign",
                    ),
                ),
                migrations.AlterField(
                    model_name="skillcosttable",
                    name="campaign",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="skill_cost_tables",
                        to="campaigns.campaign",
                    ),
                ),
            ],
        ),
    ]
