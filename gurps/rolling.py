"""How a roll is made at this table (canon §1.1, §1.4–1.6; book p. 86–87).

- **Modifiers before dice** (§1.4): the Mestre states every modifier, each with its reason,
  before the dice; a modifier that turns up after the result does not count. Here an
  ``AnnouncedRoll`` is built once, from the modifiers given when it is created, and never
  takes another (it is frozen and holds a tuple).
- **Don't roll the trivial** (§1.1, p. 87): if neither a critical failure nor a critical
  success would make sense, there is no roll at all — the porter crosses the Praça do Poço
  without rolling. But if anything could go wrong, roll. This is the Mestre's judgement
  before a roll exists, so the engine has nothing to compute for it; it is written here so
  that whoever calls ``AnnouncedRoll`` knows the question was asked first.
- **No roll at effective level 3 or less**, except a defence (§1.1, p. 86):
  ``gurps.checks.ensure_rollable``, which ``AnnouncedRoll.roll`` applies.
- **Contests** (§1.5, p. 87): the quick contest is ``gurps.checks.quick_contest``; the
  regular contest lasts several turns and is run roll by roll.
- **Hidden rolls** (§1.6, p. 87): the two situations in which the book has the Mestre roll
  out of sight, ``HIDDEN_ROLL_REASONS``; ``is_hidden_by_book`` says whether a skill falls in
  one. On a failure the Mestre chooses between lying and saying nothing — the worse the
  failure, the bigger the lie (``HIDDEN_FAILURE_CHOICES``). In this campaign hidden is not
  invisible: the die and the target are recorded in the player's folder before the
  narration and shown at homologation (fixed on 10/09/2026; the site's ``Roll.hidden``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from gurps import checks
from gurps._validate import require_int
from gurps.checks import Outcome, RollKind, SuccessRoll
from gurps.dice import RandomSource
from gurps.errors import (
    EMPTY_SKILL_NAME,
    MODIFIER_WITHOUT_REASON,
    NOT_A_MODIFIER,
    UNKNOWN_OUTCOME,
    UNKNOWN_ROLL_KIND,
    InvalidValue,
)
from gurps.tabular import CanonTable

__all__ = [
    "HIDDEN_FAILURE_CHOICES",
    "HIDDEN_ROLL_REASONS",
    "AnnouncedRoll",
    "HiddenFailure",
    "HiddenReason",
    "HiddenRollReason",
    "Modifier",
    "Rolled",
    "effective_level",
    "hidden_roll_reason",
    "is_hidden_by_book",
    "require_outcome",
]


@dataclass(frozen=True)
class Modifier:
    """One modifier the Mestre states before the dice (§1.4, p. 86): ``value`` in levels
    (−5 for a lock in the dark, +10 for a crude old lock) and ``reason``, the words said at
    the table; ``section`` the canon § the modifier comes from ("4.5", "5.5"; "" where the
    Mestre announces it without one). The section does not change what a modifier is: two
    modifiers of the same value and reason are equal whatever their section. Raises
    InvalidValue("modifier") for a non-int value and InvalidValue("reason") for an empty
    reason."""

    value: int
    reason: str
    section: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        require_int("modifier", self.value)
        if not isinstance(self.reason, str) or not self.reason.strip():
            raise InvalidValue("reason", MODIFIER_WITHOUT_REASON)


def _modifiers(modifiers: Iterable[Modifier]) -> tuple[Modifier, ...]:
    found = tuple(modifiers)
    for modifier in found:
        if not isinstance(modifier, Modifier):
            raise InvalidValue("modifiers", NOT_A_MODIFIER)
    return found


def effective_level(base: int, modifiers: Iterable[Modifier]) -> int:
    """The sheet's level plus every announced modifier, all cumulative (§1.1 and §1.4,
    p. 86): −5 (dark) and +10 (crude lock) on 12 → 17.

    ``base`` in levels; ``modifiers`` Modifier values. Raises InvalidValue("level") for a
    non-int base and InvalidValue("modifiers") for anything that is not a Modifier.
    """
    return checks.effective_level(base, [modifier.value for modifier in _modifiers(modifiers)])


@dataclass(frozen=True)
class Rolled:
    """An announced roll and what the dice gave (``gurps.checks.SuccessRoll``)."""

    announced: AnnouncedRoll
    result: SuccessRoll


@dataclass(frozen=True)
class AnnouncedRoll:
    """A roll as the Mestre states it before the dice (§1.4, p. 86): the level from the
    sheet, the modifiers with their reasons, the kind (skill, attribute, defence) and whether
    the book has it rolled hidden (§1.6). Everything is fixed at creation: there is no way to
    add a modifier afterwards.

    Raises InvalidValue("level"/"modifiers"/"kind") for bad input.
    """

    base_level: int
    modifiers: tuple[Modifier, ...] = ()
    kind: RollKind = RollKind.SKILL
    hidden: bool = False
    section: str = field(default="1.4", init=False)
    page: str = field(default="86", init=False)

    def __post_init__(self) -> None:
        require_int("level", self.base_level)
        object.__setattr__(self, "modifiers", _modifiers(self.modifiers))
        try:
            object.__setattr__(self, "kind", RollKind(self.kind))
        except ValueError:
            raise InvalidValue("kind", UNKNOWN_ROLL_KIND) from None

    @property
    def effective_level(self) -> int:
        """Base level plus the announced modifiers (§1.1, p. 86)."""
        return effective_level(self.base_level, self.modifiers)

    def roll(self, source: RandomSource) -> Rolled:
        """Roll 3d6 against the effective level. Raises NoRollAtThreeOrLess at effective
        level 3 or less unless it is a defence (§1.1, p. 86)."""
        return Rolled(self, checks.roll_success(source, self.effective_level, self.kind))


def require_outcome(value: Outcome | str, field_name: str = "outcome") -> Outcome:
    """``value`` as a ``gurps.checks.Outcome`` ("critical_success", "success", "failure",
    "critical_failure"); anything else raises InvalidValue(field_name)."""
    try:
        return Outcome(value)
    except ValueError:
        raise InvalidValue(field_name, UNKNOWN_OUTCOME) from None


# --- §1.6 Quando o Mestre rola escondido (p. 87) -------------------------------------------


class HiddenReason(StrEnum):
    """The two situations of §1.6 in which the book has the Mestre roll hidden."""

    CHARACTER_MUST_NOT_KNOW_RESULT = "character_must_not_know_result"
    PLAYER_MUST_NOT_KNOW_SOMETHING_IS_THERE = "player_must_not_know_something_is_there"


@dataclass(frozen=True)
class HiddenRollReason:
    """One situation of §1.6, in the canon's words, with the skills the canon names for it
    (Portuguese, as the canon writes them). ``scientific_skills`` True: every scientific
    skill falls here too — the canon names the category, not a list."""

    reason: HiddenReason
    situation: str
    skills: tuple[str, ...]
    scientific_skills: bool = False
    section: str = "1.6"
    page: str = "87"


HIDDEN_ROLL_REASONS: tuple[HiddenRollReason, ...] = (
    HiddenRollReason(
        HiddenReason.CHARACTER_MUST_NOT_KNOW_RESULT,
        "o personagem não deveria saber se acertou",
        ("Detecção de Mentiras", "Empatia"),
        scientific_skills=True,
    ),
    HiddenRollReason(
        HiddenReason.PLAYER_MUST_NOT_KNOW_SOMETHING_IS_THERE,
        "o jogador não deveria saber que há algo ali",
        ("Observação", "Noção do Perigo"),
    ),
)


class HiddenFailure(StrEnum):
    """What the Mestre may do on a hidden roll's failure (§1.6, p. 87): lie, or say nothing.
    The worse the failure, the bigger the lie."""

    LIE = "lie"
    SAY_NOTHING = "say_nothing"


HIDDEN_FAILURE_CHOICES: dict[HiddenFailure, str] = {
    HiddenFailure.LIE: "mentir",
    HiddenFailure.SAY_NOTHING: "não dizer nada",
}


def _skill_key(name: str) -> str:
    # Case, accents and spacing do not make another skill: "deteccao de  mentiras" matches.
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


def hidden_roll_reason(skill_name: str, *, scientific: bool = False) -> HiddenRollReason | None:
    """The §1.6 situation that makes the book roll ``skill_name`` hidden, or None.

    ``skill_name`` as the canon writes it (Detecção de Mentiras, Empatia, Observação, Noção
    do Perigo; case, accents and spacing ignored); ``scientific`` True when the skill is a
    scientific one — the canon names the category, so the sheet says which skills are.
    Raises InvalidValue("skill") for an empty name.
    """
    if not isinstance(skill_name, str) or not skill_name.strip():
        raise InvalidValue("skill", EMPTY_SKILL_NAME)
    key = _skill_key(skill_name)
    for row in HIDDEN_ROLL_REASONS:
        if (scientific and row.scientific_skills) or key in map(_skill_key, row.skills):
            return row
    return None


def is_hidden_by_book(skill_name: str, *, scientific: bool = False) -> bool:
    """True if the book has a roll of ``skill_name`` made hidden (§1.6, p. 87): Detecção de
    Mentiras, Empatia and scientific skills (the character should not know whether he
    succeeded), Observação and Noção do Perigo (the player should not know something is
    there). Raises InvalidValue("skill") for an empty name."""
    return hidden_roll_reason(skill_name, scientific=scientific) is not None


def _skills_cell(row: HiddenRollReason) -> str:
    names = list(row.skills)
    if row.scientific_skills:
        names.insert(1, "perícia científica")  # the canon's order
    return ", ".join(names)


CANON_TABLES: tuple[CanonTable, ...] = (
    CanonTable(
        key="hidden_rolls",
        title="Quando o Mestre rola escondido",
        section="1.6",
        page="87",
        columns=("Situação", "Perícias"),
        rows=tuple((row.situation, _skills_cell(row)) for row in HIDDEN_ROLL_REASONS),
        note=(
            "Numa falha, o Mestre escolhe entre "
            + " e ".join(HIDDEN_FAILURE_CHOICES.values())
            + " — e quanto pior a falha, maior a mentira."
        ),
    ),
)
