"""Damage: the basic damage table by ST, a weapon's damage as a sheet writes it, and the
steps from the rolled damage to HP lost (canon §4.9; book p. 73–75, 100), with the hit
location's multiplier (§5.5, p. 203), the caps of overpenetration (§4.13, Decision 29) and the
things that do not defend themselves (§5f).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Literal

from gurps._validate import check_attribute, require_at_least, require_int
from gurps.dice import DiceExpression, parse_dice
from gurps.errors import (
    BAD_DAMAGE,
    MASTERWORK_DR_NOT_IN_CANON,
    NEGATIVE_DR,
    ST_ABOVE_DAMAGE_TABLE,
    UNKNOWN_DAMAGE_TYPE,
    UNKNOWN_OBJECT,
    WEAPON_IN_HAND_DR_NOT_IN_CANON,
    InvalidDiceExpression,
    InvalidValue,
    OutsideCanon,
)
from gurps.hit_locations import HitLocation, hit_location
from gurps.tabular import CanonTable, signed


@dataclass(frozen=True)
class BasicDamageRow:
    """Thrust (Golpe de Ponta, GDP) and swing (Balanço) at one ST. The row of ST 4 stands
    for "4 ou menos"."""

    st: int
    thrust: DiceExpression
    swing: DiceExpression
    section: str = "4.9"
    page: str = "73–74"

    @property
    def st_label(self) -> str:
        return "4 ou menos" if self.st == BASIC_DAMAGE_TABLE[0].st else str(self.st)


def _row(st: int, thrust: str, swing: str) -> BasicDamageRow:
    return BasicDamageRow(st, parse_dice(thrust), parse_dice(swing))


BASIC_DAMAGE_TABLE: tuple[BasicDamageRow, ...] = (
    _row(4, "0", "0"),
    _row(5, "1d-5", "1d-5"),
    _row(6, "1d-4", "1d-4"),
    _row(7, "1d-3", "1d-3"),
    _row(8, "1d-3", "1d-2"),
    _row(9, "1d-2", "1d-1"),
    _row(10, "1d-2", "1d"),
    _row(11, "1d-1", "1d+1"),
    _row(12, "1d-1", "1d+2"),
    _row(13, "1d", "2d-1"),
    _row(14, "1d", "2d"),
    _row(15, "1d+1", "2d+1"),
    _row(16, "1d+1", "2d+2"),
    _row(17, "1d+2", "3d-1"),
    _row(18, "1d+2", "3d"),
    _row(19, "2d-1", "3d+1"),
    _row(20, "2d-1", "3d+2"),
)


def basic_damage(st: int) -> BasicDamageRow:
    """The row for ``st``: 4 or less → the "0" row; 5..20 as the canon's table.
    Raises InvalidValue("st") below 1 and OutsideCanon("4.9") above 20."""
    check_attribute("st", st)
    first, last = BASIC_DAMAGE_TABLE[0], BASIC_DAMAGE_TABLE[-1]
    if st > last.st:
        raise OutsideCanon("4.9", ST_ABOVE_DAMAGE_TABLE)
    return BASIC_DAMAGE_TABLE[max(st, first.st) - first.st]


class DamageType(StrEnum):
    CRUSHING = "cr"
    CUTTING = "cut"
    IMPALING = "imp"


DAMAGE_TYPE_NAMES: dict[DamageType, str] = {
    DamageType.CRUSHING: "contusão",
    DamageType.CUTTING: "corte",
    DamageType.IMPALING: "perfuração",
}


@dataclass(frozen=True)
class WoundMultiplier:
    """What passes the DR is multiplied by ``multiplier``, rounding down (§4.9, p. 100).
    ``minimum_basic`` is the least basic damage of the type (p. 73); ``examples`` the
    canon's words for what does this type ("punho, clava, marreta")."""

    damage_type: DamageType
    multiplier: Fraction
    minimum_basic: int
    examples: str = ""
    section: str = "4.9"
    page: str = "100"

    @property
    def multiplier_words(self) -> str:
        """As the canon's table writes it: "× 2", "+50%, arredondando para baixo"."""
        return _multiplier_words(self.multiplier)


