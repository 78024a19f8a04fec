"""A dice expression: terms (dice pools and constants) added or subtracted; reading and writing it.

Grammar (case-insensitive ``d``/``kh``/``kl``; ``-`` or the typographic U+2212; spaces allowed
around ``+``/``-`` but not inside a term)::

    expression := [sign] term (sign term)*
    term       := [count] "d" sides [("kh" | "kl") kept]  |  integer
    sign       := "+" | "-" | "−"

``d20`` is ``1d20``; ``4d6kh3`` keeps the 3 highest of 4d6, ``2d20kl1`` the lowest of 2d20.
Limits (``dice.errors``): 1..MAX_DICE dice per term, MIN_SIDES..MAX_SIDES sides, at most
MAX_TERMS terms. Every refusal is ``InvalidDice`` with a Portuguese reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from dice.errors import (
    BAD_TEXT,
    BIG_NUMBER,
    DICE_COUNT,
    EMPTY,
    KEEP_COUNT,
    MAX_DICE,
    MAX_DIGITS,
    MAX_SIDES,
    MAX_TERMS,
    MIN_SIDES,
    NO_KEEP_COUNT,
    NO_SIDES,
    NO_TERM,
    SIDES,
    TOO_MANY_TERMS,
    InvalidDice,
)

MINUS = "\u2212"

_SIGN = re.compile(r"\s*([-+\u2212])\s*")
_TERM = re.compile(
    r"(?P<count>[0-9]+)?(?P<d>[dD])(?P<sides>[0-9]+)?"
    r"(?:(?P<keep>[kK][hHlL])(?P<kept>[0-9]+)?)?"
    r"|(?P<constant>[0-9]+)"
)


@dataclass(frozen=True)
class Pool:
    """``count`` dice of ``sides`` faces, summed; with ``keep``, only the ``keep`` highest
    (or, with ``lowest``, the lowest) count. ``negative`` subtracts the pool.

    Raises InvalidDice for fewer than 1 die or side, ``keep`` outside 1..count, or ``lowest``
    without ``keep``. The parse
    limits (MAX_DICE, MAX_SIDES) are not applied here: a ruleset may build larger pools in code.
    """

    count: int
    sides: int
    keep: int | None = None
    lowest: bool = False
    negative: bool = False

    def __post_init__(self) -> None:
        for value in (self.count, self.sides, self.keep):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise InvalidDice(repr(value), DICE_COUNT)
        if self.count < 1:
            raise InvalidDice(self.text, DICE_COUNT)
        if self.sides < 1:
            raise InvalidDice(self.text, SIDES)
        if self.lowest and self.keep is None:
            raise InvalidDice(self.text, NO_KEEP_COUNT)
        if self.keep is not None and not 1 <= self.keep <= self.count:
            raise InvalidDice(self.text, KEEP_COUNT.format(keep=self.keep, count=self.count))

    @property
    def text(self) -> str:
        """Unsigned canonical form: ``4d6kh3``, ``2d20kl1``, ``3d6``."""
        keep = "" if self.keep is None else f"{'kl' if self.lowest else 'kh'}{self.keep}"
        return f"{self.count}d{self.sides}{keep}"

    @property
    def kept(self) -> int:
        """How many dice count in the total."""
        return self.count if self.keep is None else self.keep

    @property
    def minimum(self) -> int:
        return -self.kept * self.sides if self.negative else self.kept

    @property
    def maximum(self) -> int:
        return -self.kept if self.negative else self.kept * self.sides


Term = Pool | int


@dataclass(frozen=True)
class Expression:
    """The sum of ``terms``, in the order written: ``Pool``s and (signed) int constants.

    ``str()`` is the canonical ASCII form (``2d20kh1+1d4-1``), which ``parse`` reads back to
    an equal expression; ``display`` writes the minus as U+2212.
    """

    terms: tuple[Term, ...]

    def __post_init__(self) -> None:
        if not self.terms:
            raise InvalidDice("", EMPTY)
        for term in self.terms:
            if isinstance(term, bool) or not isinstance(term, Pool | int):
                raise InvalidDice(repr(term), BAD_TEXT.format(rest=repr(term)))

    def __str__(self) -> str:
        out = []
        for index, term in enumerate(self.terms):
            if isinstance(term, Pool):
                sign = "-" if term.negative else ("+" if index else "")
                out.append(sign + term.text)
            else:
                out.append(f"{term:+d}" if index else str(term))
        return "".join(out)

    @property
    def display(self) -> str:
        return str(self).replace("-", MINUS)

    @cached_property
    def pools(self) -> tuple[Pool, ...]:
        return tuple(term for term in self.terms if isinstance(term, Pool))

    @cached_property
    def constant(self) -> int:
        """The constants' sum."""
        return sum(term for term in self.terms if not isinstance(term, Pool))

    @property
    def minimum(self) -> int:
        return self.constant + sum(pool.minimum for pool in self.pools)

    @property
    def maximum(self) -> int:
        return self.constant + sum(pool.maximum for pool in self.pools)


