"""Carga: the weight carried, measured against ST (canon §2.2, book p. 76).

Weights are kg as exact Fractions; every bound is inclusive ("Peso até"): at ST 13, 13 kg
is still Nenhuma and 13,001 kg is Leve.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from gurps._validate import check_attribute, require_exact_non_negative
from gurps.errors import (
    NEGATIVE_WEIGHT,
    UNKNOWN_ENCUMBRANCE_LEVEL,
    WEIGHT_NOT_A_NUMBER,
    InvalidValue,
)
from gurps.tabular import CanonTable, signed


@dataclass(frozen=True)
class EncumbranceLevel:
    """One row of the Carga table: up to ``multiplier`` × ST kg, ``move_penalty`` to Move."""

    level: int
    name: str
    multiplier: int
    move_penalty: int
    section: str = "2.2"
    page: str = "76"


ENCUMBRANCE_LEVELS: tuple[EncumbranceLevel, ...] = (
    EncumbranceLevel(0, "Nenhuma", 1, 0),
    EncumbranceLevel(1, "Leve", 2, -1),
    EncumbranceLevel(2, "Média", 3, -2),
    EncumbranceLevel(3, "Pesada", 6, -3),
    EncumbranceLevel(4, "Muito Pesada", 10, -4),
)

# "15 × ST é o maior peso que se ergue, e não se anda com ele." (§2.2, p. 76)
LIFT_MULTIPLIER = 15
LIFT_SECTION = "2.2"
LIFT_PAGE = "76"

# README reading: between 10×ST and 15×ST it can be lifted, not carried; Move 0.
LIFT_ONLY_NAME = "Acima de Muito Pesada — só se ergue, não se anda"
CANNOT_LIFT_NAME = "Acima de 15×ST — não se ergue"


@dataclass(frozen=True)
class Encumbrance:
    """Where a load falls for a given ST.

    ``level`` 0–4, or None above 10×ST; ``max_kg`` is the upper bound of the band (15×ST in
    the lift-only band, None above it). ``can_move`` False above 10×ST; ``can_lift`` False
    above 15×ST.
    """

    level: int | None
    name: str
    carried_kg: Fraction
    max_kg: Fraction | None
    can_move: bool
    can_lift: bool


def encumbrance_row(level: int) -> EncumbranceLevel:
    """The table row of ``level`` 0–4; anything else raises InvalidValue("encumbrance_level")."""
    if isinstance(level, bool) or level not in range(len(ENCUMBRANCE_LEVELS)):
        raise InvalidValue("encumbrance_level", UNKNOWN_ENCUMBRANCE_LEVEL)
    return ENCUMBRANCE_LEVELS[level]


def to_kg(value: Fraction | Decimal | int | float | str, field: str = "carried_kg") -> Fraction:
    """``value`` as exact kg. A float goes through its shortest text (0.1 → 1/10, not binary
    noise); a str may use a decimal comma ("12,5"). Raises InvalidValue(field) for a
    non-number or a negative weight."""
    return require_exact_non_negative(field, value, WEIGHT_NOT_A_NUMBER, NEGATIVE_WEIGHT)


def lift_max_kg(st: int) -> Fraction:
    """15 × ST kg: the most one lifts, and does not walk with it (§2.2, p. 76)."""
    check_attribute("st", st)
    return Fraction(LIFT_MULTIPLIER * st)


def encumbrance_bounds(st: int) -> list[tuple[EncumbranceLevel, Fraction]]:
    """Each level with its maximum kg at ``st``: ST 13 → 13, 26, 39, 78, 130 (§2.2, p. 76)."""
    check_attribute("st", st)
    return [(row, Fraction(row.multiplier * st)) for row in ENCUMBRANCE_LEVELS]


def encumbrance(st: int, carried_kg: Fraction | Decimal | int | float | str) -> Encumbrance:
    """The Carga of ``carried_kg`` at ``st`` (§2.2, p. 76); bounds inclusive.

    Raises InvalidValue("st") for ST below 1 and InvalidValue("carried_kg") for a negative
    or non-numeric weight.
    """
    check_attribute("st", st)
    kg = to_kg(carried_kg)
    for row, max_kg in encumbrance_bounds(st):
        if kg <= max_kg:
            return Encumbrance(row.level, row.name, kg, max_kg, can_move=True, can_lift=True)
    lift = lift_max_kg(st)
    if kg <= lift:
        return Encumbrance(None, LIFT_ONLY_NAME, kg, lift, can_move=False, can_lift=True)
    return Encumbrance(None, CANNOT_LIFT_NAME, kg, None, can_move=False, can_lift=False)


def _weight_cell(row: EncumbranceLevel) -> str:
    # The canon writes the first bound "ST kg" and the others "2 × ST".
    return "ST kg" if row.multiplier == 1 else f"{row.multiplier} × ST"


def _cost_cell(row: EncumbranceLevel) -> str:
    return f"{signed(row.move_penalty)} no Deslocamento" if row.move_penalty else "—"


CANON_TABLES: tuple[CanonTable, ...] = (
    CanonTable(
        key="encumbrance",
        title="Carga",
        section=ENCUMBRANCE_LEVELS[0].section,
        page=ENCUMBRANCE_LEVELS[0].page,
        columns=("Nível", "Peso até", "Custo"),
        rows=tuple(
            (f"{row.name} ({row.level})", _weight_cell(row), _cost_cell(row))
            for row in ENCUMBRANCE_LEVELS
        ),
        heading="## 2.2 Carga",
        note=(
            f"{LIFT_MULTIPLIER} × ST é o maior peso que se ergue, e não se anda com ele. "
            f"(pág. {LIFT_PAGE})"
        ),
    ),
)
