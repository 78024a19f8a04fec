"""What the procedure rolls with, and how it writes a modifier.

``RandomSource`` is the shape of the one random source (``random.Random.randint``); the dice
engine's own protocol has the same shape, so any source the site passes fits. ``signed`` writes
a modifier as the texts print it.
"""

from __future__ import annotations

from typing import Protocol


class RandomSource(Protocol):
    """Anything with ``random.Random.randint``'s shape: an int in [a, b], both inclusive."""

    def randint(self, a: int, b: int) -> int: ...


def signed(value: int) -> str:
    """A modifier as the texts print it: 0, +2, −3 (U+2212 minus)."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"\u2212{-value}"
    return "0"
