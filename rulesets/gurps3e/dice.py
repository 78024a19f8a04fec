"""GURPS's ``DicePart``: d6 only, in the canon's notation (``3d``, ``1d−1``, ``2d+1``, ``0``).

A thin adapter: the notation, its errors and texts are ``gurps.dice``'s, the rolling and the
distribution the general engine's (``dice``) underneath it. Nothing here computes a rule.
"""

from __future__ import annotations

from fractions import Fraction

from dice import RandomSource
from gurps.dice import DiceExpression, parse_dice


class GurpsDice:
    """``rulesets.base.DicePart`` for GURPS Classic (canon §1.1, p. 86)."""

    def parse(self, text: str) -> DiceExpression:
        """``gurps.dice.parse_dice``: raises ``gurps.errors.InvalidDiceExpression``."""
        return parse_dice(text)

    def format(self, expression: DiceExpression) -> str:
        """``1d-1``, ``1d``, ``2d+1``; ``0`` with no dice."""
        return str(expression)

    def display(self, expression: DiceExpression) -> str:
        """``1d−1``: the canon's typographic minus."""
        return expression.display

    def roll(self, expression: DiceExpression, source: RandomSource) -> tuple[tuple[int, ...], int]:
        """(the d6 faces in order, their sum plus the modifier); may be below 0."""
        return expression.roll(source)

    def distribution(self, expression: DiceExpression) -> dict[int, Fraction]:
        """``{total: exact probability}``; 3d → 3..18 over 216."""
        return expression.distribution()


DICE = GurpsDice()
