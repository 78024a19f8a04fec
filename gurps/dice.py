"""Dice expressions of d6, and the one place the engine touches randomness.

The site passes ``secrets.SystemRandom()``; tests pass ``random.Random(seed)`` or a scripted
source. Only d6 exists in GURPS Classic (canon §1.1, p. 86).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import product
from typing import Protocol

from gurps._validate import require_at_least, require_int
from gurps.errors import NEGATIVE_DICE_COUNT, InvalidDiceExpression

# "3d6", "3d", "1d-1", "2d+1", "6D−12"; the canon writes the minus as U+2212.
_DICE = re.compile(r"(?P<count>[0-9]+)[dD]6?(?:(?P<sign>[-+\u2212])(?P<modifier>[0-9]+))?")
# "0" (the canon's damage for ST 4 or less), or any whole constant such as "-1".
_CONSTANT = re.compile(r"(?P<sign>[-+\u2212]?)(?P<value>[0-9]+)")


class RandomSource(Protocol):
    """Anything with ``random.Random.randint``'s shape: an int in [a, b], both inclusive."""

    def randint(self, a: int, b: int) -> int: ...


@dataclass(frozen=True)
class DiceExpression:
    """``count`` d6 plus ``modifier`` (which may be negative), e.g. 1d−1 = (1, −1).

    ``count`` 0 is a constant: the canon's ``0`` damage, or that ``0`` plus a weapon bonus.
    Raises InvalidValue("dice") for a negative ``count`` or a non-int.
    """

    count: int
    modifier: int = 0

    def __post_init__(self) -> None:
        require_at_least("dice", self.count, 0, NEGATIVE_DICE_COUNT)
        require_int("dice", self.modifier)

    def __str__(self) -> str:
        """Canonical ASCII form: ``1d-1``, ``1d``, ``2d+1``, ``6d-12``; ``0`` with no dice."""
        if self.count == 0:
            return str(self.modifier)
        return f"{self.count}d" + (f"{self.modifier:+d}" if self.modifier else "")

    @property
    def display(self) -> str:
        """As the canon prints it, with the typographic minus: ``1d−1``."""
        return str(self).replace("-", "\u2212")

    def plus(self, bonus: int) -> DiceExpression:
        """The expression with a weapon's bonus added (p. 75): 1d−1 plus 1 is 1d."""
        return DiceExpression(self.count, self.modifier + require_int("bonus", bonus))

    @property
    def minimum(self) -> int:
        return self.count + self.modifier

    @property
    def maximum(self) -> int:
        return 6 * self.count + self.modifier

    def roll(self, source: RandomSource) -> tuple[tuple[int, ...], int]:
        """Roll it: (the faces, faces' sum + modifier). The total may be negative; callers
        apply the minimums (e.g. cutting and impaling never below 1, §4.9)."""
        faces = tuple(source.randint(1, 6) for _ in range(self.count))
        return faces, sum(faces) + self.modifier


def _signed(sign: str, digits: str) -> int:
    return -int(digits) if sign in ("-", "\u2212") else int(digits)


def parse_dice(text: str) -> DiceExpression:
    """Read ``3d6``, ``3d``, ``1d-1``, ``2d+1``, ``6D−12`` or a constant such as ``0``.

    'd' or 'D', an optional '6' after it, ASCII '-' or U+2212, surrounding spaces allowed.
    Anything else (other dice, ``0d``, inner spaces) raises InvalidDiceExpression.
    """
    if not isinstance(text, str):
        raise InvalidDiceExpression(repr(text))
    stripped = text.strip()
    if match := _DICE.fullmatch(stripped):
        count = int(match["count"])
        if count == 0:
            raise InvalidDiceExpression(text)
        modifier = _signed(match["sign"], match["modifier"]) if match["sign"] else 0
        return DiceExpression(count, modifier)
    if match := _CONSTANT.fullmatch(stripped):
        return DiceExpression(0, _signed(match["sign"], match["value"]))
    raise InvalidDiceExpression(text)


def roll_3d6(source: RandomSource) -> tuple[int, int, int]:
    """Three d6 faces, in the order rolled (canon §1.1, p. 86)."""
    return (source.randint(1, 6), source.randint(1, 6), source.randint(1, 6))


def three_d6_distribution() -> dict[int, int]:
    """How many of the 216 outcomes of 3d6 give each total 3..18 (1, 3, 6, 10, ... 1)."""
    counts = dict.fromkeys(range(3, 19), 0)
    for faces in product(range(1, 7), repeat=3):
        counts[sum(faces)] += 1
    return counts
