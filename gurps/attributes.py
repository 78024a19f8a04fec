"""The four attributes and what comes out of them (canon §2.1; book p. 12, 15, 77, 134),
with the halvings of Move at 3 HP or less (§5.4, p. 126) and at ST 3 or less from fatigue
(§6.2, p. 134).
"""

from __future__ import annotations

import math
from fractions import Fraction

from gurps._validate import check_attribute, require_at_least, require_int
from gurps.encumbrance import encumbrance_row
from gurps.errors import (
    BASIC_SPEED_NOT_A_NUMBER,
    NEGATIVE_FATIGUE_LOST,
    NEGATIVE_ST_AFTER_FATIGUE,
    InvalidValue,
)

__all__ = [
    "LOW_ST_AT",
    "STAGGERED_AT",
    "basic_speed",
    "check_attribute",
    "effective_st",
    "fatigue_points",
    "hit_points",
    "is_staggered",
    "move",
]

# §5.4 (p. 126 and 99): at 3, 2 or 1 HP, Move and Dodge are halved. README reading: 0 and
# below too.
STAGGERED_AT = 3
# §6.2 (p. 134): Move does not change until ST falls to 3; from there down, it is halved.
LOW_ST_AT = 3


def hit_points(ht: int) -> int:
    """PV = HT (§2.1, p. 12). Raises InvalidValue("ht") below 1."""
    check_attribute("ht", ht)
    return ht


def fatigue_points(st: int) -> int:
    """Fadiga = ST (§2.1, p. 134). Raises InvalidValue("st") below 1."""
    check_attribute("st", st)
    return st


def basic_speed(dx: int, ht: int) -> Fraction:
    """(DX + HT) ÷ 4, never rounded (§2.1, p. 15): DX 14, HT 13 → 27/4 (6,75).
    Raises InvalidValue("dx"/"ht") below 1."""
    check_attribute("dx", dx)
    check_attribute("ht", ht)
    return Fraction(dx + ht, 4)


def is_staggered(hp_remaining: int) -> bool:
    """True at 3 HP remaining or less, 0 and negative included (§5.4, README reading)."""
    return require_int("hp_remaining", hp_remaining) <= STAGGERED_AT


def effective_st(st: int, fatigue_lost: int) -> int:
    """ST after fatigue: ST − fatigue lost, never below 0 (§6.2, p. 134: "Fadiga negativa
    não existe"). Raises InvalidValue("st") below 1, InvalidValue("fatigue_lost") if negative."""
    check_attribute("st", st)
    require_at_least("fatigue_lost", fatigue_lost, 0, NEGATIVE_FATIGUE_LOST)
    return max(0, st - fatigue_lost)


def move(
    basic_speed: Fraction,
    encumbrance_level: int | None,
    *,
    hp_remaining: int | None = None,
    st_after_fatigue: int | None = None,
) -> int:
    """Move in levels (hexes per turn): floor(basic speed − Carga level) (§2.1, p. 77).

    ``encumbrance_level`` None means over 10×ST: Move 0 (README reading). Never below 0 — a
    reading: the canon gives no negative Move. Halved, rounding down, once if staggered
    (``hp_remaining`` ≤ 3, §5.4) or if ``st_after_fatigue`` ≤ 3 (§6.2); both at once halve
    once (README reading). Raises InvalidValue("basic_speed", "encumbrance_level",
    "st_after_fatigue") for impossible inputs.
    """
    if (
        isinstance(basic_speed, bool)
        or not isinstance(basic_speed, int | Fraction)
        or basic_speed < 0
    ):
        raise InvalidValue("basic_speed", BASIC_SPEED_NOT_A_NUMBER)
    if encumbrance_level is None:
        value = 0
    else:
        penalty = encumbrance_row(encumbrance_level).move_penalty
        value = max(0, math.floor(basic_speed + penalty))
    staggered = hp_remaining is not None and is_staggered(hp_remaining)
    low_st = st_after_fatigue is not None and (
        require_at_least("st_after_fatigue", st_after_fatigue, 0, NEGATIVE_ST_AFTER_FATIGUE)
        <= LOW_ST_AT
    )
    return value // 2 if staggered or low_st else value
