"""Weeks, scenes and the scene log: declarations and the server's rolls.

A roll is append-only: numbered per campaign without gaps and chained by SHA-256 (DESIGN.md
invariant 2). Nothing in the code updates or deletes one; ``save`` and ``delete`` refuse.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q

from sheets.models import Campaign, Character


class Week(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Aberta"
        CLOSED = "closed", "Encerrada"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="weeks")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    bulletin_published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="mesa_week_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="mesa_week_number_from_1"),
        ]

    def __str__(self) -> str:
        return f"Semana {self.number}"


class Scene(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Aberta"
        CLOSED = "closed", "Encerrada"

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    week = models.ForeignKey(Week, on_delete=models.CASCADE, related_name="scenes")
    title = models.CharField(max_length=200)
    floor = models.SmallIntegerField(null=True, blank=True, help_text="Andar da Garganta")
    terrain = models.CharField(max_length=200, blank=True)
    boss = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    characters = models.ManyToManyField(Character, related_name="scenes", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.title

    @property
    def campaign(self) -> Campaign:
        return self.week.campaign

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class Declaration(models.Model):
    """What a jogador says their character does, and with what (canon §1.4)."""

    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="declarations")
    character = models.ForeignKey(Character, on_delete=models.PROTECT, related_name="+")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    # The form's one-time key: the same form posted twice makes one declaration.
    request_key = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["scene", "request_key"],
                condition=~Q(request_key=""),
                name="mesa_declaration_unique_request_key",
            )
        ]

    def __str__(self) -> str:
        return f"{self.character}: {self.text[:40]}"


class RollQuerySet(models.QuerySet):
    """Bulk paths refuse too: no ``update`` or ``delete`` of rolls (DESIGN.md invariant 2)."""

    def update(self, **kwargs):
        raise PermissionError("Uma rolagem nunca é alterada.")

    def delete(self):
        raise PermissionError("Uma rolagem nunca é apagada.")


class Roll(models.Model):
    """A roll made by the server. Never changed, never deleted.

    ``hash`` = SHA-256 of ``previous_hash`` plus the canonical JSON of the roll's content
    (sessions.services.roll_canonical_content), so anyone can verify the chain.
    """

    class Kind(models.TextChoices):
        SKILL = "skill", "Perícia"
        ATTRIBUTE = "attribute", "Atributo"
        DEFENCE = "defence", "Defesa"

    class Outcome(models.TextChoices):
        CRITICAL_SUCCESS = "critical_success", "Sucesso decisivo"
        SUCCESS = "success", "Sucesso"
        FAILURE = "failure", "Falha"
        CRITICAL_FAILURE = "critical_failure", "Falha crítica"

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    campaign = models.ForeignKey(Campaign, on_delete=models.PROTECT, related_name="rolls")
    sequence = models.PositiveIntegerField()
    scene = models.ForeignKey(Scene, on_delete=models.PROTECT, related_name="rolls")
    character = models.ForeignKey(
        Character, null=True, blank=True, on_delete=models.PROTECT, related_name="rolls"
    )
    declaration = models.ForeignKey(
        Declaration, null=True, blank=True, on_delete=models.PROTECT, related_name="rolls"
    )
    label = models.CharField(max_length=200)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    base_level = models.SmallIntegerField()
    modifiers = models.JSONField(default=list)
    effective_level = models.SmallIntegerField()
    dice = models.JSONField()
    total = models.PositiveSmallIntegerField()
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    margin = models.SmallIntegerField()
    hidden = models.BooleanField(default=False)
    name = models.CharField(max_length=40, blank=True, help_text="semana-NN-rolagem-NN")
    rolled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField()
    previous_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64, unique=True)
    # A secret nonce in the hashed content: without it a player could rebuild a hidden
    # roll's values from its hash by trying the 216 dice. Shown only with the values.
    salt = models.CharField(max_length=32)
    # The form's (or API client's) one-time key: the same request twice rolls once.
    request_key = models.CharField(max_length=64, blank=True)

    objects = RollQuerySet.as_manager()

    class Meta:
        ordering = ["campaign", "sequence"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "sequence"], name="mesa_roll_unique_sequence"
            ),
            models.CheckConstraint(condition=Q(sequence__gte=1), name="mesa_roll_sequence_from_1"),
            models.CheckConstraint(
                condition=Q(total__gte=3) & Q(total__lte=18), name="mesa_roll_total_3d6"
            ),
            models.UniqueConstraint(
                fields=["campaign", "request_key"],
                condition=~Q(request_key=""),
                name="mesa_roll_unique_request_key",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.sequence} {self.label}"

    def save(self, *args, **kwargs):
        # Append-only (DESIGN.md invariant 2): a stored roll is never saved again.
        if self.pk is not None:
            raise PermissionError("Uma rolagem nunca é alterada.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError("Uma rolagem nunca é apagada.")

    @property
    def net_modifier(self) -> int:
        return sum(m["value"] for m in self.modifiers)
