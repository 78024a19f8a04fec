"""Characters, their sheet versions and what changes in play.

Derived numbers (Carga, Deslocamento, Esquiva, defences) are never stored: they are
computed by ``gurps`` from the homologated version plus the state (sheets.computed).
"""

from __future__ import annotations

import uuid
from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q

from campaigns.models import Campaign
from rulesets.registry import GURPS3E, ruleset_for


class Character(models.Model):
    class Kind(models.TextChoices):
        PLAYER_CHARACTER = "pc", "Personagem de jogador"
        NAMED_NPC = "named_npc", "NPC nomeado"
        CREATURE = "creature", "Bicho de bestiário"

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="characters")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="characters",
    )
    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.PLAYER_CHARACTER)
    demo_note = models.TextField(
        blank=True, help_text="O que é dado de demonstração e não vem do cânone."
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def is_owned_by(self, user) -> bool:
        return self.owner_id is not None and self.owner_id == user.pk


class SheetVersion(models.Model):
    """One numbered version of a sheet. Submitted and homologated versions never change."""

    class Status(models.TextChoices):
        DRAFT = "draft", "Rascunho"
        SUBMITTED = "submitted", "Enviada ao Árbitro"
        HOMOLOGATED = "homologated", "Homologada"
        RETURNED = "returned", "Devolvida"

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.DRAFT)
    # The campaign's ruleset when the version was made (set on create). GURPS keeps its sheet
    # in these columns and the related tables; any other ruleset in ``data``, validated by its
    # ``SheetsPart.data_model`` (its attribute columns then empty).
    ruleset = models.CharField(max_length=20, default=GURPS3E, editable=False)
    st = models.PositiveSmallIntegerField(null=True, validators=[MinValueValidator(1)])
    dx = models.PositiveSmallIntegerField(null=True, validators=[MinValueValidator(1)])
    iq = models.PositiveSmallIntegerField(null=True, validators=[MinValueValidator(1)])
    ht = models.PositiveSmallIntegerField(null=True, validators=[MinValueValidator(1)])
    data = models.JSONField(default=dict, blank=True)
    notes = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    submitted_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    return_reason = models.TextField(blank=True)
    # The Árbitro's homologation despite the audit's warnings (sheets.homologation): what they said
    # then, and his words. A warning is not a refusal; the decision says so.
    decision_warnings = models.JSONField(default=list, blank=True)
    decision_warning_count = models.PositiveSmallIntegerField(default=0)
    decision_note = models.TextField(blank=True)
    # The lines of a pasted sheet the import could not read, for the player to fix.
    unread_lines = models.TextField(blank=True)

    class Meta:
        ordering = ["character", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["character", "number"], name="sheets_sheetversion_unique_number"
            ),
            models.CheckConstraint(
                condition=~Q(ruleset=GURPS3E)
                | (
                    Q(st__gte=1)
                    & Q(dx__gte=1)
                    & Q(iq__gte=1)
                    & Q(ht__gte=1)
                    & Q(st__isnull=False)
                    & Q(dx__isnull=False)
                    & Q(iq__isnull=False)
                    & Q(ht__isnull=False)
                ),
                name="sheets_sheetversion_attributes_at_least_1",
            ),
            models.CheckConstraint(
                condition=~Q(status="returned") | ~Q(return_reason=""),
                name="sheets_sheetversion_returned_has_reason",
            ),
            models.CheckConstraint(
                condition=Q(decision_warning_count=0) | ~Q(decision_note=""),
                name="sheets_sheetversion_warnings_have_a_note",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character} v{self.number} ({self.get_status_display()})"

    def save(self, *args, **kwargs):
        if self._state.adding:
            self.ruleset = self.character.campaign.ruleset
        super().save(*args, **kwargs)

    def check_data(self, state: CharacterState | None, *, name: str | None = None) -> dict:
        """What the ruleset's checks read of this version and ``state``
        (``SheetsPart.check_data``): GURPS's from its tables, any other's from ``data``.
        ``name``: the character's, when the caller has it (not read again)."""
        if self.ruleset != GURPS3E:
            state_data = state.data if state is not None else {}
            return ruleset_for(self.ruleset).sheets.check_data(self.data, state_data)
        data = {
            "name": name if name is not None else self.character.name,
            "st": self.st,
            "dx": self.dx,
            "iq": self.iq,
            "ht": self.ht,
            "skills": {s.name: (s.level, s.attribute) for s in self.skills.all()},
            "traits": [{"key": t.key, "level": t.level} for t in self.traits.all()],
        }
        state_data = {"fatigue_lost": state.fatigue_lost if state is not None else 0}
        return ruleset_for(GURPS3E).sheets.check_data(data, state_data)

    @property
    def is_editable(self) -> bool:
        return self.status == self.Status.DRAFT

    def attributes(self) -> dict[str, int]:
        return {"st": self.st, "dx": self.dx, "iq": self.iq, "ht": self.ht}

    @property
    def unread_line_list(self) -> list[str]:
        return [line for line in self.unread_lines.splitlines() if line.strip()]


class Trait(models.Model):
    class Kind(models.TextChoices):
        ADVANTAGE = "advantage", "Vantagem"
        DISADVANTAGE = "disadvantage", "Desvantagem"
        QUIRK = "quirk", "Peculiaridade"

    class Key(models.TextChoices):
        """The traits the engine reads."""

        NONE = "", "—"
        COMBAT_REFLEXES = "combat_reflexes", "Reflexos em Combate"
        STRONG_WILL = "strong_will", "Força de Vontade"
        WEAK_WILL = "weak_will", "Vontade Fraca"
        MAGERY = "magery", "Aptidão Mágica"

    version = models.ForeignKey(SheetVersion, on_delete=models.CASCADE, related_name="traits")
    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    key = models.CharField(max_length=20, choices=Key.choices, blank=True)
    level = models.SmallIntegerField(null=True, blank=True)
    points = models.SmallIntegerField(default=0)

    class Meta:
        ordering = ["kind", "name"]

    def __str__(self) -> str:
        return self.name