def _multiplier_words(multiplier: Fraction) -> str:
    if multiplier.denominator == 1:
        return f"× {multiplier.numerator}"
    return f"+{(multiplier - 1) * 100}%, arredondando para baixo"


WOUND_MULTIPLIERS: tuple[WoundMultiplier, ...] = (
    WoundMultiplier(DamageType.CRUSHING, Fraction(1), 0, "punho, clava, marreta"),
    WoundMultiplier(DamageType.CUTTING, Fraction(3, 2), 1, "espada, machado"),
    WoundMultiplier(DamageType.IMPALING, Fraction(2), 1, "lança, flecha, estocada"),
)


def _damage_type(value: DamageType | str) -> DamageType:
    try:
        return DamageType(value)
    except ValueError:
        raise InvalidValue("damage_type", UNKNOWN_DAMAGE_TYPE) from None


def wound_multiplier(damage_type: DamageType | str) -> WoundMultiplier:
    """The row of ``damage_type``; unknown raises InvalidValue("damage_type")."""
    kind = _damage_type(damage_type)
    return next(row for row in WOUND_MULTIPLIERS if row.damage_type is kind)


@dataclass(frozen=True)
class WeaponDamage:
    """A sheet's damage text read at one ST: "GDP+1 perf" at ST 12 → thrust, 1d, imp.
    ``attack`` is None for a fixed expression ("1d+2 cont"); ``damage_type`` None when the
    text names no type."""

    written: str
    attack: Literal["thrust", "swing"] | None
    expression: DiceExpression
    damage_type: DamageType | None


_TYPE_WORDS: dict[str, DamageType] = {
    **dict.fromkeys(("perf", "perfuração", "perfuracao", "perfurante", "imp"), DamageType.IMPALING),
    **dict.fromkeys(("corte", "cort", "cortante", "cut"), DamageType.CUTTING),
    **dict.fromkeys(("cont", "contusão", "contusao", "contundente", "cr"), DamageType.CRUSHING),
}
_ATTACK_WORDS: dict[str, Literal["thrust", "swing"]] = {
    "gdp": "thrust",
    "bal": "swing",
    "balanço": "swing",
    "balanco": "swing",
}
_ATTACK = re.compile(r"(?P<word>[^\s+\-\u2212]+)\s*(?:(?P<sign>[-+\u2212])\s*(?P<bonus>[0-9]+))?")


def weapon_damage(written: str, st: int) -> WeaponDamage:
    """Read a damage text as the canon writes it, at ``st`` (§4.9, p. 73–75).

    "GDP+1 perf", "Bal+2 corte", "Bal cort", "GDP-1 cont" (GDP / Bal / Balanço, any case):
    the ST row's thrust or swing plus the bonus. Or a fixed expression: "1d+2 cont", "2d perf".
    The type word is optional: perf/perfuração/imp, corte/cort/cut, cont/contusão/cr.
    Raises InvalidValue("damage") for unreadable text, InvalidValue("st") below 1 and
    OutsideCanon("4.9") for GDP/Bal above ST 20.
    """
    check_attribute("st", st)
    if not isinstance(written, str) or not written.strip():
        raise InvalidValue("damage", BAD_DAMAGE)
    rest, damage_type = written.strip(), None
    parts = rest.rsplit(None, 1)
    if len(parts) == 2 and parts[1].lower().rstrip(".") in _TYPE_WORDS:
        rest, damage_type = parts[0], _TYPE_WORDS[parts[1].lower().rstrip(".")]
    match = _ATTACK.fullmatch(rest)
    if match and match["word"].lower().rstrip(".") in _ATTACK_WORDS:
        attack = _ATTACK_WORDS[match["word"].lower().rstrip(".")]
        bonus = int(match["bonus"] or 0) * (-1 if match["sign"] in ("-", "\u2212") else 1)
        row = basic_damage(st)
        base = row.thrust if attack == "thrust" else row.swing
        return WeaponDamage(written, attack, base.plus(bonus), damage_type)
    try:
        expression = parse_dice(rest)
    except InvalidDiceExpression:
        raise InvalidValue("damage", BAD_DAMAGE) from None
    return WeaponDamage(written, None, expression, damage_type)