def _read_term(text: str, match: re.Match[str], negative: bool) -> Term:
    for digits in match.group("count", "sides", "kept", "constant"):
        if digits is not None and len(digits) > MAX_DIGITS:  # int() refuses past 4300 digits
            raise InvalidDice(text, BIG_NUMBER.format(digits=digits))
    if match["constant"] is not None:
        value = int(match["constant"])
        return -value if negative else value
    count = 1 if match["count"] is None else int(match["count"])
    if not 1 <= count <= MAX_DICE:
        raise InvalidDice(text, DICE_COUNT)
    if match["sides"] is None:
        raise InvalidDice(text, NO_SIDES)
    sides = int(match["sides"])
    if not MIN_SIDES <= sides <= MAX_SIDES:
        raise InvalidDice(text, SIDES)
    keep = None
    if match["keep"] is not None:
        if match["kept"] is None:
            raise InvalidDice(text, NO_KEEP_COUNT)
        keep = int(match["kept"])
        if not 1 <= keep <= count:
            raise InvalidDice(text, KEEP_COUNT.format(keep=keep, count=count))
    lowest = match["keep"] is not None and match["keep"][1] in "lL"
    return Pool(count, sides, keep, lowest, negative)


def parse(text: str) -> Expression:
    """Read ``2d6+1``, ``1d20``, ``d20``, ``4d6kh3``, ``2d20kl1+5``, ``3d6−2``, ``-1``...

    Raises InvalidDice (Portuguese) for anything else, e.g. ``0d6``, ``1d0``, ``d``, ``101d6``,
    ``1d6kh2``, ``2d6+``, ``1.5d6``.
    """
    if not isinstance(text, str):
        raise InvalidDice(repr(text), EMPTY)
    if not text.strip():
        raise InvalidDice(text, EMPTY)
    terms: list[Term] = []
    leading = re.match(r"\s*([-+\u2212])?\s*", text)
    assert leading is not None  # the pattern matches the empty string
    negative = leading[1] in ("-", MINUS)
    position = leading.end()
    while True:
        match = _TERM.match(text, position)
        if match is None or match.end() == position:
            rest = text[position:].strip()
            raise InvalidDice(text, BAD_TEXT.format(rest=rest) if rest else NO_TERM)
        terms.append(_read_term(text, match, negative))
        if len(terms) > MAX_TERMS:
            raise InvalidDice(text, TOO_MANY_TERMS)
        position = match.end()
        if not text[position:].strip():
            return Expression(tuple(terms))
        sign = _SIGN.match(text, position)
        if sign is None:
            raise InvalidDice(text, BAD_TEXT.format(rest=text[position:].strip()))
        negative = sign[1] in ("-", MINUS)
        position = sign.end()
