"""Shared by the engine's tests: a scripted random source and readers of the canon's text.

The texts the project is built from are kept in the repository, under docs/ (the canon, the
Mestre's procedure, the book's skill costs to seed, the canon's worked examples), and tests read
them from there: their own tables and examples, instead of copying their numbers. A test
(tests/test_canon_copy.py) says when a copy beside the repository (../shared/) differs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

DOCS = Path(__file__).resolve().parents[2] / "docs"
CANON_PATH = DOCS / "canon" / "como-se-joga.md"
PROCEDURE_PATH = DOCS / "canon" / "sessao-do-mestre.txt"
# The transcription of the book's two skill cost tables (MB pp. 43–44), the seed of the
# Árbitro's table.
SKILL_COSTS_PATH = DOCS / "canon" / "custo-de-pericias.md"
CASES_PATH = DOCS / "cases" / "canon-examples.json"


class ScriptedSource:
    """A random source whose randint returns preset values, in order; it checks the range."""

    def __init__(self, values: Iterable[int]) -> None:
        self.values = list(values)

    def randint(self, a: int, b: int) -> int:
        value = self.values.pop(0)
        assert a <= value <= b, f"scripted {value} outside [{a}, {b}]"
        return value


def canon_cases() -> dict[str, dict[str, Any]]:
    """The canon's worked examples, by id."""
    cases = json.loads(CASES_PATH.read_text(encoding="utf-8"))["cases"]
    return {case["id"]: case for case in cases}


def canon_table(heading: str) -> list[list[str]]:
    """The body rows of the first markdown table after the line ``heading`` in the canon,
    each a list of cells with the bold markers removed."""
    lines = CANON_PATH.read_text(encoding="utf-8").splitlines()
    start = lines.index(heading)
    rows: list[list[str]] = []
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        if line.startswith("|"):
            rows.append([cell.strip().replace("**", "") for cell in line.strip("|").split("|")])
        elif rows:
            break
    assert len(rows) > 2, f"no table under {heading!r}"
    return rows[2:]  # drop the header and the |---| separator


def canon_section(heading: str) -> str:
    """The canon's text from the line ``heading`` to the next heading of any level."""
    lines = CANON_PATH.read_text(encoding="utf-8").splitlines()
    start = lines.index(heading)
    body = []
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        body.append(line)
    return "\n".join(body)


def _markdown_table(lines: list[str], heading: str) -> tuple[list[str], list[list[str]]]:
    start = lines.index(heading)
    rows: list[list[str]] = []
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        if line.startswith("|"):
            rows.append([cell.strip().replace("**", "") for cell in line.strip("|").split("|")])
        elif rows:
            break
    return rows[0], rows[2:]


def _relative(label: str) -> int | None:
    """ "atributo −3" → −3, "IQ" → 0, "IQ +5" → 5, "cada +1 a mais" → None."""
    if label.startswith("cada"):
        return None
    words = label.replace("\u2212", "-").split()
    return int(words[1]) if len(words) > 1 else 0


def skill_cost_tables() -> dict[str, tuple[list[str], list[tuple[str, int | None, list[str]]]]]:
    """The two tables of the transcription, by kind ("physical", "mental"): the difficulty
    columns as written ("Fácil" …) and each line as (label, relative level or None for "cada
    +1 a mais", its cells as written: "½", "—", "+8")."""
    lines = SKILL_COSTS_PATH.read_text(encoding="utf-8").splitlines()
    found = {}
    for kind, heading in (
        ("physical", "## Perícias físicas (base DX; algumas ST ou HT) — pontos gastos"),
        ("mental", "## Perícias mentais (base IQ) — pontos gastos"),
    ):
        header, rows = _markdown_table(lines, heading)
        found[kind] = (header[1:], [(row[0], _relative(row[0]), row[1:]) for row in rows])
    return found


def skill_costs_text() -> str:
    return SKILL_COSTS_PATH.read_text(encoding="utf-8")


Check = Callable[[Any, Any], None]


def case_registry() -> tuple[dict[str, Check], Callable[..., Callable[[Check], Check]]]:
    """A file's checks of canon cases: ``(CHECKS, checks)``, where ``@checks("id", ...)``
    registers the decorated function as the check of those case ids in ``CHECKS``."""
    registry: dict[str, Check] = {}

    def checks(*case_ids: str) -> Callable[[Check], Check]:
        def register(check: Check) -> Check:
            for case_id in case_ids:
                registry[case_id] = check
            return check

        return register

    return registry, checks
