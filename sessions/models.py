"""Weeks, scenes and the scene log: declarations, announced modifiers, the server's rolls,
narration; world actions; the weekly report and its corrections.

A roll is append-only: numbered per campaign without gaps and chained by SHA-256 (docs/DESIGN.md,
invariant 2 (Rolls are append-only)). Nothing in the code updates or deletes one; ``save`` and
``delete`` refuse. The entries a roll rests on (announced modifiers) and the corrections of a
homologated report are append-only the same way.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from campaigns.models import Campaign
from campaigns.records import AppendOnly
from procedure import clock as procedure_clock
from procedure import journey as procedure_journey
from procedure import tables as procedure_tables
from rulesets.gurps3e.sheets import CombatantKind, limb_label
from rulesets.registry import GURPS3E, ruleset_for
from sessions.combat.weapons import weapons_of
from sheets.models import Character


class Week(models.Model):
    """A world week, which is a real week (canon §8). N+1 opens after the Boletim of N."""

    class Status(models.TextChoices):
        OPEN = "open", "Aberta"
        CLOSED = "closed", "Encerrada"

    class State(models.TextChoices):
        """Where the week is: shown on its page, computed from the week and its report."""

        OPEN = "open", "Aberta"
        REPORT_SUBMITTED = "report_submitted", "Relatório enviado ao Árbitro"
        REPORT_HOMOLOGATED = "report_homologated", "Relatório homologado"
        BULLETIN_PUBLISHED = "bulletin_published", "Boletim publicado"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="weeks")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    opened_at = models.DateTimeField(null=True, blank=True)
    bulletin = models.TextField(blank=True)
    bulletin_published_at = models.DateTimeField(null=True, blank=True)
    bulletin_published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )

    class Meta:
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="mesa_week_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="mesa_week_number_from_1"),
            models.CheckConstraint(
                condition=~Q(status="closed") | Q(bulletin_published_at__isnull=False),
                name="mesa_week_closed_has_bulletin",
            ),
        ]

    def __str__(self) -> str:
        return f"Semana {self.number}"

    def get_absolute_url(self) -> str:
        return reverse("week", kwargs={"campaign": self.campaign.slug, "number": self.number})

    def report_or_none(self) -> WeeklyReport | None:
        try:
            return self.report
        except WeeklyReport.DoesNotExist:
            return None

    @property
    def state(self) -> str:
        if self.bulletin_published_at is not None:
            return self.State.BULLETIN_PUBLISHED
        report = self.report_or_none()
        if report is not None and report.status == WeeklyReport.Status.HOMOLOGATED:
            return self.State.REPORT_HOMOLOGATED
        if report is not None and report.status == WeeklyReport.Status.SUBMITTED:
            return self.State.REPORT_SUBMITTED
        return self.State.OPEN

    def get_state_display(self) -> str:
        return self.State(self.state).label

    @property
    def accepts_entries(self) -> bool:
        """Scenes, declarations, rolls and world actions enter only while the week is open:
        once the report is with the Árbitro the week's log is closed (what the report
        reports, and what its homologation reveals, cannot grow afterwards)."""
        return self.state == self.State.OPEN

    @property
    def hidden_rolls_revealed(self) -> bool:
        """The dice and targets of the week's hidden rolls show once its report is
        homologated (canon §1.6)."""
        return self.state in (self.State.REPORT_HOMOLOGATED, self.State.BULLETIN_PUBLISHED)


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
    # The form's one-time key: the same form posted twice opens one scene.
    request_key = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["week", "request_key"],
                condition=~Q(request_key=""),
                name="mesa_scene_unique_request_key",
            )
        ]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("scene", kwargs={"code": self.code})

    @property
    def campaign(self) -> Campaign:
        return self.week.campaign

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class Declaration(models.Model):
    """What a jogador says their character does, and with what (canon §1.4)."""

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="declarations")
    character = models.ForeignKey(Character, on_delete=models.PROTECT, related_name="+")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    # The form's one-time key: the same form posted twice makes one declaration.
    request_key = models.CharField(max_length=64, blank=True)

    class Meta:
        # The log is read a page at a time by (created_at, id) past a cursor (timeline.log_page).
        indexes = [
            models.Index(fields=["scene", "created_at", "id"], name="mesa_declaration_log_keyset")
        ]
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


class ModifierAnnouncement(AppendOnly):
    """The Mestre's modifiers for a declaration, said before any die (canon §1.4).

    Its own entry in the log, seen by the jogador before the roll; a roll that answers the
    declaration carries exactly these modifiers (the latest announcement before it). An
    empty list is an announcement too: "sem modificadores".
    """

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="announcements")
    declaration = models.ForeignKey(
        Declaration, on_delete=models.PROTECT, related_name="announcements"
    )
    modifiers = models.JSONField(default=list, blank=True)
    note = models.CharField(max_length=300, blank=True)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    request_key = models.CharField(max_length=64, blank=True)

    class Meta:
        # The log is read a page at a time by (created_at, id) past a cursor (timeline.log_page).
        indexes = [
            models.Index(fields=["scene", "created_at", "id"], name="mesa_announcement_log_keyset")
        ]
        ordering = ["created_at", "pk"]
        verbose_name = "anúncio de modificadores"
        verbose_name_plural = "anúncios de modificadores"
        constraints = [
            models.UniqueConstraint(
                fields=["scene", "request_key"],
                condition=~Q(request_key=""),
                name="mesa_modifierannouncement_unique_request_key",
            )
        ]

    def __str__(self) -> str:
        return f"Modificadores para {self.declaration}"

    @property
    def net_modifier(self) -> int:
        return sum(m["value"] for m in self.modifiers)


class Narration(models.Model):
    """What the Mestre narrates: after the dice, never instead of them."""

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="narrations")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    request_key = models.CharField(max_length=64, blank=True)

    class Meta:
        # The log is read a page at a time by (created_at, id) past a cursor (timeline.log_page).
        indexes = [
            models.Index(fields=["scene", "created_at", "id"], name="mesa_narration_log_keyset")
        ]
        ordering = ["created_at", "pk"]
        verbose_name = "narração"
        verbose_name_plural = "narrações"
        constraints = [
            models.UniqueConstraint(
                fields=["scene", "request_key"],
                condition=~Q(request_key=""),
                name="mesa_narration_unique_request_key",
            )
        ]

    def __str__(self) -> str:
        return self.text[:60]


class WorldAction(models.Model):
    """One of the character's world actions of the week (canon §8: three, not carried over).

    ``ordinal`` numbers them 1, 2, 3 within the week; the unique constraint keeps two
    writers from spending the same one. ``resolution`` is what the table said came of it
    (``sessions.weeks.services.world_action_resolve``).
    """

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    week = models.ForeignKey(Week, on_delete=models.PROTECT, related_name="world_actions")
    character = models.ForeignKey(Character, on_delete=models.PROTECT, related_name="+")
    ordinal = models.PositiveSmallIntegerField()
    text = models.TextField()
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    request_key = models.CharField(max_length=64, blank=True)
    # What came of it, said once by the Mestre or the Árbitro (issue 27); empty until then.
    resolution = models.TextField(blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["week", "character__name", "ordinal"]
        verbose_name = "ação de mundo"
        verbose_name_plural = "ações de mundo"
        constraints = [
            models.UniqueConstraint(
                fields=["week", "character", "ordinal"], name="mesa_worldaction_unique_ordinal"
            ),
            models.CheckConstraint(
                condition=Q(ordinal__gte=1), name="mesa_worldaction_ordinal_from_1"
            ),
            models.UniqueConstraint(
                fields=["week", "request_key"],
                condition=~Q(request_key=""),
                name="mesa_worldaction_unique_request_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character}: ação {self.ordinal} da {self.week}"


class RollQuerySet(models.QuerySet):
    """Bulk paths refuse too: no ``update`` or ``delete`` of rolls (docs/DESIGN.md,
    invariant 2 (Rolls are append-only))."""

    def update(self, **kwargs):
        raise PermissionError("Uma rolagem nunca é alterada.")

    def delete(self):
        raise PermissionError("Uma rolagem nunca é apagada.")


class Roll(AppendOnly):  # docs/DESIGN.md, invariant 2 (Rolls are append-only)
    """A roll made by the server. Never changed, never deleted.

    ``hash`` = SHA-256 of ``previous_hash`` plus the canonical JSON of the roll's content
    (sessions.log.chain.roll_canonical_content), so anyone can verify the chain.

    Kinds: a success roll (skill, attribute, defence: 3d6 against a level); damage (a dice
    expression); a table of the engine (critical hit or miss, fright check, spell failure);
    a quick contest (side A in the roll's own fields, both sides and the winner in
    ``details``). What a kind adds lives in ``details``, which the hash covers.
    """

    class Kind(models.TextChoices):
        SKILL = "skill", "Perícia"
        ATTRIBUTE = "attribute", "Atributo"
        DEFENCE = "defence", "Defesa"
        DAMAGE = "damage", "Dano"
        TABLE = "table", "Tabela"
        CONTEST = "contest", "Disputa Rápida"

    SUCCESS_KINDS = (Kind.SKILL, Kind.ATTRIBUTE, Kind.DEFENCE)

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
    announcement = models.ForeignKey(
        ModifierAnnouncement,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="rolls",
        help_text="O anúncio cujos modificadores esta rolagem usa, exatamente.",
    )
    # The campaign's ruleset when the roll was made: its ``ChecksPart`` made the roll and
    # says what its kind and outcome mean. ``Kind`` and ``Outcome`` are GURPS's (and the
    # agnostic damage, table, contest); another ruleset's keys are validated by it, not here.
    ruleset = models.CharField(max_length=20, default=GURPS3E, editable=False)
    label = models.CharField(max_length=200)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    base_level = models.SmallIntegerField(null=True, blank=True)
    modifiers = models.JSONField(default=list)
    effective_level = models.SmallIntegerField(null=True, blank=True)
    dice = models.JSONField()
    total = models.SmallIntegerField()
    outcome = models.CharField(max_length=16, choices=Outcome.choices, blank=True)
    margin = models.SmallIntegerField(null=True, blank=True)
    details = models.JSONField(default=dict, blank=True)
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
        # The log is read a page at a time by (created_at, id) past a cursor (timeline.log_page).
        indexes = [models.Index(fields=["scene", "created_at", "id"], name="mesa_roll_log_keyset")]
        ordering = ["campaign", "sequence"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "sequence"], name="mesa_roll_unique_sequence"
            ),
            models.CheckConstraint(condition=Q(sequence__gte=1), name="mesa_roll_sequence_from_1"),
            # GURPS's own: 3d6 against a level. Another ruleset's rolls (a d20 check, an
            # initiative roll) are checked by its ``ChecksPart`` before they are stored.
            models.CheckConstraint(
                condition=~Q(ruleset=GURPS3E)
                | Q(kind__in=["damage", "table"])
                | (Q(total__gte=3) & Q(total__lte=18)),
                name="mesa_roll_total_3d6",
            ),
            models.CheckConstraint(
                condition=~Q(ruleset=GURPS3E)
                | Q(kind__in=["damage", "table"])
                | (
                    Q(base_level__isnull=False)
                    & Q(effective_level__isnull=False)
                    & Q(margin__isnull=False)
                    & ~Q(outcome="")
                ),
                name="mesa_roll_test_has_levels",
            ),
            # A hidden roll is a test: GURPS's kinds, or any ruleset's check kind (not the
            # agnostic damage, table or contest).
            models.CheckConstraint(
                condition=Q(hidden=False)
                | Q(kind__in=["skill", "attribute", "defence"])
                | (~Q(ruleset=GURPS3E) & ~Q(kind__in=["damage", "table", "contest"])),
                name="mesa_roll_hidden_is_a_test",
            ),
            models.UniqueConstraint(
                fields=["campaign", "request_key"],
                condition=~Q(request_key=""),
                name="mesa_roll_unique_request_key",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.sequence} {self.label}"

    @property
    def kind_label(self) -> str:
        """The kind in Portuguese: Roll's own, or as the roll's ruleset names it (its checks'
        kinds, or the kinds its fight writes: ``Ruleset.roll_kind_label``)."""
        if self.kind in self.Kind.values:
            return self.Kind(self.kind).label
        return ruleset_for(self.ruleset).roll_kind_label(self.kind)

    @property
    def fight_roll(self) -> bool:
        """A die of a fight its ruleset plays whole (the sistema001's Iniciativa, Ataque, Defesa…):
        no level to pass; the log shows its kind, its dice and total, and the fight's step."""
        if not (self.details or {}).get("combat") or self.ruleset == GURPS3E:
            return False
        return bool(getattr(ruleset_for(self.ruleset).combat, "native", False))

    @property
    def outcome_label(self) -> str:
        """The outcome in Portuguese, as the roll's ruleset names it; "" without one."""
        return self._outcome_label(self.outcome)

    def _outcome_label(self, outcome: str) -> str:
        if not outcome:
            return ""
        if self.ruleset == GURPS3E:
            return self.Outcome(outcome).label
        return ruleset_for(self.ruleset).checks.outcomes.get(outcome, outcome)

    @property
    def net_modifier(self) -> int:
        return sum(m["value"] for m in self.modifiers)

    @property
    def is_test(self) -> bool:
        """A success roll against a level: GURPS's skill, attribute or defence (3d6), or
        another ruleset's check — one of its checks part's kinds (the Xuleta's check, save,
        attack: not its initiative, damage, death save or hit die), any kind but the agnostic
        damage, table and contest for a ruleset without checks."""
        if self.kind in (self.Kind.DAMAGE, self.Kind.TABLE, self.Kind.CONTEST):
            return False
        if self.ruleset == GURPS3E:
            return True
        checks = ruleset_for(self.ruleset).checks
        return checks is None or self.kind in checks.kinds

    @property
    def contest_sides(self) -> list[dict]:
        """Both sides of a quick contest as stored, each with its outcome's label."""
        if self.kind != self.Kind.CONTEST:
            return []
        return [
            {
                **self.details[side],
                "outcome_label": self._outcome_label(self.details[side]["outcome"]),
            }
            for side in ("a", "b")
        ]


class WeeklyReport(models.Model):
    """The Mestre's report of the week, for the Árbitro (canon §1.6).

    draft → submitted → homologated (reveals the week's hidden rolls) or returned (with a
    reason; written again and submitted again). A homologated report is never edited: a
    correction is a ``ReportCorrection`` that keeps the old text.
    """

    class Status(models.TextChoices):
        DRAFT = "draft", "Rascunho"
        SUBMITTED = "submitted", "Enviado ao Árbitro"
        HOMOLOGATED = "homologated", "Homologado"
        RETURNED = "returned", "Devolvido"

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    week = models.OneToOneField(Week, on_delete=models.PROTECT, related_name="report")
    text = models.TextField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.DRAFT)
    written_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    written_at = models.DateTimeField()
    submitted_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    return_reason = models.TextField(blank=True)

    class Meta:
        verbose_name = "relatório da semana"
        verbose_name_plural = "relatórios da semana"
        constraints = [
            models.CheckConstraint(
                condition=~Q(status="returned") | ~Q(return_reason=""),
                name="mesa_weeklyreport_returned_has_reason",
            ),
            models.CheckConstraint(
                condition=~Q(status="homologated") | Q(decided_at__isnull=False),
                name="mesa_weeklyreport_homologated_has_date",
            ),
        ]

    def __str__(self) -> str:
        return f"Relatório da {self.week}"

    def get_absolute_url(self) -> str:
        week = self.week
        return reverse(
            "week-report", kwargs={"campaign": week.campaign.slug, "number": week.number}
        )

    @property
    def is_editable(self) -> bool:
        return self.status in (self.Status.DRAFT, self.Status.RETURNED)

    @property
    def is_homologated(self) -> bool:
        return self.status == self.Status.HOMOLOGATED


