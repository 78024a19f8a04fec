"""The Árbitro's two skill tables, per campaign: the skill cost table (§3.2, MB pp. 43–44) and
the skill catalogue (names, attributes, difficulties and defaults, §3.3).

Seeded from ``canon.skill_data`` in every campaign (``garganta_site.founding.campaign_seed``)
and maintained by the Árbitro from then on, with changes that keep what a row said (the same
pattern as the procedure's tables). Reads hand the engine plain rows (``cost_table``,
``engine_catalogue``); the engine never reads the database.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.db.models.functions import Lower
from django.utils import timezone

from campaigns.errors import ServiceError
from campaigns.models import Campaign
from canon import services, skill_data
from canon.models import (
    SkillCatalogueChange,
    SkillCatalogueEntry,
    SkillCostRow,
    SkillCostRowChange,
    SkillCostTable,
)
from gurps import skill_costs
from gurps.audit import CatalogueSkill
from gurps.errors import UNKNOWN_ATTRIBUTE, UNKNOWN_DIFFICULTY, InvalidValue
from gurps.skill_costs import CostRow
from gurps.skills import Difficulty, read_default, split_defaults

ONLY_THE_ARBITRO = "Só o Árbitro mantém a tabela de custo e o catálogo de perícias."
REASON_REQUIRED = "Diga por que muda: a razão fica no histórico."
ROW_UNCHANGED = "A linha ficou igual: nada a registrar."
ENTRY_UNCHANGED = "A perícia ficou igual: nada a registrar."
NAME_REQUIRED = "Diga o nome da perícia."
NAME_TAKEN = "Já há «{name}» no catálogo."
DEFAULTS_REQUIRED = (
    "Liste os pré-definidos da descrição (p.ex. «ST−5 ou DX−5»), ou escolha outra regra."
)
DEFAULTS_NOT_WITH_RULE = "Só a regra «os da descrição» leva uma lista; apague-a ou mude a regra."
TEXT_TOO_LONG = "No máximo {limit} caracteres."
TEXT_MAX = 2000
NAME_MAX = 200


# --- seeding ------------------------------------------------------------------------------------


def _table_seed(campaign: Campaign, seed: skill_data.CostTableSeed) -> bool:
    if SkillCostTable.objects.filter(campaign=campaign, kind=seed.kind).exists():
        return False
    table = SkillCostTable.objects.create(
        campaign=campaign,
        kind=seed.kind,
        name=seed.name,
        header=skill_data.HEADER,
        columns=list(seed.columns),
        document=skill_data.DOCUMENT,
        source=skill_data.SOURCE,
        note=skill_data.NOTE,
    )
    SkillCostRow.objects.bulk_create(
        SkillCostRow(table=table, position=index, label=label, relative=relative, cells=list(cells))
        for index, (label, relative, cells) in enumerate(seed.rows, start=1)
    )
    return True


@transaction.atomic
def skill_tables_seed(*, campaign: Campaign) -> int:
    """Put the two cost tables and the catalogue's skills in ``campaign``; idempotent (a table
    by its kind, a skill by its seed key). What is there stays as the Árbitro left it.
    Returns how many tables and skills it made."""
    made = sum(_table_seed(campaign, seed) for seed in skill_data.COST_TABLES)
    have = set(
        SkillCatalogueEntry.objects.filter(campaign=campaign).values_list("source_key", flat=True)
    )
    names = {
        name
        for name in SkillCatalogueEntry.objects.filter(campaign=campaign)
        .annotate(folded=Lower("name"))
        .values_list("folded", flat=True)
    }
    for seed in skill_data.CATALOGUE:
        if seed.key in have or seed.name.lower() in names:
            continue
        SkillCatalogueEntry.objects.create(
            campaign=campaign,
            name=seed.name,
            attribute=seed.attribute,
            difficulty=seed.difficulty,
            defaults_rule=seed.rule,
            defaults=list(seed.defaults),
            source=seed.source,
            source_key=seed.key,
        )
        made += 1
    return made


# --- reads --------------------------------------------------------------------------------------


def skill_cost_tables(campaign: Campaign) -> list[SkillCostTable]:
    """The campaign's two tables, physical first, with their rows (2 queries)."""
    return list(
        SkillCostTable.objects.filter(campaign=campaign)
        .prefetch_related(Prefetch("rows", queryset=SkillCostRow.objects.order_by("position")))
        .order_by("-kind")
    )


