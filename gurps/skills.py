"""Skills: reading a sheet's skill line, difficulty, and defaults (canon §3.1–3.3; book
p. 43–44, 87).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from gurps._validate import check_attribute
from gurps.errors import (
    BAD_DEFAULT,
    BAD_SKILL_LINE,
    FRACTIONAL_POINTS,
    MISSING_ATTRIBUTE,
    UNKNOWN_DIFFICULTY,
    UNKNOWN_SKILL_KIND,
    InvalidValue,
    NoDefault,
)
from gurps.tabular import CanonTable, signed


class Difficulty(StrEnum):
    E = "E"
    A = "A"
    H = "H"
    VH = "VH"


DIFFICULTY_NAMES: dict[Difficulty, str] = {
    Difficulty.E: "Fácil",
    Difficulty.A: "Média",
    Difficulty.H: "Difícil",
    Difficulty.VH: "Muito Difícil",
}


@dataclass(frozen=True)
class DefaultPenalty:
    """The book's general default for a difficulty: DX or IQ plus ``penalty`` (§3.3, p. 44)."""

    difficulty: Difficulty
    penalty: int
    attributes: tuple[str, ...] = ("dx", "iq")
    section: str = "3.3"
    page: str = "44"


# Very Hard has no row: "Algumas perícias não têm pré-definido — Muito Difíceis, sobretudo."
DEFAULT_PENALTIES: tuple[DefaultPenalty, ...] = (
    DefaultPenalty(Difficulty.E, -4),
    DefaultPenalty(Difficulty.A, -5),
    DefaultPenalty(Difficulty.H, -6),
)

# §3.3 (p. 87): an attribute above 20 counts as 20 when a skill defaults to it.
DEFAULT_ATTRIBUTE_CAP = 20
ATTRIBUTES = ("st", "dx", "iq", "ht")


@dataclass(frozen=True)
class SkillLine:
    """A sheet's skill line: "Lança 17 (16)" → name "Lança", level 17, points 16 (§3.1).
    ``points`` is None when the line has no parenthesis; it audits the sheet, never rolls."""

    name: str
    level: int
    points: int | None


_SKILL_LINE = re.compile(r"(?P<name>\S.*?)\s+(?P<level>[0-9]+)(?:\s*\((?P<points>[^()]*)\))?")
_DEFAULT = re.compile(r"(?P<attribute>[A-Za-z]+)\s*(?:(?P<sign>[-+\u2212])\s*(?P<value>[0-9]+))?")


def parse_skill_line(text: str) -> SkillLine:
    """Read "Nome NH (pontos)". The name may hold spaces and a specialty in parentheses
    ("Armeiro (Armas brancas) 12 (2)"). Raises InvalidValue("line") for anything else,
    with errors.FRACTIONAL_POINTS for half points such as "(½)"."""
    match = _SKILL_LINE.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None:
        raise InvalidValue("line", BAD_SKILL_LINE)
    points = match["points"]
    if points is not None:
        points = points.strip()
        if not points.isascii() or not points.isdigit():
            message = FRACTIONAL_POINTS if "½" in points or "/" in points else BAD_SKILL_LINE
            raise InvalidValue("line", message)
    return SkillLine(
        name=match["name"],
        level=int(match["level"]),
        points=None if points is None else int(points),
    )


def parse_default(text: str) -> tuple[str, int]:
    """Read an attribute default: "DX−5" → ("dx", −5), "ST-5" → ("st", −5), "IQ" → ("iq", 0).
    Defaults to another skill are not read yet: they raise InvalidValue("default"), as does
    any other text."""
    match = _DEFAULT.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None or match["attribute"].lower() not in ATTRIBUTES:
        raise InvalidValue("default", BAD_DEFAULT)
    value = int(match["value"] or 0)
    return match["attribute"].lower(), -value if match["sign"] in ("-", "\u2212") else value


def default_level(attributes: Mapping[str, int], defaults: Iterable[str]) -> int:
    """The best of a skill's defaults (§3.3, p. 87): Escalada, ST−5 or DX−5, at ST 11 and
    DX 14 → 9. ``attributes`` maps "st"/"dx"/"iq"/"ht" (any case) to values; above 20
    counts as 20. Raises NoDefault when ``defaults`` is empty, InvalidValue("default") for
    bad text, InvalidValue(<attribute>) when that attribute is missing or below 1."""
    values = {key.lower(): value for key, value in attributes.items()}
    levels = []
    for text in defaults:
        attribute, modifier = parse_default(text)
        if attribute not in values:
            raise InvalidValue(attribute, MISSING_ATTRIBUTE)
        check_attribute(attribute, values[attribute])
        levels.append(min(values[attribute], DEFAULT_ATTRIBUTE_CAP) + modifier)
    if not levels:
        raise NoDefault()
    return max(levels)


