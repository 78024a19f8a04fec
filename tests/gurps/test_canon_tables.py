"""Every table the engine shows is the canon's table, row by row, read from the canon's text.

``gurps.rulebook.all_tables()`` is built from the engine's own data (each module's
``CANON_TABLES``); here each one is compared, cell by cell, with the markdown table the canon
prints under its heading. Bold and italic markers and spacing are ignored; words and numbers
are not.
"""

from __future__ import annotations

import re

import pytest

from gurps.rulebook import all_tables
from tests.gurps.helpers import CANON_PATH


def _normalise(cell: str) -> str:
    cell = cell.replace("**", "").replace("\\", "")
    cell = re.sub(r"(?<!\w)\*(?!\s)|(?<!\s)\*(?!\w)", "", cell)  # *itálico*
    return " ".join(cell.split())


def _markdown_tables(heading: str) -> list[list[list[str]]]:
    """The body rows of every markdown table between ``heading`` and the next heading."""
    lines = CANON_PATH.read_text(encoding="utf-8").splitlines()
    start = lines.index(heading)
    tables: list[list[list[str]]] = []
    current: list[list[str]] | None = None
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        stripped = line.strip()
        if stripped.startswith("|"):
            if current is None:
                current = []
                tables.append(current)
            current.append([_normalise(cell) for cell in stripped.strip("|").split("|")])
        else:
            current = None
    return [table[2:] for table in tables]  # drop header and |---|


COMPARABLE = [table for table in all_tables() if table.heading is not None]


def test_the_engine_shows_tables():
    assert len(COMPARABLE) >= 1


@pytest.mark.parametrize("table", COMPARABLE, ids=lambda table: table.key)
def test_each_row_is_the_canon_row(table):
    printed = _markdown_tables(table.heading)
    assert len(printed) > table.nth, (
        f"the canon prints no table #{table.nth} under {table.heading!r}"
    )
    expected = printed[table.nth]
    shown = [[_normalise(cell) for cell in row] for row in table.rows]
    assert shown == expected


@pytest.mark.parametrize("table", COMPARABLE, ids=lambda table: table.key)
def test_each_header_is_the_canon_header(table):
    lines = CANON_PATH.read_text(encoding="utf-8").splitlines()
    start = lines.index(table.heading)
    headers = []
    previous_was_table = False
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        is_table = line.strip().startswith("|")
        if is_table and not previous_was_table:
            headers.append([_normalise(cell) for cell in line.strip().strip("|").split("|")])
        previous_was_table = is_table
    assert [_normalise(c) for c in table.columns] == headers[table.nth]


def test_keys_are_unique_and_sections_ordered():
    tables = all_tables()
    assert len({t.key for t in tables}) == len(tables)


def _every_markdown_table() -> list[tuple[str, int]]:
    """(heading, nth) of every markdown table the canon prints."""
    found, heading, nth, previous = [], None, 0, False
    for line in CANON_PATH.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            heading, nth, previous = line, 0, False
            continue
        is_table = line.strip().startswith("|")
        if is_table and not previous:
            found.append((heading, nth))
            nth += 1
        previous = is_table
    return found


def test_every_table_the_canon_prints_is_in_the_engine_once():
    shown = [(table.heading, table.nth) for table in COMPARABLE]
    printed = _every_markdown_table()
    assert len(printed) >= 36
    assert sorted(shown) == sorted(printed)
