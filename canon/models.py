"""The Árbitro's registers, one set per campaign: divergences, decisions, corrections.

Append-only where the canon says so (§10, and the `14` it cites): "linha corrigida não some
sem que fique dito o que ela dizia". A decision and a correction are never saved twice; a
divergence changes once, from open to resolved, and keeps its text (canon.services does that
with one conditional UPDATE). What a line says now is the row plus its corrections.

The homologation queue works on ``sheets.SheetVersion`` through ``sheets.homologation``.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.functional import cached_property

from campaigns.models import Campaign
from campaigns.records import AppendOnly
from canon.seed import CANON
from rulesets.registry import GURPS3E, house_setting


class Corrected:
    """A register entry whose lines a Correction may change: ``now`` reads them as they are
    after every correction (prefetch ``corrections`` to read it without a query)."""

    CORRECTABLE: dict[str, str] = {}

    @cached_property
    def now(self) -> dict[str, str]:
        values = {name: getattr(self, name) for name in self.CORRECTABLE}
        ordered = sorted(self.corrections.all(), key=lambda c: (c.corrected_on, c.created_at, c.pk))
        for correction in ordered:
            values[correction.field] = correction.after
        return values

    @cached_property
    def corrected_fields(self) -> set[str]:
        return {correction.field for correction in self.corrections.all()}


class Decision(Corrected, AppendOnly):
    """A rule the Árbitro fixed ("Decisão N, aplicada em …", "Fixado em …").

    ``number`` only when the canon gives one (never invented); ``decided_on`` only when it
    gives a date. ``house_key`` names the house setting (the ruleset's pages) it backs.
    """

    CORRECTABLE = {
        "title": "Título da decisão",
        "text": "Texto da decisão",
        "fixes": "O que a decisão fixou",
        "section": "Seção do cânone",
    }

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="decisions")
    number = models.PositiveIntegerField(null=True, blank=True)
    decided_on = models.DateField(null=True, blank=True)
    title = models.CharField(max_length=200)
    text = models.TextField()
    section = models.CharField(max_length=40, blank=True, help_text="Seção do cânone: 4.12")
    source = models.CharField(
        max_length=200, blank=True, help_text="Onde o cânone a registra, se não é só a seção"
    )
    fixes = models.TextField(blank=True, help_text="O que ela fixou: a dúvida ou a regra do livro")
    replaces = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.RESTRICT, related_name="replaced_by"
    )
    house_key = models.CharField(max_length=60, blank=True)
    source_key = models.CharField(max_length=80, blank=True)
    request_key = models.CharField(max_length=64, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = [models.F("decided_on").desc(nulls_last=True), "-number", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "number"],
                condition=Q(number__isnull=False),
                name="canon_decision_unique_number",
            ),
            models.UniqueConstraint(
                fields=["campaign", "source_key"],
                condition=~Q(source_key=""),
                name="canon_decision_unique_source_key",
            ),
            models.UniqueConstraint(
                fields=["campaign", "request_key"],
                condition=~Q(request_key=""),
                name="canon_decision_unique_request_key",
            ),
            models.CheckConstraint(condition=~Q(text=""), name="canon_decision_has_text"),
            models.CheckConstraint(condition=Q(number__gte=1), name="canon_decision_number_from_1"),
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        """ "Decisão 27", or "Decisão sem número" when the canon gives none."""
        return f"Decisão {self.number}" if self.number is not None else "Decisão sem número"

    @property
    def house_title(self) -> str:
        """The house setting's title in Portuguese (the ruleset's pages), or the key itself."""
        setting = house_setting(self.house_key) if self.house_key else None
        return setting.title if setting else self.house_key

    @property
    def rules_url(self) -> str:
        """The house setting on the rules page (its card's anchor is ``casa-<key>``): the
        campaign's ruleset's page (``?campanha=``) when it is not the canon's."""
        if not self.house_key:
            return ""
        url = reverse("rules-house")
        if self.campaign.ruleset != GURPS3E:
            url += f"?campanha={self.campaign.slug}"
        return f"{url}#casa-{self.house_key}"


class Divergence(Corrected, models.Model):
    """A pendência: where a document and the book (or two texts) disagree, or the canon is
    silent. Opened by the Mestre or the Árbitro, resolved by the Árbitro, often by a decision.
    Its text never changes; the resolution is written once."""

    class Status(models.TextChoices):
        OPEN = "open", "Aberta"
        RESOLVED = "resolved", "Resolvida"

    CORRECTABLE = {
        "title": "Título da pendência",
        "description": "Descrição",
        "side_a": "O que diz um lado",
        "side_b": "O que diz o outro lado",
        "reading": "Leitura em uso",
        "resolution": "Resolução",
        "section": "Seção do cânone",
    }

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="divergences")
    title = models.CharField(max_length=200)
    description = models.TextField()
    document = models.CharField(max_length=100, blank=True, help_text="Como se joga (v11)")
    section = models.CharField(max_length=40, blank=True, help_text="Seção do cânone: 4.9")
    page = models.CharField(max_length=300, blank=True, help_text="Página do site onde apareceu")
    side_a_label = models.CharField(max_length=120, blank=True)
    side_a = models.TextField(blank=True)
    side_b_label = models.CharField(max_length=120, blank=True)
    side_b = models.TextField(blank=True)
    reading = models.TextField(blank=True, help_text="A resposta que o site usa até a decisão")
    opened_on = models.DateField()
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    resolved_on = models.DateField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolution = models.TextField(blank=True)
    decision = models.ForeignKey(
        Decision, null=True, blank=True, on_delete=models.RESTRICT, related_name="divergences"
    )
    source_key = models.CharField(max_length=80, blank=True)
    request_key = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-opened_on", "-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "source_key"],
                condition=~Q(source_key=""),
                name="canon_divergence_unique_source_key",
            ),
            models.UniqueConstraint(
                fields=["campaign", "request_key"],
                condition=~Q(request_key=""),
                name="canon_divergence_unique_request_key",
            ),
            models.CheckConstraint(
                condition=(
                    Q(status="open")
                    & Q(resolved_on__isnull=True)
                    & Q(resolution="")
                    & Q(decision__isnull=True)
                )
                | (Q(status="resolved") & Q(resolved_on__isnull=False) & ~Q(resolution="")),
                name="canon_divergence_resolution_complete",
            ),
            models.CheckConstraint(
                condition=~Q(title="") & ~Q(description=""), name="canon_divergence_has_text"
            ),
        ]

    def __str__(self) -> str:
        return self.title

    def save(self, *args, **kwargs):
        # Created once; resolved only by canon.services.divergence_resolve (one UPDATE).
        if self.pk is not None:
            raise PermissionError("Uma pendência não se edita: resolve-se ou corrige-se.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError("Uma pendência nunca é apagada.")

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def where(self) -> str:
        """Where it was found, as the register writes it: "Como se joga (v11) §4.10"."""
        parts = [self.document] if self.document else []
        if self.section:
            parts.append(place(self.section))
        return " ".join(parts)

    @property
    def where_short(self) -> str:
        """The section alone when the document is the canon (the usual case): "§4.10"."""
        if self.document in ("", CANON):
            return place(self.section)
        return self.where


def place(section: str) -> str:
    """A place as a page says it: "§4.9" for a numbered section, the heading's words as they
    are for another document's part ("Descansar")."""
    section = (section or "").strip()
    return f"§{section}" if section[:1].isdigit() else section


class Correction(AppendOnly):
    """A corrected line: what it said, what it says now, why, when and by whom.

    The row it corrects is never touched. For a sheet, the Árbitro issues a new homologated
    version (``version_after``) and the old one (``version_before``) stays as it was.
    """

    class Target(models.TextChoices):
        SHEET = "sheet", "Ficha"
        DECISION = "decision", "Decisão"
        DIVERGENCE = "divergence", "Pendência"

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="corrections")
    target = models.CharField(max_length=10, choices=Target.choices)
    # By name: canon sits below sheets and imports nothing of it.
    character = models.ForeignKey(
        "sheets.Character",
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="corrections",
    )
    version_before = models.ForeignKey(
        "sheets.SheetVersion", null=True, blank=True, on_delete=models.RESTRICT, related_name="+"
    )
    version_after = models.OneToOneField(
        "sheets.SheetVersion",
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="issued_by_correction",
    )
    decision = models.ForeignKey(
        Decision, null=True, blank=True, on_delete=models.RESTRICT, related_name="corrections"
    )
    divergence = models.ForeignKey(
        Divergence, null=True, blank=True, on_delete=models.RESTRICT, related_name="corrections"
    )
    field = models.CharField(max_length=40, help_text="O campo corrigido: text, title, sheet…")
    line = models.CharField(max_length=200, help_text="A linha, como se lê: Texto da decisão")
    before = models.TextField(blank=True)
    after = models.TextField(blank=True)
    reason = models.TextField()
    corrected_on = models.DateField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    source_key = models.CharField(max_length=80, blank=True)
    request_key = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["-corrected_on", "-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(target="sheet")
                    & Q(character__isnull=False)
                    & Q(version_before__isnull=False)
                    & Q(version_after__isnull=False)
                    & Q(decision__isnull=True)
                    & Q(divergence__isnull=True)
                )
                | (
                    Q(target="decision")
                    & Q(decision__isnull=False)
                    & Q(character__isnull=True)
                    & Q(divergence__isnull=True)
                )
                | (
                    Q(target="divergence")
                    & Q(divergence__isnull=False)
                    & Q(character__isnull=True)
                    & Q(decision__isnull=True)
                ),
                name="canon_correction_one_target",
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="canon_correction_has_reason"),
            models.UniqueConstraint(
                fields=["campaign", "source_key"],
                condition=~Q(source_key=""),
                name="canon_correction_unique_source_key",
            ),
            models.UniqueConstraint(
                fields=["campaign", "request_key"],
                condition=~Q(request_key=""),
                name="canon_correction_unique_request_key",
            ),
        ]

    def __str__(self) -> str:
        return f"Correção de {self.target_label}: {self.line}"

    @property
    def url(self) -> str:
        """The page where the corrected line is read (for a sheet, the diff of the two)."""
        if self.target == self.Target.SHEET:
            history = reverse("sheet-history", args=[self.character.code])
            return f"{history}?de={self.version_before.number}&para={self.version_after.number}#diferencas"
        if self.target == self.Target.DECISION:
            return reverse("decision", args=[self.decision.code]) + "#correcoes"
        return reverse("divergence", args=[self.divergence.code]) + "#correcoes"

    @property
    def target_label(self) -> str:
        if self.target == self.Target.SHEET:
            return f"{self.character} (versão {self.version_before.number} → {self.version_after.number})"
        if self.target == self.Target.DECISION:
            return f"{self.decision.label}: {self.decision.title}"
        return f"Pendência: {self.divergence.title}"


