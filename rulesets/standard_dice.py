"""A ``DicePart`` for rulesets that write dice the common way (``1d20+5``, ``2d20kh1``,
``4d6kh3``, ``8d6``): the general engine (``dice``) as it is, for any ruleset but GURPS (whose
notation is ``rulesets.gurps3e.dice``).
"""

from __future__ import annotations

from fractions import Fraction

import dice


class StandardDice:
    """``rulesets.base.DicePart`` over ``dice``: parse raises ``dice.InvalidDice`` (Portuguese)."""

    def parse(self, text: str) -> dice.Expression:
        return dice.parse(text)

    def format(self, expression: dice.Expression) -> str:
        return str(expression)

    def display(self, expression: dice.Expression) -> str:
        return expression.display

    def roll(
        self, expression: dice.Expression, source: dice.RandomSource
    ) -> tuple[tuple[int, ...], int]:
        """(every face in order, dropped ones too; the total of the kept ones and constants)."""
        rolled = dice.roll(expression, source)
        return rolled.faces, rolled.total

    def distribution(self, expression: dice.Expression) -> dict[int, Fraction]:
        return dice.distribution(expression)


STANDARD_DICE = StandardDice()
