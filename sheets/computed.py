"""The sheet computed: a version plus the state in play, through ``gurps`` (derived numbers,
damage, encumbrance, chances), as the sheet page, the API and the combat card show it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.core.cache import cache
from django.db.models import prefetch_related_objects

from gurps import armour, checks, damage, derived, encumbrance
from gurps.audit import NO_ACCURACY
from gurps.conditions import conditions_now
from gurps.errors import InvalidValue, OutsideCanon
from gurps.ranged import is_ranged_weapon
from sheets.models import Character, CharacterState, Item, Possession, SheetVersion, Skill
from sheets.reads import carried_kg, homologated_version, possessions_of, state_of

# The death rule of a character's kind (§5.4.1): a sheet of a named NPC dies at −HT.
CHARACTER_KIND_RULE = {
    Character.Kind.PLAYER_CHARACTER: "player_character",
    Character.Kind.NAMED_NPC: "named_npc",
    Character.Kind.CREATURE: "creature",
}


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
    """PD and DR of the armour worn and the shield readied, from what is carried now
    (``gurps.armour.protection``, §4.6): the items as the engine's pieces, each shield with
    the sheet's Shield skill level."""
    found = armour.protection(
        [
            armour.ArmourPiece(i.passive_defense, i.damage_resistance)
            for i in carried_items
            if not i.is_shield
        ],
        [
            armour.ShieldPiece(i.passive_defense, levels.get(i.skill_name.casefold()) or None)
            for i in carried_items
            if i.is_shield
        ],
    )
    return found.armour_pd, found.armour_dr, found.shield


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
