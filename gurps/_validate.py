"""Small checks shared by the modules; each raises ``InvalidValue`` naming the field."""

from __future__ import annotations

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
