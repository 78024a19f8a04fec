"""Falls (canon §4.12, Decision 27, applied on 13/09/2026): damage by metres fallen, the
ceiling at 45 m, Acrobatics lowering the effective height, and armour against a fall.

The canon cites no book page for this section. Heights are whole metres: the canon's bands
("até 2 m", "até 4 m", "de 5 m em diante") leave no place for a fraction of a metre.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from gurps._validate import require_at_least
from gurps.dice import DiceExpression, parse_dice
from gurps.errors import (
    FALL_DR_OUTSIDE_CANON,
    FALL_HEIGHT_NOT_A_NUMBER,
    FALL_HEIGHT_NOT_WHOLE_METRES,
    NEGATIVE_DR,
    NEGATIVE_FALL_HEIGHT,
    UNKNOWN_FALL_ARMOUR,
    InvalidValue,
    OutsideCanon,
)
from gurps.tabular import CanonTable


@dataclass(frozen=True)
class FallBand:
    """One row of the canon's fall table: falls of ``first_metre`` up to ``last_metre``
    metres (None: and beyond) do ``per_metre`` for each metre fallen."""

    first_metre: int
    last_metre: int | None
    per_metre: DiceExpression
    section: str = "4.12"
    page: str | None = None  # the canon cites none: Decision 27
    decision: int = 27

    @property
    def label(self) -> str:
        """The row as the canon writes it: "até 2 m", "de 5 m em diante"."""
        if self.last_metre is None:
            return f"de {self.first_metre} m em diante"
        return f"até {self.last_metre} m"

    def damage(self, metres: int) -> DiceExpression:
        """``per_metre`` times ``metres``: 6 m at 1d−2 per metre → 6d−12."""
        return DiceExpression(self.per_metre.count * metres, self.per_metre.modifier * metres)


FALL_TABLE: tuple[FallBand, ...] = (
    FallBand(0, 2, parse_dice("1d-4")),
    FallBand(3, 4, parse_dice("1d-3")),
    FallBand(5, None, parse_dice("1d-2")),
)
# §4.12: "Decisão 27, aplicada em 13/09/2026."
FALL_DECISION_APPLIED = "13/09/2026"
# §4.12: "Teto: 45 metros. Além disso o dano não cresce."
FALL_CEILING_METRES = 45
# §4.12: "Acrobacia reduz a altura efetiva em até 5 metros, com um teste."
ACROBATICS_REDUCTION_METRES = 5
# §4.12: medieval metal armour protects with half its DR, rounding down; leather, not at all.
METAL_DR_AGAINST_FALL = Fraction(1, 2)


def _metres(metres: object) -> int:
    """Whole metres, 0 or more. A non-whole number is outside the canon's bands."""
    if isinstance(metres, bool) or not isinstance(metres, int | Fraction):
        raise InvalidValue("metres", FALL_HEIGHT_NOT_A_NUMBER)
    if metres < 0:
        raise InvalidValue("metres", NEGATIVE_FALL_HEIGHT)
    if isinstance(metres, Fraction):
        if metres.denominator != 1:
            raise OutsideCanon("4.12", FALL_HEIGHT_NOT_WHOLE_METRES)
        return int(metres)
    return metres


def fall_band(metres: int) -> FallBand:
    """The row of the fall table for a fall of ``metres`` (§4.12). Above the 45 m ceiling the
    row of "de 5 m em diante" still applies.

    ``metres`` whole metres, 0 or more (int, or a whole Fraction). Raises
    InvalidValue("metres") for a negative or non-numeric height, OutsideCanon("4.12") for a
    fraction of a metre.
    """
    height = _metres(metres)
    return next(band for band in FALL_TABLE if band.last_metre is None or height <= band.last_metre)


def fall_damage(metres: int) -> DiceExpression:
    """The damage of a fall of ``metres`` (§4.12): the band of the whole height, per metre,
    times the metres, counted up to the 45 m ceiling ("além disso o dano não cresce").
    6 m → 6d−12 (not 2 m at 1d−4 plus 2 at 1d−3 plus 2 at 1d−2); 60 m → 45d−90; 0 m → 0.

    Pass the effective height (after Acrobatics, ``effective_fall_height``). ``metres`` whole
    metres, 0 or more. Raises InvalidValue("metres"), and OutsideCanon("4.12") for a fraction
    of a metre.
    """
    height = min(_metres(metres), FALL_CEILING_METRES)
    return fall_band(height).damage(height)


def effective_fall_height(metres: int, *, acrobatics_passed: bool) -> int:
    """The height that counts for damage (§4.12): a passed Acrobatics roll lowers it by up
    to 5 m, never below 0 (5 m → 0; 20 m → 15); a failed or no roll leaves it as it is.
    The 45 m ceiling applies afterwards, to the damage (``fall_damage``).

    ``metres`` whole metres, 0 or more. Raises InvalidValue("metres"), and
    OutsideCanon("4.12") for a fraction of a metre.
    """
    height = _metres(metres)
    if not acrobatics_passed:
        return height
    return max(0, height - ACROBATICS_REDUCTION_METRES)


class FallArmour(StrEnum):
    """What the armour is made of, for a fall (§4.12). ``OTHER`` — cloth, natural DR, magic —
    is a material the canon does not cover for falls."""

    METAL = "metal"  # armadura de metal medieval: cota de malha, placas...
    LEATHER = "leather"  # couro
    OTHER = "other"


def _fall_armour(value: FallArmour | str) -> FallArmour:
    try:
        return FallArmour(value)
    except ValueError:
        raise InvalidValue("armour", UNKNOWN_FALL_ARMOUR) from None


def dr_against_fall(dr: int, armour: FallArmour | str) -> int:
    """The DR an armour keeps against a fall (§4.12): medieval metal protects with half its
    DR, rounding down (mail of DR 4 → 2); leather does not protect (0): "amortece golpe,
    não chão".

    ``dr`` the armour's DR, 0 or more; ``armour`` "metal", "leather" or "other". Raises
    InvalidValue("dr"/"armour"), and OutsideCanon("4.12") for "other".
    """
    value = require_at_least("dr", dr, 0, NEGATIVE_DR)
    material = _fall_armour(armour)
    if material is FallArmour.METAL:
        return int(value * METAL_DR_AGAINST_FALL)
    if material is FallArmour.LEATHER:
        return 0
    raise OutsideCanon("4.12", FALL_DR_OUTSIDE_CANON)


CANON_TABLES: tuple[CanonTable, ...] = (
    CanonTable(
        key="falls",
        title="Quedas",
        section=FALL_TABLE[0].section,
        page="",  # the canon cites no book page: Decision 27
        columns=("Altura da queda", "Dano por metro"),
        # The canon writes these dice with a capital D: "1D−4 por metro".
        rows=tuple(
            (band.label, f"{band.per_metre.display.upper()} por metro") for band in FALL_TABLE
        ),
        heading="## 4.12 Quedas",
        decided=FALL_DECISION_APPLIED,
        notes=(
            f"Decisão {FALL_TABLE[0].decision}, aplicada em {FALL_DECISION_APPLIED}.",
            f"Teto: {FALL_CEILING_METRES} metros. Além disso o dano não cresce.",
            f"Acrobacia reduz a altura efetiva em até {ACROBATICS_REDUCTION_METRES} metros, "
            "com um teste.",
            "Armadura de metal medieval protege com metade da resistência, arredondada para "
            "baixo. Couro não protege contra queda: amortece golpe, não chão.",
        ),
    ),
)
