"""Success rolls: 3d6 against a level, criticals, margins, quick contests and the odds.

Canon §1.1–1.3 and §1.5 (book p. 86–87, 202), with the defence roll of §4.6 (p. 98).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from gurps._validate import require_int
from gurps.dice import RandomSource, roll_3d6, three_d6_distribution
from gurps.errors import (
    ROLL_OUT_OF_RANGE,
    UNKNOWN_ROLL_KIND,
    InvalidValue,
    NoRollAtThreeOrLess,
)
from gurps.tabular import CanonTable


class RollKind(StrEnum):
    SKILL = "skill"
    ATTRIBUTE = "attribute"
    DEFENCE = "defence"


class Outcome(StrEnum):
    CRITICAL_SUCCESS = "critical_success"
    SUCCESS = "success"
    FAILURE = "failure"
    CRITICAL_FAILURE = "critical_failure"

    @property
    def is_success(self) -> bool:
        return self in (Outcome.CRITICAL_SUCCESS, Outcome.SUCCESS)


OUTCOME_NAMES: dict[Outcome, str] = {
    Outcome.CRITICAL_SUCCESS: "Sucesso decisivo",
    Outcome.SUCCESS: "Sucesso",
    Outcome.FAILURE: "Falha",
    Outcome.CRITICAL_FAILURE: "Falha crítica",
}

# §1.1: "Não se rola com nível efetivo 3 ou menos" (p. 86).
NO_ROLL_AT_OR_BELOW = 3


@dataclass(frozen=True)
class OddsRow:
    """One row of the canon's odds table: level, percent to pass (truncated, not rounded).

    The canon cites no book page for the table itself; 86 is the page of the roll it describes.
    """

    level: int
    percent: int
    section: str = "1.1"
    page: str = "86"


ODDS_TABLE: tuple[OddsRow, ...] = (
    OddsRow(9, 37),
    OddsRow(12, 74),
    OddsRow(14, 90),
    OddsRow(16, 98),
)


def _roll_kind(kind: RollKind | str) -> RollKind:
    try:
        return RollKind(kind)
    except ValueError:
        raise InvalidValue("kind", UNKNOWN_ROLL_KIND) from None


def effective_level(base_level: int, modifiers: Iterable[int]) -> int:
    """Level plus every modifier; all are cumulative (§1.1, p. 86). −5 and +10 give +5 (§1.4)."""
    return require_int("level", base_level) + sum(require_int("modifier", m) for m in modifiers)


def is_rollable(effective_level: int, kind: RollKind | str) -> bool:
    """Whether a roll at ``effective_level`` (levels) may be made: not at 3 or less, unless
    it is a defence (§1.1, MB p. 86). Raises InvalidValue("level") for a non-int."""
    return (
        require_int("level", effective_level) > NO_ROLL_AT_OR_BELOW
        or _roll_kind(kind) is RollKind.DEFENCE
    )


def ensure_rollable(effective_level: int, kind: RollKind | str) -> None:
    """Raise NoRollAtThreeOrLess at effective level 3 or less, unless it is a defence (§1.1)."""
    if not is_rollable(effective_level, kind):
        raise NoRollAtThreeOrLess(effective_level)


# §1.2 (p. 86, 202): the numbers the critical table turns on. The table's text below is
# written from these same names, so the page and the engine cannot drift apart.
CRITICAL_SUCCESS_ALWAYS_UP_TO = 4  # 3 or 4: critical success, always
CRITICAL_SUCCESS_ON_5_FROM_LEVEL = 15  # 5: critical success at effective level 15+
CRITICAL_SUCCESS_ON_6_FROM_LEVEL = 16  # 6: critical success at effective level 16+
PLAIN_FAILURE_ON_17_FROM_LEVEL = 16  # 17: plain failure at 16+, critical failure below
CRITICAL_FAILURE_ALWAYS = 18  # 18: critical failure, always
CRITICAL_FAILURE_MARGIN = 10  # a roll 10 or more over the effective level


@dataclass(frozen=True)
class CriticalRule:
    """One row of the canon's §1.2 table: the roll (``result``) and what it is (``meaning``),
    in the canon's words, built from the thresholds above."""

    result: str
    meaning: str
    section: str = "1.2"
    page: str = "86, 202"


CRITICAL_RULES: tuple[CriticalRule, ...] = (
    CriticalRule(f"3 ou {CRITICAL_SUCCESS_ALWAYS_UP_TO}", "Sucesso decisivo, sempre"),
    CriticalRule(
        "5", f"Sucesso decisivo se o nível efetivo for {CRITICAL_SUCCESS_ON_5_FROM_LEVEL} ou mais"
    ),
    CriticalRule(
        "6", f"Sucesso decisivo se o nível efetivo for {CRITICAL_SUCCESS_ON_6_FROM_LEVEL} ou mais"
    ),
    CriticalRule(
        "17",
        f"Falha comum se o nível efetivo for {PLAIN_FAILURE_ON_17_FROM_LEVEL} ou mais; "
        f"falha crítica se for {PLAIN_FAILURE_ON_17_FROM_LEVEL - 1} ou menos",
    ),
    CriticalRule(str(CRITICAL_FAILURE_ALWAYS), "Falha crítica, sempre"),
    CriticalRule(
        f"Qualquer resultado que exceda o nível efetivo em {CRITICAL_FAILURE_MARGIN} ou mais",
        "Falha crítica",
    ),
)


