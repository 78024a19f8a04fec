"""The exact distribution of an expression's total, as fractions (for odds).

Computed by ``icepool`` (see ``dice/__init__.py`` for why), imported on the first call only:
the import costs about a quarter of a second and most processes never ask for odds. Results are
cached per expression (expressions are frozen, hence hashable). icepool is slow on big pools, so
an expression past ``MAX_DISTRIBUTION_FACES`` is refused rather than computed for minutes.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from dice.errors import MAX_DISTRIBUTION_FACES, TOO_MANY_FACES, InvalidDice
from dice.expression import Expression, Pool


def _pool_die(pool: Pool):  # -> icepool.Die
    import icepool  # lazy: see the module's docstring

    die = icepool.d(pool.sides)
    if pool.keep is None:
        total = pool.count @ die
    elif pool.lowest:
        total = die.lowest(pool.count, pool.keep)
    else:
        total = die.highest(pool.count, pool.keep)
    return -total if pool.negative else total


@lru_cache(maxsize=256)
def _distribution(expression: Expression) -> tuple[tuple[int, Fraction], ...]:
    if sum(pool.count * pool.sides for pool in expression.pools) > MAX_DISTRIBUTION_FACES:
        raise InvalidDice(str(expression), TOO_MANY_FACES)
    import icepool

    total = icepool.Die([expression.constant])
    for pool in expression.pools:
        total = total + _pool_die(pool)
    denominator = total.denominator()
    return tuple(
        (outcome, Fraction(quantity, denominator))
        for outcome, quantity in sorted(total.items())
        if quantity
    )


def distribution(expression: Expression) -> dict[int, Fraction]:
    """``{total: probability}`` for every reachable total, ascending; the values sum to 1.
    Raises InvalidDice (Portuguese) past MAX_DISTRIBUTION_FACES (Σ count × sides); so do
    ``counts``, ``chance_at_least`` and ``chance_at_most``.

    ``1d6+1`` → {2: 1/6, ..., 7: 1/6}; ``2d20kh1`` → {1: 1/400, 2: 3/400, ..., 20: 39/400}.
    """
    return dict(_distribution(expression))


def outcomes(expression: Expression) -> int:
    """How many equally likely ways the dice can fall: the product of sides ** count."""
    return math.prod(pool.sides**pool.count for pool in expression.pools)


def counts(expression: Expression) -> dict[int, int]:
    """``{total: how many of the outcomes() ways give it}``; 3d6 → {3: 1, 4: 3, ..., 18: 1}."""
    ways = outcomes(expression)
    return {total: int(p * ways) for total, p in _distribution(expression)}


def chance_at_least(expression: Expression, target: int) -> Fraction:
    """P(total ≥ ``target``); 2d20kh1 against 11: 1 − (10/20)² = 3/4."""
    return sum((p for total, p in _distribution(expression) if total >= target), Fraction(0))


def chance_at_most(expression: Expression, target: int) -> Fraction:
    """P(total ≤ ``target``); 3d6 at 10: 108/216."""
    return sum((p for total, p in _distribution(expression) if total <= target), Fraction(0))
