"""The floor every app stands on: campaigns, who plays in them and in which role, the API's
bearer tokens and idempotency keys.

Moved from sheets without touching the database (a state-only migration): every table keeps
its ``sheets_`` name and every constraint its name.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q

from rulesets.registry import GURPS3E, ruleset_choices


class Campaign(models.Model):
    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=200)
    # Chosen at creation from the registry; fixed once the campaign has a sheet or a roll.
    ruleset = models.CharField(
        max_length=20, choices=ruleset_choices, default=GURPS3E, verbose_name="sistema de regras"
    )

    class Meta:
        # Moved from sheets without touching the database: the tables keep their names.
        db_table = "sheets_campaign"

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        JOGADOR = "jogador", "Jogador"
        MESTRE = "mestre", "Mestre de Cena"
        ARBITRO = "arbitro", "Árbitro"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE)
    role = models.CharField(max_length=10, choices=Role.choices)

    class Meta:
        db_table = "sheets_membership"
        constraints = [
            models.UniqueConstraint(
                fields=["user", "campaign"], name="sheets_membership_one_role_per_campaign"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} em {self.campaign}"

    @property
    def runs_the_table(self) -> bool:
        """Mestre and Árbitro may announce modifiers, roll and see all state."""
        return self.role in (self.Role.MESTRE, self.Role.ARBITRO)


class ApiToken(models.Model):
    """A per-user bearer token for the API. Only the SHA-256 of the token is stored.

    A token is never deleted: revoking it stamps ``revoked_at``, and the row stays so its
    owner sees what existed and when it stopped working.
    """

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # The account page's one-time form key: the same form posted twice makes one token.
    request_key = models.CharField(max_length=64, blank=True)

    class Meta:
        db_table = "sheets_apitoken"
        constraints = [
            models.UniqueConstraint(
                fields=["user", "request_key"],
                condition=~Q(request_key=""),
                name="sheets_apitoken_one_per_request",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user})"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class IdempotencyKey(models.Model):
    """An API request sent with an ``Idempotency-Key``: the key is its asker's own, and what
    it asked for (a SHA-256 of the method, the path and the body, keys sorted) is kept, so the
    same key sent with another request is refused (409) instead of handing back the first
    request's roll as if it answered the second."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=64)
    fingerprint = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "sheets_idempotencykey"
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="sheets_idempotency_key_once")
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.user})"
