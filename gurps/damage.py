"""Damage: the basic damage table by ST, a weapon's damage as a sheet writes it, and the
steps from the rolled damage to HP lost (canon §4.9; book p. 73–75, 100).
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
    NEGATIVE_DR,
    ST_ABOVE_DAMAGE_TABLE,
    UNKNOWN_DAMAGE_TYPE,
    InvalidDiceExpression,
    InvalidValue,
    OutsideCanon,
)
from gurps.tabular import CanonTable


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
    ``minimum_basic`` is the least basic damage of the type (p. 73)."""

    damage_type: DamageType
    multiplier: Fraction
    minimum_basic: int
    section: str = "4.9"
    page: str = "100"


WOUND_MULTIPLIERS: tuple[WoundMultiplier, ...] = (
    WoundMultiplier(DamageType.CRUSHING, Fraction(1), 0),
    WoundMultiplier(DamageType.CUTTING, Fraction(3, 2), 1),
    WoundMultiplier(DamageType.IMPALING, Fraction(2), 1),
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
    basic = max(require_int("basic", basic), row.minimum_basic)
    require_at_least("dr", dr, 0, NEGATIVE_DR)
    return math.floor(max(0, basic - dr) * row.multiplier)


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
)