class ReportCorrection(AppendOnly):
    """A correction of a homologated report: what it said, what it says now, why, by whom,
    when. Never edited; the report's text stays as homologated."""

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    report = models.ForeignKey(WeeklyReport, on_delete=models.PROTECT, related_name="corrections")
    old_text = models.TextField()
    new_text = models.TextField()
    reason = models.TextField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()

    class Meta:
        ordering = ["report", "at", "pk"]
        verbose_name = "correção de relatório"
        verbose_name_plural = "correções de relatório"
        constraints = [
            models.CheckConstraint(
                condition=~Q(reason=""), name="mesa_reportcorrection_has_reason"
            ),
        ]

    def __str__(self) -> str:
        return f"Correção do {self.report}"


# --- combat (canon §4, §5; the tracker of sessions.combat) -----------------------------------


class Combat(models.Model):
    """A fight in a scene. Boss and terrain are declared before its first die and locked once
    it is rolled (docs/DESIGN.md, invariant 8 (Boss and terrain first); canon §5.4.1, §5d);
    ``first_roll`` is that die.

    ``round`` 0 is the fight being set up (combatants added, boss and terrain declared);
    from 1 the turn order is stored on the combatants (``Combatant.position``) and never
    reshuffles (docs/DESIGN.md, invariant 7 (Deterministic turn order)). ``turn`` is the position
    whose turn it is. ``revision`` grows with every change, so a polling page knows when to redraw.
    """

    class Status(models.TextChoices):
        ACTIVE = "active", "Em andamento"
        ENDED = "ended", "Encerrado"

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    scene = models.ForeignKey(Scene, on_delete=models.PROTECT, related_name="combats")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.ACTIVE)
    round = models.PositiveIntegerField(default=0)
    turn = models.PositiveSmallIntegerField(default=0)
    terrain = models.JSONField(default=list, blank=True)
    first_roll = models.ForeignKey(
        Roll, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    revision = models.PositiveIntegerField(default=0)
    spoils = models.TextField(blank=True)
    # The campaign's ruleset when the fight began (set on create): its ``CombatPart`` runs it.
    ruleset = models.CharField(max_length=20, default=GURPS3E, editable=False)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    request_key = models.CharField(max_length=64, blank=True)
    # The Mestre's time for a jogador's defence (§4.6): after it, the jogador's standing
    # choice or the best total stands for him, said in the log. None: the fight waits.
    defence_wait_minutes = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Minutos para o jogador escolher a defesa"
    )
    # A fight another ruleset runs natively (sessions.native_combat): its state as that
    # ruleset's combat part keeps it (the initiative rolls, the order, the timed effects and
    # conditions, the objects). {} for a GURPS fight, whose state is in its own columns.
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = "combate"
        constraints = [
            models.UniqueConstraint(
                fields=["scene", "request_key"],
                condition=~Q(request_key=""),
                name="mesa_combat_unique_request_key",
            ),
            models.UniqueConstraint(
                fields=["scene"],
                condition=Q(status="active"),
                name="mesa_combat_one_active_per_scene",
            ),
        ]

    def __str__(self) -> str:
        return f"Combate em {self.scene}"

    def save(self, *args, **kwargs):
        if self._state.adding:
            self.ruleset = self.scene.week.campaign.ruleset
        super().save(*args, **kwargs)

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def locked(self) -> bool:
        """Boss and terrain are locked once the first die of the combat is rolled."""
        return self.first_roll_id is not None


