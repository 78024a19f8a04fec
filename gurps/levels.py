"""The level a test is rolled against, read from a character's sheet and state (canon §1.1,
§3.3, §6.2, §7.1; docs/DESIGN.md, invariant 10 (Levels from the sheet)): the sheet's NH of a skill,
an attribute, or Vontade; else the best default of the skill (§3.3), from the Árbitro's catalogue or
from the attribute and difficulty the caller gives. Each answer says where its number came from, in
the words a log line uses: "Rastreamento 13 (ficha)", "Escalada 9 por pré-definido DX−5",
"ST 11 − 2 por fadiga = 9".

What the state takes: fatigue lowers ST for ST-based skills and tests (§6.2, p. 134), defaults
from ST included. Shock (§5.1) lasts one combat turn and the attack penalty for HP lost (p. 97)
is an attack's: both belong to the combat tracker, not to a scene's test; HP lost changes no
skill or attribute test (§5.4 halves Move and Dodge only).
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from gurps import skill_costs
from gurps.attributes import will
from gurps.audit import CatalogueSkill
from gurps.checks import RollKind
from gurps.errors import InvalidValue
from gurps.fatigue import fatigue_effects
from gurps.skill_costs import skill_kind_for
from gurps.skills import (
    Default,
    Difficulty,
    general_defaults,
    read_default,
    weigh_defaults,
)


class CheckAttribute(StrEnum):
    """What a test may be rolled against besides a skill: the four attributes (§2) and Vontade
    (§7.1). The canon has no Percepção."""

    ST = "st"
    DX = "dx"
    IQ = "iq"
    HT = "ht"
    WILL = "will"


# The four attributes' names are the skill tables' (gurps.skill_costs); Vontade is §7.1's.
ATTRIBUTE_NAMES: dict[CheckAttribute, str] = {
    **{CheckAttribute(key): name for key, name in skill_costs.ATTRIBUTE_NAMES.items()},
    CheckAttribute.WILL: "Vontade",
}


class LevelSource(StrEnum):
    SHEET = "sheet"  # the sheet's own line (an attribute, Vontade, a skill it has)
    DEFAULT = "default"  # the best default of a skill the sheet lacks (§3.3)
    GIVEN = "given"  # said by the Mestre: a creature or NPC without a sheet


LEVEL_SOURCE_NAMES: dict[LevelSource, str] = {
    LevelSource.SHEET: "ficha",
    LevelSource.DEFAULT: "pré-definido",
    LevelSource.GIVEN: "dito pelo Mestre",
}

SKILL_NOT_ON_SHEET_NO_DEFAULT = "{name} não tem {skill} e {skill} não tem pré-definido (§3.3)."
SKILL_NOT_ON_SHEET_NO_SOURCE = (
    "{name} não tem {skill}, e nenhum pré-definido dela está ao alcance da ficha (§3.3): "
    "{considered}."
)
SKILL_UNKNOWN_NEEDS_DIFFICULTY = (
    "{name} não tem {skill} na ficha e o catálogo do Árbitro não diz o pré-definido dela: diga "
    "o atributo e a dificuldade da perícia (regra geral, §3.3)."
)
VERY_HARD_NO_DEFAULT = (
    "{name} não tem {skill}, e perícia Muito Difícil não tem pré-definido (§3.3)."
)
SKILL_UNKNOWN = (
    "Perícia desconhecida: {skill} não está na ficha de {name} nem no catálogo do Árbitro, "
    "e nada se rola."
)
SKILL_UNKNOWN_NEAREST = " Você quis dizer {names}?"
SKILL_UNKNOWN_IF_NEW = (
    " Se é mesmo uma perícia nova, mande new_skill=true e diga o atributo e a dificuldade "
    "(regra geral, §3.3)."
)
NEAREST_ON_SHEET = "{name} (ficha, {level})"
NEAREST_IN_CATALOGUE = "{name} (catálogo)"
# How near a name must be to be offered (difflib's ratio, 0–1) and how many are offered.
NEAREST_CUTOFF = 0.6
NEAREST_COUNT = 3
UNKNOWN_TEST_ATTRIBUTE = "Atributo desconhecido: use ST, DX, IQ, HT ou Vontade."
SKILL_NAME_EMPTY = "Diga a perícia."


def folded(text: str) -> str:
    """A name as names are compared: casefolded, without accents, inner spaces single
    ("  Percepção  de Perigo" and "percepcao de perigo" match)."""
    decomposed = unicodedata.normalize("NFKD", " ".join(str(text).split()).casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _minus(value: int) -> str:
    return f"\u2212{-value}" if value < 0 else str(value)


@dataclass(frozen=True)
class SheetSkillLevel:
    """A skill line of a homologated sheet: its NH and the attribute it runs on (§3.1–3.2)."""

    level: int
    attribute: str


@dataclass(frozen=True)
class SheetLevels:
    """What a level is read from: the homologated sheet's attributes and skill lines, its
    Força de Vontade / Vontade Fraca levels, and the fatigue lost now (the state)."""

    name: str  # the character's, for the refusals
    st: int
    dx: int
    iq: int
    ht: int
    skills: Mapping[str, SheetSkillLevel]
    strong_will: int = 0
    weak_will: int = 0
    fatigue_lost: int = 0

    @property
    def st_now(self) -> int:
        """The ST that ST-based skills and tests use: ST − fatigue, never below 0 (§6.2)."""
        return fatigue_effects(self.st, self.fatigue_lost).st_for_skills

    def attribute_value(self, attribute: CheckAttribute) -> int:
        if attribute is CheckAttribute.WILL:
            return will(self.iq, self.strong_will, self.weak_will)
        return getattr(self, attribute.value)


@dataclass(frozen=True)
class Level:
    """The level of one test and where it came from.

    ``level`` is what the roll is made against, before the situation's modifiers (§1.1);
    ``sheet_level`` the sheet's number before fatigue (the default's level for a default);
    ``fatigue`` the levels fatigue took (§6.2); ``default`` the default used ("DX−5") and
    ``computation`` its sum, for a default; ``text`` the log's line.
    """

    kind: RollKind
    name: str
    level: int
    source: LevelSource
    text: str
    sheet_level: int
    fatigue: int = 0
    default: str | None = None
    computation: str | None = None
    general_rule: bool = False

    def as_dict(self) -> dict:
        """Plain data for a roll's record (no derived number but the level itself)."""
        data = {
            "kind": str(self.kind),
            "name": self.name,
            "source": str(self.source),
            "text": self.text,
            "sheet_level": self.sheet_level,
        }
        if self.fatigue:
            data["fatigue"] = self.fatigue
        if self.default is not None:
            data["default"] = self.default
            data["computation"] = self.computation
            data["general_rule"] = self.general_rule
        return data


