"""The rules pages' combat tables (gurps.combat.pages): unique keys, the canon's headings."""

from __future__ import annotations

from gurps.combat import CANON_TABLES


def test_every_table_of_the_module_names_a_canon_section_and_unique_key() -> None:
    keys = [table.key for table in CANON_TABLES]
    assert len(keys) == len(set(keys))
    headings = {table.heading for table in CANON_TABLES if table.heading}
    assert headings == {
        "## 4.3 Manobras",
        "## 4.5 Modificadores de ataque",
        "## 4.10 A sequência de combate — tabela do Mestre",
        "# 5d. Terreno e o que ele cobra",
    }