def engine_rows(table: SkillCostTable, rows=None) -> tuple[CostRow, ...]:
    """One table as the engine reads it (raises InvalidValue for a table that does not read;
    ``rows`` overrides the stored ones: (relative, cells) pairs)."""
    lines = rows if rows is not None else [(r.relative, r.cells) for r in table.rows.all()]
    return skill_costs.cost_rows(table.kind, table.columns, lines)


def cost_table(
    campaign: Campaign, tables: list[SkillCostTable] | None = None
) -> tuple[CostRow, ...]:
    """The campaign's cost table as ``gurps.skill_costs`` takes it: both kinds' rows."""
    tables = tables if tables is not None else skill_cost_tables(campaign)
    return tuple(row for table in tables for row in engine_rows(table))


def skill_catalogue(campaign: Campaign) -> list[SkillCatalogueEntry]:
    return list(SkillCatalogueEntry.objects.filter(campaign=campaign).order_by(Lower("name")))


def engine_catalogue(entries: list[SkillCatalogueEntry]) -> tuple[CatalogueSkill, ...]:
    """The catalogue as ``gurps.audit`` reads it: general rule → ``defaults`` None."""
    found = []
    for entry in entries:
        rule = entry.defaults_rule
        defaults = None if rule == "general" else tuple(entry.defaults) if rule == "listed" else ()
        found.append(
            CatalogueSkill(
                name=entry.name,
                attribute=entry.attribute or None,
                difficulty=Difficulty(entry.difficulty) if entry.difficulty else None,
                defaults=defaults,
            )
        )
    return tuple(found)


def entry_text(snapshot: dict) -> str:
    """What a catalogue entry says, in one line: "Arco — DX/Difícil — ST−5 ou DX−5"."""
    if not snapshot:
        return ""
    attribute = SkillCatalogueEntry.Attribute(snapshot["attribute"]).label
    difficulty = SkillCatalogueEntry.Difficulty(snapshot["difficulty"]).label
    rule = snapshot["defaults_rule"]
    if rule == SkillCatalogueEntry.DefaultsRule.LISTED:
        defaults = " ou ".join(snapshot["defaults"])
    else:
        defaults = SkillCatalogueEntry.DefaultsRule(rule).label
    return f"{snapshot['name']} — {attribute}/{difficulty} — {defaults}"


# --- the Árbitro's changes ----------------------------------------------------------------------


def _require_arbitro(user, campaign: Campaign) -> None:
    if not services.may_write(services.membership_for(user, campaign)):
        raise ServiceError(ONLY_THE_ARBITRO, code="forbidden")


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(REASON_REQUIRED, field="reason")
    if len(reason) > TEXT_MAX:
        raise ServiceError(TEXT_TOO_LONG.format(limit=TEXT_MAX), field="reason")
    return reason


@transaction.atomic
def skill_cost_row_edit(
    *, row: SkillCostRow, user, cells: list[str], reason: str
) -> SkillCostRowChange:
    """Change a row's cells; the change keeps what the row said, why, by whom and when. The
    table with the new row must still read one way only (``gurps.skill_costs.check_cost_table``:
    costs that rise with the level, dashes only at the top, a step above 0), or the edit is
    refused with the engine's message and nothing changes."""
    table = row.table
    _require_arbitro(user, table.campaign)
    cells = [str(cell).strip() for cell in cells]
    reason = _reason(reason)
    if len(cells) != len(table.columns):
        raise ServiceError(
            f"A linha tem {len(table.columns)} células, uma por coluna.", field="cells"
        )
    if any(len(cell) > 20 for cell in cells):
        raise ServiceError(TEXT_TOO_LONG.format(limit=20), field="cells")
    locked = SkillCostRow.objects.select_for_update().get(pk=row.pk)
    if locked.cells == cells:
        raise ServiceError(ROW_UNCHANGED, field="cells")
    lines = [
        (other.relative, cells if other.pk == locked.pk else other.cells)
        for other in SkillCostRow.objects.filter(table=table).order_by("position")
    ]
    try:
        engine_rows(table, lines)
    except InvalidValue as error:
        raise ServiceError(error.message, field="cells") from error
    change = SkillCostRowChange.objects.create(
        row=locked,
        old_cells=list(locked.cells),
        new_cells=cells,
        reason=reason,
        by=user,
        at=timezone.now(),
    )
    SkillCostRow.objects.filter(pk=locked.pk).update(cells=cells)
    row.cells = cells
    return change