def read_attribute(value: CheckAttribute | str, field: str = "attribute") -> CheckAttribute:
    """``value`` as an attribute a test is rolled against; Portuguese "vontade" is Will.
    Raises InvalidValue(``field``, UNKNOWN_TEST_ATTRIBUTE)."""
    key = folded(value) if isinstance(value, str) else value
    if key == "vontade":
        return CheckAttribute.WILL
    try:
        return CheckAttribute(key)
    except ValueError:
        raise InvalidValue(field, UNKNOWN_TEST_ATTRIBUTE) from None


def attribute_level(sheet: SheetLevels, attribute: CheckAttribute | str) -> Level:
    """An attribute test from the sheet (§1.1): "DX 14 (ficha)"; ST under fatigue lowered by the
    ST it took (§6.2, p. 134): ST 11 with 2 fatigue → "ST 11 − 2 por fadiga = 9"; Vontade = IQ
    plus Força de Vontade minus Vontade Fraca (§7.1). Raises InvalidValue("attribute")."""
    attribute = read_attribute(attribute)
    name = ATTRIBUTE_NAMES[attribute]
    value = sheet.attribute_value(attribute)
    if attribute is CheckAttribute.ST and sheet.st_now != sheet.st:
        taken = sheet.st - sheet.st_now
        text = f"ST {sheet.st} \u2212 {taken} por fadiga = {sheet.st_now}"
        return Level(
            RollKind.ATTRIBUTE, name, sheet.st_now, LevelSource.SHEET, text, sheet.st, taken
        )
    return Level(
        RollKind.ATTRIBUTE, name, value, LevelSource.SHEET, f"{name} {value} (ficha)", value
    )


