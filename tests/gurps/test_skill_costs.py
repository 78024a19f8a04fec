"""What points buy and what a level costs (gurps.skill_costs), on the book's two tables as the
transcription gives them (tests.gurps.helpers.SKILL_COSTS_PATH), and the canon's anchors (§9
item 1) read from the canon's own words."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps.errors import (
    BAD_COST_CELL,
    LEVEL_BELOW_TABLE,
    NEGATIVE_SKILL_POINTS,
    PHYSICAL_HAS_NO_VERY_HARD,
    SKILL_POINTS_NOT_IN_HALVES,
    ZERO_POINTS_BUY_NOTHING,
    InvalidValue,
)
from gurps.skill_costs import (
    CostRow,
    columns_of,
    cost_rows,
    format_points,
    level_bought,
    parse_cost_cell,
    points_for_level,
    require_halves,
    skill_kind_for,
)
from gurps.skills import Difficulty, SkillKind
from tests.gurps.helpers import canon_section, skill_cost_tables, skill_costs_text

PROPERTY = settings(database=None, deadline=None)
TABLES = skill_cost_tables()
TABLE: tuple[CostRow, ...] = tuple(
    row
    for kind, (columns, lines) in TABLES.items()
    for row in cost_rows(kind, columns, [(relative, cells) for _, relative, cells in lines])
)
DIVERGENCE_1 = canon_section("# 9. Divergências abertas").replace("**", "")


def _buy(points, *, attribute=10, kind="physical", difficulty="E", table=TABLE):
    return level_bought(
        attribute=attribute, kind=kind, difficulty=difficulty, points=points, table=table
    )


def _price(level, *, attribute=10, kind="physical", difficulty="E", table=TABLE):
    return points_for_level(
        attribute=attribute, kind=kind, difficulty=difficulty, level=level, table=table
    )


# --- the canon's anchors ------------------------------------------------------------------------


def test_the_physical_table_has_no_very_hard_column() -> None:
    assert "a física não tem coluna Muito Difícil" in DIVERGENCE_1
    assert "Muito Difícil" not in TABLES["physical"][0]
    assert columns_of(TABLE, "physical") == (Difficulty.E, Difficulty.A, Difficulty.H)
    with pytest.raises(InvalidValue) as refused:
        _buy(4, difficulty="VH")
    assert (refused.value.field, refused.value.message) == ("difficulty", PHYSICAL_HAS_NO_VERY_HARD)
    with pytest.raises(InvalidValue):
        _price(10, difficulty="VH")


def test_the_mental_table_has_four_columns() -> None:
    assert columns_of(TABLE, "mental") == tuple(Difficulty)


@pytest.mark.parametrize(("points", "said"), [("½", "IQ−1"), ("1", "IQ")])
def test_mental_easy_half_a_point_buys_iq_minus_1_and_one_point_iq(points, said) -> None:
    # §9 item 1: "Nas mentais, ½ ponto compra Fácil em IQ−1 …; 1 ponto compra Fácil em IQ".
    assert f"{points} ponto compra Fácil em {said}" in DIVERGENCE_1
    relative = -1 if said == "IQ−1" else 0
    assert _buy(points, attribute=12, kind="mental").level == 12 + relative


def test_the_hoplitas_spear_is_physical_average_dx_plus_3() -> None:
    found = re.search(
        r"Lança (\d+) com (\d+) pontos, que é DX\+(\d) numa perícia Física/Média", DIVERGENCE_1
    )
    level, points, plus = (int(n) for n in found.groups())
    dx = level - plus  # the demo's DX 14 follows this note
    bought = _buy(points, attribute=dx, difficulty="A")
    assert (bought.level, bought.relative, bought.left_over) == (level, plus, 0)
    assert bought.computation == "16 pontos em Física/Média compram atributo+3: 14 + 3 = 17"
    assert _price(level, attribute=dx, difficulty="A").points == points


def test_the_jurados_shield_points_buy_15_not_14() -> None:
    bought = level_bought(
        attribute=12, kind="physical", difficulty="E", points=8, table=TABLE, attribute_name="DX"
    )
    assert bought.level == 15
    assert bought.computation == "8 pontos em Física/Fácil compram DX+3: 12 + 3 = 15"
    assert _price(14, attribute=12).points == 4


def test_the_rastreadors_bow_points_buy_14_not_15() -> None:
    assert _buy(4, attribute=14, difficulty="H").level == 14
    assert _price(15, attribute=14, difficulty="H").points == 8


def test_the_transcription_states_its_rules() -> None:
    text = " ".join(skill_costs_text().split())
    assert "A level between two rows costs the higher row (points buy the row they reach)" in text
    assert "Points that reach no row (0.3, or ½ where the column has a dash) buy nothing" in text


# --- the transcription's rules ---------------------------------------------------------------------


def test_points_between_two_rows_buy_the_row_they_reach_and_say_what_is_left() -> None:
    bought = level_bought(
        attribute=12, kind="physical", difficulty="E", points=6, table=TABLE, attribute_name="DX"
    )
    assert (bought.level, bought.spent, bought.left_over) == (14, 4, 2)
    assert "sobram 2 pontos, que não compram nada" in bought.computation


def test_points_that_reach_no_row_buy_nothing() -> None:
    with pytest.raises(InvalidValue) as refused:
        _buy(Fraction(3, 10))
    assert refused.value.field == "points"
    assert "0,3 ponto não alcança nenhuma linha da coluna Física/Fácil" in refused.value.message


def test_zero_points_buy_nothing_and_send_to_the_default() -> None:
    with pytest.raises(InvalidValue) as refused:
        _buy(0)
    assert refused.value.message == ZERO_POINTS_BUY_NOTHING


def test_negative_points_are_refused() -> None:
    with pytest.raises(InvalidValue) as refused:
        _buy(-2)
    assert (refused.value.field, refused.value.message) == ("points", NEGATIVE_SKILL_POINTS)


def test_beyond_the_last_row_each_level_costs_the_step() -> None:
    # Physical Easy: DX+5 is 24, "cada +1 a mais" is +8.
    assert _buy(40, attribute=12).level == 12 + 7
    assert _price(12 + 7, attribute=12).points == 40
    # Mental Very Hard: IQ+5 is 28, each further +4.
    assert _price(10 + 6, attribute=10, kind="mental", difficulty="VH").points == 32


def test_a_level_below_the_table_is_no_purchase() -> None:
    with pytest.raises(InvalidValue) as refused:
        _price(8, attribute=12)
    assert refused.value.field == "level"
    assert refused.value.message.startswith("NH 8 é atributo−4")
    assert LEVEL_BELOW_TABLE.split("{")[0] == "NH "


@pytest.mark.parametrize(
    ("text", "value"),
    [("½", Fraction(1, 2)), ("16", 16), ("+8", 8), ("—", None), ("1½", Fraction(3, 2))],
)
def test_it_reads_a_cell_as_the_transcription_writes_it(text, value) -> None:
    assert parse_cost_cell(text) == value


@pytest.mark.parametrize("text", ["x", "1/0", "meio", "--2"])
def test_it_refuses_a_cell_it_cannot_read(text) -> None:
    with pytest.raises(InvalidValue) as refused:
        parse_cost_cell(text)
    assert (refused.value.field, refused.value.message) == ("cell", BAD_COST_CELL)


@pytest.mark.parametrize(
    ("value", "text"), [(Fraction(1, 2), "½"), (Fraction(3, 10), "0,3"), (24, "24")]
)
def test_it_writes_points_as_a_sheet_does(value, text) -> None:
    assert format_points(value) == text


def test_points_go_in_halves_on_a_form() -> None:
    assert require_halves("1½") == Fraction(3, 2)
    with pytest.raises(InvalidValue) as refused:
        require_halves("1,25")
    assert refused.value.message == SKILL_POINTS_NOT_IN_HALVES.format(points="1,25")


def test_the_table_a_skill_is_bought_from_follows_its_attribute() -> None:
    # §3.2: physical on DX (some ST or HT), mental on IQ.
    assert [skill_kind_for(a) for a in ("dx", "st", "ht", "iq")] == [
        SkillKind.PHYSICAL,
        SkillKind.PHYSICAL,
        SkillKind.PHYSICAL,
        SkillKind.MENTAL,
    ]


# --- tables the Árbitro could type, that the functions could not read ------------------------------

PHYSICAL_COLUMNS, PHYSICAL_LINES = TABLES["physical"]


def _edited(position: int, cells: list[str]):
    lines = [(relative, list(row)) for _, relative, row in PHYSICAL_LINES]
    lines[position] = (lines[position][0], cells)
    return lines


@pytest.mark.parametrize(
    ("position", "cells", "said"),
    [
        (3, ["1", "2", "—"], "«—» depois de um número"),
        (4, ["1", "4", "8"], "não é mais que a linha de cima"),
        (9, ["+8", "0", "+8"], "precisa de um número maior que zero"),
        (2, ["½", "1"], "3 células"),
    ],
)
def test_a_table_that_does_not_read_one_way_is_refused(position, cells, said) -> None:
    with pytest.raises(InvalidValue) as refused:
        cost_rows("physical", PHYSICAL_COLUMNS, _edited(position, cells))
    assert said in refused.value.message


def test_a_table_with_a_gap_or_no_step_line_is_refused() -> None:
    lines = [(relative, row) for _, relative, row in PHYSICAL_LINES]
    with pytest.raises(InvalidValue, match="pula de"):
        cost_rows("physical", PHYSICAL_COLUMNS, lines[:3] + lines[4:])
    with pytest.raises(InvalidValue, match="cada \\+1 a mais"):
        cost_rows("physical", PHYSICAL_COLUMNS, lines[:-1])


# --- properties -------------------------------------------------------------------------------------

CELLS = [
    (row.kind, difficulty, row.relative)
    for row in TABLE
    if row.relative is not None
    for difficulty, cost in row.costs.items()
    if cost is not None
]
columns = st.sampled_from(
    [(SkillKind.PHYSICAL, d) for d in "EAH"] + [(SkillKind.MENTAL, d) for d in "EAHV"]
).map(lambda c: (c[0], "VH" if c[1] == "V" else c[1]))
halves = st.integers(min_value=1, max_value=400).map(lambda n: Fraction(n, 2))
attributes = st.integers(min_value=1, max_value=30)


@PROPERTY
@given(st.sampled_from(CELLS), attributes, st.integers(min_value=0, max_value=10))
def test_every_row_round_trips_points_to_level_to_points(cell, attribute, beyond) -> None:
    kind, difficulty, relative = cell
    if relative == 5:
        relative += beyond  # and the levels past the last row, through "cada +1 a mais"
    level = attribute + relative
    price = _price(level, attribute=attribute, kind=kind, difficulty=difficulty)
    bought = _buy(price.points, attribute=attribute, kind=kind, difficulty=difficulty)
    assert (bought.level, bought.left_over) == (level, 0)


@PROPERTY
@given(columns, attributes, halves, halves)
def test_more_points_never_buy_a_lower_level(column, attribute, one, other) -> None:
    kind, difficulty = column
    low, high = sorted((one, other))
    levels = []
    for points in (low, high):
        try:
            levels.append(_buy(points, attribute=attribute, kind=kind, difficulty=difficulty).level)
        except InvalidValue:
            levels.append(None)  # below the first row (½ where the column starts with a dash)
    if levels[0] is not None:
        assert levels[1] >= levels[0]


@PROPERTY
@given(columns, attributes, halves)
def test_what_is_left_over_never_reaches_the_next_level(column, attribute, points) -> None:
    kind, difficulty = column
    try:
        bought = _buy(points, attribute=attribute, kind=kind, difficulty=difficulty)
    except InvalidValue:
        return
    next_level = _price(bought.level + 1, attribute=attribute, kind=kind, difficulty=difficulty)
    assert bought.spent <= points < next_level.points
    assert (
        bought.spent
        == _price(bought.level, attribute=attribute, kind=kind, difficulty=difficulty).points
    )
