import django.db.models.deletion
from django.db import migrations, models


MOVED = ("campaign", "membership", "apitoken", "idempotencykey")


def content_types_follow(apps, schema_editor):
    """The moved models' content types (and so their permissions and admin log) follow them."""
    content_type = apps.get_model("contenttypes", "ContentType")
    for model in MOVED:
        if not content_type.objects.filter(app_label="campaigns", model=model).exists():
            content_type.objects.filter(app_label="sheets", model=model).update(
                app_label="campaigns"
            )


def content_types_return(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    for model in MOVED:
        if not content_type.objects.filter(app_label="sheets", model=model).exists():
            content_type.objects.filter(app_label="campaigns", model=model).update(
                app_label="sheets"
            )


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("sheets", "0007_campaign_ruleset"),
        # The other apps' keys leave sheets.Campaign before it leaves sheets.
        ("canon", "0003_campaign_moved_to_campaigns"),
        ("mesa", "0017_campaign_moved_to_campaigns"),
    ]

    # State only: the models moved to campaigns with their tables untouched.
    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="character",
                    name="campaign",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="characters",
                        to="campaigns.campaign",
                    ),
                ),
                migrations.RemoveField(
                    model_name="membership",
                    name="campaign",
                ),
                migrations.RemoveField(
                    model_name="idempotencykey",
                    name="user",
                ),
                migrations.RemoveField(
                    model_name="membership",
                    name="user",
                ),
                migrations.DeleteModel(
                    name="ApiToken",
                ),
                migrations.DeleteModel(
                    name="Campaign",
                ),
                migrations.DeleteModel(
                    name="IdempotencyKey",
                ),
                migrations.DeleteModel(
                    name="Membership",
                ),
            ],
        ),
        migrations.RunPython(content_types_follow, content_types_return),
    ]
