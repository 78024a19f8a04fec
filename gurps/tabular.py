"""The shape every canon table takes when it is shown: rows of text in the canon's words.

Each module of the engine keeps its tables as typed data (``BASIC_DAMAGE_TABLE``,
``ENCUMBRANCE_LEVELS`` …) and builds its ``CANON_TABLES`` from that same data, so the rules
pages (``/regras/``) show exactly what the engine computes with. ``gurps.rulebook`` gathers
them. A test reads each table's rows back from the canon's markdown (``heading``, ``nth``) and
compares them cell by cell.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class CanonTable:
    """One table as the canon prints it.

    ``key``: a stable slug (``"basic_damage"``), used in URLs and anchors.
    ``title``: the canon's name for it, in Portuguese.
    ``section``: the canon section ("4.9"); ``page``: the book page(s) it cites ("73–74",
    "MAGIA 11"), or "" where the canon cites none (a house table).
    ``columns`` and ``rows``: cells as text, in the canon's words and number format (1d−2,
    13,5 m, −3). Every row has ``len(columns)`` cells.
    ``heading``: the markdown heading line the canon prints the table under (e.g.
    ``"### Tabela de Erros Críticos"``) and ``nth`` which table under it (0 = first); None
    for a table the canon writes as prose or a list, which the test then cannot compare.
    ``decided``: for a house rule, the date of the decision that fixed it (dd/mm/aaaa).
    ``note``: one short line the page prints under the table (the canon's own words).
    """

    key: str
    title: str
    section: str
    page: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    heading: str | None = None
    nth: int = 0
    decided: str | None = None
    note: str = ""
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(
                    f"{self.key}: row {row!r} has {len(row)} cells, not {len(self.columns)}"
                )


def signed(value: int) -> str:
    """A modifier as the canon prints it: 0, +2, −3 (U+2212 minus)."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"\u2212{-value}"
    return "0"