def injury(basic: int, dr: int, damage_type: DamageType | str) -> int:
    """HP lost from ``basic`` rolled damage against ``dr`` (§4.9, p. 73, 74, 100).

    Cutting and impaling basic damage is at least 1, crushing at least 0 (p. 73); subtract
    the DR (nothing below 0); multiply what passed: crushing ×1, cutting +50% rounding down,
    impaling ×2. Lança 7 imp vs DR 3 → 8; gládio 6 cut vs DR 3 → 4. Raises
    InvalidValue("dr") for a negative DR, InvalidValue("damage_type") for an unknown type.
    """
    row = wound_multiplier(damage_type)
    _rolled, _basic, penetrating = _through_dr(row, basic, dr)
    return math.floor(penetrating * row.multiplier)


def _through_dr(row: WoundMultiplier, basic: int, dr: int) -> tuple[int, int, int]:
    """(rolled, basic after the type's minimum, what passes the DR — never below 0)."""
    rolled = require_int("basic", basic)
    require_at_least("dr", dr, 0, NEGATIVE_DR)
    least = max(rolled, row.minimum_basic)
    return rolled, least, max(0, least - dr)


# --- Where the blow lands (§5.5, p. 203) and the caps of §4.13 (Decision 29) -----------------
# Locations are the values of gurps.hit_locations.HitLocation ("torso", "vitals"…).


@dataclass(frozen=True)
class LocationMultiplier:
    """A location whose multiplier for ``damage_type`` replaces the type's own (§5.5, p. 203):
    "Órgãos vitais recebem dano triplo de perfurante" — ×3 instead of ×2 (reading
    ``vitals_triple_replaces_double``). ``location`` is a HitLocation value, ``words`` the
    canon's name for it."""

    location: str
    words: str
    damage_type: DamageType
    multiplier: Fraction
    section: str = "5.5"
    page: str = "203"


LOCATION_MULTIPLIERS: tuple[LocationMultiplier, ...] = (
    LocationMultiplier("vitals", "órgãos vitais", DamageType.IMPALING, Fraction(3)),
)


def _location_multiplier(where: str, damage_type: DamageType) -> LocationMultiplier | None:
    return next(
        (
            special
            for special in LOCATION_MULTIPLIERS
            if special.location == where and special.damage_type is damage_type
        ),
        None,
    )


def location_multiplier(location: HitLocation | str, damage_type: DamageType | str) -> Fraction:
    """What passes the DR is multiplied by this (§4.9, p. 100; §5.5, p. 203): the type's own
    (×1, +50%, ×2), or ×3 for impaling into the vitals (reading
    ``vitals_triple_replaces_double``). Raises InvalidValue("location"/"damage_type")."""
    row = wound_multiplier(damage_type)
    special = _location_multiplier(hit_location(location), row.damage_type)
    return row.multiplier if special is None else special.multiplier


# §4.13: "Decisão 29, aplicada em 13/09/2026." The canon cites no book page for it.
OVERPENETRATION_DECIDED = "13/09/2026"


@dataclass(frozen=True)
class OverpenetrationRule:
    """One row of the table of §4.13 (Decision 29), as data and in the canon's words.

    A cap row: at ``locations`` (HitLocation values), HP lost above ``ht_multiple`` × HT is
    lost (None: no cap at all); ``thrust_only``: only for a thrust (golpe de ponta). The beam
    row has no location and ``beam_multiplier`` 2: a beam, fireball or lightning doubles both
    caps.
    """

    where: str
    what_is_lost: str
    locations: frozenset[str] = frozenset()
    ht_multiple: int | None = None
    thrust_only: bool = False
    beam_multiplier: int = 1
    section: str = "4.13"
    decided: str = OVERPENETRATION_DECIDED


