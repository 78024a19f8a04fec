from __future__ import annotations

import importlib
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps.attributes import (
    ATTRIBUTE_ROLES,
    CANON_TABLES,
    DERIVED_RULES,
    HT_ROLLS,
    WILL_HELPS_AGAINST_SHOCK,
    WILL_ROLLS,
    basic_speed,
    check_attribute,
    effective_st,
    fatigue_points,
    hit_points,
    is_staggered,
    move,
    will,
)
from gurps.errors import (
    DX_TOO_LOW,
    HT_TOO_LOW,
    IQ_TOO_LOW,
    NEGATIVE_FATIGUE_LOST,
    NEGATIVE_WILL_LEVEL,
    NOT_AN_INTEGER,
    ST_TOO_LOW,
    UNKNOWN_ENCUMBRANCE_LEVEL,
    InvalidValue,
)
from tests.gurps.helpers import canon_section, canon_table

PROPERTY = settings(database=None, deadline=None)


def test_hp_is_ht_and_fatigue_is_st() -> None:
    assert (hit_points(12), fatigue_points(13)) == (12, 13)


def test_basic_speed_is_exact_and_never_rounded() -> None:
    assert basic_speed(14, 13) == Fraction(27, 4)
    assert isinstance(basic_speed(12, 12), Fraction)


@pytest.mark.parametrize(
    ("field", "message"),
    [("st", ST_TOO_LOW), ("dx", DX_TOO_LOW), ("iq", IQ_TOO_LOW), ("ht", HT_TOO_LOW)],
)
def test_it_refuses_an_attribute_of_0(field: str, message: str) -> None:
    with pytest.raises(InvalidValue) as caught:
        check_attribute(field, 0)
    assert (caught.value.field, caught.value.message, str(caught.value)) == (
        field,
        message,
        message,
    )


@pytest.mark.parametrize("value", [True, 10.0, "10", None])
def test_it_refuses_an_attribute_that_is_not_an_integer(value: object) -> None:
    with pytest.raises(InvalidValue) as caught:
        check_attribute("st", value)  # type: ignore[arg-type]
    assert caught.value.message == NOT_AN_INTEGER


def test_it_refuses_st_0_for_hp_speed_and_fatigue() -> None:
    with pytest.raises(InvalidValue, match=ST_TOO_LOW):
        fatigue_points(0)
    with pytest.raises(InvalidValue) as caught:
        basic_speed(10, 0)
    assert caught.value.field == "ht"


@pytest.mark.parametrize(
    ("hp", "staggered"), [(4, False), (3, True), (1, True), (0, True), (-5, True)]
)
def test_one_is_staggered_at_3_hp_or_less_including_0_and_below(hp: int, staggered: bool) -> None:
    assert is_staggered(hp) is staggered


def test_fatigue_lowers_st_but_never_below_0() -> None:
    assert effective_st(10, 4) == 6
    assert effective_st(10, 14) == 0


def test_it_refuses_negative_fatigue() -> None:
    with pytest.raises(InvalidValue) as caught:
        effective_st(10, -1)
    assert (caught.value.field, caught.value.message) == ("fatigue_lost", NEGATIVE_FATIGUE_LOST)


@pytest.mark.parametrize(
    ("speed", "level", "expected"),
    [
        (Fraction(27, 4), 0, 6),
        (Fraction(27, 4), 1, 5),
        (Fraction(27, 4), 4, 2),
        (Fraction(6), 2, 4),
        (Fraction(15, 4), 4, 0),  # 3,75 − 4 has no negative Move
        (Fraction(27, 4), None, 0),  # over 10×ST
    ],
)
def test_move_is_basic_speed_less_the_carga_level_rounded_down(
    speed: Fraction, level: int | None, expected: int
) -> None:
    assert move(speed, level) == expected