# --- the Árbitro's data tables: skill costs (§3.2, MB pp. 43–44) and the skill catalogue ---------


class SkillCostTable(models.Model):
    """One of the two skill cost tables of the book (physical, mental; MB pp. 43–44), as this
    campaign keeps it: seeded from the transcription (``canon.skill_data``) and maintained by
    the Árbitro from then on, each change of a row a ``SkillCostRowChange`` that keeps what the
    row said. ``gurps.skill_costs`` computes with it (``canon.skills.cost_table``)."""

    class Kind(models.TextChoices):
        PHYSICAL = "physical", "Perícias físicas"
        MENTAL = "mental", "Perícias mentais"

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="skill_cost_tables"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    name = models.CharField(max_length=200)
    header = models.CharField(max_length=60, default="Nível final")
    columns = models.JSONField(default=list, help_text="Fácil, Média, Difícil (, Muito Difícil)")
    document = models.CharField(max_length=200)
    source = models.CharField(max_length=200, help_text="MB pág. 43–44")
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "kind"]
        verbose_name = "tabela de custo de perícias"
        verbose_name_plural = "tabelas de custo de perícias"
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "kind"], name="canon_skillcosttable_one_per_kind"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class SkillCostRow(models.Model):
    """A row: its label as the table writes it ("atributo +3", "IQ −4", "cada +1 a mais"), the
    level it buys relative to the attribute (None for "cada +1 a mais") and one cell per column
    ("½", "16", "—", "+8"). The Árbitro changes ``cells`` through
    ``canon.skills.skill_cost_row_edit`` only."""

    table = models.ForeignKey(SkillCostTable, on_delete=models.CASCADE, related_name="rows")
    position = models.PositiveSmallIntegerField()
    label = models.CharField(max_length=60)
    relative = models.SmallIntegerField(null=True, blank=True)
    cells = models.JSONField(default=list)

    class Meta:
        ordering = ["table", "position"]
        verbose_name = "linha da tabela de custo"
        verbose_name_plural = "linhas da tabela de custo"
        constraints = [
            models.UniqueConstraint(
                fields=["table", "position"], name="canon_skillcostrow_unique_position"
            ),
            models.UniqueConstraint(
                fields=["table", "relative"], name="canon_skillcostrow_unique_relative"
            ),
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(relative__isnull=True),
                name="canon_skillcostrow_one_step_row",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.label}"


