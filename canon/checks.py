"""The audit of sheet versions against the Árbitro's tables, and the homologation that reads it.

The queue shows, for every submitted version, line by line what does not add up (with the
computation); the draft page shows the player the same before he submits; "e sem a perícia?"
answers from the catalogue. The rules are ``gurps.audit``'s; this module reads a campaign's
cost table and catalogue (``canon.skills``) and a version's lines, and hands them over as
plain data.

A warning is not a refusal: the Árbitro homologates anyway by saying why, and the version keeps
the warnings he read and his words (``SheetVersion.decision_warnings``, ``decision_note``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.db import transaction

from campaigns.errors import ServiceError
from campaigns.models import Campaign
from canon import services, skills
from canon.models import SkillCatalogueEntry
from gurps.audit import (
    Audit,
    CatalogueSkill,
    DefaultAnswer,
    SheetSkill,
    SheetTrait,
    SheetWeapon,
    audit_sheet,
    sheet_defaults,
)
from gurps.ranged import is_ranged_weapon
from gurps.skill_costs import CostRow
from sheets import services as sheet_services
from sheets.models import Character, SheetVersion

WARNINGS_NOT_READ = (
    "Esta versão tem {count} aviso(s): leia-os na fila e diga por que homologa mesmo assim."
)
WARNINGS_CHANGED = (
    "Os avisos mudaram desde que a fila foi aberta (a tabela ou o catálogo mudou): leia-os de "
    "novo antes de homologar."
)
NOTE_REQUIRED = (
    "Diga por que homologa apesar dos avisos: a decisão fica na versão, com os avisos que ela "
    "tinha."
)
NOTE_TOO_LONG = "A nota tem no máximo 2.000 caracteres."
ONLY_THE_ARBITRO_HOMOLOGATES = "Só o Árbitro homologa ou devolve."


@dataclass(frozen=True)
class SkillData:
    """What a campaign's audit reads: its cost table (engine rows) and its catalogue (the
    entries, and the engine's view of them)."""

    table: tuple[CostRow, ...]
    entries: list[SkillCatalogueEntry]
    catalogue: tuple[CatalogueSkill, ...]


def skill_data(campaign: Campaign) -> SkillData:
    """The campaign's cost table and catalogue (3 queries)."""
    entries = skills.skill_catalogue(campaign)
    return SkillData(skills.cost_table(campaign), entries, skills.engine_catalogue(entries))


def _points(value) -> Fraction | None:
    return None if value is None else Fraction(value)


def version_total(version: SheetVersion | None) -> Fraction | None:
    """The points a version's skill and trait lines spend (its lines read once)."""
    if version is None:
        return None
    skill_points = sum((Fraction(s.points) for s in version.skills.all()), Fraction(0))
    return skill_points + sum(t.points for t in version.traits.all())


def lines_audit(
    *,
    data: SkillData,
    attributes: dict[str, int],
    skill_lines: list[dict],
    trait_lines: list[dict] = (),
    item_lines: list[dict] = (),
    unread_lines: int = 0,
    previous_total: Fraction | None = None,
) -> Audit:
    """The audit of lines as plain dicts (a draft being typed, or a version's lines): skills
    with name, attribute, difficulty, level (or None), points (or None); traits with name, kind,
    points; items with name, skill_name, damage and the ranged numbers (ranged_snap_shot,
    ranged_accuracy, ranged_half_damage_m, ranged_max_m; absent or None where not given)."""
    return audit_sheet(
        attributes=attributes,
        skills=[
            SheetSkill(
                line["name"],
                line["attribute"],
                line["difficulty"],
                line.get("level"),
                _points(line.get("points")),
            )
            for line in skill_lines
        ],
        traits=[SheetTrait(t["name"], t["kind"], t["points"] or 0) for t in trait_lines],
        weapons=[_weapon(item) for item in item_lines if item.get("damage")],
        table=data.table,
        catalogue=data.catalogue,
        unread_lines=unread_lines,
        previous_total=previous_total,
    )


def _weapon(item: dict) -> SheetWeapon:
    ranged = is_ranged_weapon(
        item.get("skill_name") or "",
        snap_shot=item.get("ranged_snap_shot"),
        half_damage_m=item.get("ranged_half_damage_m"),
        max_m=item.get("ranged_max_m"),
    )
    return SheetWeapon(item["name"], ranged, item.get("ranged_accuracy"))


