# ApiToken gets a public id (``code``, for the account page's revoke URLs) and the account
# form's one-time ``request_key``. Existing tokens get a UUID each before the column turns
# unique (Django's recipe for a unique field on rows that already exist).

import uuid

from django.db import migrations, models


def give_each_token_a_code(apps, schema_editor):
    ApiToken = apps.get_model("sheets", "ApiToken")
    for token in ApiToken.objects.filter(code__isnull=True).only("pk"):
        token.code = uuid.uuid4()
        token.save(update_fields=["code"])


class Migration(migrations.Migration):

    dependencies = [
        ("sheets", "0002_possession_request_key"),
    ]

    operations = [
        migrations.AddField(
            model_name="apitoken",
            name="code",
            field=models.UUIDField(null=True, editable=False),
        ),
        migrations.RunPython(give_each_token_a_code, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="apitoken",
            name="code",
            field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True),
        ),
        migrations.AddField(
            model_name="apitoken",
            name="request_key",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddConstraint(
            model_name="apitoken",
            constraint=models.UniqueConstraint(
                condition=models.Q(("request_key", ""), _negated=True),
                fields=("user", "request_key"),
                name="sheets_apitoken_one_per_request",
            ),
        ),
    ]
