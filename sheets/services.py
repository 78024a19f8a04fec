"""Services of the sheets app: everything that writes, and the reads that call the engine.

Views and the API call these with plain values; these call ``gurps`` with plain values.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from decimal import Decimal
from typing import NamedTuple

from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.db.models import Prefetch, QuerySet, prefetch_related_objects
from django.utils import timezone

from campaigns.errors import ServiceError
from campaigns.models import Campaign, Membership
from gurps import checks, damage, derived, encumbrance
from gurps.audit import NO_ACCURACY
from gurps.conditions import conditions_now
from gurps.errors import InvalidValue, OutsideCanon
from gurps.ranged import is_ranged_weapon
from sheets.models import Character, CharacterState, Item, Possession, SheetVersion, Skill, Trait

# Messages are constants so tests import them instead of repeating them.
NOT_A_DRAFT = "Só um rascunho pode ser alterado; versão enviada ou homologada não muda."
NOT_SUBMITTED = "Esta versão não está na fila de homologação (já foi decidida?)."
RETURN_NEEDS_REASON = "Diga por que a ficha volta: o jogador precisa saber o que corrigir."
DRAFT_EXISTS = "Já há um rascunho desta ficha; continue nele."
DEAD_NO_PROPOSAL = (
    "Esta personagem está morta: na Garganta a morte é permanente (§5.4, §8). A ficha não "
    "recebe mais propostas."
)
# The death rule of a character's kind (§5.4.1): a sheet of a named NPC dies at −HT.
CHARACTER_KIND_RULE = {
    Character.Kind.PLAYER_CHARACTER: "player_character",
    Character.Kind.NAMED_NPC: "named_npc",
    Character.Kind.CREATURE: "creature",
}
PENDING_EXISTS = "Há uma versão enviada esperando o Árbitro; espere a decisão."
LOOT_NEEDS_NAME = "Diga o que é o espólio."
WEIGHT_NOT_NEGATIVE = "O peso não pode ser negativo."
WEIGHT_TOO_LARGE = "Peso acima de 10.000 kg: confira o número."
QUANTITY_AT_LEAST_1 = "A quantidade mínima é 1; para deixar o item, use o botão «largar»."
QUANTITY_TOO_LARGE = "Quantidade acima de 10.000: confira o número."
MAX_WEIGHT_KG = Decimal("10000")
CANNOT_LIFT = (
    "Não se ergue: seriam {total} kg carregados, acima de 15 × ST = {limit} kg, o maior peso "
    "que se ergue (§2.2)."
)
MAX_QUANTITY = 10000


# --- reads -------------------------------------------------------------------------------


def membership_for(user, campaign: Campaign) -> Membership | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(user=user, campaign=campaign).first()


def homologated_version(character: Character) -> SheetVersion | None:
    """The newest homologated version, with its lines prefetched (4 queries)."""
    return (
        SheetVersion.objects.filter(character=character, status=SheetVersion.Status.HOMOLOGATED)
        .select_related("decided_by")
        .prefetch_related("traits", "skills", "items")
        .order_by("-number")
        .first()
    )


def sheet_versions(character: Character) -> tuple[SheetVersion | None, list[SheetVersion]]:
    """The newest homologated version and the versions not homologated, newest first.

    One query for both, and none for the lines: the sheet page reads them lazily, and only
    when its cached block for that version is missing (a homologated version never changes).
    """
    versions = list(SheetVersion.objects.filter(character=character).order_by("-number"))
    homologated = next((v for v in versions if v.status == SheetVersion.Status.HOMOLOGATED), None)
    pending = [v for v in versions if v.status != SheetVersion.Status.HOMOLOGATED]
    return homologated, pending


def possessions_of(character: Character, *, with_items: bool = True) -> list[Possession]:
    """What the character has, in order; ``with_items=False`` leaves the items (lines of the
    immutable version) to be fetched later, for a page that may not need them."""
    possessions = Possession.objects.filter(character=character).order_by("pk")
    if with_items:
        possessions = possessions.select_related("item")
    return list(possessions)


def state_of(character: Character) -> CharacterState:
    """The character's state in play; no query when it came with the character
    (``select_related("state")``)."""
    if Character.state.is_cached(character):
        try:
            return character.state
        except CharacterState.DoesNotExist:  # select_related found none: make it below
            pass
    state, _ = CharacterState.objects.get_or_create(character=character)
    return state


def _rows_sql(vendor: str) -> str | None:
    """One statement reading every column of the character's versions and of its possessions
    as two strings (columns joined by the unit separator, rows by the record separator), and
    the number of its newest homologated version; ``%s`` three times, the character's pk.
    Written out, not built by the ORM: the sheet page and the API ask it on every request,
    and compiling querysets cost more than running them. ``None`` on a database other than
    SQLite and PostgreSQL (nothing is reused there)."""
    parts = []
    for model in (SheetVersion, Possession):
        table = model._meta.db_table
        columns = [f'"{f.column}"' for f in model._meta.concrete_fields]
        if vendor == "postgresql":
            row = " || chr(31) || ".join(f"coalesce({c}::text, '~')" for c in columns)
            parts.append(
                f"(SELECT string_agg({row}, chr(30) ORDER BY id) FROM {table} "
                "WHERE character_id = %s)"
            )
        elif vendor == "sqlite":
            row = " || char(31) || ".join(f"coalesce({c}, '~')" for c in columns)
            parts.append(
                f"(SELECT group_concat({row}, char(30)) FROM "
                f"(SELECT * FROM {table} WHERE character_id = %s ORDER BY id))"
            )
        else:
            return None
    homologated = (
        f"(SELECT max(number) FROM {SheetVersion._meta.db_table} "
        f"WHERE character_id = %s AND status = '{SheetVersion.Status.HOMOLOGATED}')"
    )
    return "SELECT " + ", ".join([*parts, homologated])


_ROWS_SQL: dict[str, str | None] = {}


class SheetRevision(NamedTuple):
    key: str
    homologated: int | None  # the number of the newest homologated version, if any


def sheet_revision(character: Character, state: CharacterState, *extra) -> SheetRevision | None:
    """A fingerprint (hex SHA-256) of everything the sheet's numbers and its page are computed
    from: every column of the character, of its state, of each of its versions (a homologated
    version's lines never change: a correction is a new version, so its code stands for them)
    and of each possession, and any ``extra`` values. One query (the character and its state
    came already). Equal fingerprints mean equal numbers, so a rendering or an answer may be
    reused by it; a change made anywhere — a service, the admin, straight to the table —
    changes it, and nothing has to remember to invalidate anything. ``None``: not knowable
    here (another database), so nothing is reused."""
    vendor = connection.vendor
    if vendor not in _ROWS_SQL:
        _ROWS_SQL[vendor] = _rows_sql(vendor)
    sql = _ROWS_SQL[vendor]
    if sql is None:
        return None
    with connection.cursor() as cursor:
        cursor.execute(sql, [character.pk] * 3)
        versions, possessions, homologated = cursor.fetchone()

    def columns(row) -> tuple:
        return tuple(getattr(row, f.attname) for f in row._meta.concrete_fields)

    parts = [columns(character), columns(state), versions, possessions, extra]
    return SheetRevision(hashlib.sha256(repr(parts).encode()).hexdigest(), homologated)


def carried_kg(possessions: list[Possession]) -> Decimal:
    return sum((p.total_weight_kg for p in possessions if p.carried), Decimal("0"))


@dataclass(frozen=True)
class VersionFacts:
    """What the derived numbers read from a version's lines: skill levels by casefolded
    name, and the keys of its traits. A homologated version never changes (a correction is
    a new version), so these are cached by the version's code."""

    levels: dict[str, int]
    trait_keys: frozenset[str]


def version_facts(version: SheetVersion) -> VersionFacts:
    def read() -> VersionFacts:
        # Prefetched on the version itself, so the page drawing its lines reads them no more.
        prefetch_related_objects([version], "skills", "traits")
        return VersionFacts(
            levels={skill.name.casefold(): skill.level for skill in version.skills.all()},
            trait_keys=frozenset(trait.key for trait in version.traits.all() if trait.key),
        )

    if version.status != SheetVersion.Status.HOMOLOGATED:
        return read()
    return cache.get_or_set(f"sheet-facts:{version.code}", read, timeout=None)


@dataclass(frozen=True)
class WeaponLine:
    """A weapon of the sheet with its damage computed from ST (canon §4.9)."""

    name: str
    written: str
    expression: str | None
    damage_type: str
    skill_name: str
    skill_level: int | None
    error: str
    outside_canon_rule: str = ""  # the canon section when the canon has no number (§4.9)
    outside_canon_context: str = ""  # what to tell the Árbitro in the divergence it offers
    missing: str = ""  # what the sheet lacks for this weapon (a ranged one's Prec, §4.3)


@dataclass(frozen=True)
class SkillLine:
    """A skill with its exact chance of success (canon §1.1) and the canon's truncated %."""

    skill: Skill
    probability: object  # fractions.Fraction
    percent: int


@dataclass(frozen=True)
class DefenceRow:
    """An active defence as the sheet shows it: its value, with PD, and how it came."""

    name: str
    value: int
    total: int
    how: object  # gurps.derived.Explanation | None


@dataclass(frozen=True)
class SheetView:
    """Everything the sheet page and the API show, from one version plus the state."""

    character: Character
    version: SheetVersion
    state: CharacterState
    possessions: list[Possession]
    carried_kg: Decimal
    derived: derived.Derived
    weapons: list[WeaponLine]
    encumbrance_bounds: list
    lift_max_kg: object  # Fraction
    defences: list[DefenceRow]
    # What gurps.derived.derive was given: the combat card asks it again with the fight's own
    # conditions (lost balance), so card and sheet come from one function.
    derive_inputs: dict = field(default_factory=dict)
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def conditions(self) -> tuple:
        """What the body is in now, as the canon names them (``gurps.conditions``, §5.2–5.4,
        §5.4.1 by the character's kind): cambaleando, atordoado, inconsciente, morto."""
        return conditions_now(
            self.version.ht,
            self.derived.hp_remaining,
            kind=CHARACTER_KIND_RULE.get(self.character.kind, "player_character"),
            stunned=self.state.stunned,
            unconscious=self.state.unconscious,
            died=self.state.dead,
        )

    @property
    def is_dead(self) -> bool:
        return any(c.key == "dead" for c in self.conditions)

    @property
    def skills(self) -> list[SkillLine]:
        """The version's skills with their chance (canon §1.1); read on first use only."""
        if "skills" not in self._cache:
            lines = []
            for skill in self.version.skills.all():
                probability = checks.success_probability(skill.level)
                lines.append(
                    SkillLine(
                        skill=skill,
                        probability=probability,
                        percent=checks.percent_truncated(probability),
                    )
                )
            self._cache["skills"] = lines
        return self._cache["skills"]


def _armour_and_shield(
    levels: dict[str, int], carried_items: list[Item]
) -> tuple[int, int, derived.Shield | None]:
    """PD and DR of the armour worn and the shield readied, from what is carried now.

    Reading (not in the canon): of several armour pieces carried, the highest PD counts, and
    the highest DR; a second armour in the pack does not add to the first.
    """
    armour = [i for i in carried_items if not i.is_shield]
    armour_pd = max((i.passive_defense for i in armour if i.passive_defense), default=0)
    armour_dr = max((i.damage_resistance for i in armour), default=0)
    shields = [i for i in carried_items if i.is_shield]
    if not shields:
        return armour_pd, armour_dr, None
    best = max(shields, key=lambda i: i.passive_defense)
    # Without the Shield skill there is no Block, but the shield's PD still counts (§4.6).
    skill_level = levels.get(best.skill_name.casefold()) or None
    return armour_pd, armour_dr, derived.Shield(skill=skill_level, pd=best.passive_defense)


def sheet_view(
    character: Character,
    version: SheetVersion | None = None,
    *,
    state: CharacterState | None = None,
    possessions: list[Possession] | None = None,
) -> SheetView | None:
    """Compute the sheet as the page shows it: the homologated version plus the state.
    ``state`` and ``possessions``, when the caller has read them already, are not read again."""
    version = version or homologated_version(character)
    if version is None:
        return None
    state = state if state is not None else state_of(character)
    possessions = possessions if possessions is not None else possessions_of(character)
    # Items read with the possessions cost nothing here; read without them, one query for all.
    prefetch_related_objects(possessions, "item")
    kg = carried_kg(possessions)
    carried_items = [p.item for p in possessions if p.carried and p.item_id]
    facts = version_facts(version)
    levels = facts.levels
    armour_pd, armour_dr, shield = _armour_and_shield(levels, carried_items)
    weapons_for_parry = []
    weapon_lines = []
    for item in carried_items:
        if not item.damage and not item.parry:
            continue
        skill_level = levels.get(item.skill_name.casefold()) if item.skill_name else None
        if item.parry and skill_level is not None:
            weapons_for_parry.append(
                derived.Weapon(name=item.name, skill=skill_level, parry=item.parry)
            )
        if item.damage:
            weapon_lines.append(_weapon_line(item, version.st, skill_level))
    inputs = {
        "st": version.st,
        "dx": version.dx,
        "iq": version.iq,
        "ht": version.ht,
        "carried_kg": kg,
        "hp_lost": state.hp_lost,
        "fatigue_lost": state.fatigue_lost,
        "combat_reflexes": "combat_reflexes" in facts.trait_keys,
        "stunned": state.stunned,
        "armour_pd": armour_pd,
        "armour_dr": armour_dr,
        "shield": shield,
        "weapons": tuple(weapons_for_parry),
    }
    result = derived.derive(**inputs)
    how = result.explanations
    defences = [DefenceRow("Esquiva", result.dodge, result.dodge_total, how.get("dodge"))]
    if result.block is not None:
        defences.append(DefenceRow("Bloquear", result.block, result.block_total, how.get("block")))
    for parry, parry_total in zip(result.parries, result.parries_total, strict=True):
        defences.append(
            DefenceRow(
                f"Aparar — {parry.name}",
                parry.value,
                parry_total.value,
                how.get(f"parry:{parry.name}"),
            )
        )
    return SheetView(
        character=character,
        version=version,
        state=state,
        possessions=possessions,
        carried_kg=kg,
        derived=result,
        weapons=weapon_lines,
        encumbrance_bounds=encumbrance.encumbrance_bounds(version.st),
        lift_max_kg=encumbrance.lift_max_kg(version.st),
        defences=defences,
        derive_inputs=inputs,
    )


def _weapon_missing(item: Item) -> str:
    """What the sheet does not say about ``item`` that play needs: a ranged weapon's Prec."""
    ranged = is_ranged_weapon(
        item.skill_name,
        snap_shot=item.ranged_snap_shot,
        half_damage_m=item.ranged_half_damage_m,
        max_m=item.ranged_max_m,
    )
    return NO_ACCURACY if ranged and item.ranged_accuracy is None else ""


def _weapon_line(item: Item, st: int, skill_level: int | None) -> WeaponLine:
    try:
        wd = damage.weapon_damage(item.damage, st)
    except (OutsideCanon, InvalidValue) as error:
        return WeaponLine(
            name=item.name,
            written=item.damage,
            expression=None,
            damage_type="",
            skill_name=item.skill_name,
            skill_level=skill_level,
            error=str(error),
            outside_canon_rule=error.rule if isinstance(error, OutsideCanon) else "",
            outside_canon_context=f"Dano de {item.name} ({item.damage}) com ST {st}",
            missing=_weapon_missing(item),
        )
    type_name = damage.DAMAGE_TYPE_NAMES.get(wd.damage_type, "") if wd.damage_type else ""
    return WeaponLine(
        name=item.name,
        written=item.damage,
        expression=str(wd.expression),
        damage_type=type_name,
        skill_name=item.skill_name,
        skill_level=skill_level,
        error="",
        missing=_weapon_missing(item),
    )


def characters_visible_to(user, campaign: Campaign) -> QuerySet[Character]:
    return (
        Character.objects.filter(campaign=campaign)
        .select_related("owner")
        .prefetch_related(
            Prefetch(
                "versions",
                queryset=SheetVersion.objects.filter(status=SheetVersion.Status.HOMOLOGATED),
                to_attr="homologated_versions",
            )
        )
    )


# --- writes: state in play -----------------------------------------------------------------


def _clean_weight(value) -> Decimal:
    try:
        weight = Decimal(str(value))
    except Exception as error:  # noqa: BLE001 - any unparsable value is the same refusal
        raise ServiceError("Peso inválido.", field="weight_kg") from error
    if not weight.is_finite():
        raise ServiceError("Peso inválido.", field="weight_kg")
    if weight < 0:
        raise ServiceError(WEIGHT_NOT_NEGATIVE, field="weight_kg")
    if weight > MAX_WEIGHT_KG:
        raise ServiceError(WEIGHT_TOO_LARGE, field="weight_kg")
    return weight


def _clean_quantity(value) -> int:
    try:
        quantity = int(value)
    except (TypeError, ValueError) as error:
        raise ServiceError(QUANTITY_AT_LEAST_1, field="quantity") from error
    if quantity < 1:
        raise ServiceError(QUANTITY_AT_LEAST_1, field="quantity")
    if quantity > MAX_QUANTITY:
        raise ServiceError(QUANTITY_TOO_LARGE, field="quantity")
    return quantity


def _refuse_what_cannot_be_lifted(
    character: Character, *, adding_kg: Decimal, leaving: Possession | None, field: str
) -> None:
    """Refuse a change that would leave the character carrying more than 15 × ST, which
    cannot be lifted (§2.2, p. 76): ``adding_kg`` carried besides what is carried now (minus
    ``leaving``, the row the change replaces). Without a homologated sheet there is no ST."""
    version = homologated_version(character)
    if version is None:
        return
    others = [p for p in possessions_of(character) if leaving is None or p.pk != leaving.pk]
    total = carried_kg(others) + adding_kg
    if not encumbrance.encumbrance(version.st, total).can_lift:
        limit = encumbrance.lift_max_kg(version.st)
        raise ServiceError(
            CANNOT_LIFT.format(
                total=derived.format_number(encumbrance.to_kg(total)),
                limit=derived.format_number(limit),
            ),
            field=field,
            code="cannot_lift",
        )


def possession_set_carried(*, possession: Possession, carried: bool) -> Possession:
    """Pick up (``carried``) or put down; picking up more than 15 × ST in all is refused
    (``CANNOT_LIFT``, field ``carried``)."""
    if carried and not possession.carried:
        _refuse_what_cannot_be_lifted(
            possession.character,
            adding_kg=possession.total_weight_kg,
            leaving=possession,
            field="carried",
        )
    Possession.objects.filter(pk=possession.pk).update(carried=carried)
    possession.carried = carried
    return possession


def possession_set_quantity(*, possession: Possession, quantity) -> Possession:
    quantity = _clean_quantity(quantity)
    if possession.carried and quantity > possession.quantity:
        _refuse_what_cannot_be_lifted(
            possession.character,
            adding_kg=possession.unit_weight_kg * quantity,
            leaving=possession,
            field="quantity",
        )
    Possession.objects.filter(pk=possession.pk).update(quantity=quantity)
    possession.quantity = quantity
    return possession


def loot_add(
    *, character: Character, name: str, weight_kg, quantity=1, user, request_key: str = ""
) -> Possession:
    """Add loot picked up in play; it is carried at once, so more than 15 × ST in all is
    refused (``CANNOT_LIFT``, field ``weight_kg``, §2.2). The same ``request_key`` twice (the
    form posted twice) adds it once: a doubled weight would change Carga, Move and Dodge."""
    name = (name or "").strip()
    if not name:
        raise ServiceError(LOOT_NEEDS_NAME, field="name")
    weight = _clean_weight(weight_kg)
    quantity = _clean_quantity(quantity)
    request_key = (request_key or "")[:64]
    earlier = Possession.objects.filter(character=character, request_key=request_key)
    if request_key and earlier.exists():
        return earlier.get()
    _refuse_what_cannot_be_lifted(
        character, adding_kg=weight * quantity, leaving=None, field="weight_kg"
    )
    try:
        with transaction.atomic():
            return Possession.objects.create(
                character=character,
                loot_name=name[:200],
                loot_weight_kg=weight,
                quantity=quantity,
                carried=True,
                added_by=user,
                request_key=request_key,
            )
    except IntegrityError:
        if request_key:  # the same form, posted twice at once
            return earlier.get()
        raise


LOOT_ONLY = "Só espólio se remove; item da ficha se larga, e sai da ficha numa nova versão."


def loot_remove(*, possession: Possession) -> None:
    """Remove loot added in play (a mistake, or given away). Sheet items are never removed here."""
    if not possession.is_loot:
        raise ServiceError(LOOT_ONLY)
    possession.delete()


def possessions_sync(*, character: Character, version: SheetVersion) -> None:
    """Point the character's sheet possessions at a newly homologated version.

    Items keep their carried flag and quantity when the new version has an item of the same
    name; new items start as the sheet says; loot is untouched.
    """
    old = {
        p.item.name.casefold(): p
        for p in Possession.objects.filter(character=character, item__isnull=False).select_related(
            "item"
        )
    }
    keep = []
    for item in version.items.all():
        previous = old.pop(item.name.casefold(), None)
        if previous is not None:
            previous.item = item
            previous.save(update_fields=["item"])
            keep.append(previous.pk)
        else:
            created = Possession.objects.create(
                character=character,
                item=item,
                quantity=item.quantity,
                carried=item.carried_by_default,
            )
            keep.append(created.pk)
    Possession.objects.filter(character=character, item__isnull=False).exclude(pk__in=keep).delete()


# --- writes: versions and homologation ------------------------------------------------------


def _copy_lines(source: SheetVersion, target: SheetVersion) -> None:
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
    _copy_lines(source, draft)
    return draft


@transaction.atomic
def sheet_submit(*, version: SheetVersion, user) -> SheetVersion:
    locked = SheetVersion.objects.select_for_update().get(pk=version.pk)
    if locked.status != SheetVersion.Status.DRAFT:
        raise ServiceError(NOT_A_DRAFT, code="not_a_draft")
    locked.status = SheetVersion.Status.SUBMITTED
    locked.submitted_at = timezone.now()
    locked.save(update_fields=["status", "submitted_at"])
    return locked


def _decide(
    version: SheetVersion,
    user,
    status: str,
    *,
    reason: str = "",
    warnings: list[str] = (),
    note: str = "",
) -> SheetVersion:
    """The Árbitro's decision on a submitted version, once: a second decision is refused."""
    locked = SheetVersion.objects.select_for_update().get(pk=version.pk)
    if locked.status != SheetVersion.Status.SUBMITTED:
        raise ServiceError(NOT_SUBMITTED, code="not_submitted")
    locked.status = status
    locked.decided_at = timezone.now()
    locked.decided_by = user
    locked.return_reason = reason
    locked.decision_warnings = list(warnings)
    locked.decision_warning_count = len(warnings)
    locked.decision_note = note
    locked.save(
        update_fields=[
            "status",
            "decided_at",
            "decided_by",
            "return_reason",
            "decision_warnings",
            "decision_warning_count",
            "decision_note",
        ]
    )
    return locked


WARNINGS_NEED_A_NOTE = "Homologar com avisos pede a nota do Árbitro: por que homologa assim."


@transaction.atomic
def sheet_homologate(
    *, version: SheetVersion, user, warnings: list[str] = (), note: str = ""
) -> SheetVersion:
    """The Árbitro approves a submitted version; the sheet page shows it from now on.

    ``warnings``: what the audit said of it (``canon.checks.version_homologate`` reads them),
    kept on the version with his ``note`` — required when there are warnings. Call it through
    ``canon.checks.version_homologate``, which checks that he read them."""
    note = (note or "").strip()
    if warnings and not note:
        raise ServiceError(WARNINGS_NEED_A_NOTE, field="note")
    locked = _decide(version, user, SheetVersion.Status.HOMOLOGATED, warnings=warnings, note=note)
    possessions_sync(character=locked.character, version=locked)
    state_of(locked.character)
    return locked


@transaction.atomic
def sheet_return(*, version: SheetVersion, user, reason: str) -> SheetVersion:
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(RETURN_NEEDS_REASON, field="reason")
    return _decide(version, user, SheetVersion.Status.RETURNED, reason=reason)


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


@dataclass(frozen=True)
class Change:
    """One line that differs between two versions, as a player reads it. ``before`` is ""
    for a line added, ``after`` is "" for a line removed."""

    what: str
    before: str
    after: str
    group: str = ""


ATTRIBUTES_GROUP = "Atributos"
TRAITS_GROUP = "Vantagens, desvantagens e peculiaridades"
SKILLS_GROUP = "Perícias"
ITEMS_GROUP = "Itens"
NOTES_GROUP = "Notas"


def _trait_text(trait: Trait) -> str:
    parts = [trait.get_kind_display().lower()]
    if trait.level is not None:
        parts.append(f"nível {trait.level}")
    if trait.points:
        parts.append(f"{derived.format_number(trait.points)} pts")
    if trait.key:
        parts.append(f"o motor lê: {trait.get_key_display()}")
    return ", ".join(parts)


def _skill_text(skill: Skill, *, with_kind: bool) -> str:
    text = f"{skill.level} ({derived.format_number(skill.points)})"
    if with_kind:
        kind = f"{skill.get_attribute_display()}/{skill.get_difficulty_display()}"
        text = f"{kind} {text}"
    return text


def _item_text(item: Item) -> str:
    parts = [f"{derived.format_number(item.weight_kg)} kg"]
    if item.quantity != 1:
        parts.append(f"×{item.quantity}")
    if item.passive_defense or item.damage_resistance:
        parts.append(f"PD {item.passive_defense}/RD {item.damage_resistance}")
    if item.is_shield:
        parts.append("escudo")
    if item.damage:
        parts.append(item.damage)
    if item.skill_name:
        parts.append(f"perícia {item.skill_name}")
    if item.parry:
        parts.append(f"apara {item.get_parry_display()}")
    if item.ranged_snap_shot is not None:
        parts.append(f"TR {item.ranged_snap_shot}")
    if item.ranged_accuracy is not None:
        parts.append(f"Prec {derived.format_number(item.ranged_accuracy)}")
    if item.ranged_half_damage_m is not None:
        parts.append(f"½D {item.ranged_half_damage_m} m")
    if item.ranged_max_m is not None:
        parts.append(f"Máx {item.ranged_max_m} m")
    if not item.carried_by_default:
        parts.append("guardado")
    return ", ".join(parts)


def _keyed(lines, name) -> dict[str, object]:
    """Lines by name (case-insensitive); a repeated name gets " (2)", " (3)"…"""
    found: dict[str, object] = {}
    for line in lines:
        key, n = name(line), 1
        while key.casefold() in {k.casefold() for k in found}:
            n += 1
            key = f"{name(line)} ({n})"
        found[key] = line
    return found


def _line_changes(group, old_lines, new_lines, text) -> list[Change]:
    old = _keyed(old_lines, lambda line: line.name)
    new = _keyed(new_lines, lambda line: line.name)
    old_by_fold = {k.casefold(): v for k, v in old.items()}
    names = {k.casefold(): k for k in old} | {k.casefold(): k for k in new}
    changes = []
    for fold in sorted(names):
        before = old_by_fold.get(fold)
        after = next((v for k, v in new.items() if k.casefold() == fold), None)
        before_text = text(before, after) if before is not None else ""
        after_text = text(after, before) if after is not None else ""
        if before_text != after_text:
            changes.append(Change(names[fold], before_text, after_text, group))
    return changes


def version_changes(before: SheetVersion | None, after: SheetVersion) -> list[Change]:
    """What changed between two versions, line by line, grouped as the sheet shows them:
    attributes, traits, skills, items, notes. ``before`` None: everything is new."""
    changes = []
    for key in ("st", "dx", "iq", "ht"):
        old = getattr(before, key) if before else None
        new = getattr(after, key)
        if old != new:
            changes.append(
                Change(key.upper(), "" if old is None else str(old), str(new), ATTRIBUTES_GROUP)
            )
    changes += _line_changes(
        TRAITS_GROUP,
        before.traits.all() if before else [],
        after.traits.all(),
        lambda line, other: _trait_text(line),
    )
    changes += _line_changes(
        SKILLS_GROUP,
        before.skills.all() if before else [],
        after.skills.all(),
        # Attribute and difficulty are shown when they change, or the line is new or gone.
        lambda line, other: _skill_text(
            line,
            with_kind=other is None
            or (other.attribute, other.difficulty) != (line.attribute, line.difficulty),
        ),
    )
    changes += _line_changes(
        ITEMS_GROUP,
        before.items.all() if before else [],
        after.items.all(),
        lambda line, other: _item_text(line),
    )
    if (before.notes if before else "") != after.notes:
        changes.append(Change("Notas", before.notes if before else "", after.notes, NOTES_GROUP))
    return changes


# --- the Árbitro's correction of a homologated sheet, and the history -------------------------

NO_HOMOLOGATED_VERSION = "Esta ficha ainda não tem versão homologada: não há o que corrigir."
PENDING_BLOCKS_CORRECTION = (
    "Há uma versão enviada esperando decisão: homologue-a ou devolva-a antes de corrigir a ficha."
)
NOTHING_CHANGED = (
    "Nada mudou em relação à versão homologada: a correção precisa mudar alguma linha."
)
HISTORY_PICK_VERSION = "Escolha uma versão desta ficha."
HISTORY_PICK_TWO = "Escolha duas versões diferentes para comparar."


@transaction.atomic
def sheet_correction_issue(
    *,
    character: Character,
    user,
    attributes: dict[str, int] | None = None,
    notes: str | None = None,
    skills: list[dict] | None = None,
) -> tuple[SheetVersion, SheetVersion]:
    """Issue the Árbitro's correction of a homologated sheet as a new homologated version.

    Returns (the version corrected, the new version). The corrected version is not touched.
    ``None`` keeps that part as it is; traits and items are copied. A jogador's open draft
    was copied before the correction: it moves to the next number, so that homologating it
    later still makes it the newest version (and its diff shows the correction undone).
    Refused while a submitted version waits (decide it first), or when nothing changes.
    Call it through ``canon.services.sheet_correct``, which records the Correction.
    """
    Character.objects.select_for_update().get(pk=character.pk)
    current = homologated_version(character)
    if current is None:
        raise ServiceError(NO_HOMOLOGATED_VERSION, code="no_homologated_version")
    versions = SheetVersion.objects.filter(character=character)
    if versions.filter(status=SheetVersion.Status.SUBMITTED).exists():
        raise ServiceError(PENDING_BLOCKS_CORRECTION, code="pending_exists")
    top = max(versions.values_list("number", flat=True))
    number = top + 1
    draft = versions.filter(status=SheetVersion.Status.DRAFT, number=top).first()
    if draft is not None:
        SheetVersion.objects.filter(pk=draft.pk).update(number=top + 1)
        number = top
    attributes = attributes or current.attributes()
    corrected = SheetVersion.objects.create(
        character=character,
        number=number,
        status=SheetVersion.Status.HOMOLOGATED,
        st=attributes["st"],
        dx=attributes["dx"],
        iq=attributes["iq"],
        ht=attributes["ht"],
        notes=current.notes if notes is None else notes,
        created_by=user,
        decided_at=timezone.now(),
        decided_by=user,
    )
    _copy_lines(current, corrected)
    if skills is not None:
        corrected.skills.all().delete()
        Skill.objects.bulk_create(Skill(version=corrected, **line) for line in skills)
    corrected = SheetVersion.objects.prefetch_related("traits", "skills", "items").get(
        pk=corrected.pk
    )
    if not version_changes(current, corrected):
        raise ServiceError(NOTHING_CHANGED, code="nothing_changed")
    possessions_sync(character=character, version=corrected)
    return current, corrected


def versions_visible(character: Character, user, membership: Membership) -> list[SheetVersion]:
    """The versions of a sheet a member may read: all of them for the owner, the Mestre and
    the Árbitro; only the homologated ones for another jogador (DESIGN.md, who sees what)."""
    versions = (
        SheetVersion.objects.filter(character=character)
        .select_related("created_by", "decided_by", "issued_by_correction__created_by")
        .prefetch_related("traits", "skills", "items")
        .order_by("number")
    )
    if not (membership.runs_the_table or character.is_owned_by(user)):
        versions = versions.filter(status=SheetVersion.Status.HOMOLOGATED)
    return list(versions)


@dataclass(frozen=True)
class HistoryEvent:
    """One step in the life of a sheet: a version created, submitted, returned, homologated,
    or issued by the Árbitro as a correction."""

    when: object  # datetime
    version: SheetVersion
    what: str
    who: str
    reason: str = ""
    kind: str = ""


def _who(user) -> str:
    return user.get_username() if user is not None else "—"


def homologated_label(version: SheetVersion) -> str:
    """ "Homologada", or "Homologada apesar de 2 avisos" when the Árbitro homologated it with
    the audit's warnings (they are kept on the version)."""
    count = version.decision_warning_count
    if not count:
        return "Homologada"
    return f"Homologada apesar de {count} aviso{'s' if count > 1 else ''}"


def sheet_history(versions: list[SheetVersion]) -> list[HistoryEvent]:
    """Every step of the given versions, newest first."""
    events = []
    for version in versions:
        correction = getattr(version, "issued_by_correction", None)
        if correction is not None:
            events.append(
                HistoryEvent(
                    version.decided_at or version.created_at,
                    version,
                    "Corrigida pelo Árbitro: nova versão homologada",
                    _who(version.decided_by),
                    correction.reason,
                    "corrected",
                )
            )
            continue
        events.append(
            HistoryEvent(
                version.created_at,
                version,
                "Rascunho criado",
                _who(version.created_by),
                "",
                "draft",
            )
        )
        if version.submitted_at:
            events.append(
                HistoryEvent(
                    version.submitted_at,
                    version,
                    "Enviada ao Árbitro",
                    _who(version.created_by),
                    "",
                    "submitted",
                )
            )
        if version.decided_at and version.status == SheetVersion.Status.RETURNED:
            events.append(
                HistoryEvent(
                    version.decided_at,
                    version,
                    "Devolvida ao jogador",
                    _who(version.decided_by),
                    version.return_reason,
                    "returned",
                )
            )
        elif version.decided_at and version.status == SheetVersion.Status.HOMOLOGATED:
            events.append(
                HistoryEvent(
                    version.decided_at,
                    version,
                    homologated_label(version),
                    _who(version.decided_by),
                    version.decision_note,
                    "homologated",
                )
            )
    # Steps of one version at the same instant keep their order (created, sent, decided).
    order = {"draft": 0, "submitted": 1, "returned": 2, "homologated": 2, "corrected": 2}
    events.sort(key=lambda e: (e.when, e.version.number, order[e.kind]), reverse=True)
    return events