ITEM_AUDIT_FIELDS = (
    "name",
    "skill_name",
    "damage",
    "ranged_snap_shot",
    "ranged_accuracy",
    "ranged_half_damage_m",
    "ranged_max_m",
)


def version_audit(
    version: SheetVersion,
    *,
    data: SkillData | None = None,
    current: SheetVersion | None = None,
) -> Audit:
    """The audit of a stored version. ``current``: the version in force (its points give the
    change); by default the character's newest homologated version, when it is another one."""
    data = data or skill_data(version.character.campaign)
    if current is None and version.status != SheetVersion.Status.HOMOLOGATED:
        current = sheet_services.homologated_version(version.character)
    if current is not None and current.pk == version.pk:
        current = None
    return lines_audit(
        data=data,
        attributes=version.attributes(),
        skill_lines=[
            {
                "name": s.name,
                "attribute": s.attribute,
                "difficulty": s.difficulty,
                "level": s.level,
                "points": s.points,
            }
            for s in version.skills.all()
        ],
        trait_lines=[
            {"name": t.name, "kind": t.kind, "points": t.points} for t in version.traits.all()
        ],
        item_lines=[
            {key: getattr(item, key) for key in ITEM_AUDIT_FIELDS} for item in version.items.all()
        ],
        unread_lines=len(version.unread_line_list),
        previous_total=version_total(current),
    )


@dataclass(frozen=True)
class DefaultsView:
    """ "E sem a perícia?" for a character: the version read and one answer per catalogued
    skill, those the sheet has first."""

    version: SheetVersion
    answers: tuple[DefaultAnswer, ...]

    @property
    def offered(self) -> list[DefaultAnswer]:
        return [a for a in self.answers if not a.has_skill and a.level is not None]

    @property
    def not_offered(self) -> list[DefaultAnswer]:
        return [a for a in self.answers if not a.has_skill and a.level is None]

    @property
    def owned(self) -> list[DefaultAnswer]:
        return [a for a in self.answers if a.has_skill]


def character_defaults(
    character: Character, *, version: SheetVersion | None = None, data: SkillData | None = None
) -> DefaultsView | None:
    """The defaults of the character's homologated version (or ``version``) in every
    catalogued skill (§3.3); None when there is no homologated version."""
    if version is None:  # the newest homologated version and its skills only (2 queries)
        version = (
            SheetVersion.objects.filter(character=character, status=SheetVersion.Status.HOMOLOGATED)
            .prefetch_related("skills")
            .order_by("-number")
            .first()
        )
    if version is None:
        return None
    data = data or skill_data(character.campaign)
    answers = sheet_defaults(
        attributes=version.attributes(),
        skills={s.name: s.level for s in version.skills.all()},
        catalogue=data.catalogue,
    )
    return DefaultsView(version, answers)


@transaction.atomic
def version_homologate(
    *, version: SheetVersion, user, seen_digest: str = "", note: str = ""
) -> SheetVersion:
    """The Árbitro homologates a submitted version. With warnings, he must have read them
    (``seen_digest`` is ``Audit.digest`` as the queue showed it) and say why (``note``); the
    version keeps the warnings and his words. Without warnings, the note is optional."""
    membership = services.membership_for(user, version.character.campaign)
    if not services.may_write(membership):
        raise ServiceError(ONLY_THE_ARBITRO_HOMOLOGATES, code="forbidden")
    note = (note or "").strip()
    if len(note) > 2000:
        raise ServiceError(NOTE_TOO_LONG, field="note")
    audit = version_audit(version)
    warnings = audit.warnings
    if warnings and not seen_digest:
        raise ServiceError(WARNINGS_NOT_READ.format(count=len(warnings)), field="note")
    if warnings and seen_digest != audit.digest:
        raise ServiceError(WARNINGS_CHANGED, field="note", code="warnings_changed")
    if warnings and not note:
        raise ServiceError(NOTE_REQUIRED, field="note")
    return sheet_services.sheet_homologate(
        version=version,
        user=user,
        warnings=[f"{w.group} · {w.what}: {w.message}" for w in warnings],
        note=note,
    )
