"""Skills: reading a sheet's skill line, difficulty, and defaults (canon §3.1–3.3; book
p. 43–44, 87).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

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
    ``points`` (exact, a ``Fraction``: "(½)" is 1/2) is None when the line has no
    parenthesis; it audits the sheet, never rolls."""

    name: str
    level: int
    points: Fraction | None


_SKILL_LINE = re.compile(r"(?P<name>\S.*?)\s+(?P<level>[0-9]+)(?:\s*\((?P<points>[^()]*)\))?")
_DEFAULT = re.compile(r"(?P<attribute>[A-Za-z]+)\s*(?:(?P<sign>[-+\u2212])\s*(?P<value>[0-9]+))?")


_POINTS = re.compile(r"(?P<whole>[0-9]+)?\s*(?P<half>½)?|(?P<decimal>[0-9]+[.,][0-9]+)")


def parse_points(text: str) -> Fraction:
    """The points of a skill line's parenthesis: "16", "½", "1½", "0,5", "1.5" → exact.
    Points go in halves (the cost table's rows, MB pp. 43–44): "0,3" raises
    InvalidValue("line", FRACTIONAL_POINTS); anything else, BAD_SKILL_LINE."""
    match = _POINTS.fullmatch(text.strip())
    if match is None or not any(match.groupdict().values()):
        raise InvalidValue("line", BAD_SKILL_LINE)
    if match["decimal"]:
        value = Fraction(match["decimal"].replace(",", "."))
    else:
        value = int(match["whole"] or 0) + (Fraction(1, 2) if match["half"] else 0)
    if (value * 2).denominator != 1:
        raise InvalidValue("line", FRACTIONAL_POINTS)
    return value


def parse_skill_line(text: str) -> SkillLine:
    """Read "Nome NH (pontos)". The name may hold spaces and a specialty in parentheses
    ("Armeiro (Armas brancas) 12 (2)"); the points may be half ones ("(½)", "(1½)", "(0,5)").
    Raises InvalidValue("line"): errors.FRACTIONAL_POINTS for points not in halves ("(0,3)"),
    errors.BAD_SKILL_LINE for anything else."""
    match = _SKILL_LINE.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None:
        raise InvalidValue("line", BAD_SKILL_LINE)
    points = match["points"]
    return SkillLine(
        name=match["name"],
        level=int(match["level"]),
        points=None if points is None else parse_points(points),
    )


def parse_default(text: str) -> tuple[str, int]:
    """Read an attribute default: "DX−5" → ("dx", −5), "ST-5" → ("st", −5), "IQ" → ("iq", 0).
    A default to another skill raises InvalidValue("default"), as does any other text: read
    those with ``read_default``."""
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


# --- §3.3 the best default, from the Árbitro's catalogue ------------------------------------------


def arithmetic(base: int, modifier: int) -> str:
    """A sum as a computation line says it: "12 + 3 = 15", "14 − 5 = 9"; "14" with no
    modifier."""

    def number(value: int) -> str:
        return f"\u2212{-value}" if value < 0 else str(value)

    if not modifier:
        return number(base)
    sign = "+" if modifier > 0 else "\u2212"
    return f"{number(base)} {sign} {abs(modifier)} = {number(base + modifier)}"


@dataclass(frozen=True)
class Default:
    """One default as a skill's description lists it: an attribute ("DX−5": source "dx",
    modifier −5) or another skill ("Arremesso": source "Arremesso", modifier 0;
    "Primeiros Socorros−4"). ``text`` is how a page writes it (U+2212 minus)."""

    source: str
    modifier: int
    is_attribute: bool

    @property
    def text(self) -> str:
        name = self.source.upper() if self.is_attribute else self.source
        return f"{name}{signed(self.modifier)}" if self.modifier else name


_ANY_DEFAULT = re.compile(
    r"(?P<source>[^\W\d_](?:.*?[^\s+\-\u2212])?)\s*(?:(?P<sign>[-+\u2212])\s*(?P<value>[0-9]+))?"
)


def read_default(text: str) -> Default:
    """Read one default: "DX−5", "ST-5", "IQ" (attributes), "Arremesso", "Primeiros Socorros−4",
    "Espada Larga -2" (skills). Raises InvalidValue("default", BAD_DEFAULT) for anything else
    (an empty text, a bare number, a modifier with no source, "DX menos seis")."""
    match = _ANY_DEFAULT.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None:
        raise InvalidValue("default", BAD_DEFAULT)
    value = int(match["value"] or 0)
    modifier = -value if match["sign"] in ("-", "\u2212") else value
    source = " ".join(match["source"].split())
    if source.lower() in ATTRIBUTES:
        return Default(source.lower(), modifier, True)
    if source.split()[0].lower() in ATTRIBUTES:
        # "DX menos seis": an attribute with words after it is no skill's name.
        raise InvalidValue("default", BAD_DEFAULT)
    return Default(source, modifier, False)


_SEPARATORS = re.compile(r"\s+ou\s+|[;,\n]")


