from __future__ import annotations

import pytest

from gurps.dice import DiceExpression, parse_dice, roll_3d6
from gurps.errors import NEGATIVE_DICE_COUNT, InvalidDiceExpression, InvalidValue
from tests.gurps.helpers import ScriptedSource


@pytest.mark.parametrize(
    ("text", "count", "modifier"),
    [
        ("3d6", 3, 0),
        ("3d", 3, 0),
        ("1d-1", 1, -1),
        ("2d+1", 2, 1),
        ("6D−12", 6, -12),
        ("1d6-2", 1, -2),
        ("  2d+2 ", 2, 2),
        ("0", 0, 0),
        ("1d−5", 1, -5),
    ],
)
def test_it_reads_the_ways_the_canon_writes_dice(text: str, count: int, modifier: int) -> None:
    assert parse_dice(text) == DiceExpression(count, modifier)


@pytest.mark.parametrize(
    "text", ["", "d6", "1d8", "2d10", "0d", "1d-", "1 d", "1d +1", "x", "1d+1d", "2d6+", "1.5d"]
)
def test_it_refuses_text_that_is_not_a_d6_expression(text: str) -> None:
    with pytest.raises(InvalidDiceExpression) as caught:
        parse_dice(text)
    assert caught.value.text == text


@pytest.mark.parametrize(
    ("expression", "text"),
    [
        (DiceExpression(1, -1), "1d-1"),
        (DiceExpression(1), "1d"),
        (DiceExpression(2, 1), "2d+1"),
        (DiceExpression(6, -12), "6d-12"),
        (DiceExpression(0), "0"),
    ],
)
def test_it_writes_the_canonical_ascii_form(expression: DiceExpression, text: str) -> None:
    assert str(expression) == text


def test_it_displays_the_canons_typographic_minus() -> None:
    assert DiceExpression(1, -1).display == "1d−1"


def test_a_weapon_bonus_adds_to_the_modifier() -> None:
    assert DiceExpression(1, -1).plus(1) == DiceExpression(1, 0)
    assert str(DiceExpression(2, -1).plus(3)) == "2d+2"


def test_it_refuses_a_negative_number_of_dice() -> None:
    with pytest.raises(InvalidValue) as caught:
        DiceExpression(-1)
    assert (caught.value.field, caught.value.message) == ("dice", NEGATIVE_DICE_COUNT)


def test_a_roll_sums_the_faces_and_the_modifier_and_may_go_below_zero() -> None:
    assert DiceExpression(1, -5).roll(ScriptedSource([2])) == ((2,), -3)
    assert DiceExpression(3, 2).roll(ScriptedSource([6, 1, 4])) == ((6, 1, 4), 13)


def test_minimum_and_maximum_bound_the_total() -> None:
    assert (DiceExpression(2, -1).minimum, DiceExpression(2, -1).maximum) == (1, 11)


def test_3d6_returns_three_faces_in_the_order_rolled() -> None:
    assert roll_3d6(ScriptedSource([5, 2, 6])) == (5, 2, 6)
