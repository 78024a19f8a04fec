"""GURPS's d6 notation on top of the general engine: the same dice, totals and odds as before."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import product

from hypothesis import given
from hypothesis import strategies as st

import dice
from gurps.checks import RollKind, success_outcome, success_probability
from gurps.defence import defence_chance
from gurps.dice import DiceExpression, parse_dice, roll_3d6, three_d6_distribution
from rulesets.gurps3e.dice import DICE
from tests.gurps.helpers import ScriptedSource


def test_3d6s_distribution_is_the_enumeration_of_216_rolls() -> None:
    counts = Counter(sum(faces) for faces in product(range(1, 7), repeat=3))
    assert three_d6_distribution() == dict(sorted(counts.items()))


@given(st.integers(-30, 30))
def test_the_odds_are_those_of_the_216_rolls(level: int) -> None:
    rolls = [sum(faces) for faces in product(range(1, 7), repeat=3)]
    passes = sum(success_outcome(r, level).is_success for r in rolls)
    defends = sum(success_outcome(r, level, RollKind.DEFENCE).is_success for r in rolls)
    assert success_probability(level) == Fraction(passes, 216)
    assert defence_chance(level) == Fraction(defends, 216)


@given(st.integers(0, 40), st.integers(-50, 50), st.integers(0, 2**32))
def test_a_roll_draws_d6_in_order_like_the_dice_on_the_table(count, modifier, seed) -> None:
    expected_source, source = random.Random(seed), random.Random(seed)
    faces = tuple(expected_source.randint(1, 6) for _ in range(count))
    assert DiceExpression(count, modifier).roll(source) == (faces, sum(faces) + modifier)
    assert roll_3d6(source) == tuple(expected_source.randint(1, 6) for _ in range(3))


@given(st.integers(0, 40), st.integers(-50, 50))
def test_the_bounds_are_unchanged(count: int, modifier: int) -> None:
    expression = DiceExpression(count, modifier)
    assert (expression.minimum, expression.maximum) == (count + modifier, 6 * count + modifier)


def test_the_general_expression_of_a_gurps_one() -> None:
    assert DiceExpression(2, -1).expression == dice.parse("2d6-1")
    assert DiceExpression(3).expression == dice.parse("3d6")
    assert DiceExpression(0, 2).expression == dice.parse("2")


def test_the_ruleset_dice_part_delegates_to_gurps_dice() -> None:
    expression = DICE.parse("2d−1")
    assert expression == parse_dice("2d-1") == DiceExpression(2, -1)
    assert (DICE.format(expression), DICE.display(expression)) == ("2d-1", "2d−1")
    assert DICE.roll(expression, ScriptedSource([4, 6])) == ((4, 6), 9)
    distribution = DICE.distribution(DICE.parse("1d+2"))
    assert distribution == {total: Fraction(1, 6) for total in range(3, 9)}
    assert sum(DICE.distribution(DICE.parse("3d")).values()) == 1