def split_defaults(text: str) -> tuple[str, ...]:
    """A description's list as the canon writes it, one default each: "ST−5 ou DX−5" →
    ("ST−5", "DX−5"); also split at ";", "," and new lines. Empty parts are dropped."""
    return tuple(part.strip() for part in _SEPARATORS.split(text or "") if part.strip())


def general_defaults(difficulty: Difficulty | str, kind: SkillKind | str) -> tuple[str, ...]:
    """The book's general rule (§3.3, p. 44) as a list of defaults: Fácil DX−4 (physical) or
    IQ−4 (mental), Média −5, Difícil −6 (reading ``general_default_attribute``); Muito Difícil
    has none: (). Raises InvalidValue("difficulty"/"kind")."""
    level, base = _difficulty(difficulty), GENERAL_DEFAULT_ATTRIBUTE[_skill_kind(kind)]
    for row in DEFAULT_PENALTIES:
        if row.difficulty is level:
            return (Default(base, row.penalty, True).text,)
    return ()


@dataclass(frozen=True)
class DefaultUsed:
    """The best default a character has in a skill (§3.3, p. 87): ``level`` (NH), the
    ``default`` it came from, ``base`` (the attribute as counted, at most 20, or the level of
    the source skill on the sheet), ``capped_from`` (the attribute's value when above 20,
    else None), ``computation`` in Portuguese ("DX−5: 14 − 5 = 9"), and ``considered``: the
    computation of every default listed, the best among them, in the order listed."""

    level: int
    default: Default
    base: int
    capped_from: int | None
    computation: str
    considered: tuple[str, ...]


def _candidate(
    default: Default, values: Mapping[str, int], levels: Mapping[str, int]
) -> tuple[int, int, int | None, str] | str:
    """(level, base, capped_from, computation) of one default, or why it is not offered."""
    if default.is_attribute:
        if default.source not in values:
            raise InvalidValue(default.source, MISSING_ATTRIBUTE)
        value = values[default.source]
        check_attribute(default.source, value)
        base = min(value, DEFAULT_ATTRIBUTE_CAP)
        capped = value if value > DEFAULT_ATTRIBUTE_CAP else None
        name = default.source.upper()
        said = f"{name} {value} conta como {base} (§3.3), " if capped else f"{name} "
    else:
        if default.source.casefold() not in levels:
            return f"{default.text}: a ficha não tem {default.source}"
        base, capped = levels[default.source.casefold()], None
        said = f"{default.source} "
    level = base + default.modifier
    computation = f"{default.text}: {said}{arithmetic(base, default.modifier)}"
    if level < 0:
        return f"{computation} — NH negativo não é nível: não se oferece"
    return level, base, capped, computation


def weigh_defaults(
    *,
    defaults: Iterable[str | Default],
    attributes: Mapping[str, int],
    skills: Mapping[str, int] | None = None,
) -> tuple[DefaultUsed | None, tuple[str, ...]]:
    """``best_default``'s answer, and the computation of every default listed (or why it is
    not offered: "Arremesso: a ficha não tem Arremesso"), in the order listed — also when
    none is offered. Same arguments and errors as ``best_default``."""
    values = {key.lower(): value for key, value in attributes.items()}
    levels = {name.casefold(): level for name, level in (skills or {}).items()}
    best = None
    considered: list[str] = []
    for item in defaults:
        default = item if isinstance(item, Default) else read_default(item)
        candidate = _candidate(default, values, levels)
        considered.append(candidate if isinstance(candidate, str) else candidate[3])
        if not isinstance(candidate, str) and (best is None or candidate[0] > best[1][0]):
            best = (default, candidate)
    if best is None:
        return None, tuple(considered)
    default, (level, base, capped, computation) = best
    return DefaultUsed(level, default, base, capped, computation, tuple(considered)), tuple(
        considered
    )


def best_default(
    *,
    defaults: Iterable[str | Default],
    attributes: Mapping[str, int],
    skills: Mapping[str, int] | None = None,
) -> DefaultUsed | None:
    """The level a character gets by default in a skill he lacks: the best of the skill's
    ``defaults`` (§3.3, p. 87: "use o melhor"; Escalada, ST−5 or DX−5, at ST 11 and DX 14 → 9).

    ``defaults``: the catalogue entry's list ("DX−5", "Arremesso", "Primeiros Socorros−4"), or
    ``general_defaults(difficulty, kind)`` where the book's general rule applies; an empty list
    is a skill with no default. ``attributes`` maps "st"/"dx"/"iq"/"ht" (any case) to the
    sheet's values; an attribute above 20 counts as 20 for an attribute default (p. 87).
    ``skills`` maps the sheet's skill names (any case) to their levels; a default from a skill
    the sheet lacks is not offered, nor one that would give a negative NH (an NH is never
    negative — reading ``default_never_negative``; a level of 3 or less is one, though no roll
    is made at it, §1.1).

    Returns a ``DefaultUsed`` (level, which default, the computation), or None when no default
    is offered (none listed, or every source missing); ties go to the first listed. Raises
    InvalidValue("default") for unreadable text, InvalidValue(<attribute>) for an attribute
    missing from ``attributes`` or below 1.
    """
    return weigh_defaults(defaults=defaults, attributes=attributes, skills=skills)[0]


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
