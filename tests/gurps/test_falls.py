"""Falls (gurps.falls, canon §4.12)."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
from gurps.falls import (
    ACROBATICS_REDUCTION_METRES,
    FALL_CEILING_METRES,
    FALL_TABLE,
    FallArmour,
    dr_against_fall,
    effective_fall_height,
    fall_band,
    fall_damage,
)
from tests.gurps.helpers import canon_section, canon_table

PROPERTY = settings(database=None, deadline=None)
SECTION = "## 4.12 Quedas"


def test_the_fall_table_is_the_canons_table_row_by_row() -> None:
    rows = canon_table(SECTION)
    assert len(rows) == len(FALL_TABLE)
    for (height, per_metre), band in zip(rows, FALL_TABLE, strict=True):
        assert height == band.label
        assert parse_dice(per_metre.removesuffix(" por metro")) == band.per_metre, height
        assert (band.section, band.page, band.decision) == ("4.12", None, 27)


def test_the_bands_cover_every_whole_metre_without_gaps() -> None:
    for lower, upper in zip(FALL_TABLE, FALL_TABLE[1:], strict=False):
        assert upper.first_metre == lower.last_metre + 1
    assert FALL_TABLE[-1].last_metre is None


def test_the_ceiling_and_the_acrobatics_reduction_are_the_canons() -> None:
    text = canon_section(SECTION)
    assert int(re.search(r"Teto: (\d+) metros", text)[1]) == FALL_CEILING_METRES
    reduction = re.search(r"Acrobacia reduz a altura efetiva em até (\d+) metros", text)
    assert int(reduction[1]) == ACROBATICS_REDUCTION_METRES


def test_the_canons_worked_fall_is_the_engines() -> None:
    text = canon_section(SECTION)
    match = re.search(r"Um vão de (\d+) m entre andares faz\s*>?\s*\*\*([^*]+)\*\*", text)
    assert fall_damage(int(match[1])) == parse_dice(match[2])


@pytest.mark.parametrize(
    ("metres", "damage"),
    [
        (0, "0"),
        (1, "1d-4"),
        (2, "2d-8"),
        (3, "3d-9"),
        (4, "4d-12"),
        (5, "5d-10"),
        (6, "6d-12"),  # the whole height's band, not metre by metre
        (45, "45d-90"),
        (46, "45d-90"),  # "além disso o dano não cresce"
        (300, "45d-90"),
    ],
)
def test_fall_damage_is_the_bands_dice_per_metre(metres: int, damage: str) -> None:
    assert str(fall_damage(metres)) == damage


def test_a_whole_fraction_of_metres_is_read_as_metres() -> None:
    assert fall_damage(Fraction(6)) == DiceExpression(6, -12)


def test_a_fraction_of_a_metre_is_outside_the_canon() -> None:
    with pytest.raises(OutsideCanon) as caught:
        fall_damage(Fraction(9, 2))
    assert (caught.value.rule, caught.value.message) == ("4.12", FALL_HEIGHT_NOT_WHOLE_METRES)


@pytest.mark.parametrize(
    ("metres", "message"),
    [(-1, NEGATIVE_FALL_HEIGHT), ("6", FALL_HEIGHT_NOT_A_NUMBER), (True, FALL_HEIGHT_NOT_A_NUMBER)],
)
def test_fall_damage_refuses_impossible_heights(metres: object, message: str) -> None:
    with pytest.raises(InvalidValue) as caught:
        fall_damage(metres)
    assert (caught.value.field, caught.value.message) == ("metres", message)


def test_the_band_of_a_fall_above_the_ceiling_is_the_last() -> None:
    assert fall_band(100) is FALL_TABLE[-1]


@pytest.mark.parametrize(
    ("metres", "passed", "effective"),
    [(5, True, 0), (20, True, 15), (3, True, 0), (20, False, 20), (60, True, 55)],
)
def test_acrobatics_lowers_the_effective_height_by_up_to_5_metres(
    metres: int, passed: bool, effective: int
) -> None:
    assert effective_fall_height(metres, acrobatics_passed=passed) == effective


def test_mail_protects_with_half_its_dr_and_leather_not_at_all() -> None:
    assert dr_against_fall(4, FallArmour.METAL) == 2
    assert dr_against_fall(5, "metal") == 2  # rounding down
    assert dr_against_fall(3, FallArmour.LEATHER) == 0


def test_other_protection_against_a_fall_is_outside_the_canon() -> None:
    with pytest.raises(OutsideCanon) as caught:
        dr_against_fall(2, FallArmour.OTHER)
    assert (caught.value.rule, caught.value.message) == ("4.12", FALL_DR_OUTSIDE_CANON)


@pytest.mark.parametrize(
    ("dr", "armour", "field", "message"),
    [(-1, "metal", "dr", NEGATIVE_DR), (4, "bronze", "armour", UNKNOWN_FALL_ARMOUR)],
)
def test_dr_against_fall_refuses_impossible_values(
    dr: int, armour: str, field: str, message: str
) -> None:
    with pytest.raises(InvalidValue) as caught:
        dr_against_fall(dr, armour)
    assert (caught.value.field, caught.value.message) == (field, message)


@PROPERTY
@given(st.integers(min_value=0, max_value=200))
def test_fall_damage_dice_never_decrease_as_height_rises(metres: int) -> None:
    lower, higher = fall_damage(metres), fall_damage(metres + 1)
    assert higher.count >= lower.count
    assert higher.maximum >= lower.maximum


@PROPERTY
@given(st.integers(min_value=0, max_value=200), st.booleans())
def test_acrobatics_never_raises_the_height_nor_goes_below_0(metres: int, passed: bool) -> None:
    effective = effective_fall_height(metres, acrobatics_passed=passed)
    assert 0 <= effective <= metres
    assert metres - effective <= ACROBATICS_REDUCTION_METRES


@PROPERTY
@given(st.integers(min_value=0, max_value=100))
def test_armour_never_protects_more_against_a_fall_than_against_a_blow(dr: int) -> None:
    for armour in (FallArmour.METAL, FallArmour.LEATHER):
        assert 0 <= dr_against_fall(dr, armour) <= dr