class SkillCostRowChange(AppendOnly):
    """The Árbitro's change of a cost row: what it said, what it says now, why, by whom, when."""

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    row = models.ForeignKey(SkillCostRow, on_delete=models.CASCADE, related_name="changes")
    old_cells = models.JSONField()
    new_cells = models.JSONField()
    reason = models.TextField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()

    class Meta:
        ordering = ["row", "at", "pk"]
        verbose_name = "alteração de linha da tabela de custo"
        verbose_name_plural = "alterações de linha da tabela de custo"
        constraints = [
            models.CheckConstraint(
                condition=~Q(reason=""), name="canon_skillcostrowchange_has_reason"
            ),
        ]

    def __str__(self) -> str:
        return f"Alteração de {self.row}"


class SkillCatalogueEntry(models.Model):
    """A skill of the Árbitro's catalogue: its name, the attribute it runs on and its
    difficulty ("" where the catalogue does not say yet), and its defaults (§3.3): the book's
    general rule by difficulty, the list its description gives ("ST−5", "DX−5";
    "Arremesso"), or none. Changed through ``canon.skills.skill_catalogue_entry_edit`` only,
    each change a ``SkillCatalogueChange`` that keeps what the entry said."""

    class Attribute(models.TextChoices):
        UNKNOWN = "", "—"
        ST = "st", "ST"
        DX = "dx", "DX"
        IQ = "iq", "IQ"
        HT = "ht", "HT"

    class Difficulty(models.TextChoices):
        UNKNOWN = "", "—"
        EASY = "E", "Fácil"
        AVERAGE = "A", "Média"
        HARD = "H", "Difícil"
        VERY_HARD = "VH", "Muito Difícil"

    class DefaultsRule(models.TextChoices):
        GENERAL = "general", "Regra geral por dificuldade (§3.3)"
        LISTED = "listed", "Os da descrição da perícia"
        NONE = "none", "Sem pré-definido"

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="skills")
    name = models.CharField(max_length=200)
    attribute = models.CharField(max_length=2, choices=Attribute.choices, blank=True)
    difficulty = models.CharField(max_length=2, choices=Difficulty.choices, blank=True)
    defaults_rule = models.CharField(max_length=8, choices=DefaultsRule.choices)
    defaults = models.JSONField(default=list, blank=True, help_text='["ST−5", "DX−5"]')
    source = models.CharField(max_length=300, help_text="De onde vem: §3.3 (pág. 87) …")
    source_key = models.CharField(max_length=80, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "name"]
        verbose_name = "perícia do catálogo"
        verbose_name_plural = "catálogo de perícias"
        constraints = [
            models.UniqueConstraint(
                Lower("name"), "campaign", name="canon_skillcatalogueentry_unique_name"
            ),
            models.UniqueConstraint(
                fields=["campaign", "source_key"],
                condition=~Q(source_key=""),
                name="canon_skillcatalogueentry_unique_source_key",
            ),
            models.CheckConstraint(
                condition=~Q(name=""), name="canon_skillcatalogueentry_has_name"
            ),
            models.CheckConstraint(
                condition=Q(defaults_rule__in=["general", "listed", "none"]),
                name="canon_skillcatalogueentry_known_rule",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def defaults_text(self) -> str:
        """The defaults as a page writes them: "ST−5 ou DX−5", the rule's name otherwise."""
        if self.defaults_rule == self.DefaultsRule.LISTED:
            return " ou ".join(self.defaults)
        return self.get_defaults_rule_display()

    def snapshot(self) -> dict:
        """What the entry says, as a change keeps it."""
        return {
            "name": self.name,
            "attribute": self.attribute,
            "difficulty": self.difficulty,
            "defaults_rule": self.defaults_rule,
            "defaults": list(self.defaults),
            "source": self.source,
        }


class SkillCatalogueChange(AppendOnly):
    """A change of a catalogue entry (or its creation, ``before`` empty): what it said, what it
    says now, why, by whom, when."""

    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    entry = models.ForeignKey(SkillCatalogueEntry, on_delete=models.CASCADE, related_name="changes")
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField()
    reason = models.TextField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()

    class Meta:
        ordering = ["entry", "at", "pk"]
        verbose_name = "alteração do catálogo de perícias"
        verbose_name_plural = "alterações do catálogo de perícias"
        constraints = [
            models.CheckConstraint(
                condition=~Q(reason=""), name="canon_skillcataloguechange_has_reason"
            ),
        ]

    def __str__(self) -> str:
        return f"Alteração de {self.entry}"
