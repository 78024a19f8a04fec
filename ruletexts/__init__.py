"""The shapes every rule text's engine fills for the rules pages and the registers: a table as
the text prints it (``CanonTable``) and a house setting, one answer the campaign gives where the
text is silent or departs from the book (``HouseSetting``); and the shape of an engine's refusal
(``RuleError``), which each engine subclasses.

At the bottom of the layers, beside ``dice`` (docs/DESIGN.md, «The layers»): the engines
(``gurps``, ``sistema001``, ``xuleta``) cannot import one another, so the shape they share lives
here, once. Pure Python, no rule in it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class CanonTable:
    """One table as a rule text prints it, row by row, in its own words.

    ``key``: the stable name the pages and tests use; ``title``; ``section``: the text's section
    (``"4.2"``); ``page``: the book's page, "" where the text gives none; ``columns`` and
    ``rows`` (strings, every row as long as ``columns``; ``ValueError`` otherwise).
    ``heading``: the line the text prints the table under and ``nth`` which table under it
    (0 = first); None for a table the text writes as prose or a list, which a test then cannot
    compare. ``decided``: for a house rule, the date of the decision that fixed it
    (dd/mm/aaaa). ``note`` / ``notes``: short lines the page prints under the table (the text's
    own words).
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


@dataclass(frozen=True)
class HouseSetting:
    """One of the campaign's departures from the book, or one answer the Árbitro may give where
    the text is silent.

    ``key``: the stable name the other modules and the Árbitro's register link to. ``title``:
    the rule in a line, in Portuguese. ``book``: what the book (or the text) does. ``table``:
    what this table does. ``section``: the text's section(s) ("4.2, 4.10"). ``decided``: the
    date that fixed it (dd/mm/aaaa), None where none. ``decision``: the decision as the text
    words it ("Decisão 27"), None where none (an answer the Árbitro gives in his register).
    ``where``: the document that holds it, None where unsaid. ``reading``: the open question it
    answers ("" for a house rule of the canon); ``answer``: the value the engine takes.
    """

    key: str
    title: str
    book: str
    table: str
    section: str
    decided: str | None
    decision: str | None
    where: str | None = None
    reading: str = ""
    answer: str = ""


class RuleError(Exception):
    """A value or a request a rule text refuses: ``message`` is the Portuguese sentence the user
    reads (also ``str(error)``), ``field`` the input at fault (``"abilities.str"``) or ``""``.
    Each engine raises its own subclass (``XuletaError``, ``Sistema001Error``), which the site
    catches at its edges."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def __str__(self) -> str:
        return self.message
