"""Skill costs: what points buy and what a level costs (canon §3.2; MB pp. 43–44).

The canon does not print the cost table: §3.2 sends it to the book (pp. 43–44) and to `02` §4.
The table is therefore the Árbitro's data (each campaign keeps its own, seeded from a
transcription of the book's two tables and confirmed by him), and every function here takes it
as a plain argument — a tuple of ``CostRow`` — and never reads anything else.

What the canon itself fixes (§9 item 1): two tables, physical and mental; the physical one has no
Very Hard column; mental Easy ½ point → IQ−1, 1 point → IQ; *Lança 17 (16)* with DX 14 is
Physical/Average DX+3.

The rule of the transcription, which these functions follow: points buy the highest row they
reach; what is left over buys nothing; points that reach no row (0.3, or ½ where the column has a
dash) buy nothing at all. Beyond the last numbered row, each further level costs the "cada +1 a
mais" row's points.

Shapes and units: attribute and level are ints (NH); points are exact (``Fraction``; an int,
``Decimal``, float or "1,5" is read exactly). Errors are ``InvalidValue`` with a Portuguese
message and the field at fault ("points", "level", "difficulty", "kind", "attribute", "cell",
"table").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from gurps._validate import check_attribute, require_exact_non_negative
from gurps.errors import (
    BAD_COST_CELL,
    COST_TABLE_BAD_STEP,
    COST_TABLE_COLUMN_EMPTY,
    COST_TABLE_DASH_AFTER_NUMBER,
    COST_TABLE_EMPTY,
    COST_TABLE_GAP,
    COST_TABLE_NO_STEP,
    COST_TABLE_NOT_RISING,
    COST_TABLE_REPEATED_LEVEL,
    COST_TABLE_WIDTH,
    LEVEL_BELOW_TABLE,
    NEGATIVE_SKILL_POINTS,
    NOT_AN_INTEGER,
    PHYSICAL_HAS_NO_VERY_HARD,
    POINTS_BUY_NO_ROW,
    SKILL_POINTS_NOT_A_NUMBER,
    SKILL_POINTS_NOT_IN_HALVES,
    TABLE_HAS_NO_COLUMN,
    UNKNOWN_ATTRIBUTE,
    UNKNOWN_DIFFICULTY,
    UNKNOWN_SKILL_KIND,
    ZERO_POINTS_BUY_NOTHING,
    InvalidValue,
)
from gurps.skills import DIFFICULTY_NAMES, Difficulty, SkillKind, arithmetic
from gurps.tabular import signed

SECTION = "3.2"
PAGE = "43–44"

SKILL_KIND_NAMES: dict[SkillKind, str] = {SkillKind.PHYSICAL: "Física", SkillKind.MENTAL: "Mental"}
TABLE_NAMES: dict[SkillKind, str] = {SkillKind.PHYSICAL: "física", SkillKind.MENTAL: "mental"}
ATTRIBUTE_NAMES = {"st": "ST", "dx": "DX", "iq": "IQ", "ht": "HT"}
DIFFICULTY_BY_NAME: dict[str, Difficulty] = {name: d for d, name in DIFFICULTY_NAMES.items()}

DASHES = frozenset({"—", "–", "-", ""})


@dataclass(frozen=True)
class CostRow:
    """One line of a cost table (MB pp. 43–44).

    ``kind``: the table (physical or mental). ``relative``: the level bought, relative to the
    attribute (−3 for "atributo −3", 0 for "atributo", 5 for "IQ +5"), or None for the line
    "cada +1 a mais", whose ``costs`` are the points of each further level. ``costs``: points
    by difficulty, exact; None where the column has a dash ("—").
    """

    kind: SkillKind
    relative: int | None
    costs: Mapping[Difficulty, Fraction | None]

    def cost(self, difficulty: Difficulty) -> Fraction | None:
        return self.costs.get(difficulty)


@dataclass(frozen=True)
class Purchase:
    """What ``points`` buy: ``level`` (NH) = attribute + ``relative``; ``spent`` is the cost of
    the row reached and ``left_over`` what buys nothing. ``computation`` says it in Portuguese:
    "8 pontos em Física/Fácil compram DX+3: 12 + 3 = 15"."""

    level: int
    relative: int
    points: Fraction
    spent: Fraction
    left_over: Fraction
    computation: str


@dataclass(frozen=True)
class Price:
    """What a level costs: ``points`` for NH ``level`` = attribute + ``relative``, with the
    computation in Portuguese: "NH 14 com DX 12 é DX+2: em Física/Fácil custa 4 pontos"."""

    level: int
    relative: int
    points: Fraction
    computation: str


# --- reading and writing points ---------------------------------------------------------------


def format_points(value: Fraction | int | Decimal) -> str:
    """Points as a sheet writes them: ½, 1, 1½, 8, −10; other fractions with a comma (0,3)."""
    value = Fraction(value)
    if value < 0:
        return "\u2212" + format_points(-value)
    whole, rest = divmod(value, 1)
    if rest == 0:
        return str(int(whole))
    if rest == Fraction(1, 2):
        return f"{int(whole)}½" if whole else "½"
    decimal = Decimal(value.numerator) / Decimal(value.denominator)
    return format(decimal.normalize(), "f").replace(".", ",")


def points_text(value: Fraction | int | Decimal) -> str:
    """Points with their word: "½ ponto", "1 ponto", "1½ ponto", "8 pontos"."""
    value = Fraction(value)
    return f"{format_points(value)} {'ponto' if value < 2 else 'pontos'}"


_HALF = re.compile(r"^(?P<whole>[0-9]*)\s*½$")


def read_points(value: object) -> Fraction:
    """Points as exact ``Fraction``: 4, "½", "1½", "1,5", Decimal("0.5"). Raises
    InvalidValue("points") for text that is no number or a negative one."""
    if isinstance(value, str):
        match = _HALF.match(value.strip())
        if match:
            return int(match["whole"] or 0) + Fraction(1, 2)
    return require_exact_non_negative(
        "points", value, SKILL_POINTS_NOT_A_NUMBER, NEGATIVE_SKILL_POINTS
    )


def require_halves(points: object) -> Fraction:
    """``points`` if it is a non-negative multiple of ½ (what a sheet can spend: ½, 1, 1½ …);
    InvalidValue("points", SKILL_POINTS_NOT_IN_HALVES) for 0.3 or 1.25. The check a form makes
    before it keeps a line (the audit of a stored sheet reports such points instead)."""
    value = read_points(points)
    if (value * 2).denominator != 1:
        raise InvalidValue("points", SKILL_POINTS_NOT_IN_HALVES.format(points=format_points(value)))
    return value


def parse_cost_cell(text: str) -> Fraction | None:
    """One cell of the table as the transcription writes it: "½" → 1/2, "16" → 16, "+8" → 8
    (the "cada +1 a mais" line), "—" → None. Raises InvalidValue("cell", BAD_COST_CELL)."""
    if not isinstance(text, str):
        raise InvalidValue("cell", BAD_COST_CELL)
    cell = text.strip()
    if cell in DASHES:
        return None
    cell = cell.removeprefix("+").strip()
    try:
        return read_points(cell)
    except InvalidValue:
        raise InvalidValue("cell", BAD_COST_CELL) from None


# --- the table -----------------------------------------------------------------------------------


def skill_kind(value: SkillKind | str) -> SkillKind:
    try:
        return SkillKind(value)
    except ValueError:
        raise InvalidValue("kind", UNKNOWN_SKILL_KIND) from None


def difficulty_of(value: Difficulty | str) -> Difficulty:
    """A difficulty from its code ("E") or its name ("Fácil"); InvalidValue otherwise."""
    if isinstance(value, str) and value in DIFFICULTY_BY_NAME:
        return DIFFICULTY_BY_NAME[value]
    try:
        return Difficulty(value)
    except ValueError:
        raise InvalidValue("difficulty", UNKNOWN_DIFFICULTY) from None


def skill_kind_for(attribute: str) -> SkillKind:
    """The table a skill's line is bought from, by the attribute it runs on (§3.2, p. 43):
    physical on DX (some on ST or HT), mental on IQ."""
    key = str(attribute).lower()
    if key not in ATTRIBUTE_NAMES:
        raise InvalidValue("attribute", UNKNOWN_ATTRIBUTE)
    return SkillKind.MENTAL if key == "iq" else SkillKind.PHYSICAL


def cost_rows(
    kind: SkillKind | str,
    columns: Sequence[str],
    lines: Iterable[tuple[int | None, Sequence[str]]],
) -> tuple[CostRow, ...]:
    """Build and check one table from its text: ``columns`` are the difficulty names or codes
    ("Fácil", "Média" …), ``lines`` (relative level or None for "cada +1 a mais", its cells as
    text). Raises InvalidValue("cell") for an unreadable cell, InvalidValue("table") for a table
    the functions below could not read unambiguously (see ``check_cost_table``)."""
    kind = skill_kind(kind)
    difficulties = tuple(difficulty_of(column) for column in columns)
    rows = []
    for relative, cells in lines:
        if len(cells) != len(difficulties):
            raise InvalidValue(
                "table", COST_TABLE_WIDTH.format(kind=TABLE_NAMES[kind], count=len(difficulties))
            )
        costs = {d: parse_cost_cell(cell) for d, cell in zip(difficulties, cells, strict=True)}
        rows.append(CostRow(kind, relative, costs))
    rows = tuple(rows)
    check_cost_table(rows, kind)
    return rows


def _rows_of(table: Iterable[CostRow], kind: SkillKind) -> tuple[list[CostRow], CostRow]:
    """The numbered rows of ``kind``, lowest first, and its "cada +1 a mais" row."""
    name = TABLE_NAMES[kind]
    mine = [row for row in table if row.kind is kind]
    if not mine:
        raise InvalidValue("table", COST_TABLE_EMPTY.format(kind=name))
    steps = [row for row in mine if row.relative is None]
    if len(steps) != 1:
        raise InvalidValue("table", COST_TABLE_NO_STEP.format(kind=name))
    levels = sorted((row for row in mine if row.relative is not None), key=lambda r: r.relative)
    if not levels:
        raise InvalidValue("table", COST_TABLE_EMPTY.format(kind=name))
    return levels, steps[0]


def _column_name(kind: SkillKind, difficulty: Difficulty) -> str:
    return f"{SKILL_KIND_NAMES[kind]}/{DIFFICULTY_NAMES[difficulty]}"


def _relative_name(relative: int, attribute_name: str = "atributo") -> str:
    return f"{attribute_name}{signed(relative)}" if relative else attribute_name


def check_cost_table(table: Iterable[CostRow], kind: SkillKind | str) -> None:
    """Raise InvalidValue("table") unless the rows of ``kind`` make a table the functions can
    read one way only: one row per relative level with no gap, one "cada +1 a mais" row with a
    number above 0 in every column, and in each column dashes only at the top, then costs that
    rise with the level (so points and levels match one to one)."""
    kind = skill_kind(kind)
    name = TABLE_NAMES[kind]
    levels, step = _rows_of(table, kind)
    difficulties = tuple(levels[0].costs)
    for row in (*levels, step):
        if tuple(row.costs) != difficulties:
            raise InvalidValue("table", COST_TABLE_WIDTH.format(kind=name, count=len(difficulties)))
    for low, high in zip(levels, levels[1:], strict=False):
        if high.relative == low.relative:
            raise InvalidValue(
                "table",
                COST_TABLE_REPEATED_LEVEL.format(kind=name, level=_relative_name(low.relative)),
            )
        if high.relative != low.relative + 1:
            raise InvalidValue(
                "table",
                COST_TABLE_GAP.format(
                    kind=name, low=_relative_name(low.relative), high=_relative_name(high.relative)
                ),
            )
    for difficulty in difficulties:
        column = DIFFICULTY_NAMES[difficulty]
        previous = None
        for row in levels:
            cost = row.cost(difficulty)
            if cost is None and previous is not None:
                raise InvalidValue(
                    "table", COST_TABLE_DASH_AFTER_NUMBER.format(column=column, kind=name)
                )
            if cost is not None and previous is not None and cost <= previous:
                raise InvalidValue(
                    "table",
                    COST_TABLE_NOT_RISING.format(
                        column=column,
                        kind=name,
                        level=_relative_name(row.relative),
                        points=format_points(cost),
                    ),
                )
            previous = cost if cost is not None else previous
        if previous is None:
            raise InvalidValue("table", COST_TABLE_COLUMN_EMPTY.format(column=column, kind=name))
        if not step.cost(difficulty):
            raise InvalidValue("table", COST_TABLE_BAD_STEP.format(kind=name, column=column))


def columns_of(table: Iterable[CostRow], kind: SkillKind | str) -> tuple[Difficulty, ...]:
    """The difficulties the table of ``kind`` has columns for, in its order."""
    levels, _ = _rows_of(table, skill_kind(kind))
    return tuple(levels[0].costs)


def check_column(
    table: Iterable[CostRow], kind: SkillKind | str, difficulty: Difficulty | str
) -> None:
    """Raise InvalidValue("difficulty") unless the table of ``kind`` has a column for
    ``difficulty``: PHYSICAL_HAS_NO_VERY_HARD for a physical skill marked Very Hard (§9 item
    1), TABLE_HAS_NO_COLUMN for any other column the Árbitro's table lacks."""
    kind, difficulty = skill_kind(kind), difficulty_of(difficulty)
    if difficulty in columns_of(table, kind):
        return
    if kind is SkillKind.PHYSICAL and difficulty is Difficulty.VH:
        raise InvalidValue("difficulty", PHYSICAL_HAS_NO_VERY_HARD)
    raise InvalidValue(
        "difficulty",
        TABLE_HAS_NO_COLUMN.format(kind=TABLE_NAMES[kind], difficulty=DIFFICULTY_NAMES[difficulty]),
    )


