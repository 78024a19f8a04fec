"""Rolling an expression with the one random source.

The site passes ``secrets.SystemRandom()``; tests pass ``random.Random(seed)`` or a scripted
source. Each die is one ``source.randint(1, sides)``, term by term, die by die, in the order
written: a scripted source gives the same faces in the same order as the dice on the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from dice.expression import Expression, Pool


class RandomSource(Protocol):
    """Anything with ``random.Random.randint``'s shape: an int in [a, b], both inclusive."""

    def randint(self, a: int, b: int) -> int: ...


@dataclass(frozen=True)
class PoolRoll:
    """One pool's faces in the order rolled, the indices of those kept (ascending) and the
    signed value they add to the total."""

    pool: Pool
    faces: tuple[int, ...]
    kept: tuple[int, ...]

    @property
    def value(self) -> int:
        value = sum(self.faces[index] for index in self.kept)
        return -value if self.pool.negative else value


@dataclass(frozen=True)
class ExpressionRoll:
    """A rolled expression: each pool's roll, in the order written, and the total (which may be
    negative; a ruleset applies its own minimums)."""

    expression: Expression
    pools: tuple[PoolRoll, ...]
    total: int

    @property
    def faces(self) -> tuple[int, ...]:
        """Every face rolled, in order, kept or not."""
        return tuple(face for pool in self.pools for face in pool.faces)


def roll_pool(pool: Pool, source: RandomSource) -> PoolRoll:
    """Roll ``pool.count`` dice; with ``keep``, the highest (lowest) faces count, the earlier
    die winning a tie."""
    faces = tuple(source.randint(1, pool.sides) for _ in range(pool.count))
    if pool.keep is None:
        return PoolRoll(pool, faces, tuple(range(pool.count)))
    order = sorted(range(pool.count), key=lambda i: faces[i] if pool.lowest else -faces[i])
    return PoolRoll(pool, faces, tuple(sorted(order[: pool.keep])))


def roll(expression: Expression, source: RandomSource) -> ExpressionRoll:
    """Roll every pool of ``expression`` with ``source``; the total adds the constants."""
    pools = tuple(roll_pool(pool, source) for pool in expression.pools)
    return ExpressionRoll(expression, pools, sum(p.value for p in pools) + expression.constant)