def sheet_line(
    sheet: SheetLevels, name: str, *, kind: RollKind | str | None = None
) -> Level | None:
    """The sheet's own line called ``name`` (no case or accents): an attribute or Vontade
    ("ST", "vontade") or a skill it has, as ``attribute_level`` and ``skill_level`` read them;
    None when the sheet has no line of that name (no default is sought). ``kind`` "skill" or
    "attribute" looks among those only."""
    wanted = folded(name or "")
    if kind in (None, RollKind.ATTRIBUTE):
        for attribute, label in ATTRIBUTE_NAMES.items():
            if wanted in (attribute.value, folded(label)):
                return attribute_level(sheet, attribute)
    if kind in (None, RollKind.SKILL):
        for skill, line in sheet.skills.items():
            if folded(skill) == wanted:
                return _own_skill(sheet, skill, line)
    return None


def _own_skill(sheet: SheetLevels, name: str, line: SheetSkillLevel) -> Level:
    if line.attribute == CheckAttribute.ST and sheet.st_now != sheet.st:
        taken = sheet.st - sheet.st_now
        level = max(0, line.level - taken)
        text = f"{name} {line.level} (ficha) \u2212 {taken} por fadiga = {_minus(level)}"
        return Level(RollKind.SKILL, name, level, LevelSource.SHEET, text, line.level, taken)
    text = f"{name} {line.level} (ficha)"
    return Level(RollKind.SKILL, name, line.level, LevelSource.SHEET, text, line.level)


def _defaults_for(
    sheet: SheetLevels,
    skill: str,
    entry: CatalogueSkill | None,
    attribute: str | None,
    difficulty: Difficulty | str | None,
) -> tuple[tuple[str, ...], bool]:
    """The defaults to weigh and whether they are the book's general rule."""
    if entry is not None and entry.defaults is not None:
        if not entry.defaults:
            raise InvalidValue(
                "skill", SKILL_NOT_ON_SHEET_NO_DEFAULT.format(name=sheet.name, skill=skill)
            )
        return entry.defaults, False
    # The general rule: the catalogue's attribute and difficulty, else the caller's.
    attribute = (entry.attribute if entry is not None else None) or attribute
    difficulty = (entry.difficulty if entry is not None else None) or difficulty
    if attribute is None or difficulty is None:
        raise InvalidValue(
            "skill", SKILL_UNKNOWN_NEEDS_DIFFICULTY.format(name=sheet.name, skill=skill)
        )
    defaults = general_defaults(difficulty, skill_kind_for(attribute))
    if not defaults:
        raise InvalidValue("skill", VERY_HARD_NO_DEFAULT.format(name=sheet.name, skill=skill))
    return defaults, True


