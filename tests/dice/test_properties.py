"""Properties of the general dice engine for every expression hypothesis draws."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

import dice
from dice import Expression, Pool, parse


@st.composite
def pools(draw, max_count: int = dice.MAX_DICE, max_sides: int = dice.MAX_SIDES) -> Pool:
    count = draw(st.integers(1, max_count))
    sides = draw(st.integers(dice.MIN_SIDES, max_sides))
    keep = draw(st.none() | st.integers(1, count))
    lowest = keep is not None and draw(st.booleans())
    return Pool(count, sides, keep, lowest, draw(st.booleans()))


def expressions(max_count: int = dice.MAX_DICE, max_sides: int = dice.MAX_SIDES, size: int = 4):
    term = pools(max_count, max_sides) | st.integers(-1000, 1000)
    return st.lists(term, min_size=1, max_size=size).map(lambda ts: Expression(tuple(ts)))


def _enumerate(expression: Expression) -> Counter[int]:
    """Every way the dice can fall, one by one: the slow truth the distribution must match."""
    ways: Counter[int] = Counter()
    faces_of = [range(1, pool.sides + 1) for pool in expression.pools for _ in range(pool.count)]
    for faces in product(*faces_of):
        rest, total = list(faces), expression.constant
        for pool in expression.pools:
            mine, rest = rest[: pool.count], rest[pool.count :]
            kept = sorted(mine, reverse=not pool.lowest)[: pool.kept]
            total += -sum(kept) if pool.negative else sum(kept)
        ways[total] += 1
    return ways


@given(expressions(), st.integers(0, 2**32))
def test_a_roll_stays_within_the_bounds(expression: Expression, seed: int) -> None:
    rolled = dice.roll(expression, random.Random(seed))
    assert expression.minimum <= rolled.total <= expression.maximum
    assert len(rolled.faces) == sum(pool.count for pool in expression.pools)


@given(expressions(), st.integers(0, 2**32))
def test_it_draws_one_randint_per_die_in_order(expression: Expression, seed: int) -> None:
    calls: list[tuple[int, int]] = []

    class Recorder:
        def randint(self, a: int, b: int) -> int:
            calls.append((a, b))
            return random.Random(seed + len(calls)).randint(a, b)

    dice.roll(expression, Recorder())
    assert calls == [(1, pool.sides) for pool in expression.pools for _ in range(pool.count)]


@given(st.integers(1, dice.MAX_DICE), st.integers(dice.MIN_SIDES, dice.MAX_SIDES), st.data())
def test_keeping_the_highest_never_gives_less_than_keeping_the_lowest(count, sides, data) -> None:
    keep = data.draw(st.integers(1, count))
    seed = data.draw(st.integers(0, 2**32))
    high = dice.roll(Expression((Pool(count, sides, keep),)), random.Random(seed))
    low = dice.roll(Expression((Pool(count, sides, keep, lowest=True),)), random.Random(seed))
    assert high.faces == low.faces
    assert high.total >= low.total


@given(expressions())
def test_parsing_reads_back_the_canonical_form(expression: Expression) -> None:
    assert parse(str(expression)) == expression
    assert parse(expression.display) == expression


@settings(max_examples=40, deadline=None)
@given(expressions(max_count=6, max_sides=8, size=3))
def test_the_distribution_sums_to_one_and_spans_the_bounds(expression: Expression) -> None:
    distribution = dice.distribution(expression)
    assert sum(distribution.values()) == 1
    assert min(distribution) == expression.minimum
    assert max(distribution) == expression.maximum
    assert all(p > 0 for p in distribution.values())


@settings(max_examples=40, deadline=None)
@given(expressions(max_count=3, max_sides=6, size=3).filter(lambda e: dice.outcomes(e) <= 7776))
def test_the_distribution_matches_every_way_the_dice_can_fall(expression: Expression) -> None:
    ways = _enumerate(expression)
    assert dice.counts(expression) == dict(sorted(ways.items()))
    assert dice.distribution(expression) == {
        total: Fraction(n, dice.outcomes(expression)) for total, n in sorted(ways.items())
    }


@given(st.integers(1, 20))
def test_2d20_keep_highest_reaches_x_with_one_minus_both_below(x: int) -> None:
    assert dice.chance_at_least(parse("2d20kh1"), x) == 1 - Fraction(x - 1, 20) ** 2


@given(st.integers(1, 20))
def test_2d20_keep_lowest_reaches_x_only_if_both_do(x: int) -> None:
    assert dice.chance_at_least(parse("2d20kl1"), x) == Fraction(21 - x, 20) ** 2