OVERPENETRATION_RULES: tuple[OverpenetrationRule, ...] = (
    OverpenetrationRule(
        "Golpe de ponta no tronco",
        "dano acima da Vitalidade do alvo é perdido",
        frozenset({"torso"}),
        ht_multiple=1,
        thrust_only=True,
    ),
    OverpenetrationRule(
        "Cabeça ou órgãos vitais",
        "dano acima do triplo da Vitalidade é desperdiçado",
        frozenset({"head", "vitals"}),
        ht_multiple=3,
    ),
    OverpenetrationRule(
        "Feixe, bola de fogo, descarga elétrica", "dobram os dois tetos", beam_multiplier=2
    ),
    OverpenetrationRule("Cérebro", "não há teto — tudo o que passa, conta", frozenset({"brain"})),
)
BEAM_CAP_MULTIPLIER = next(
    rule.beam_multiplier for rule in OVERPENETRATION_RULES if rule.beam_multiplier != 1
)


def overpenetration_cap(
    location: HitLocation | str, ht: int, *, thrust: bool = False, beam: bool = False
) -> int | None:
    """The most HP one blow can take at ``location`` (§4.13, Decision 29, 13/09/2026), or
    None for no cap.

    Torso: HT for a thrust (golpe de ponta: damage from the GDP column, reading
    ``golpe_de_ponta_is_gdp``), no cap for anything else. Head or vitals: 3 × HT, whatever the
    attack. A beam, fireball or lightning (``beam``) doubles both caps: 2 × HT in the torso,
    thrust or not, 6 × HT in the head and vitals (reading ``overpenetration_rows_scope``).
    Brain: no cap. Eyes, arms, legs, hands and feet: none here (a limb's crippling cap, §5.5,
    is ``gurps.injury``'s). The cap is on the HP lost, after DR and multiplier (reading
    ``overpenetration_cap_on_hp_lost``).

    ``ht`` in levels, 1 or more. Raises InvalidValue("ht"/"location").
    """
    check_attribute("ht", ht)
    where = hit_location(location)
    rule = next((rule for rule in OVERPENETRATION_RULES if where in rule.locations), None)
    if rule is None or rule.ht_multiple is None:
        return None
    if rule.thrust_only and not (thrust or beam):
        return None
    return rule.ht_multiple * ht * (BEAM_CAP_MULTIPLIER if beam else 1)


def _number(value: int) -> str:
    return str(value).replace("-", "\u2212")


@dataclass(frozen=True)
class Wound:
    """One blow, from the rolled damage to the HP lost, step by step (§4.9, §4.13, §5.5).

    ``rolled``: the basic damage as rolled; ``basic``: after the type's minimum (cutting and
    impaling at least 1, p. 73); ``penetrating``: what passed the ``dr`` (0 or more);
    ``multiplier`` and ``multiplied`` (rounded down); ``cap``: the §4.13 cap in HP (None:
    none); ``lost_to_cap``: the HP wasted above it; ``hp_lost``: what comes off the HP, 0 or
    more. ``location`` is a HitLocation; ``readings``: keys of ``gurps.readings.READINGS``
    the result depends on.
    """

    damage_type: DamageType
    location: HitLocation
    ht: int
    rolled: int
    basic: int
    dr: int
    penetrating: int
    multiplier: Fraction
    multiplied: int
    cap: int | None
    lost_to_cap: int
    hp_lost: int
    readings: tuple[str, ...] = ()

    @property
    def steps(self) -> tuple[str, ...]:
        """Each step in Portuguese with its number, for the scene log."""
        name = DAMAGE_TYPE_NAMES[self.damage_type].capitalize()
        lines = [f"Dano rolado: {_number(self.rolled)}"]
        if self.basic != self.rolled:
            lines.append(f"{name} nunca faz menos de {self.basic} de dano básico")
        lines.append(f"RD {self.dr}: passam {self.penetrating}")
        special = _location_multiplier(self.location, self.damage_type)
        where = f" em {special.words}" if special else ""
        lines.append(f"{name}{where} {_multiplier_words(self.multiplier)}: {self.multiplied}")
        if self.cap is not None:
            line = f"Teto de trespassar (§4.13, HT {self.ht}): {self.cap}"
            if self.lost_to_cap:
                line += f"; perdem-se {self.lost_to_cap}"
            lines.append(line)
        lines.append(f"PV perdidos: {self.hp_lost}")
        return tuple(lines)