def _column(
    table: Iterable[CostRow], kind: SkillKind, difficulty: Difficulty
) -> tuple[list[tuple[int, Fraction]], Fraction]:
    """The column of ``difficulty``: (relative level, cost) of each numbered cell, lowest
    first, and the cost of each level beyond the last. InvalidValue("difficulty") if the table
    has no such column (a physical skill marked Very Hard)."""
    levels, step = _rows_of(table, kind)
    check_column(table, kind, difficulty)
    cells = [(row.relative, row.cost(difficulty)) for row in levels]
    return [(relative, cost) for relative, cost in cells if cost is not None], step.cost(difficulty)


def _attribute(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidValue("attribute", NOT_AN_INTEGER)
    check_attribute("attribute", value)
    return value


def level_bought(
    *,
    attribute: int,
    kind: SkillKind | str,
    difficulty: Difficulty | str,
    points: object,
    table: Iterable[CostRow],
    attribute_name: str = "atributo",
) -> Purchase:
    """The level (NH) ``points`` buy in a skill of ``kind`` and ``difficulty`` on an attribute
    of ``attribute`` (MB pp. 43–44, through the Árbitro's ``table``).

    Points buy the highest row they reach; beyond the last numbered row each further level
    costs the "cada +1 a mais" points; what is left over buys nothing (``Purchase.left_over``).
    ``attribute_name`` ("DX") only words the computation.

    Raises InvalidValue: "points" for 0 (ZERO_POINTS_BUY_NOTHING: the default rules), for
    points below the column's first row (POINTS_BUY_NO_ROW: 0.3, or ½ where the column starts
    with a dash), negative or not a number; "difficulty" for a column the table lacks
    (PHYSICAL_HAS_NO_VERY_HARD); "attribute" below 1; "table" for a table that does not read.
    """
    kind, difficulty = skill_kind(kind), difficulty_of(difficulty)
    attribute = _attribute(attribute)
    points = read_points(points)
    cells, step = _column(list(table), kind, difficulty)
    column = _column_name(kind, difficulty)
    if points == 0:
        raise InvalidValue("points", ZERO_POINTS_BUY_NOTHING)
    first_relative, first_cost = cells[0]
    if points < first_cost:
        raise InvalidValue(
            "points",
            POINTS_BUY_NO_ROW.format(
                points=points_text(points), column=column, first=points_text(first_cost)
            ),
        )
    relative, spent = max((c for c in cells if c[1] <= points), key=lambda c: c[0])
    last_relative, last_cost = cells[-1]
    if relative == last_relative:
        further = int((points - last_cost) // step)
        relative, spent = last_relative + further, last_cost + further * step
    level = attribute + relative
    buy = "compra" if points < 2 else "compram"
    text = f"{points_text(points)} em {column} {buy} {_relative_name(relative, attribute_name)}"
    text += f": {arithmetic(attribute, relative)}" if relative else f": {level}"
    if points != spent:
        left = points - spent
        many = "m" if left >= 2 else ""
        text += f" (sobra{many} {points_text(left)}, que não compra{many} nada)"
    return Purchase(level, relative, points, spent, points - spent, text)


def points_for_level(
    *,
    attribute: int,
    kind: SkillKind | str,
    difficulty: Difficulty | str,
    level: int,
    table: Iterable[CostRow],
    attribute_name: str = "atributo",
) -> Price:
    """What NH ``level`` costs in a skill of ``kind`` and ``difficulty`` on an attribute of
    ``attribute`` (MB pp. 43–44, through the Árbitro's ``table``): the row of level −
    attribute, or beyond the last row its cost plus the "cada +1 a mais" points per level.

    Raises InvalidValue: "level" for a level below the column's first row (LEVEL_BELOW_TABLE:
    it is no purchase, it is the default) or not an int; "difficulty" for a column the table
    lacks; "attribute" below 1; "table" for a table that does not read.
    """
    kind, difficulty = skill_kind(kind), difficulty_of(difficulty)
    attribute = _attribute(attribute)
    if isinstance(level, bool) or not isinstance(level, int):
        raise InvalidValue("level", NOT_AN_INTEGER)
    cells, step = _column(list(table), kind, difficulty)
    column = _column_name(kind, difficulty)
    relative = level - attribute
    first_relative, first_cost = cells[0]
    if relative < first_relative:
        raise InvalidValue(
            "level",
            LEVEL_BELOW_TABLE.format(
                level=level,
                attribute=attribute_name,
                relative=signed(relative) if relative else "",
                column=column,
                first_level=_relative_name(first_relative, attribute_name),
                first=points_text(first_cost),
            ),
        )
    last_relative, last_cost = cells[-1]
    if relative > last_relative:
        points = last_cost + (relative - last_relative) * step
    else:
        points = dict(cells)[relative]
    text = (
        f"NH {level} com {attribute_name} {attribute} é "
        f"{_relative_name(relative, attribute_name)}: em {column} custa {points_text(points)}"
    )
    return Price(level, relative, points, text)
