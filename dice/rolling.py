"""Rolling an expression with the one random source.

The site passes ``secrets.SystemRandom()``; tests pass ``random.Random(seed)`` or a scripted
source. Each die is one ``source.randint(1, sides)``, term by term, die by die, in the order
written: a scripted source gives the same faces in the same order as the dice on the table.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from dice.expression import Expression, Pool


class RandomSource(Protocol):
    """Anything with ``random.Random.randint``'s shape: an int in [a, b], both inclusive."""

    def randint(self, a: int, b: int) -> int: ...


# NamedTuples, not frozen dataclasses: a check rolls 3d6 through here, and building a frozen
# dataclass costs several times more than the dice themselves.
class PoolRoll(NamedTuple):
    """One pool's faces in the order rolled, the indices of those kept (ascending) and the
    signed value they add to the total."""

    pool: Pool
    faces: tuple[int, ...]
    kept: tuple[int, ...]
    value: int


class ExpressionRoll(NamedTuple):
    """A rolled expression: each pool's roll, in the order written; every face rolled, in
    order, kept or not; the total (which may be negative; a ruleset applies its own minimums)."""

    expression: Expression
    pools: tuple[PoolRoll, ...]
    faces: tuple[int, ...]
    total: int


def roll_pool(pool: Pool, source: RandomSource) -> PoolRoll:
    """Roll ``pool.count`` dice; with ``keep``, the highest (lowest) faces count, the earlier
    die winning a tie."""
    randint, sides = source.randint, pool.sides
    faces = tuple([randint(1, sides) for _ in range(pool.count)])
    if pool.keep is None:
        kept = tuple(range(pool.count))
        value = sum(faces)
    else:
        order = sorted(range(pool.count), key=lambda i: faces[i] if pool.lowest else -faces[i])
        kept = tuple(sorted(order[: pool.keep]))
        value = sum(faces[index] for index in kept)
    return PoolRoll(pool, faces, kept, -value if pool.negative else value)


def roll(expression: Expression, source: RandomSource) -> ExpressionRoll:
    """Roll every pool of ``expression`` with ``source``; the total adds the constants."""
    pools = tuple([roll_pool(pool, source) for pool in expression.pools])
    faces = pools[0].faces if len(pools) == 1 else tuple(f for p in pools for f in p.faces)
    total = sum(p.value for p in pools) + expression.constant
    return ExpressionRoll(expression, pools, faces, total)