class Combatant(models.Model):
    """One side of a fight: a character of the scene (its numbers read from the homologated
    sheet and its state when it joined), or a bestiary creature or named NPC whose numbers
    the Mestre or the Árbitro entered. ``kind`` decides the death rule (§5.4.1).

    The numbers are kept as they were when it joined; what the fight changes (HP lost, stun,
    shock, maneuver, aim, readiness, defences used this round) is kept here too, and carried
    into the character's state when the fight ends.
    """

    class Kind(models.TextChoices):
        # The engine's kinds (§5.4.1 decides the death rule by them), named in Portuguese.
        CREATURE = CombatantKind.CREATURE.value, "Bicho de bestiário"
        NAMED_NPC = CombatantKind.NAMED_NPC.value, "NPC nomeado"
        BOSS = CombatantKind.BOSS.value, "Chefe de encontro"
        PLAYER_CHARACTER = CombatantKind.PLAYER_CHARACTER.value, "Personagem de jogador"

    class Status(models.TextChoices):
        FIGHTING = "fighting", "Na luta"
        UNCONSCIOUS = "unconscious", "Inconsciente"
        DEAD = "dead", "Morto"
        FLED = "fled", "Em fuga"
        OUT = "out", "Fora da luta"

    class Surprise(models.TextChoices):
        NONE = "", "Sem surpresa"
        PARTIAL = "partial", "Surpresa parcial"
        TOTAL = "total", "Surpresa total"

    class Posture(models.TextChoices):
        STANDING = "standing", "De pé"
        KNEELING = "kneeling", "Ajoelhado"
        CROUCHING = "crouching", "Agachado"
        SITTING = "sitting", "Sentado"
        LYING = "lying", "Deitado"

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    combat = models.ForeignKey(Combat, on_delete=models.CASCADE, related_name="combatants")
    character = models.ForeignKey(
        Character, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    # A non-GURPS ruleset's combatant (its numbers), validated by its own pydantic model.
    data = models.JSONField(default=dict, blank=True)
    declared = models.PositiveSmallIntegerField(help_text="Ordem de declaração (§4.2)")
    position = models.PositiveSmallIntegerField(null=True, blank=True)
    demo_note = models.TextField(blank=True)
    # What it brought in. A character's attributes are its homologated sheet's; its Move,
    # Dodge, Block, PD and DR are not here: they come from the sheet and its live state
    # (sessions.combat.numbers). A creature or NPC without a sheet has its bestiary numbers.
    # GURPS's columns: a GURPS combatant always has them; another ruleset's keeps its numbers in
    # ``data`` and leaves the attributes empty (``hp``, ``hp_before`` and ``hp_lost`` are its PV
    # when the ruleset has PV: the sistema001's Fighter.pv_max, its PV on entry, what it lost).
    st = models.PositiveSmallIntegerField(null=True, blank=True)
    dx = models.PositiveSmallIntegerField(null=True, blank=True)
    iq = models.PositiveSmallIntegerField(null=True, blank=True)
    ht = models.PositiveSmallIntegerField(null=True, blank=True)
    hp = models.PositiveSmallIntegerField(null=True, blank=True, help_text="PV cheios")
    hp_before = models.IntegerField(
        null=True, blank=True, help_text="PV restantes ao entrar na luta"
    )
    fatigue_before = models.PositiveSmallIntegerField(default=0)
    move = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Deslocamento do bestiário (vazio: o da ficha)"
    )
    dodge = models.SmallIntegerField(
        null=True, blank=True, help_text="Esquiva do bestiário (vazio: a da ficha)"
    )
    block = models.SmallIntegerField(
        null=True, blank=True, help_text="Bloquear do bestiário (vazio: o da ficha, ou nenhum)"
    )
    passive_defense = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="PD do bestiário (vazio: a da ficha)"
    )
    damage_resistance = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="RD do bestiário (vazio: a da ficha)"
    )
    combat_reflexes = models.BooleanField(default=False)
    strong_will = models.PositiveSmallIntegerField(default=0)
    weak_will = models.PositiveSmallIntegerField(default=0)
    fencer = models.BooleanField(default=False)
    fencer_with_dagger = models.BooleanField(default=False)
    flees = models.BooleanField(default=False, help_text="A espécie foge (o 06 diz)")
    # Attack lines (sessions.combat.weapons.CombatWeapon): skill, damage as written, parry kind
    # or a bestiary Aparar — never the dice or the Aparar worked out from them.
    weapons = models.JSONField(default=list, blank=True)
    # what the fight changes
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.FIGHTING)
    hp_lost = models.PositiveIntegerField(default=0)
    wounds = models.JSONField(default=dict, blank=True, help_text="PV perdidos por rodada")
    limb_hp_lost = models.JSONField(default=dict, blank=True)
    crippled = models.JSONField(default=list, blank=True)
    stunned = models.BooleanField(default=False)
    knocked_down = models.BooleanField(default=False)
    shock = models.SmallIntegerField(default=0)
    shock_pending = models.BooleanField(default=False)
    surprise = models.CharField(max_length=8, choices=Surprise.choices, blank=True)
    acting = models.BooleanField(default=True)
    posture = models.CharField(max_length=10, choices=Posture.choices, default=Posture.STANDING)
    maneuver = models.CharField(max_length=20, blank=True)
    all_out_option = models.CharField(max_length=12, blank=True)
    maneuver_round = models.PositiveIntegerField(default=0)
    reloading = models.BooleanField(default=False)
    aim_turns = models.PositiveSmallIntegerField(default=0)
    aim_weapon = models.SmallIntegerField(null=True, blank=True)
    unready = models.JSONField(default=list, blank=True, help_text="Armas despreparadas")
    dodges_used = models.PositiveSmallIntegerField(default=0)
    blocks_used = models.PositiveSmallIntegerField(default=0)
    parries_used = models.PositiveSmallIntegerField(default=0)
    dagger_parries_used = models.PositiveSmallIntegerField(default=0)
    retreated = models.BooleanField(default=False)
    fought = models.BooleanField(default=False)
    # what the §4.8 tables leave on the combatant (weapons by their index in ``weapons``)
    broken = models.JSONField(default=list, blank=True, help_text="Armas quebradas (§4.8)")
    dropped = models.JSONField(default=list, blank=True, help_text="Armas no chão (§4.8)")
    strained = models.JSONField(
        default=list, blank=True, help_text="Armas do braço com ombro estirado (§4.8, 15)"
    )
    ready_turns = models.JSONField(
        default=dict, blank=True, help_text="Turnos de Preparar que cada arma ainda pede"
    )
    off_balance = models.BooleanField(
        default=False, help_text="Perdeu o equilíbrio: nada até o próximo turno, defesas −2"
    )
    unbalanced = models.BooleanField(
        default=False, help_text="Desequilibrado (cabeça 8): o próximo turno só defende"
    )
    turn_lost_round = models.PositiveIntegerField(default=0)
    blind = models.CharField(max_length=10, blank=True, help_text="one_eye ou both_eyes")
    dx_penalty = models.SmallIntegerField(default=0, help_text="Cego: DX −2 / −10 (§4.8)")
    feint = models.JSONField(default=dict, blank=True, help_text="Finta vencida (§4.3)")
    concentration_lost = models.BooleanField(default=False)
    waiting = models.BooleanField(default=False, help_text="Aguardar: um ataque fora do turno")
    # The defender's own choice (§4.1, §4.6): {"first", "then", "retreat", "parry_weapon"}.
    standing_defence = models.JSONField(
        default=dict, blank=True, help_text="A defesa que o defensor escolheu e a alternativa"
    )
    # An attack that hit and waits for this jogador's defence (§4.6; sessions.combat.pending):
    # the attack as rolled, the roll, since when. {} when nothing waits.
    pending_defence = models.JSONField(
        default=dict, blank=True, help_text="Ataque que espera a defesa do jogador"
    )
    # Marked fled by the Mestre (status "fled"): the round he left in; 0 if he did not.
    fled_round = models.PositiveIntegerField(
        default=0, help_text="Rodada em que fugiu (0: não fugiu)"
    )

    class Meta:
        ordering = ["combat", "position", "declared"]
        verbose_name = "combatente"
        constraints = [
            models.UniqueConstraint(
                fields=["combat", "declared"], name="mesa_combatant_unique_declared"
            ),
            models.UniqueConstraint(fields=["combat", "name"], name="mesa_combatant_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def hp_now(self) -> int:
        return self.hp_before - self.hp_lost

    def weapon_lines(self) -> list:
        """The attack lines as typed values (``sessions.combat.weapons.CombatWeapon``)."""
        return weapons_of(self.weapons)

    @property
    def in_the_fight(self) -> bool:
        return self.status == self.Status.FIGHTING

    @property
    def crippled_labels(self) -> list[str]:
        """The crippled limbs by name ("perna esquerda"), as stored (§5.5)."""
        return [limb_label(key) for key in self.crippled]


class TrackerEvent(AppendOnly):
    """One thing a tracker (combat, exploration) did that is not a die, said in a line
    (``text``) with its details (``lines``) and data; its dice are ``Roll``s. ``request_key``
    makes the same form posted twice one action (unique per tracker, in each subclass)."""

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    text = models.TextField()
    lines = models.JSONField(default=list, blank=True)
    data = models.JSONField(default=dict, blank=True)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    request_key = models.CharField(max_length=64, blank=True)

    class Meta:
        abstract = True
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return self.text[:60]


class CombatEvent(TrackerEvent):
    """What happened in a fight that is not a die: the start, each combatant added, the boss
    and terrain declared, each turn, each maneuver, each attack (its dice are ``Roll``s that
    name this event), the end. ``request_key`` makes the same form posted twice one action."""

    class Kind(models.TextChoices):
        START = "start", "Início"
        COMBATANT = "combatant", "Combatente"
        DECLARATION = "declaration", "Declaração"
        TURN = "turn", "Turno"
        MANEUVER = "maneuver", "Manobra"
        ATTACK = "attack", "Ataque"
        ADJUSTMENT = "adjustment", "Ajuste do Mestre"
        DEFENCE = "defence", "Escolha de defesa"
        FLED = "fled", "Fuga"
        END = "end", "Fim"

    combat = models.ForeignKey(Combat, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    round = models.PositiveIntegerField(default=0)
    turn = models.PositiveSmallIntegerField(default=0)

    class Meta(TrackerEvent.Meta):
        verbose_name = "evento de combate"
        verbose_name_plural = "eventos de combate"
        constraints = [
            models.UniqueConstraint(
                fields=["combat", "request_key"],
                condition=~Q(request_key=""),
                name="mesa_combatevent_unique_request_key",
            )
        ]


# --- exploration (the Mestre's session procedure, dungeon loop; sessions.exploration) ---------


_REGION_CHOICES = [(r.key, r.label) for r in procedure_journey.REGIONS]


class Exploration(models.Model):
    """A descent in a scene, run by the turn loop of the Mestre's session procedure: the
    party's exploration turns (10 minutes each) and rounds of travel (4 hours each), the
    danger level the Mestre declares for the floor (total darkness makes it Mortal), the
    marching order, and the counters the procedure keeps (encounter cadence, the hour without
    rest). Its dice are ``Roll``s of the scene, named by ``ExplorationEvent``s. ``revision``
    grows with every change, so a polling page knows when to redraw.
    """

    class Status(models.TextChoices):
        ACTIVE = "active", "Em andamento"
        ENDED = "ended", "Encerrada"

    class Danger(models.TextChoices):
        UNSAFE = "unsafe", "Inseguro"
        RISKY = "risky", "Arriscado"
        DEADLY = "deadly", "Mortal"

    class Phase(models.TextChoices):
        BETWEEN = "between", "Entre turnos"
        IN_TURN = "in_turn", "Turno em curso"

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    scene = models.ForeignKey(Scene, on_delete=models.PROTECT, related_name="explorations")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.ACTIVE)
    # "" : no dungeon declared (a journey needs none; the dungeon's turns and sleep ask for one)
    danger = models.CharField(max_length=8, choices=Danger.choices, blank=True)
    total_darkness = models.BooleanField(default=False)
    # The darkness came from the last light's timer running out (pendência
    # procedure:darkness-lights): a new light lifts it; the Mestre's declaration stays his.
    dark_from_lights = models.BooleanField(default=False)
    region = models.CharField(max_length=200, blank=True)
    phase = models.CharField(max_length=8, choices=Phase.choices, default=Phase.BETWEEN)
    turn = models.PositiveIntegerField(default=0, help_text="Turnos de exploração (10 min)")
    travel_rounds = models.PositiveIntegerField(default=0, help_text="Rodadas de viagem (4 h)")
    hours_slept = models.PositiveIntegerField(default=0)
    turns_since_check = models.PositiveIntegerField(default=0)
    turns_since_rest = models.PositiveIntegerField(default=0)
    exhaustion_points = models.PositiveIntegerField(default=0)
    consequences_decided = models.PositiveIntegerField(default=0)
    encounter_pending = models.BooleanField(default=False)
    marching_order = models.JSONField(default=list, blank=True)
    # The journey (the hexcrawl's rounds of travel): the season and the weather's row in its
    # table (and that row's words, as rolled); the day (6 rounds of 4 h), the round of the day, the region the day began in
    # (its encounter chance) and the hex the party is in now (Tabelas C, D, E, G); Tabela A's
    # way of advancing; consecutive Avançar rounds; whether the camp is safe; the hexes
    # advanced (a fraction: "1/2" a round on foot). ``party``: per character of the marching
    # order, {"rested_today", "rest_owed", "exhaustion"} (the text's level, Tabela I).
    season = models.CharField(
        max_length=8, blank=True, choices=[(c.key, c.label) for c in procedure_journey.SEASONS]
    )
    weather = models.PositiveSmallIntegerField(null=True, blank=True)
    weather_text = models.CharField(max_length=200, blank=True)
    day = models.PositiveIntegerField(default=0)
    day_round = models.PositiveSmallIntegerField(default=0)
    day_region = models.CharField(max_length=10, blank=True, choices=_REGION_CHOICES)
    hex_region = models.CharField(max_length=10, blank=True, choices=_REGION_CHOICES)
    travel_mode = models.CharField(
        max_length=8, blank=True, choices=[(c.key, c.label) for c in procedure_journey.MODES]
    )
    advance_streak = models.PositiveSmallIntegerField(default=0)
    camp_safe = models.BooleanField(default=False)
    hexes = models.CharField(max_length=20, default="0")
    party = models.JSONField(default=dict, blank=True)
    revision = models.PositiveIntegerField(default=0)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    request_key = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = "exploração"
        verbose_name_plural = "explorações"
        constraints = [
            models.UniqueConstraint(
                fields=["scene", "request_key"],
                condition=~Q(request_key=""),
                name="mesa_exploration_unique_request_key",
            ),
            models.UniqueConstraint(
                fields=["scene"],
                condition=Q(status="active"),
                name="mesa_exploration_one_active_per_scene",
            ),
            models.CheckConstraint(
                condition=Q(danger__in=["", "unsafe", "risky", "deadly"]),
                name="mesa_exploration_danger_known",
            ),
            models.CheckConstraint(
                condition=Q(weather__isnull=True) | Q(weather__gte=1, weather__lte=6),
                name="mesa_exploration_weather_in_table",
            ),
            models.CheckConstraint(
                condition=Q(day_round__lte=procedure_clock.ROUNDS_PER_DAY),
                name="mesa_exploration_day_round_within_day",
            ),
        ]

    def __str__(self) -> str:
        return f"Exploração em {self.scene}"

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def effective_danger(self) -> str:
        """Total darkness always makes the danger level Mortal (the procedure, Tabela A)."""
        return self.Danger.DEADLY if self.total_darkness else self.danger

    @property
    def effective_danger_label(self) -> str:
        return self.Danger(self.effective_danger).label if self.effective_danger else ""

    @property
    def in_dungeon(self) -> bool:
        """Whether a danger level is declared: the dungeon's turns, sleep and tiles apply."""
        return bool(self.danger)

    @property
    def exhaustion_undecided(self) -> int:
        return self.exhaustion_points - self.consequences_decided

    @property
    def journey_started(self) -> bool:
        return bool(self.season)

    @property
    def weather_table(self) -> str:
        """The key of the season's weather table ("weather_spring" …), "" before the journey."""
        season = procedure_journey.SEASON_BY_KEY.get(self.season)
        return season.table if season else ""

    @property
    def party_names(self) -> list[str]:
        """The journey follows each character of the marching order."""
        return list(self.marching_order)


class ExplorationTimer(models.Model):
    """A light source or a spell that runs down with the turns. Its length is the Mestre's
    (the canon gives none); ``remaining_turns`` 0 is out."""

    class Kind(models.TextChoices):
        LIGHT = "light", "Fonte de luz"
        SPELL = "spell", "Magia"
        OTHER = "other", "Outro"

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    exploration = models.ForeignKey(Exploration, on_delete=models.CASCADE, related_name="timers")
    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.LIGHT)
    duration_turns = models.PositiveIntegerField()
    remaining_turns = models.PositiveIntegerField()
    started_turn = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["exploration", "created_at", "pk"]
        verbose_name = "marcador de tempo"
        verbose_name_plural = "marcadores de tempo"
        constraints = [
            models.CheckConstraint(
                condition=Q(remaining_turns__lte=models.F("duration_turns")),
                name="mesa_explorationtimer_remaining_within_duration",
            ),
            models.CheckConstraint(
                condition=Q(duration_turns__gte=1), name="mesa_explorationtimer_duration_from_1"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_out(self) -> bool:
        return self.remaining_turns == 0


class ExplorationEvent(TrackerEvent):
    """What happened in a descent: the start, each declaration of the Mestre (danger level,
    darkness, marching order, a timer, treasure found), each turn's start and end, surprise,
    sleep, travel, exhaustion and the GURPS consequence the Mestre chose, the end. The dice
    are ``Roll``s this event names in ``rolls`` (the procedure's API logs them in the chain);
    ``request_key`` makes the same form posted twice one action."""

    class Kind(models.TextChoices):
        START = "start", "Início"
        DANGER = "danger", "Nível de perigo"
        MARCHING = "marching", "Ordem de marcha"
        TIMER = "timer", "Marcador de tempo"
        TURN_START = "turn_start", "Início do turno"
        TURN_END = "turn_end", "Fim do turno"
        SURPRISE = "surprise", "Surpresa"
        SLEEP = "sleep", "Dormir"
        TRAVEL = "travel", "Rodada de viagem"
        CONSEQUENCE = "consequence", "Consequência da exaustão"
        LOOT = "loot", "Achado"
        JOURNEY = "journey", "Começo da jornada"
        JOURNEY_TEST = "journey_test", "Teste pedido pelo procedimento"
        SUPPLY = "supply", "Provisões"
        END = "end", "Fim"

    exploration = models.ForeignKey(Exploration, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    turn = models.PositiveIntegerField(default=0)
    rolls = models.ManyToManyField(Roll, related_name="exploration_events", blank=True)

    class Meta(TrackerEvent.Meta):
        verbose_name = "evento de exploração"
        verbose_name_plural = "eventos de exploração"
        constraints = [
            models.UniqueConstraint(
                fields=["exploration", "request_key"],
                condition=~Q(request_key=""),
                name="mesa_explorationevent_unique_request_key",
            )
        ]


class ExplorationTest(models.Model):
    """A test the procedure asks in another game's terms («teste de CON DC 15») of one
    character of the journey, held by a pendência of the Árbitro's register (``pendency``, its
    source key). The Mestre rolls the GURPS test the pendência's reading (or the Árbitro's
    decision) names, in the scene, and names that roll here; the tracker reads its outcome and
    applies what the text says follows (``kind``): a failed forced march owes 2 rounds of rest
    or a point of exhaustion; a failed test after an interrupted rest loses its benefits."""

    class Kind(models.TextChoices):
        FORCED_MARCH = "forced_march", "Forçando o avanço"
        REST = "rest", "Descanso interrompido"
        CRAFT = "craft", "Criar munição"
        DUNGEON_REST = "dungeon_rest", "Benefícios do descanso na masmorra"

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    exploration = models.ForeignKey(Exploration, on_delete=models.CASCADE, related_name="tests")
    asked_in = models.ForeignKey(
        ExplorationEvent, on_delete=models.PROTECT, related_name="tests_asked"
    )
    kind = models.CharField(max_length=12, choices=Kind.choices)
    character = models.CharField(max_length=100)
    asks = models.CharField(max_length=200, help_text="O que o texto pede: teste de CON DC 15")
    pendency = models.CharField(max_length=80, help_text="A pendência que o segura")
    # The GURPS modifier the reading gives the text's DC (forced march: DC 15 → −1); the
    # Mestre's roll must carry it. None: the reading gives none (the Mestre chooses).
    modifier = models.SmallIntegerField(null=True, blank=True)
    roll = models.OneToOneField(
        Roll, null=True, blank=True, on_delete=models.PROTECT, related_name="exploration_test"
    )
    passed = models.BooleanField(null=True, blank=True)
    resolved_in = models.ForeignKey(
        ExplorationEvent,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tests_resolved",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["exploration", "created_at", "pk"]
        verbose_name = "teste pedido pelo procedimento"
        verbose_name_plural = "testes pedidos pelo procedimento"
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(roll__isnull=True) & Q(passed__isnull=True) & Q(resolved_in__isnull=True)
                )
                | (Q(roll__isnull=False) & Q(passed__isnull=False) & Q(resolved_in__isnull=False)),
                name="mesa_explorationtest_resolved_with_its_roll",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character}: {self.asks}"

    @property
    def is_open(self) -> bool:
        return self.roll_id is None


# --- the procedure's random tables (sessao-do-mestre.txt; sessions.procedure) ----------------


class RandomTable(models.Model):
    """A table of the Mestre's session procedure, as this campaign keeps it: seeded from
    ``procedure.tables`` and maintained by the Árbitro from then on (each change of a
    row is a ``RandomTableRowChange`` that keeps what the row said).

    ``kind``: ``roll`` (rolled on ``die``, the total lands on a row by its range), ``chance``
    (each cell is the text's "N:6", rolled on 1d6) or ``reference`` (read, not rolled).
    """

    class Kind(models.TextChoices):
        ROLL = "roll", "Rolada"
        CHANCE = "chance", "Chance em 1d6"
        REFERENCE = "reference", "Consulta"

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="random_tables")
    key = models.SlugField(max_length=40)
    position = models.PositiveSmallIntegerField(default=0)
    name = models.CharField(max_length=200)
    part = models.CharField(max_length=60, blank=True, help_text="Parte do procedimento")
    document = models.CharField(max_length=100, default="Sessão do Mestre")
    source = models.CharField(
        max_length=200, help_text="O título sob o qual a tabela está no texto"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # A table the Árbitro added for a region: «a Tabela de Encontros da Região atual».
    region = models.CharField(max_length=10, blank=True, choices=_REGION_CHOICES)
    die = models.CharField(
        max_length=10, blank=True, help_text="1d6, 1d8, 1d10; vazio: não se rola"
    )
    other_dice = models.JSONField(default=list, blank=True)
    header = models.CharField(max_length=200, blank=True)
    columns = models.JSONField(default=list)
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "position", "key"]
        verbose_name = "tabela do procedimento"
        verbose_name_plural = "tabelas do procedimento"
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="mesa_randomtable_unique_key"),
            models.UniqueConstraint(
                fields=["campaign", "region"],
                condition=~Q(region=""),
                name="mesa_randomtable_one_per_region",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def dice(self) -> list[str]:
        """The dice it may be rolled with, its own first (events: 1d6 or 1d8)."""
        return [self.die, *self.other_dice] if self.die else []

    @property
    def is_rolled(self) -> bool:
        return self.kind != self.Kind.REFERENCE and bool(self.die)


class RandomTableRow(models.Model):
    """A row of a procedure table: its label as the text writes it ("1-5", "14+", "Estepe"),
    the totals it covers when rolled (``low``..``high``; ``high`` null: and above), and one
    cell per column. The Árbitro changes ``cells`` through ``random_table_row_edit`` only."""

    table = models.ForeignKey(RandomTable, on_delete=models.CASCADE, related_name="rows")
    position = models.PositiveSmallIntegerField()
    label = models.CharField(max_length=120)
    low = models.SmallIntegerField(null=True, blank=True)
    high = models.SmallIntegerField(null=True, blank=True)
    cells = models.JSONField(default=list)

    class Meta:
        ordering = ["table", "position"]
        verbose_name = "linha de tabela do procedimento"
        verbose_name_plural = "linhas de tabela do procedimento"
        constraints = [
            models.UniqueConstraint(
                fields=["table", "position"], name="mesa_randomtablerow_unique_position"
            ),
            models.UniqueConstraint(
                fields=["table", "label"], name="mesa_randomtablerow_unique_label"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.label}"

    def covers(self, total: int) -> bool:
        return procedure_tables.covers(self.low, self.high, total)

    def cell(self, columns: list[str], column: str) -> str:
        return self.cells[columns.index(column)]


class RandomTableRowChange(AppendOnly):
    """The Árbitro's change of a row: what it said, what it says now, why, by whom, when."""

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    row = models.ForeignKey(RandomTableRow, on_delete=models.CASCADE, related_name="changes")
    old_cells = models.JSONField()
    new_cells = models.JSONField()
    reason = models.TextField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()

    class Meta:
        ordering = ["row", "at", "pk"]
        verbose_name = "alteração de linha de tabela"
        verbose_name_plural = "alterações de linha de tabela"
        constraints = [
            models.CheckConstraint(
                condition=~Q(reason=""), name="mesa_randomtablerowchange_has_reason"
            ),
        ]

    def __str__(self) -> str:
        return f"Alteração de {self.row}"


class SupplyChange(AppendOnly):
    """A change of a journey's food, water or ammunition: of one character of the party
    (``holder``) or of the party's common stock (``holder`` ""), signed (negative spent or lost,
    positive found or made), why, and the event of the step that made it (a round of travel,
    a sleep) or None when the Mestre adjusts by hand. A count is the sum of its changes; no
    count is stored."""

    class Kind(models.TextChoices):
        FOOD = "food", "Comida"
        WATER = "water", "Água"
        AMMUNITION = "ammunition", "Munição"

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    exploration = models.ForeignKey(Exploration, on_delete=models.CASCADE, related_name="supplies")
    holder = models.CharField(max_length=100, blank=True, help_text="Vazio: o estoque comum")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    delta = models.SmallIntegerField()
    reason = models.CharField(max_length=300)
    event = models.ForeignKey(
        ExplorationEvent, null=True, blank=True, on_delete=models.PROTECT, related_name="supplies"
    )
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["exploration", "created_at", "pk"]
        verbose_name = "mudança de provisões"
        verbose_name_plural = "mudanças de provisões"
        constraints = [
            models.CheckConstraint(
                condition=~Q(delta=0), name="mesa_supplychange_changes_something"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["food", "water", "ammunition"]),
                name="mesa_supplychange_kind_known",
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="mesa_supplychange_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.holder or 'estoque comum'}: {self.delta:+d} {self.get_kind_display()}"


# --- the state outside a fight (sessions.log.scene_ops) --------------------------------------


class StateChange(AppendOnly):
    """PV and fatigue a character loses or recovers in a scene outside a fight: the Pânico's
    −1 PV (§5b), a journey's fatigue (§6.1), a rest (§6.3). What the Mestre said, kept as he
    said it; its effect is in the character's state when it is written (docs/DESIGN.md,
    invariant 12 (The state is live)) and its line is in the scene log.

    ``hp`` and ``fatigue`` are signed points: negative lost, positive recovered; never both 0.
    ``roll`` is the roll the change answers, when there is one (the Verificação de Pânico).
    """

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    scene = models.ForeignKey(Scene, on_delete=models.PROTECT, related_name="state_changes")
    character = models.ForeignKey(Character, on_delete=models.PROTECT, related_name="+")
    hp = models.SmallIntegerField(default=0, help_text="PV: negativo perdido, positivo recuperado")
    fatigue = models.SmallIntegerField(
        default=0, help_text="Fadiga: negativo perdido, positivo recuperado"
    )
    reason = models.CharField(max_length=300)
    roll = models.ForeignKey(
        Roll, null=True, blank=True, on_delete=models.PROTECT, related_name="state_changes"
    )
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    request_key = models.CharField(max_length=64, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["scene", "created_at", "id"], name="mesa_statechange_log_keyset")
        ]
        ordering = ["created_at", "pk"]
        verbose_name = "mudança de estado"
        verbose_name_plural = "mudanças de estado"
        constraints = [
            models.CheckConstraint(
                condition=~Q(hp=0) | ~Q(fatigue=0), name="mesa_statechange_changes_something"
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="mesa_statechange_has_reason"),
            models.UniqueConstraint(
                fields=["scene", "request_key"],
                condition=~Q(request_key=""),
                name="mesa_statechange_unique_request_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character}: {self.reason}"
