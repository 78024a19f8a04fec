from __future__ import annotations

from fractions import Fraction

import pytest

from gurps.attributes import (
    basic_speed,
    check_attribute,
    effective_st,
    fatigue_points,
    hit_points,
    is_staggered,
    move,
)
from gurps.errors import (
    DX_TOO_LOW,
    HT_TOO_LOW,
    IQ_TOO_LOW,
    NEGATIVE_FATIGUE_LOST,
    NOT_AN_INTEGER,
    ST_TOO_LOW,
    UNKNOWN_ENCUMBRANCE_LEVEL,
    InvalidValue,
)


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
    assert move(speed, 0, hp_remaining=4, st_after_fatigue=4) == 6
    assert move(speed, 0, hp_remaining=3) == 3
    assert move(speed, 0, hp_remaining=-2) == 3
    assert move(speed, 0, st_after_fatigue=3) == 3
    assert move(speed, 1, hp_remaining=2, st_after_fatigue=0) == 2  # 5 halved once


def test_move_refuses_an_unknown_carga_level() -> None:
    with pytest.raises(InvalidValue) as caught:
        move(Fraction(6), 5)
    assert (caught.value.field, caught.value.message) == (
        "encumbrance_level",
        UNKNOWN_ENCUMBRANCE_LEVEL,
    )
