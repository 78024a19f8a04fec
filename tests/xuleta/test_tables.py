"""The rules pages' tables (xuleta.tables): each printed table row for row as the text has it,
built from the engine's data; every table under a section of the text."""

from __future__ import annotations

import pytest

from tests.xuleta.conftest import TEXT
from xuleta.tables import all_tables, signed, span, table
from xuleta.text import CHAPTERS, SECTIONS


def printed(heading: str, nth: int = 0) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """(columns, rows) of the tab-separated table printed under the ``nth`` line ``heading``
    that is followed by a table."""
    lines = TEXT.splitlines()
    starts = [
        i
        for i, line in enumerate(lines)
        if line == heading and i + 1 < len(lines) and "\t" in lines[i + 1]
    ]
    start = starts[0] if nth == 0 or len(starts) == 1 else starts[nth]
    columns = tuple(lines[start + 1].split("\t"))
    rows = []
    for line in lines[start + 2 :]:
        if "\t" not in line:
            break
        rows.append(tuple(line.split("\t")))
    return columns, rows


PRINTED = [t for t in all_tables() if t.heading is not None]


@pytest.mark.parametrize("shown", PRINTED, ids=[t.key for t in PRINTED])
def test_each_printed_table_is_the_texts_row_for_row(shown):
    columns, rows = printed(shown.heading, shown.nth)
    assert shown.columns == columns
    assert list(shown.rows) == rows


def test_tables_are_sorted_and_cite_the_texts_sections():
    tables = all_tables()
    numbers = [tuple(int(p) for p in t.section.split(".")) for t in tables]
    assert numbers == sorted(numbers)
    for shown in tables:
        assert shown.section in SECTIONS or shown.section in CHAPTERS
        assert shown.page == "" and shown.decided is None
    assert len({t.key for t in tables}) == len(tables)


def test_the_core_tables_are_there():
    keys = {t.key for t in all_tables()}
    assert {
        "estats",
        "nivells_esgotament",
        "modificadors",
        "competencia",
        "cd_habituals",
        "habilitats",
        "tipus_dany",
        "caracteristica_llancament",
    } <= keys
    with pytest.raises(KeyError):
        table("nope")


def test_conditions_table_has_the_fourteen_and_exhaustion_apart(quote):
    quote("Si en tens dos d'iguals, compten com un de sol.")
    rows = table("estats").rows
    assert len(rows) == 14
    assert rows[0] == (
        "Encegat",
        "No hi veus gens.",
        "Falles sense tirar qualsevol prova que depengui de la vista. Els atacs contra tu "
        "tenen avantatge. Els teus atacs tenen desavantatge.",
    )


def test_damage_types_in_the_texts_order(quote):
    line = quote(
        "Àcid, contundent, tallant, fred, foc, força, necròtic, perforant, psíquic, radiant, "
        "llamp, tro i verí."
    )
    labels = [row[0] for row in table("tipus_dany").rows]
    assert ", ".join(labels[:-1]) + " i " + labels[-1] + "." == line


def test_spellcasting_by_class(quote):
    quote("Intel·ligència (mag), Saviesa (clergue, druida, explorador) o Carisma (bard")
    assert table("caracteristica_llancament").rows[0] == ("mag", "Intel·ligència")


def test_signed_and_span_print_as_the_text():
    assert (signed(0), signed(3), signed(-5)) == ("+0", "+3", "−5")
    assert (span(1, 1), span(2, 3)) == ("1", "2–3")


def test_cover_is_the_texts_when_the_combat_engine_is_there():
    pytest.importorskip("xuleta.attacks")
    columns, rows = printed("Cobertura", 1)
    assert table("cobertura").columns == columns and list(table("cobertura").rows) == rows


def test_travel_pace_has_every_row_of_the_text_when_the_world_engine_is_there(quote):
    """The text's last table has three rows, «Lent» the last (the file ends without a newline
    after it; nothing is cut off)."""
    quote("Lent\t60 m\t3 km\t24 km\tPots fer servir Sigil")
    pytest.importorskip("xuleta.travel")
    shown = table("ritme_viatge")
    assert [row[0] for row in shown.rows] == ["Ràpid", "Normal", "Lent"]
    columns, rows = printed("Ritme de viatge", 1)
    assert shown.columns == columns and list(shown.rows) == rows
