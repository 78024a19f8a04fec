import django.db.models.deletion
import rulesets.registry
import uuid
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("sheets", "0007_campaign_ruleset"),
    ]

    # State only: the tables stay where sheets made them (db_table keeps their names).
    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Campaign",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("slug", models.SlugField(unique=True)),
                        ("name", models.CharField(max_length=200)),
                        (
                            "ruleset",
                            models.CharField(
                                choices=rulesets.registry.ruleset_choices,
                                default="gurps3e",
                                max_length=20,
                                verbose_name="sistema de regras",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "sheets_campaign",
                    },
                ),
                migrations.CreateModel(
                    name="ApiToken",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("code", models.UUIDField(default=uuid.uuid4, editable=False, unique=True)),
                        ("key_hash", models.CharField(max_length=64, unique=True)),
                        ("prefix", models.CharField(max_length=8)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("revoked_at", models.DateTimeField(blank=True, null=True)),
                        ("request_key", models.CharField(blank=True, max_length=64)),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "sheets_apitoken",
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("request_key", ""), _negated=True),
                                fields=("user", "request_key"),
                                name="sheets_apitoken_one_per_request",
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="IdempotencyKey",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("key", models.CharField(max_length=64)),
                        ("fingerprint", models.CharField(max_length=64)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "sheets_idempotencykey",
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("user", "key"), name="sheets_idempotency_key_once"
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="Membership",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "role",
                            models.CharField(
                                choices=[
                                    ("jogador", "Jogador"),
                                    ("mestre", "Mestre de Cena"),
                                    ("arbitro", "Árbitro"),
                                ],
                                max_length=10,
                            ),
                        ),
                        (
                            "campaign",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, to="campaigns.campaign"
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "sheets_membership",
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("user", "campaign"),
                                name="sheets_membership_one_role_per_campaign",
                            )
                        ],
                    },
                ),
            ],
        ),
    ]