def _entry_fields(
    *, name: str, attribute: str, difficulty: str, defaults_rule: str, defaults: str, source: str
) -> dict:
    """The entry's fields, checked: the defaults as the engine reads them."""
    name = " ".join((name or "").split())
    if not name:
        raise ServiceError(NAME_REQUIRED, field="name")
    if len(name) > NAME_MAX:
        raise ServiceError(TEXT_TOO_LONG.format(limit=NAME_MAX), field="name")
    if attribute not in SkillCatalogueEntry.Attribute.values:
        raise ServiceError(UNKNOWN_ATTRIBUTE, field="attribute")
    if difficulty not in SkillCatalogueEntry.Difficulty.values:
        raise ServiceError(UNKNOWN_DIFFICULTY, field="difficulty")
    if defaults_rule not in SkillCatalogueEntry.DefaultsRule.values:
        raise ServiceError(DEFAULTS_REQUIRED, field="defaults_rule")
    if len(defaults or "") > TEXT_MAX or len(source or "") > 300:
        raise ServiceError(TEXT_TOO_LONG.format(limit=TEXT_MAX), field="defaults")
    listed = split_defaults(defaults or "")
    if defaults_rule == SkillCatalogueEntry.DefaultsRule.LISTED and not listed:
        raise ServiceError(DEFAULTS_REQUIRED, field="defaults")
    if defaults_rule != SkillCatalogueEntry.DefaultsRule.LISTED and listed:
        raise ServiceError(DEFAULTS_NOT_WITH_RULE, field="defaults")
    try:
        written = [read_default(text).text for text in listed]
    except InvalidValue as error:
        raise ServiceError(error.message, field="defaults") from error
    return {
        "name": name,
        "attribute": attribute,
        "difficulty": difficulty,
        "defaults_rule": defaults_rule,
        "defaults": written,
        "source": (source or "").strip(),
    }


def _save_entry(entry: SkillCatalogueEntry, fields: dict) -> None:
    for key, value in fields.items():
        setattr(entry, key, value)
    try:
        with transaction.atomic():
            entry.save()
    except IntegrityError:
        raise ServiceError(NAME_TAKEN.format(name=fields["name"]), field="name") from None


@transaction.atomic
def skill_catalogue_entry_add(
    *, campaign: Campaign, user, reason: str, **fields
) -> SkillCatalogueEntry:
    """Add a skill to the catalogue (Árbitro); its first change records it, with the reason.
    ``fields``: name, attribute ("" or st/dx/iq/ht), difficulty ("" or E/A/H/VH),
    defaults_rule (general/listed/none), defaults (text: "ST−5 ou DX−5"), source."""
    _require_arbitro(user, campaign)
    reason = _reason(reason)
    entry = SkillCatalogueEntry(campaign=campaign)
    _save_entry(entry, _entry_fields(**fields))
    SkillCatalogueChange.objects.create(
        entry=entry, before={}, after=entry.snapshot(), reason=reason, by=user, at=timezone.now()
    )
    return entry


@transaction.atomic
def skill_catalogue_entry_edit(
    *, entry: SkillCatalogueEntry, user, reason: str, **fields
) -> SkillCatalogueChange:
    """Change a catalogue entry (Árbitro): the change keeps what it said and why. Same
    ``fields`` as ``skill_catalogue_entry_add``; nothing changes when they are refused."""
    _require_arbitro(user, entry.campaign)
    reason = _reason(reason)
    locked = SkillCatalogueEntry.objects.select_for_update().get(pk=entry.pk)
    before = locked.snapshot()
    checked = _entry_fields(**fields)
    if {**before, **checked} == before:
        raise ServiceError(ENTRY_UNCHANGED, field="name")
    _save_entry(locked, checked)
    change = SkillCatalogueChange.objects.create(
        entry=locked,
        before=before,
        after=locked.snapshot(),
        reason=reason,
        by=user,
        at=timezone.now(),
    )
    for key, value in checked.items():
        setattr(entry, key, value)
    return change
