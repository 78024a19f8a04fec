"""A sheet's drafts: a new version started as a copy of the newest one, and its lines replaced
while it is a draft. Sending it to the Árbitro is ``sheets.homologation``'s; the skill lines
made whole by the cost table before saving are ``sheets.drafting``'s.
"""

from __future__ import annotations

from django.db import transaction

from campaigns.errors import ServiceError
from sheets.computed import sheet_view
from sheets.models import Character, Item, SheetVersion, Skill, Trait

# Messages are constants so tests import them instead of repeating them.
NOT_A_DRAFT = "Só um rascunho pode ser alterado; versão enviada ou homologada não muda."
DRAFT_EXISTS = "Já há um rascunho desta ficha; continue nele."
DEAD_NO_PROPOSAL = (
    "Esta personagem está morta: na Garganta a morte é permanente (§5.4, §8). A ficha não "
    "recebe mais propostas."
)
PENDING_EXISTS = "Há uma versão enviada esperando o Árbitro; espere a decisão."


def version_lines_copy(source: SheetVersion, target: SheetVersion) -> None:
    """Copy ``source``'s traits, skills and items onto ``target`` (a new draft, or the
    Árbitro's correction)."""
    Trait.objects.bulk_create(
        Trait(version=target, name=t.name, kind=t.kind, key=t.key, level=t.level, points=t.points)
        for t in source.traits.all()
    )
    Skill.objects.bulk_create(
        Skill(
            version=target,
            name=s.name,
            attribute=s.attribute,
            difficulty=s.difficulty,
            level=s.level,
            points=s.points,
        )
        for s in source.skills.all()
    )
    Item.objects.bulk_create(
        Item(
            version=target,
            **{
                f.name: getattr(i, f.name)
                for f in Item._meta.concrete_fields
                if f.name not in {"id", "version"}
            },
        )
        for i in source.items.all()
    )


@transaction.atomic
def sheet_draft_create(*, character: Character, user) -> SheetVersion:
    """Start a draft as a copy of the newest version: the homologated one, or the one the
    Árbitro returned (a returned version stays as it was; the fix is a new version)."""
    Character.objects.select_for_update().get(pk=character.pk)
    view = sheet_view(character)
    if view is not None and view.is_dead:
        raise ServiceError(DEAD_NO_PROPOSAL, code="dead")
    versions = SheetVersion.objects.filter(character=character)
    if versions.filter(status=SheetVersion.Status.DRAFT).exists():
        raise ServiceError(DRAFT_EXISTS, code="draft_exists")
    if versions.filter(status=SheetVersion.Status.SUBMITTED).exists():
        raise ServiceError(PENDING_EXISTS, code="pending_exists")
    source = versions.order_by("-number").first()
    if source is None:
        raise ServiceError("Esta personagem não tem ficha para copiar.")
    draft = SheetVersion.objects.create(
        character=character,
        number=source.number + 1,
        status=SheetVersion.Status.DRAFT,
        st=source.st,
        dx=source.dx,
        iq=source.iq,
        ht=source.ht,
        notes=source.notes,
        created_by=user,
    )
    version_lines_copy(source, draft)
    return draft


TRAIT_FIELDS = ("name", "kind", "key", "level", "points")
ITEM_FIELDS = (
    "name",
    "weight_kg",
    "quantity",
    "passive_defense",
    "damage_resistance",
    "is_shield",
    "damage",
    "skill_name",
    "parry",
    "ranged_snap_shot",
    "ranged_accuracy",
    "ranged_half_damage_m",
    "ranged_max_m",
    "carried_by_default",
)
SKILL_FIELDS = ("name", "attribute", "difficulty", "level", "points")


def _lines(model, version: SheetVersion, lines: list[dict], fields: tuple[str, ...]) -> None:
    model.objects.filter(version=version).delete()
    model.objects.bulk_create(
        model(version=version, **{k: line[k] for k in fields if k in line}) for line in lines
    )


@transaction.atomic
def sheet_draft_update(
    *,
    version: SheetVersion,
    attributes: dict[str, int],
    notes: str,
    skills: list[dict] | None,
    traits: list[dict] | None = None,
    items: list[dict] | None = None,
    unread_lines: str | None = None,
) -> SheetVersion:
    """Replace a draft's attributes and lines: skills (name, attribute, difficulty, level,
    points), traits (name, kind, key, level, points), items (``ITEM_FIELDS``); ``None`` keeps
    that part as it is. ``unread_lines``: what an import could not read (None keeps it).
    Raises ServiceError if not a draft; nothing is half-saved."""
    locked = SheetVersion.objects.select_for_update().get(pk=version.pk)
    if locked.status != SheetVersion.Status.DRAFT:
        raise ServiceError(NOT_A_DRAFT, code="not_a_draft")
    for key in ("st", "dx", "iq", "ht"):
        setattr(locked, key, attributes[key])
    locked.notes = notes
    if unread_lines is not None:
        locked.unread_lines = unread_lines
    locked.save()
    if skills is not None:
        _lines(Skill, locked, skills, SKILL_FIELDS)
    if traits is not None:
        _lines(Trait, locked, traits, TRAIT_FIELDS)
    if items is not None:
        _lines(Item, locked, items, ITEM_FIELDS)
    return locked
