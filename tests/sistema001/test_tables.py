"""The chapter's tables as data for the rules pages, built from the engine's own data."""

from __future__ import annotations

from sistema001 import objects
from sistema001.conditions import CONDITIONS
from sistema001.maneuvers import MANEUVERS
from sistema001.tables import CANON_TABLES, all_tables, table
from tests.gurps.helpers import DOCS

CHAPTER = (DOCS / "canon" / "outro-sistema-combate.txt").read_text(encoding="utf-8")


def test_keys_are_unique_and_rows_fit_the_columns():
    keys = [t.key for t in CANON_TABLES]
    assert len(keys) == len(set(keys))
    assert all_tables() == CANON_TABLES
    for found in CANON_TABLES:
        assert found.rows and all(len(r) == len(found.columns) for r in found.rows)


def test_printed_tables_are_under_their_heading():
    """The three tables of «Quebrar e Destruir» are printed under their titles; their rows are
    the chapter's tab-separated lines."""
    for found in CANON_TABLES:
        if found.heading is None:
            continue
        lines = CHAPTER.splitlines()
        start = lines.index(found.heading)
        printed = [line.split("\t") for line in lines[start:] if "\t" in line]
        assert tuple(printed[0]) == found.columns
        assert [list(r) for r in found.rows] == printed[1 : 1 + len(found.rows)]


def test_tables_are_built_from_the_engine_data():
    assert len(table("tamanho").rows) == len(objects.SIZE)
    assert len(table("exemplos_objetos").rows) == 7
    assert [r[0] for r in table("manobras").rows] == [m.label for m in MANEUVERS.values()]
    assert len(table("condicoes").rows) == len(CONDITIONS)
    for label, text in table("condicoes").rows:
        assert f"{label}: {text}" in CHAPTER


def test_the_examples_table_names_the_slips():
    """«ND = 35 × 1,5 = 70» and the «Pequeno = 5» of the bow and the sword are noted."""
    notes = " ".join(table("exemplos_objetos").notes)
    assert "1,5" in notes and "Arco" in notes and "espada comum" in notes


def test_every_reading_the_second_half_names_is_registered():
    """Each reading key named by attacks, damage, maneuvers, situations, objects and quick (in
    their docstrings or their results) is in ``sistema001.readings.READINGS``, so the Árbitro's
    register shows it."""
    import re
    from pathlib import Path

    import sistema001
    from sistema001.readings import READINGS_BY_KEY

    root = Path(sistema001.__file__).parent
    patterns = (
        r"[Rr]eadings? ``([a-z0-9_]+)``",
        r"readings\.append\(\"([a-z0-9_]+)\"\)",
        r"readings \+ \(\"([a-z0-9_]+)\"",
        r"readings=\(?\"([a-z0-9_]+)\"",
    )
    named: set[str] = set()
    for name in ("attacks", "damage", "maneuvers", "situations", "objects", "quick"):
        source = (root / f"{name}.py").read_text(encoding="utf-8")
        for pattern in patterns:
            named.update(re.findall(pattern, source))
    assert named
    assert sorted(k for k in named if k not in READINGS_BY_KEY) == []
