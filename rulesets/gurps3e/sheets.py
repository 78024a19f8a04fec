"""GURPS's sheets behind ``SheetsPart``. GURPS keeps its own tables (the version's attributes,
skills, traits and weapons, read by the ``sheets`` app), so it has no pydantic ``data_model``:
its data here is the plain dict the ``sheets`` app reads from those tables.

Thin: what derives from a sheet is ``gurps.derived``'s, the Árbitro's checks ``gurps.audit``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gurps import audit, derived, injury
from gurps import fatigue as fatigue_rules
from gurps.hit_locations import limb_label
from gurps.house import CombatantKind
from rulesets.base import RulesetError, SheetCheck

# The engine's words a GURPS character's stored state and a combatant use, for the Django
# models that store them (they reach the engine through this adapter).
__all__ = ["SHEETS", "CombatantKind", "GurpsSheets", "limb_label"]

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

    def state_change(
        self, sheet: Mapping[str, Any] | None, state: Mapping[str, Any], hp: int, fatigue: int
    ) -> dict:
        # Fatigue never past ST (§6.2), a recovery never below 0; HP as injury says (§5.6).
        fatigue_lost = state["fatigue_lost"]
        if fatigue < 0:
            fatigue_lost = fatigue_rules.spend_fatigue(sheet["st"], fatigue_lost, -fatigue)
        elif fatigue > 0:
            fatigue_lost = fatigue_rules.recover_fatigue(fatigue_lost, fatigue)
        return {"hp_lost": injury.hp_lost_after(state["hp_lost"], hp), "fatigue_lost": fatigue_lost}


SHEETS = GurpsSheets()
