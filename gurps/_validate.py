"""Small checks shared by the modules; each raises ``InvalidValue`` naming the field."""

from __future__ import annotations

import math
from fractions import Fraction

from gurps.errors import ATTRIBUTE_TOO_LOW, NOT_AN_INTEGER, VALUE_TOO_LOW, InvalidValue


def require_int(field: str, value: object) -> int:
    """Return ``value`` if it is a plain int (bool is refused), else raise InvalidValue."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidValue(field, NOT_AN_INTEGER)
    return value


def require_at_least(field: str, value: object, minimum: int, message: str) -> int:
    """Return ``value`` if it is an int >= ``minimum``, else raise InvalidValue(field, message)."""
    number = require_int(field, value)
    if number < minimum:
        raise InvalidValue(field, message)
    return number


def check_attribute(field: str, value: int) -> None:
    """Raise InvalidValue(field) unless ``value`` is an int of 1 or more.

    ``field`` is ``"st"``, ``"dx"``, ``"iq"`` or ``"ht"``; the message is the matching
    ``errors.ST_TOO_LOW``... (any other field gets ``errors.VALUE_TOO_LOW``).
    """
    message = ATTRIBUTE_TOO_LOW.get(field.rsplit(".", 1)[-1], VALUE_TOO_LOW)
    require_at_least(field, value, 1, message)


def require_exact_non_negative(field: str, value: object, not_a_number: str, negative: str):
    """``value`` (kg, metres, m/s...) as an exact ``Fraction``, never below 0.

    A float goes through its shortest text (0.1 → 1/10, not binary noise); a str may use a
    decimal comma ("12,5"). Raises InvalidValue(field, not_a_number) for a non-number and
    InvalidValue(field, negative) below 0.
    """
    try:
        if isinstance(value, bool):
            raise TypeError
        if isinstance(value, float):
            if not math.isfinite(value):
                raise ValueError
            number = Fraction(str(value))
        elif isinstance(value, str):
            number = Fraction(value.strip().replace(",", "."))
        else:
            number = Fraction(value)
    except (TypeError, ValueError, ArithmeticError):
        raise InvalidValue(field, not_a_number) from None
    if number < 0:
        raise InvalidValue(field, negative)
    return number
