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
    InvalidValue,
    NoDefault,
)


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
