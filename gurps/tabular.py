"""The shape every canon table takes when it is shown: rows of text in the canon's words.

Each module of the engine keeps its tables as typed data (``BASIC_DAMAGE_TABLE``,
``ENCUMBRANCE_LEVELS`` …) and builds its ``CANON_TABLES`` from that same data, so the rules
pages (``/regras/``) show exactly what the engine computes with. ``gurps.rulebook`` gathers
them. A test reads each table's rows back from the canon's markdown (``heading``, ``nth``) and
compares them cell by cell.
"""

from __future__ import annotations

from ruletexts import CanonTable as CanonTable  # the shape, shared by every engine


def signed(value: int) -> str:
    """A modifier as the canon prints it: 0, +2, −3 (U+2212 minus)."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"\u2212{-value}"
    return "0"
