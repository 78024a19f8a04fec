"""A second, minimal ruleset, defined in the tests only: "1d10 + bônus ≥ 6".

A sheet is a name-less dict of skills, each a bonus from −5 to +5 (a pydantic model); a check
rolls one d10, adds the skill's bonus and the modifiers, and passes at 6 or more (margin =
total − 6). No tables, no combat, no procedure, no pages. It exists to prove that the agnostic
parts (scenes, the log and its chain, hidden rolls, homologation) run a campaign whatever its
ruleset: nothing below may be GURPS's.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rulesets.base import (
    CheckRequest,
    CheckResult,
    LevelChoice,
    LevelResult,
    RandomSource,
    Ruleset,
    RulesetError,
    SheetCheck,
    TableResult,
)

KEY = "minimo"
LABEL = "Sistema mínimo (1d10 + bônus ≥ 6)"
TARGET = 6
CHECK = "check"
NO_SUCH_SKILL = "{name} não está na ficha."
NO_TABLES = "O sistema mínimo não tem tabelas."
BAD_DICE = "Expressão de dados ilegível: «{text}» (use NdM+K, p.ex. 1d10+2)."
BONUS_ABOVE_3 = "Bônus acima de +3 pede a palavra do Árbitro."


class MinimalSheet(BaseModel):
    model_config = ConfigDict(extra="forbid")

    skills: dict[str, int] = Field(default_factory=dict)
    notes: str = ""


class MinimalState(BaseModel):
    model_config = ConfigDict(extra="forbid")

    wounds: int = Field(default=0, ge=0)


class MinimalExpression:
    def __init__(self, count: int, faces: int, modifier: int) -> None:
        self.count, self.faces, self.modifier = count, faces, modifier

    def __str__(self) -> str:
        adds = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.faces}{adds}"

    @property
    def display(self) -> str:
        return str(self)

    def roll(self, source: RandomSource) -> tuple[tuple[int, ...], int]:
        faces = tuple(source.randint(1, self.faces) for _ in range(self.count))
        return faces, sum(faces) + self.modifier


class MinimalDice:
    def parse(self, text: str) -> MinimalExpression:
        found = re.fullmatch(r"\s*(\d+)d(\d+)([+-]\d+)?\s*", text or "")
        if found is None:
            raise RulesetError(BAD_DICE.format(text=text), field="expression")
        return MinimalExpression(int(found[1]), int(found[2]), int(found[3] or 0))


def _level(name: str, bonus: int, source: str) -> LevelResult:
    where = "ficha" if source == "sheet" else "dito pelo Mestre"
    text = f"{name} {bonus:+d} ({where})"
    record = {"kind": CHECK, "name": name, "source": source, "text": text, "sheet_level": bonus}
    return LevelResult(name=name, level=bonus, kind=CHECK, text=text, record=record)


class MinimalChecks:
    kinds = {CHECK: "Teste"}
    outcomes = {"success": "Sucesso", "failure": "Falha"}
    tables: Mapping[str, str] = {}
    contest_kinds = (CHECK,)

    def uses_sheet(self, request: CheckRequest) -> bool:
        return True

    def sheet_level(
        self, sheet: Mapping[str, Any], request: CheckRequest, catalogue: Callable[[], Any]
    ) -> LevelResult | None:
        name = request.skill or request.label
        if not name:
            return None
        for skill, bonus in sheet["skills"].items():
            if skill.casefold() == name.casefold():
                return _level(skill, bonus, "sheet")
        if request.skill:
            raise RulesetError(NO_SUCH_SKILL.format(name=name), field="skill")
        return None

    def given_level(self, request: CheckRequest, default_kind: str = "") -> LevelResult:
        return _level(request.skill or request.label, request.base_level, "given")

    def ensure_rollable(self, level: LevelResult, modifiers: Sequence[int]) -> None:
        return None

    def roll(
        self, source: RandomSource, level: LevelResult, modifiers: Sequence[int]
    ) -> CheckResult:
        target = level.level + sum(modifiers)
        die = source.randint(1, 10)
        total = die + target
        success = total >= TARGET
        outcome = "success" if success else "failure"
        return CheckResult(
            dice=(die,),
            total=total,
            target=target,
            margin=total - TARGET,
            outcome=outcome,
            outcome_label=self.outcomes[outcome],
            success=success,
            text=f"1d10 ({die}) {target:+d} = {total}",
        )

    def contest(self, a: CheckResult, b: CheckResult) -> Literal["a", "b"] | None:
        if a.margin == b.margin:
            return None
        return "a" if a.margin > b.margin else "b"

    def odds(self, level: int) -> Fraction:
        return Fraction(sum(1 for die in range(1, 11) if die + level >= TARGET), 10)

    def percent(self, level: int) -> int:
        return math.floor(100 * self.odds(level))

    def choices(self, sheet: Mapping[str, Any]) -> list[LevelChoice]:
        return [
            LevelChoice(name, "", _level(name, bonus, "sheet"), self.percent(bonus))
            for name, bonus in sorted(sheet["skills"].items())
        ]

    def roll_table(self, key: str, source: RandomSource, options: Mapping[str, Any]) -> TableResult:
        raise RulesetError(NO_TABLES, field="table")


class MinimalSheets:
    data_model = MinimalSheet
    state_model = MinimalState

    def validate(self, data: Mapping[str, Any]) -> dict:
        try:
            return MinimalSheet.model_validate(dict(data)).model_dump()
        except ValidationError as error:
            first = error.errors()[0]
            field = ".".join(str(part) for part in first["loc"])
            raise RulesetError(f"Ficha inválida: {first['msg']}.", field=field) from None

    def check_data(self, data: Mapping[str, Any], state: Mapping[str, Any]) -> dict:
        return {"skills": dict(data.get("skills", {}))}

    def derive(self, data: Mapping[str, Any], state: Mapping[str, Any]) -> Mapping[str, Any]:
        return {}

    def audit(self, data: Mapping[str, Any]) -> list[SheetCheck]:
        return [
            SheetCheck(BONUS_ABOVE_3, f"skills.{name}")
            for name, bonus in data.get("skills", {}).items()
            if bonus > 3
        ]

    def diff(self, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
        return []

    def state_change(self, sheet, state, hp: int, fatigue: int) -> dict:
        return dict(state)


MINIMAL = Ruleset(
    key=KEY, label=LABEL, dice=MinimalDice(), checks=MinimalChecks(), sheets=MinimalSheets()
)
