"""The general dice engine: NdM of any M, keep highest/lowest, constants, + and −; rolling with
the one random source; the exact distribution of a total. Pure Python, the bottom of the layers
(no Django, no ``gurps``); each ruleset writes its own notation on top (``gurps.dice``: ``2d−1``).

    >>> from dice import parse, roll, distribution
    >>> expression = parse("2d20kh1+5")
    >>> str(expression), expression.minimum, expression.maximum
    ('2d20kh1+5', 6, 25)
    >>> distribution(parse("2d20kh1"))[20]
    Fraction(39, 400)

Why this, and not a library (issue 21 asked to look at ``d20`` and ``icepool`` first):

- ``d20`` (avrae, 1.1.2) rolls with the module-level ``random`` (``random.randrange`` in
  ``d20/expression.py``), so it cannot take our source: the site's ``secrets.SystemRandom()``
  and the tests' seeded or scripted sources would be bypassed — it breaks "the one random
  source". It has no exact distribution either, needs ``lark-parser~=0.9`` (2020), and does
  not read GURPS's ``2d−1``/``3d`` (no sides, U+2212).
- ``icepool`` (2.1.3, pure Python, no dependencies) gives exact distributions with integer
  quantities (so ``Fraction``s, exact) for sums and keep highest/lowest. Its ``sample()`` also
  draws from the module-level ``random``, and it has no text parser. So we use it for the
  distribution only (``dice.distribution``, imported lazily: ~0.27 s to import) and keep
  parsing and rolling here, small: every die is one ``source.randint(1, sides)``, in order,
  which is what GURPS's scripted tests and the site's ``SystemRandom`` need. Its cost: slow on
  big pools (20d100: ~4 s, 100d100kh50: minutes), hence the limits in ``dice.errors``
  (``MAX_DISTRIBUTION_FACES``: Σ dice × sides ≤ 600, about a second).

Errors: ``InvalidDice`` (a ``ValueError``) with a Portuguese reason; limits MAX_DICE, MIN_SIDES,
MAX_SIDES, MAX_TERMS, MAX_DISTRIBUTION_FACES in ``dice.errors``.
"""

from __future__ import annotations

from dice.distribution import chance_at_least, chance_at_most, counts, distribution, outcomes
from dice.errors import (
    MAX_DICE,
    MAX_DISTRIBUTION_FACES,
    MAX_SIDES,
    MAX_TERMS,
    MIN_SIDES,
    InvalidDice,
)
from dice.expression import Expression, Pool, Term, parse
from dice.rolling import ExpressionRoll, PoolRoll, RandomSource, roll, roll_pool

__all__ = [
    "MAX_DICE",
    "MAX_DISTRIBUTION_FACES",
    "MAX_SIDES",
    "MAX_TERMS",
    "MIN_SIDES",
    "Expression",
    "ExpressionRoll",
    "InvalidDice",
    "Pool",
    "PoolRoll",
    "RandomSource",
    "Term",
    "chance_at_least",
    "chance_at_most",
    "counts",
    "distribution",
    "outcomes",
    "parse",
    "roll",
    "roll_pool",
]