def skill_level(
    sheet: SheetLevels,
    skill: str,
    *,
    catalogue: Sequence[CatalogueSkill] = (),
    attribute: str | None = None,
    difficulty: Difficulty | str | None = None,
    new_skill: bool = False,
) -> Level:
    """A skill test's level (§3.1, §3.3), the name compared without case or accents.

    - The sheet has the skill: its NH, "Rastreamento 13 (ficha)"; an ST-based skill under
      fatigue loses the ST fatigue took (§6.2): "Arremesso 12 (ficha) − 2 por fadiga = 10".
    - It lacks it: the best default (§3.3, "use o melhor"; an attribute above 20 counts as 20),
      from the catalogue entry's list, or the book's general rule (DX or IQ −4/−5/−6 by
      difficulty) from the catalogue's attribute and difficulty, else ``attribute`` and
      ``difficulty`` as the caller gives them: "Escalada 9 por pré-definido DX−5". Defaults
      from ST use ST after fatigue.
    - Neither the sheet nor the catalogue knows the name: refused with the nearest names
      (``unknown_skill_message``: a misspelling rolls nothing), unless ``new_skill`` says the
      caller means a skill the catalogue does not have yet; then the general rule from
      ``attribute`` and ``difficulty``.

    Raises InvalidValue("skill") when the skill has no default (a Muito Difícil one, a
    description with none), none within the sheet's reach, or nothing says which default
    applies; InvalidValue("attribute"/"difficulty") for a caller's unknown value.
    """
    wanted = folded(skill or "")
    if not wanted:
        raise InvalidValue("skill", SKILL_NAME_EMPTY)
    for name, line in sheet.skills.items():
        if folded(name) == wanted:
            return _own_skill(sheet, name, line)
    entry = next((e for e in catalogue if folded(e.name) == wanted), None)
    if entry is None and not new_skill:
        raise InvalidValue("skill", unknown_skill_message(sheet, skill, catalogue))
    name = entry.name if entry is not None else " ".join(skill.split())
    if attribute is not None:
        attribute = str(read_attribute(attribute))
        if attribute == CheckAttribute.WILL:
            raise InvalidValue("attribute", UNKNOWN_TEST_ATTRIBUTE)
    defaults, general = _defaults_for(sheet, name, entry, attribute, difficulty)
    st_now = sheet.st_now
    reachable: list[Default] = []
    for text in defaults:
        default = read_default(text)
        # ST 0 after fatigue: an ST default would be negative, and is not offered (§3.3).
        if not (default.is_attribute and default.source == "st" and st_now < 1):
            reachable.append(default)
    used, considered = weigh_defaults(
        defaults=reachable,
        attributes={"st": max(st_now, 1), "dx": sheet.dx, "iq": sheet.iq, "ht": sheet.ht},
        skills={n: line.level for n, line in sheet.skills.items()},
    )
    if used is None:
        raise InvalidValue(
            "skill",
            SKILL_NOT_ON_SHEET_NO_SOURCE.format(
                name=sheet.name, skill=name, considered="; ".join(considered) or "nenhum"
            ),
        )
    text = f"{name} {_minus(used.level)} por pré-definido {used.default.text}"
    fatigue = 0
    if used.default.is_attribute and used.default.source == "st" and st_now != sheet.st:
        fatigue = sheet.st - st_now
        text += f" (ST {sheet.st} \u2212 {fatigue} por fadiga)"
    if general:
        text += " (regra geral)"
    return Level(
        RollKind.SKILL,
        name,
        used.level,
        LevelSource.DEFAULT,
        text,
        used.level,
        fatigue,
        used.default.text,
        used.computation,
        general,
    )


def nearest_skills(
    sheet: SheetLevels, skill: str, catalogue: Sequence[CatalogueSkill] = ()
) -> list[str]:
    """The names of the sheet and the catalogue nearest to ``skill`` (difflib's ratio over the
    folded names, at least NEAREST_CUTOFF, at most NEAREST_COUNT), each said with where it is:
    "Rastreamento (ficha, 13)", "Rastreamento (catálogo)" — the sheet's line first when both
    have it."""
    said: dict[str, str] = {}
    for name, line in sheet.skills.items():
        said.setdefault(folded(name), NEAREST_ON_SHEET.format(name=name, level=line.level))
    for entry in catalogue:
        said.setdefault(folded(entry.name), NEAREST_IN_CATALOGUE.format(name=entry.name))
    near = difflib.get_close_matches(
        folded(skill), list(said), n=NEAREST_COUNT, cutoff=NEAREST_CUTOFF
    )
    return [said[name] for name in near]


def unknown_skill_message(
    sheet: SheetLevels, skill: str, catalogue: Sequence[CatalogueSkill] = ()
) -> str:
    """The refusal of a skill neither the sheet nor the catalogue knows, with the nearest
    names ("… Você quis dizer Rastreamento (ficha, 13)? …") and how to say it is new."""
    name = " ".join(str(skill).split())
    message = SKILL_UNKNOWN.format(skill=name, name=sheet.name)
    near = nearest_skills(sheet, name, catalogue)
    if near:
        message += SKILL_UNKNOWN_NEAREST.format(names=" ou ".join(near))
    return message + SKILL_UNKNOWN_IF_NEW


def given_level(name: str, level: int, kind: RollKind | str = RollKind.SKILL) -> Level:
    """A level the Mestre says, for a creature or NPC without a sheet: "Furtividade 12 (dito
    pelo Mestre)"."""
    kind = RollKind(kind)
    name = " ".join(str(name).split())
    text = f"{name} {_minus(level)} ({LEVEL_SOURCE_NAMES[LevelSource.GIVEN]})"
    return Level(kind, name, level, LevelSource.GIVEN, text, level)
