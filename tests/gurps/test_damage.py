from __future__ import annotations

import re
from fractions import Fraction

import pytest

from gurps.damage import (
    BASIC_DAMAGE_TABLE,
    DAMAGE_TYPE_NAMES,
    WOUND_MULTIPLIERS,
    DamageType,
    WeaponDamage,
    basic_damage,
    injury,
    weapon_damage,
)
from gurps.dice import DiceExpression, parse_dice
from gurps.errors import (
    BAD_DAMAGE,
    NEGATIVE_DR,
    ST_ABOVE_DAMAGE_TABLE,
    ST_TOO_LOW,
    UNKNOWN_DAMAGE_TYPE,
    InvalidValue,
    OutsideCanon,
)
from tests.gurps.helpers import canon_table


def test_the_damage_table_is_the_canons_table_row_by_row() -> None:
    rows = canon_table("### Dano básico por ST")
    assert len(rows) == len(BASIC_DAMAGE_TABLE)
    for (st, thrust, swing), row in zip(rows, BASIC_DAMAGE_TABLE, strict=True):
        assert st == row.st_label
        assert (parse_dice(thrust), parse_dice(swing)) == (row.thrust, row.swing), st
        assert (row.section, row.page) == ("4.9", "73–74")


def test_the_wound_multipliers_are_the_canons_table() -> None:
    words = {
        "Contusão": DamageType.CRUSHING,
        "Corte": DamageType.CUTTING,
        "Perfuração": DamageType.IMPALING,
    }
    read = {}
    for kind, rule in canon_table("### Da rolagem ao PV perdido"):
        damage_type = words[kind.split()[0]]
        if match := re.match(r"× (\d+)", rule):
            read[damage_type] = Fraction(int(match[1]))
        else:
            percent = int(re.match(r"\+(\d+)%, arredondando para baixo", rule)[1])
            read[damage_type] = 1 + Fraction(percent, 100)
    assert read == {row.damage_type: row.multiplier for row in WOUND_MULTIPLIERS}
    assert all((row.section, row.page) == ("4.9", "100") for row in WOUND_MULTIPLIERS)


@pytest.mark.parametrize("st", [1, 3, 4])
def test_st_4_or_less_does_no_basic_damage(st: int) -> None:
    row = basic_damage(st)
    assert (str(row.thrust), str(row.swing), row.st_label) == ("0", "0", "4 ou menos")


def test_st_above_20_is_outside_the_canon() -> None:
    with pytest.raises(OutsideCanon) as caught:
        basic_damage(21)
    assert (caught.value.rule, caught.value.message) == ("4.9", ST_ABOVE_DAMAGE_TABLE)


def test_st_0_is_refused() -> None:
    with pytest.raises(InvalidValue) as caught:
        basic_damage(0)
    assert (caught.value.field, caught.value.message) == ("st", ST_TOO_LOW)


def test_a_thrusting_spear_at_st_12_does_1d_impaling() -> None:
    assert weapon_damage("GDP+1 perf", 12) == WeaponDamage(
        "GDP+1 perf", "thrust", DiceExpression(1), DamageType.IMPALING
    )
    assert str(weapon_damage("GDP+1 perf", 12).expression) == "1d"


@pytest.mark.parametrize(
    ("written", "st", "attack", "expression", "damage_type"),
    [
        ("GDP perf", 12, "thrust", "1d-1", DamageType.IMPALING),
        ("Bal+2 corte", 12, "swing", "1d+4", DamageType.CUTTING),
        ("Bal cort", 13, "swing", "2d-1", DamageType.CUTTING),
        ("GDP-1 cont", 10, "thrust", "1d-3", DamageType.CRUSHING),
        ("gdp − 1 contusão", 10, "thrust", "1d-3", DamageType.CRUSHING),
        ("Balanço+1", 14, "swing", "2d+1", None),
        ("bal imp", 11, "swing", "1d+1", DamageType.IMPALING),
        ("1d+2 cont", 25, None, "1d+2", DamageType.CRUSHING),
        ("2d perf", 3, None, "2d", DamageType.IMPALING),
        ("1d−1 cut", 12, None, "1d-1", DamageType.CUTTING),
    ],
)
def test_it_reads_damage_as_a_sheet_writes_it(
    written: str, st: int, attack: str | None, expression: str, damage_type: DamageType | None
) -> None:
    result = weapon_damage(written, st)
    assert (result.written, result.attack, str(result.expression), result.damage_type) == (
        written,
        attack,
        expression,
        damage_type,
    )


def test_a_swing_or_thrust_above_st_20_is_outside_the_canon() -> None:
    with pytest.raises(OutsideCanon):
        weapon_damage("Bal+1 corte", 21)


@pytest.mark.parametrize(
    "written", ["", "perf", "GDP+ perf", "Golpe perf", "1d8 cont", "GDP+1 fogo"]
)
def test_it_refuses_unreadable_damage(written: str) -> None:
    with pytest.raises(InvalidValue) as caught:
        weapon_damage(written, 12)
    assert (caught.value.field, caught.value.message) == ("damage", BAD_DAMAGE)


@pytest.mark.parametrize(
    ("basic", "dr", "damage_type", "hp_lost"),
    [
        (7, 3, "imp", 8),
        (6, 3, "cut", 4),
        (5, 3, "cr", 2),
        (3, 3, "cr", 0),
        (-2, 0, "cr", 0),  # crushing may do 0
        (-2, 0, "cut", 1),  # cutting never below 1 basic
        (0, 0, "imp", 2),  # impaling never below 1 basic, then ×2
        (2, 5, "imp", 0),  # nothing passes the DR
    ],
)
def test_injury_subtracts_dr_then_multiplies_by_type(
    basic: int, dr: int, damage_type: str, hp_lost: int
) -> None:
    assert injury(basic, dr, damage_type) == hp_lost


def test_injury_refuses_negative_dr_and_unknown_types() -> None:
    with pytest.raises(InvalidValue) as caught:
        injury(5, -1, DamageType.CRUSHING)
    assert (caught.value.field, caught.value.message) == ("dr", NEGATIVE_DR)
    with pytest.raises(InvalidValue) as caught:
        injury(5, 0, "fire")
    assert (caught.value.field, caught.value.message) == ("damage_type", UNKNOWN_DAMAGE_TYPE)


def test_every_damage_type_has_a_portuguese_name() -> None:
    assert DAMAGE_TYPE_NAMES == {
        DamageType.CRUSHING: "contusão",
        DamageType.CUTTING: "corte",
        DamageType.IMPALING: "perfuração",
    }