class Skill(models.Model):
    class Attribute(models.TextChoices):
        ST = "st", "ST"
        DX = "dx", "DX"
        IQ = "iq", "IQ"
        HT = "ht", "HT"

    class Difficulty(models.TextChoices):
        EASY = "E", "Fácil"
        AVERAGE = "A", "Média"
        HARD = "H", "Difícil"
        VERY_HARD = "VH", "Muito Difícil"

    version = models.ForeignKey(SheetVersion, on_delete=models.CASCADE, related_name="skills")
    name = models.CharField(max_length=200)
    attribute = models.CharField(max_length=2, choices=Attribute.choices)
    difficulty = models.CharField(max_length=2, choices=Difficulty.choices)
    level = models.SmallIntegerField()
    points = models.DecimalField(max_digits=5, decimal_places=1, default=Decimal("0"))

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["version", "name"], name="sheets_skill_unique_name_per_version"
            ),
            models.CheckConstraint(
                condition=Q(points__gte=0), name="sheets_skill_points_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.level}"


class Item(models.Model):
    """An item line of a sheet version, as written on the sheet."""

    class Parry(models.TextChoices):
        NONE = "", "Não apara"
        NORMAL = "normal", "Comum (½)"
        FENCING = "fencing", "Esgrima (⅔)"
        STAFF = "staff", "Bastão (⅔)"
        KNIFE = "knife", "Faca (½ −1)"
        THROWN = "thrown", "Arremessada (½ −1)"
        THROWN_KNIFE = "thrown_knife", "Faca arremessada (½ −2)"
        FLAIL = "flail", "Mangual (½ −4)"

    version = models.ForeignKey(SheetVersion, on_delete=models.CASCADE, related_name="items")
    name = models.CharField(max_length=200)
    weight_kg = models.DecimalField(max_digits=8, decimal_places=3)
    quantity = models.PositiveIntegerField(default=1)
    passive_defense = models.PositiveSmallIntegerField(default=0)
    damage_resistance = models.PositiveSmallIntegerField(default=0)
    is_shield = models.BooleanField(default=False)
    damage = models.CharField(max_length=60, blank=True, help_text="Como na ficha: GDP+1 perf")
    skill_name = models.CharField(max_length=200, blank=True)
    parry = models.CharField(max_length=12, choices=Parry.choices, blank=True)
    ranged_snap_shot = models.SmallIntegerField(null=True, blank=True)  # TR (§4.11)
    ranged_accuracy = models.SmallIntegerField(null=True, blank=True)
    ranged_half_damage_m = models.PositiveIntegerField(null=True, blank=True)
    ranged_max_m = models.PositiveIntegerField(null=True, blank=True)
    carried_by_default = models.BooleanField(default=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(weight_kg__gte=0), name="sheets_item_weight_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_weapon(self) -> bool:
        return bool(self.damage)


class CharacterState(models.Model):
    """What changes in play: HP and fatigue lost, conditions."""

    character = models.OneToOneField(Character, on_delete=models.CASCADE, related_name="state")
    hp_lost = models.IntegerField(default=0)
    fatigue_lost = models.PositiveIntegerField(default=0)
    stunned = models.BooleanField(default=False)
    # What a fight left (sessions.combat keeps them live): fainted or knocked out (§5.3–5.4),
    # and dead by a failed death check or past the certain line (§5.4, §5.4.1).
    unconscious = models.BooleanField(default=False)
    dead = models.BooleanField(default=False)
    conditions = models.TextField(blank=True)
    # A non-GURPS ruleset's state, validated by its ``SheetsPart.state_model``.
    data = models.JSONField(default=dict, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Estado de {self.character}"


class Possession(models.Model):
    """What a character has right now: a sheet item, or loot picked up in play.

    A sheet item row points at the item of the homologated version; loot carries its own
    name and weight.
    """

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="possessions")
    item = models.ForeignKey(Item, null=True, blank=True, on_delete=models.CASCADE)
    loot_name = models.CharField(max_length=200, blank=True)
    loot_weight_kg = models.DecimalField(max_digits=8, decimal_places=3, null=True, blank=True)
    quantity = models.PositiveIntegerField(default=1)
    carried = models.BooleanField(default=True)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    added_at = models.DateTimeField(auto_now_add=True)
    # The loot form's one-time key: the same form posted twice adds the loot once.
    request_key = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(item__isnull=False) & Q(loot_name=""))
                | (Q(item__isnull=True) & ~Q(loot_name="") & Q(loot_weight_kg__gte=0)),
                name="sheets_possession_item_or_loot",
            ),
            models.UniqueConstraint(
                fields=["character", "request_key"],
                condition=~Q(request_key=""),
                name="sheets_possession_one_per_request",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_loot(self) -> bool:
        return self.item_id is None

    @property
    def name(self) -> str:
        return self.item.name if self.item_id else self.loot_name

    @property
    def unit_weight_kg(self) -> Decimal:
        return self.item.weight_kg if self.item_id else self.loot_weight_kg

    @property
    def total_weight_kg(self) -> Decimal:
        return self.unit_weight_kg * self.quantity
