"""GURPS's checks behind ``ChecksPart``: 3d6 against a level (§1.1–1.5), the level read from the
sheet (§3.1, §3.3, §6.2, §7.1), the quick contest, the odds, and the engine's tables (§4.8, §5b).

Thin: every rule is ``gurps.checks``, ``gurps.levels`` or ``gurps.tables``'s; this module only
turns their results into the interface's dataclasses.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Literal

from gurps import checks, levels, tables
from gurps.damage import DAMAGE_TYPE_NAMES
from gurps.injury import HitLocation
from gurps.skills import DIFFICULTY_NAMES
from rulesets.base import (
    CheckRequest,
    CheckResult,
    LevelChoice,
    LevelResult,
    RandomSource,
    TableResult,
)

KINDS = {"skill": "Perícia", "attribute": "Atributo", "defence": "Defesa"}

# The words GURPS's roll and table forms offer: (value, Portuguese name).
DIFFICULTY_CHOICES = [(d.value, name) for d, name in DIFFICULTY_NAMES.items()]
LOCATION_CHOICES = [(loc.value, loc.label) for loc in HitLocation]
DAMAGE_TYPE_CHOICES = [(str(kind), name) for kind, name in DAMAGE_TYPE_NAMES.items()]


def _level(found: levels.Level) -> LevelResult:
    return LevelResult(
        name=found.name,
        level=found.level,
        kind=str(found.kind),
        text=found.text,
        record=found.as_dict(),
    )


def sheet_levels(sheet: Mapping[str, Any]) -> levels.SheetLevels:
    """The engine's reading of ``SheetsPart.check_data``'s plain dict."""
    return levels.SheetLevels(
        name=sheet["name"],
        st=sheet["st"],
        dx=sheet["dx"],
        iq=sheet["iq"],
        ht=sheet["ht"],
        skills={
            name: levels.SheetSkillLevel(level, attribute)
            for name, (level, attribute) in sheet["skills"].items()
        },
        strong_will=sheet.get("strong_will", 0),
        weak_will=sheet.get("weak_will", 0),
        fatigue_lost=sheet.get("fatigue_lost", 0),
    )


class GurpsChecks:
    """``ChecksPart`` for GURPS (see ``rulesets.base.ChecksPart`` for each method's contract).
    Raises ``gurps.errors.InvalidValue`` (with ``.field``) and ``NoRollAtThreeOrLess``."""

    kinds = KINDS
    outcomes = {str(key): label for key, label in checks.OUTCOME_NAMES.items()}
    tables = tables.TABLE_TITLES
    contest_kinds = (str(checks.RollKind.SKILL), str(checks.RollKind.ATTRIBUTE))  # §1.5

    def uses_sheet(self, request: CheckRequest) -> bool:
        # A defence's level is the combat's (Esquiva, Aparar, Bloqueio), said by the Mestre.
        return request.kind != checks.RollKind.DEFENCE

    def sheet_level(
        self, sheet: Mapping[str, Any], request: CheckRequest, catalogue: Callable[[], Any]
    ) -> LevelResult | None:
        engine_sheet = sheet_levels(sheet)
        if request.skill:
            found = levels.skill_level(
                engine_sheet,
                request.skill,
                catalogue=catalogue(),
                attribute=request.attribute or None,
                difficulty=request.difficulty or None,
                new_skill=request.new_skill,
            )
        elif request.attribute:
            found = levels.attribute_level(engine_sheet, request.attribute)
        else:
            found = levels.sheet_line(engine_sheet, request.label, kind=request.kind or None)
            if found is None:
                return None
        return _level(found)

    def given_level(self, request: CheckRequest, default_kind: str = "") -> LevelResult | None:
        kind = request.kind or ("attribute" if request.attribute and not request.skill else "")
        kind = kind or ("skill" if request.skill else default_kind)
        if not kind:
            return None  # the caller says which kind is needed
        name = request.skill
        if not name and request.attribute:
            name = levels.ATTRIBUTE_NAMES[levels.read_attribute(request.attribute)]
        return _level(levels.given_level(name or request.label, request.base_level, kind))

    def ensure_rollable(self, level: LevelResult, modifiers: Sequence[int]) -> None:
        checks.ensure_rollable(checks.effective_level(level.level, list(modifiers)), level.kind)

    def roll(
        self, source: RandomSource, level: LevelResult, modifiers: Sequence[int]
    ) -> CheckResult:
        kind = checks.RollKind(level.kind)
        effective = checks.effective_level(level.level, list(modifiers))
        checks.ensure_rollable(effective, kind)
        rolled = checks.roll_success(source, effective, kind)
        return CheckResult(
            dice=tuple(rolled.dice),
            total=rolled.total,
            target=rolled.effective_level,
            margin=rolled.margin,
            outcome=str(rolled.outcome),
            outcome_label=checks.OUTCOME_NAMES[rolled.outcome],
            success=rolled.outcome.is_success,
        )

    def contest(self, a: CheckResult, b: CheckResult) -> Literal["a", "b"] | None:
        def engine(side: CheckResult) -> checks.SuccessRoll:
            return checks.SuccessRoll(
                side.dice, side.total, side.target, checks.Outcome(side.outcome), side.margin
            )

        return checks.quick_contest(engine(a), engine(b))

    def odds(self, level: int) -> Fraction:
        return checks.success_probability(level)

    def percent(self, level: int) -> int:
        # Truncated, as the canon's table (§1.1).
        return checks.percent_truncated(checks.success_probability(level))

    def choices(self, sheet: Mapping[str, Any]) -> list[LevelChoice]:
        engine_sheet = sheet_levels(sheet)
        found = []
        for attribute in levels.CheckAttribute:
            level = levels.attribute_level(engine_sheet, attribute)
            found.append(LevelChoice("", attribute.value, _level(level), self.percent(level.level)))
        for name in sorted(engine_sheet.skills, key=levels.folded):
            level = levels.skill_level(engine_sheet, name)
            found.append(LevelChoice(name, "", _level(level), self.percent(level.level)))
        return found

    def roll_table(self, key: str, source: RandomSource, options: Mapping[str, Any]) -> TableResult:
        result = tables.roll_on_table(key, source, **options)
        return TableResult(
            table_key=result.table_key,
            title=result.title,
            rolls=tuple(result.rolls),
            faces=tuple(tuple(faces) for faces in result.faces),
            row=result.row.label,
            effect=result.effect,
            text=result.text,
            readings=tuple(result.readings),
            total=result.total,
        )


CHECKS = GurpsChecks()
