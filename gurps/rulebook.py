"""Every table of the canon, gathered from the modules that compute with it.

``all_tables()`` returns each module's ``CANON_TABLES`` in canon order (by section), so the
rules pages and their tests read one list. A module adds a table by listing it in its own
``CANON_TABLES``; nothing here copies a number.
"""

from __future__ import annotations

import importlib
from functools import cache

from gurps.tabular import CanonTable

# The modules of the engine, in the canon's order. A module without CANON_TABLES adds none.
MODULES = (
    "gurps.checks",
    "gurps.rolling",
    "gurps.attributes",
    "gurps.encumbrance",
    "gurps.skills",
    "gurps.combat",
    "gurps.defence",
    "gurps.tables",
    "gurps.damage",
    "gurps.ranged",
    "gurps.falls",
    "gurps.injury",
    "gurps.hazards",
    "gurps.fatigue",
    "gurps.magic",
    "gurps.house",
)


def _section_key(section: str) -> tuple:
    # "4.10" after "4.9"; "5b" after "5.6"; "5.4.1" after "5.4".
    parts = []
    for part in section.split(",")[0].strip().split("."):
        digits = "".join(c for c in part if c.isdigit())
        letters = "".join(c for c in part if not c.isdigit())
        parts.append((int(digits) if digits else 0, letters))
    return tuple(parts)


@cache
def all_tables() -> tuple[CanonTable, ...]:
    """Every CanonTable of the engine, sorted by canon section (stable within a module).
    Raises ValueError if two tables share a key."""
    found: list[CanonTable] = []
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name:
                raise
            continue
        found.extend(getattr(module, "CANON_TABLES", ()))
    keys = [table.key for table in found]
    duplicates = {key for key in keys if keys.count(key) > 1}
    if duplicates:
        raise ValueError(f"duplicate table keys: {sorted(duplicates)}")
    return tuple(sorted(found, key=lambda table: _section_key(table.section)))


def table(key: str) -> CanonTable:
    """The table with ``key``. Raises KeyError for an unknown key."""
    for found in all_tables():
        if found.key == key:
            return found
    raise KeyError(key)