def success_outcome(
    roll: int, effective_level: int, kind: RollKind | str = RollKind.SKILL
) -> Outcome:
    """The outcome of a 3d6 total ``roll`` (3..18) against ``effective_level`` (§1.2, p. 86, 202).

    3 or 4: critical success, always; 5 at 15+ and 6 at 16+: critical success; 18: critical
    failure, always; 17: plain failure at 16+, critical failure at 15 or less; a roll 10 or
    more above the level: critical failure; otherwise roll <= level passes. A defence (§4.6,
    p. 98) follows the same rule: 3 or 4 always pass, even at level 1 or 2; 17 or 18 always
    fail. Raises InvalidValue("roll") outside 3..18.
    """
    if require_int("roll", roll) < 3 or roll > 18:
        raise InvalidValue("roll", ROLL_OUT_OF_RANGE)
    level = require_int("level", effective_level)
    _roll_kind(kind)  # every kind follows the same table; only the refusal differs
    if (
        roll <= CRITICAL_SUCCESS_ALWAYS_UP_TO
        or (roll == 5 and level >= CRITICAL_SUCCESS_ON_5_FROM_LEVEL)
        or (roll == 6 and level >= CRITICAL_SUCCESS_ON_6_FROM_LEVEL)
    ):
        return Outcome.CRITICAL_SUCCESS
    if (
        roll >= CRITICAL_FAILURE_ALWAYS
        or (roll == 17 and level < PLAIN_FAILURE_ON_17_FROM_LEVEL)
        or roll - level >= CRITICAL_FAILURE_MARGIN
    ):
        return Outcome.CRITICAL_FAILURE
    if roll == 17 or roll > level:
        return Outcome.FAILURE
    return Outcome.SUCCESS


def margin(roll: int, effective_level: int) -> int:
    """Margin of success (§1.3): level − roll. Level 13, roll 8: margin 5; negative on a miss."""
    return effective_level - roll


@dataclass(frozen=True)
class SuccessRoll:
    """A rolled test: the three faces, their total, the level, outcome and margin."""

    dice: tuple[int, int, int]
    total: int
    effective_level: int
    outcome: Outcome
    margin: int


def roll_success(
    source: RandomSource, effective_level: int, kind: RollKind | str = RollKind.SKILL
) -> SuccessRoll:
    """Roll 3d6 against ``effective_level``. Raises NoRollAtThreeOrLess first (§1.1)."""
    ensure_rollable(effective_level, kind)
    dice = roll_3d6(source)
    total = sum(dice)
    return SuccessRoll(
        dice=dice,
        total=total,
        effective_level=effective_level,
        outcome=success_outcome(total, effective_level, kind),
        margin=margin(total, effective_level),
    )


@lru_cache(maxsize=256)
def _outcome_counts(level: int) -> Counter[Outcome]:
    counts: Counter[Outcome] = Counter()
    for total, ways in three_d6_distribution().items():
        counts[success_outcome(total, level)] += ways
    return counts


def success_probability(level: int) -> Fraction:
    """Exact chance to pass at ``level``, criticals included, over the 216 rolls of 3d6.
    Level 9: 81/216. Gives a number at any level; the refusal of §1.1 is not applied here."""
    counts = _outcome_counts(require_int("level", level))
    return Fraction(counts[Outcome.SUCCESS] + counts[Outcome.CRITICAL_SUCCESS], 216)


def critical_success_probability(level: int) -> Fraction:
    """Exact chance of a critical success at ``level`` (§1.2)."""
    return Fraction(_outcome_counts(require_int("level", level))[Outcome.CRITICAL_SUCCESS], 216)


def critical_failure_probability(level: int) -> Fraction:
    """Exact chance of a critical failure at ``level`` (§1.2)."""
    return Fraction(_outcome_counts(require_int("level", level))[Outcome.CRITICAL_FAILURE], 216)


def percent_truncated(p: Fraction) -> int:
    """floor(100 · p): the canon's table truncates, so 81/216 (37,5%) shows as 37."""
    return math.floor(100 * Fraction(p))


def quick_contest(a: SuccessRoll, b: SuccessRoll) -> Literal["a", "b"] | None:
    """The winner of a quick contest (§1.5, p. 87), or None on a tie.

    One passes and the other fails: the one who passed. Both pass, or both fail: the larger
    margin (the smaller failure). Equal margins: nobody won.
    """
    if a.outcome.is_success != b.outcome.is_success:
        return "a" if a.outcome.is_success else "b"
    if a.margin == b.margin:
        return None
    return "a" if a.margin > b.margin else "b"


CANON_TABLES: tuple[CanonTable, ...] = (
    CanonTable(
        key="odds",
        title="Chance de passar",
        section="1.1",
        page=ODDS_TABLE[0].page,
        columns=("NH", "Chance de passar"),
        rows=tuple((str(row.level), f"{row.percent}%") for row in ODDS_TABLE),
        heading="## 1.1 Como se rola",
        notes=(
            "As três primeiras linhas estão no `17`, Parte 1.",
            "Role 3d6 e compare com o NH do atributo ou da perícia. Igual ou menor passa.",
        ),
    ),
    CanonTable(
        key="critical",
        title="Sucesso decisivo e falha crítica",
        section="1.2",
        page=CRITICAL_RULES[0].page,
        columns=("Resultado", "O que é"),
        rows=tuple((rule.result, rule.meaning) for rule in CRITICAL_RULES),
        heading="## 1.2 Sucesso decisivo e falha crítica",
        note=(
            "O que o sucesso decisivo dá e o que a falha crítica cobra fora de combate é "
            "decisão do Mestre de Cena. Dentro de combate há tabela (seção 4.8)."
        ),
    ),
)
