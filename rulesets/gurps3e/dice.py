"""GURPS's dice behind ``DicePart``: the expressions of d6 (``3d``, ``2d+1``, ``1d−1``) read and
rolled by ``gurps.dice``.

A minimal adapter made by the ``core`` branch so the agnostic log can roll through the
interface; the ``dice`` branch's (over the general dice engine) replaces it.
"""

from __future__ import annotations

from gurps import dice
from rulesets.base import RandomSource


class GurpsDice:
    """``parse(text)`` → a ``gurps.dice.DiceExpression`` (``.count``, ``.modifier``,
    ``.display``, ``str()`` canonical, ``.roll(source)`` → (faces, total)); raises
    ``gurps.errors.InvalidDiceExpression`` (Portuguese ``.message``)."""

    def parse(self, text: str) -> dice.DiceExpression:
        return dice.parse_dice(text)

    def roll(self, text: str, source: RandomSource) -> tuple[tuple[int, ...], int]:
        """Roll the expression ``text``: the faces and the total (faces plus the adds)."""
        return dice.parse_dice(text).roll(source)


DICE = GurpsDice()