def test_move_is_halved_once_at_3_hp_or_less_or_st_3_or_less() -> None:
    speed = Fraction(27, 4)
    assert move(speed, 0, hp_remaining=4, st=10, fatigue_lost=6) == 6
    assert move(speed, 0, hp_remaining=3) == 3
    assert move(speed, 0, hp_remaining=-2) == 3
    assert move(speed, 0, st=10, fatigue_lost=7) == 3
    assert move(speed, 1, hp_remaining=2, st=10, fatigue_lost=10) == 2  # 5 halved once


def test_move_refuses_an_unknown_carga_level() -> None:
    with pytest.raises(InvalidValue) as caught:
        move(Fraction(6), 5)
    assert (caught.value.field, caught.value.message) == (
        "encumbrance_level",
        UNKNOWN_ENCUMBRANCE_LEVEL,
    )


# --- §2 and §2.1 as tables, §7 resistance rolls ----------------------------------------------


def test_the_attribute_roles_are_the_canons_table() -> None:
    rows = canon_table("# 2. Os quatro atributos e o que sai deles")
    assert [[f"{r.abbreviation} {r.name}", r.governs] for r in ATTRIBUTE_ROLES] == rows
    assert [r.attribute for r in ATTRIBUTE_ROLES] == ["st", "dx", "iq", "ht"]


def test_each_derived_rule_is_the_canons_row_and_names_a_real_function() -> None:
    rows = canon_table("## 2.1 Os derivados")
    assert [[r.name, r.formula, f"pág. {r.page}"] for r in DERIVED_RULES] == rows
    for rule in DERIVED_RULES:
        module, name = rule.computed_by.rsplit(".", 1)
        assert callable(getattr(importlib.import_module(module), name)), rule.computed_by


def test_the_tables_are_built_from_the_rules() -> None:
    keys = {table.key: table for table in CANON_TABLES}
    assert keys["derived"].rows == tuple(
        (r.name, r.formula, f"pág. {r.page}") for r in DERIVED_RULES
    )
    assert len(keys["resistance_rolls"].rows) == len(WILL_ROLLS) + len(HT_ROLLS)


def test_will_is_iq_plus_strong_will_minus_weak_will() -> None:
    text = canon_section("## 7.1 Vontade").replace("**", "")
    assert "Vontade = IQ, mais os níveis da vantagem Força de Vontade" in text
    assert "menos os da desvantagem Vontade Fraca" in text
    assert will(11) == 11
    assert will(11, strong_will=2) == 13
    assert will(11, weak_will=3) == 8
    assert will(11, 2, 1) == 12
    assert WILL_HELPS_AGAINST_SHOCK is False
    assert "Vontade não ajuda contra choque de combate." in text


def test_will_refuses_negative_levels_and_iq_0() -> None:
    with pytest.raises(InvalidValue) as caught:
        will(10, strong_will=-1)
    assert (caught.value.field, caught.value.message) == ("strong_will", NEGATIVE_WILL_LEVEL)
    with pytest.raises(InvalidValue) as caught:
        will(0)
    assert (caught.value.field, caught.value.message) == ("iq", IQ_TOO_LOW)


def test_the_ht_rolls_are_the_canons_list_in_its_order() -> None:
    text = canon_section("## 7.2 HT").replace("**", "")
    listed = re.search(r"Testa-se HT para: (.*)\. É o atributo", text)[1]
    items = [item.removeprefix("e ") for item in re.split(r", (?![^(]*\))", listed)]
    assert [roll.what for roll in HT_ROLLS] == items
    assert all(roll.section == "7.2" for roll in HT_ROLLS)


def test_the_will_rolls_are_in_the_canons_words() -> None:
    text = canon_section("## 7.1 Vontade").replace("**", "")
    for roll in WILL_ROLLS:
        words = roll.what.removeprefix("resistir a ").removeprefix("resistir à ")
        assert words in text, roll.what


@PROPERTY
@given(
    st.integers(min_value=1, max_value=25),
    st.integers(min_value=0, max_value=5),
    st.integers(min_value=0, max_value=5),
)
def test_each_level_of_strong_will_adds_one_and_weak_will_takes_one(
    iq: int, plus: int, minus: int
) -> None:
    assert will(iq, plus, minus) - will(iq) == plus - minus