def general_default(difficulty: Difficulty | str, attribute_value: int) -> int:
    """The book's general rule (§3.3, p. 44): DX or IQ (capped at 20, p. 87) −4 Easy, −5
    Average, −6 Hard. Very Hard raises NoDefault; an unknown difficulty raises
    InvalidValue("difficulty"); an attribute below 1, InvalidValue("attribute")."""
    try:
        difficulty = Difficulty(difficulty)
    except ValueError:
        raise InvalidValue("difficulty", UNKNOWN_DIFFICULTY) from None
    check_attribute("attribute", attribute_value)
    for row in DEFAULT_PENALTIES:
        if row.difficulty is difficulty:
            return min(attribute_value, DEFAULT_ATTRIBUTE_CAP) + row.penalty
    raise NoDefault()


class SkillKind(StrEnum):
    """Physical skills run on DX (some on ST or HT); mental ones on IQ (§3.2, p. 43)."""

    PHYSICAL = "physical"
    MENTAL = "mental"


# Reading general_default_attribute: the general rule's "DX−n ou IQ−n" is DX for a physical
# skill and IQ for a mental one (§3.2), not the better of the two.
GENERAL_DEFAULT_ATTRIBUTE: dict[SkillKind, str] = {SkillKind.PHYSICAL: "dx", SkillKind.MENTAL: "iq"}


def _difficulty(value: Difficulty | str) -> Difficulty:
    try:
        return Difficulty(value)
    except ValueError:
        raise InvalidValue("difficulty", UNKNOWN_DIFFICULTY) from None


def _skill_kind(value: SkillKind | str) -> SkillKind:
    try:
        return SkillKind(value)
    except ValueError:
        raise InvalidValue("kind", UNKNOWN_SKILL_KIND) from None


def skill_default(
    attributes: Mapping[str, int],
    difficulty: Difficulty | str,
    kind: SkillKind | str,
    *,
    defaults: Iterable[str] | None = None,
) -> int:
    """The level at which a character without the skill tries it (§3.3, p. 44 and 87).

    - ``defaults`` given: the skill's description rules, and its list overrides the general
      rule. The best of them counts (Escalada, ST−5 or DX−5, at ST 11 and DX 14 → 9); an
      empty list means the description gives none: NoDefault.
    - ``defaults`` None: the book's general rule — DX (physical) or IQ (mental) −4 Fácil,
      −5 Média, −6 Difícil (reading ``general_default_attribute``); Muito Difícil has none
      unless a description gives one: NoDefault.

    An attribute above 20 counts as 20 for a default to an attribute (p. 87).
    ``attributes`` maps "st"/"dx"/"iq"/"ht" (any case) to values; ``kind`` "physical" or
    "mental". Raises NoDefault, InvalidValue("difficulty"/"kind"/"default"/<attribute>).
    """
    level = _difficulty(difficulty)
    base = GENERAL_DEFAULT_ATTRIBUTE[_skill_kind(kind)]
    if defaults is not None:
        return default_level(attributes, defaults)
    values = {key.lower(): value for key, value in attributes.items()}
    if base not in values:
        raise InvalidValue(base, MISSING_ATTRIBUTE)
    check_attribute(base, values[base])
    return general_default(level, values[base])


CANON_TABLES: tuple[CanonTable, ...] = (
    CanonTable(
        key="general_defaults",
        title="Perícia que você não tem",
        section="3.3",
        page="44",
        columns=("Dificuldade", "Pré-definido"),
        rows=tuple(
            (
                DIFFICULTY_NAMES[row.difficulty],
                f"DX{signed(row.penalty)} ou IQ{signed(row.penalty)}",
            )
            for row in DEFAULT_PENALTIES
        ),
        heading="## 3.3 Perícia que você não tem",
        note=(
            "Há exceções, e a descrição de cada perícia manda. Muito Difícil não tem "
            "pré-definido. Com mais de um, use o melhor; atributo acima de 20 conta como 20."
        ),
    ),
)
