"""Dice expressions of d6 in GURPS's notation, on top of the general engine (``dice``).

The notation (``3d``, ``1d−1``, ``2d+1``, a constant such as ``0``) and its errors are GURPS's
and live here; the rolling, the bounds and the exact distribution are ``dice``'s, so the one
random source (``RandomSource``, re-exported from ``dice``) is the same for every ruleset. The
site passes ``secrets.SystemRandom()``; tests pass ``random.Random(seed)`` or a scripted
source. Only d6 exists in GURPS Classic (canon §1.1, p. 86).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import cast

import dice
from dice import RandomSource
from gurps._validate import require_at_least, require_int
from gurps.errors import NEGATIVE_DICE_COUNT, InvalidDiceExpression

__all__ = [
    "DiceExpression",
    "RandomSource",
    "parse_dice",
    "roll_3d6",
    "three_d6_distribution",
]

# "3d6", "3d", "1d-1", "2d+1", "6D−12"; the canon writes the minus as U+2212.
_DICE = re.compile(r"(?P<count>[0-9]+)[dD]6?(?:(?P<sign>[-+\u2212])(?P<modifier>[0-9]+))?")
# "0" (the canon's damage for ST 4 or less), or any whole constant such as "-1".
_CONSTANT = re.compile(r"(?P<sign>[-+\u2212]?)(?P<value>[0-9]+)")

_THREE_D6_POOL = dice.Pool(3, 6)
_THREE_D6 = dice.Expression((_THREE_D6_POOL,))


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

    @property
    def expression(self) -> dice.Expression:
        """The general engine's expression: ``count``d6 then the modifier (if not 0)."""
        return _general(self.count, self.modifier)

    def plus(self, bonus: int) -> DiceExpression:
        """The expression with a weapon's bonus added (p. 75): 1d−1 plus 1 is 1d."""
        return DiceExpression(self.count, self.modifier + require_int("bonus", bonus))

    @property
    def minimum(self) -> int:
        return self.expression.minimum

    @property
    def maximum(self) -> int:
        return self.expression.maximum

    def roll(self, source: RandomSource) -> tuple[tuple[int, ...], int]:
        """Roll it: (the faces, faces' sum + modifier). The total may be negative; callers
        apply the minimums (e.g. cutting and impaling never below 1, §4.9)."""
        rolled = dice.roll(self.expression, source)
        return rolled.faces, rolled.total

    def distribution(self) -> dict[int, Fraction]:
        """``{total: exact probability}``, ascending (``dice.distribution``); 1d−1 → 0..5, 1/6 each.
        Raises ``dice.InvalidDice`` past ``dice.MAX_DISTRIBUTION_FACES`` (more than 100d)."""
        return dice.distribution(self.expression)


@lru_cache(maxsize=1024)  # a combat rolls the same few expressions again and again
def _general(count: int, modifier: int) -> dice.Expression:
    if count == 0:
        return dice.Expression((modifier,))
    pool = dice.Pool(count, 6)
    return dice.Expression((pool, modifier) if modifier else (pool,))


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
    return cast("tuple[int, int, int]", dice.roll_pool(_THREE_D6_POOL, source).faces)


def three_d6_distribution() -> dict[int, int]:
    """How many of the 216 outcomes of 3d6 give each total 3..18 (1, 3, 6, 10, ... 1)."""
    return dice.counts(_THREE_D6)
