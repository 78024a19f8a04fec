"""GURPS's sheets behind ``SheetsPart``. GURPS keeps its own tables (the version's attributes,
skills, traits and weapons, read by the ``sheets`` app), so it has no pydantic ``data_model``:
its data here is the plain dict the ``sheets`` app reads from those tables.

Thin: what derives from a sheet is ``gurps.derived``'s, the Árbitro's checks ``gurps.audit``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gurps import audit, derived
from rulesets.base import RulesetError, SheetCheck

NO_JSON_DATA = "Uma ficha de GURPS fica nas tabelas da ficha, não num JSON."


class GurpsSheets:
    """``SheetsPart`` for GURPS.

    ``check_data(data, state)``: ``data`` is ``{"name", "st", "dx", "iq", "ht", "skills":
    {name: (level, attribute)}, "traits": [{"key", "level"}]}``, ``state`` ``{"fatigue_lost"}``;
    returns what ``GurpsChecks`` reads (Força de Vontade and Vontade Fraca summed from the
    traits, §7.1). ``derive(**inputs)`` is ``gurps.derived.derive``; ``audit(**inputs)``
    ``gurps.audit.audit_sheet`` (their own keyword inputs, the ``sheets`` app maps them)."""

    data_model = None
    state_model = None

    def validate(self, data: Mapping[str, Any]) -> dict:
        raise RulesetError(NO_JSON_DATA, field="data")

    def check_data(self, data: Mapping[str, Any], state: Mapping[str, Any]) -> dict:
        traits = data.get("traits", ())
        return {
            "name": data["name"],
            "st": data["st"],
            "dx": data["dx"],
            "iq": data["iq"],
            "ht": data["ht"],
            "skills": dict(data["skills"]),
            "strong_will": sum(t["level"] or 1 for t in traits if t["key"] == "strong_will"),
            "weak_will": sum(t["level"] or 1 for t in traits if t["key"] == "weak_will"),
            "fatigue_lost": state.get("fatigue_lost", 0),
        }

    def derive(self, **inputs: Any) -> derived.Derived:
        return derived.derive(**inputs)

    def audit(self, **inputs: Any) -> list[SheetCheck]:
        return [
            SheetCheck(finding.message, f"{finding.group}: {finding.what}")
            for finding in audit.audit_sheet(**inputs).findings
        ]

    def diff(self, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
        # The version history's diff is the sheets app's (it compares the tables' rows).
        return []


SHEETS = GurpsSheets()