def wound(
    basic: int,
    dr: int,
    damage_type: DamageType | str,
    *,
    location: HitLocation | str = "torso",
    ht: int,
    thrust: bool = False,
    beam: bool = False,
) -> Wound:
    """The HP one blow takes, with every step (§4.9, p. 73, 74, 100; §5.5, p. 203; §4.13).

    1. ``basic`` rolled damage; cutting and impaling never below 1 (crushing may be 0).
    2. Subtract ``dr`` (nothing below 0).
    3. Multiply, rounding down: crushing ×1, cutting +50%, impaling ×2 — ×3 into the vitals
       (reading ``vitals_triple_replaces_double``).
    4. The cap of §4.13 for ``location`` (``overpenetration_cap``: ``thrust`` for a golpe de
       ponta, ``beam`` for a beam, fireball or lightning); above it the HP are lost.
    Lança 7 imp vs DR 3 → 8; gládio 6 cut vs DR 3 → 4. A limb's crippling cap (§5.5) is not
    applied here: ``gurps.injury`` has it (``limb_hp_lost``).

    ``location`` a HitLocation (default HitLocation.TORSO, "torso"); ``ht`` the target's HT,
    1 or more; ``dr`` 0 or more. Raises InvalidValue("basic"/"dr"/"damage_type"/"location"/
    "ht").
    """
    row = wound_multiplier(damage_type)
    where = hit_location(location)
    cap = overpenetration_cap(where, ht, thrust=thrust, beam=beam)
    rolled, least, penetrating = _through_dr(row, basic, dr)
    special = _location_multiplier(where, row.damage_type)
    multiplier = row.multiplier if special is None else special.multiplier
    multiplied = math.floor(penetrating * multiplier)
    hp_lost = multiplied if cap is None else min(multiplied, cap)
    readings = []
    if special is not None:
        readings.append("vitals_triple_replaces_double")
    if cap is not None:
        readings.append("overpenetration_cap_on_hp_lost")
    if where == "torso" and not beam:
        readings.append("golpe_de_ponta_is_gdp")
    if beam or where in ("head", "vitals", "eyes"):
        readings.append("overpenetration_rows_scope")
    return Wound(
        damage_type=row.damage_type,
        location=where,
        ht=ht,
        rolled=rolled,
        basic=least,
        dr=dr,
        penetrating=penetrating,
        multiplier=multiplier,
        multiplied=multiplied,
        cap=cap,
        lost_to_cap=multiplied - hp_lost,
        hp_lost=hp_lost,
        readings=tuple(readings),
    )


# --- §5f Atacar coisa que não se defende ---------------------------------------------------------

# §5f: "Objeto não esquiva: acerta-se sem rolagem de defesa" — no active defence at all.
OBJECTS_DEFEND = False
# §5f: a weapon in the enemy's hand is targeted at −5 to break it.
WEAPON_IN_HAND_TO_HIT = -5


class ObjectKind(StrEnum):
    ROPE = "rope"  # corda, couro fino
    WOODEN_DOOR = "wooden_door"  # porta de madeira
    REINFORCED_DOOR = "reinforced_door"  # porta reforçada, baú
    IRON_GRATE = "iron_grate"  # grade de ferro, corrente
    STONE_WALL = "stone_wall"  # parede de pedra, por hex


@dataclass(frozen=True)
class ObjectRow:
    """One row of the objects table of §5f: its DR and HP. ``hp_max`` None: the canon gives
    only a floor ("50+"); ``hp_min`` < ``hp_max``: a range the Mestre picks in ("1 a 3").
    The canon cites no book page for §5f."""

    kind: ObjectKind
    name: str
    dr: int
    hp_min: int
    hp_max: int | None
    section: str = "5f"

    @property
    def hp_words(self) -> str:
        """The HP as the canon writes them: "1 a 3", "10", "50+"."""
        if self.hp_max is None:
            return f"{self.hp_min}+"
        if self.hp_max != self.hp_min:
            return f"{self.hp_min} a {self.hp_max}"
        return str(self.hp_min)


