"""What the modules of ``gurps.combat`` share: the canon's words for the numbers it spells
out in prose, and reading a member of a closed set from input.
"""

from __future__ import annotations

from gurps.errors import InvalidValue

# The canon's words for the numbers it spells out in prose (masculine, feminine).
WORDS = {1: "um", 2: "dois", 3: "três", 4: "quatro"}
WORDS_F = {1: "uma", 2: "duas", 3: "três", 4: "quatro"}


def enum_member(kind, value, field: str, message: str):
    """``value`` as a member of the StrEnum ``kind``, or InvalidValue(field, message)."""
    try:
        return kind(value)
    except ValueError:
        raise InvalidValue(field, message) from None