OBJECTS: tuple[ObjectRow, ...] = (
    ObjectRow(ObjectKind.ROPE, "Corda, couro fino", 0, 1, 3),
    ObjectRow(ObjectKind.WOODEN_DOOR, "Porta de madeira", 2, 10, 10),
    ObjectRow(ObjectKind.REINFORCED_DOOR, "Porta reforçada, baú", 4, 20, 20),
    ObjectRow(ObjectKind.IRON_GRATE, "Grade de ferro, corrente", 6, 30, 30),
    ObjectRow(ObjectKind.STONE_WALL, "Parede de pedra, por hex", 8, 50, None),
)


def object_row(kind: ObjectKind | str) -> ObjectRow:
    """The §5f row of ``kind`` ("rope", "wooden_door", …). Raises InvalidValue("object")."""
    try:
        found = ObjectKind(kind)
    except ValueError:
        raise InvalidValue("object", UNKNOWN_OBJECT) from None
    return next(row for row in OBJECTS if row.kind is found)


def weapon_in_hand_dr(*, masterwork: bool = False) -> int:
    """The DR of a weapon in the enemy's hand (§5f): "a RD da própria qualidade" — the canon
    gives no number, so this always raises OutsideCanon("5f"); for a masterwork weapon the
    message adds that it practically does not break. Aim at it at ``WEAPON_IN_HAND_TO_HIT``."""
    raise OutsideCanon(
        "5f", MASTERWORK_DR_NOT_IN_CANON if masterwork else WEAPON_IN_HAND_DR_NOT_IN_CANON
    )


CANON_TABLES: tuple[CanonTable, ...] = (
    CanonTable(
        key="basic_damage",
        title="Dano básico por ST",
        section="4.9",
        page="73–74",
        columns=("ST", "Golpe de Ponta", "Balanço"),
        rows=tuple(
            (row.st_label, row.thrust.display, row.swing.display) for row in BASIC_DAMAGE_TABLE
        ),
        heading="### Dano básico por ST",
        note="A arma soma o próprio bônus por cima (pág. 75).",
    ),
    CanonTable(
        key="wound_multipliers",
        title="Da rolagem ao PV perdido",
        section="4.9",
        page="74 e 100",
        columns=("Tipo", "Multiplicador do que passou pela RD"),
        rows=tuple(
            (
                f"{DAMAGE_TYPE_NAMES[row.damage_type].capitalize()} ({row.examples})",
                row.multiplier_words,
            )
            for row in WOUND_MULTIPLIERS
        ),
        heading="### Da rolagem ao PV perdido",
        note="Role o dano, subtraia a RD, multiplique o que sobrou. O resultado é o que sai dos PV.",
    ),
    CanonTable(
        key="overpenetration_caps",
        title="Os tetos de trespassar",
        section="4.13",
        page="",
        columns=("Onde", "O que se perde"),
        rows=tuple((rule.where, rule.what_is_lost) for rule in OVERPENETRATION_RULES),
        heading="## 4.13 Os tetos de trespassar",
        decided=OVERPENETRATION_DECIDED,
    ),
    CanonTable(
        key="objects",
        title="Atacar coisa que não se defende",
        section="5f",
        page="",
        columns=("Objeto", "RD", "PV"),
        rows=tuple((row.name, str(row.dr), row.hp_words) for row in OBJECTS),
        heading="# 5f. Atacar coisa que não se defende",
        note="Objeto não esquiva: acerta-se sem rolagem de defesa.",
    ),
    CanonTable(
        key="weapon_in_hand",
        title="Arma em punho",
        section="5f",
        page="",
        columns=("Arma em punho", "Regra"),
        rows=(
            ("Mirar a arma para quebrá-la", signed(WEAPON_IN_HAND_TO_HIT)),
            ("RD", "a da própria qualidade"),
            ("Arma de obra-prima", "praticamente não quebra"),
        ),
    ),
)
