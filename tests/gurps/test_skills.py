from __future__ import annotations

import re

import pytest

from gurps.errors import (
    BAD_DEFAULT,
    BAD_SKILL_LINE,
    FRACTIONAL_POINTS,
    MISSING_ATTRIBUTE,
    NO_DEFAULT,
    InvalidValue,
    NoDefault,
)
from gurps.skills import (
    DEFAULT_PENALTIES,
    DIFFICULTY_NAMES,
    Difficulty,
    SkillLine,
    default_level,
    general_default,
    parse_default,
    parse_skill_line,
)
from tests.gurps.helpers import canon_table


def test_the_general_defaults_are_the_canons_table() -> None:
    names = {name: difficulty for difficulty, name in DIFFICULTY_NAMES.items()}
    parsed = []
    for name, rule in canon_table("## 3.3 Perícia que você não tem"):
        dx, iq = re.fullmatch(r"DX−(\d) ou IQ−(\d)", rule).groups()
        assert dx == iq
        parsed.append((names[name], -int(dx)))
    assert parsed == [(row.difficulty, row.penalty) for row in DEFAULT_PENALTIES]
    assert all((row.section, row.page) == ("3.3", "44") for row in DEFAULT_PENALTIES)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("Lança 17 (16)", SkillLine("Lança", 17, 16)),
        ("Escudo 14", SkillLine("Escudo", 14, None)),
        ("  Furtividade 12 ( 2 ) ", SkillLine("Furtividade", 12, 2)),
        ("Armeiro (Armas brancas) 12 (2)", SkillLine("Armeiro (Armas brancas)", 12, 2)),
        ("Espada de Duas Mãos 13 (8)", SkillLine("Espada de Duas Mãos", 13, 8)),
    ],
)
def test_it_reads_a_sheets_skill_line(text: str, line: SkillLine) -> None:
    assert parse_skill_line(text) == line


@pytest.mark.parametrize("text", ["", "Lança", "17 (16)", "Lança dezessete", "Lança 17 (x)"])
def test_it_refuses_an_unreadable_skill_line(text: str) -> None:
    with pytest.raises(InvalidValue) as caught:
        parse_skill_line(text)
    assert (caught.value.field, caught.value.message) == ("line", BAD_SKILL_LINE)


def test_it_says_half_points_are_not_read_yet() -> None:
    with pytest.raises(InvalidValue) as caught:
        parse_skill_line("Alquimia 10 (½)")
    assert caught.value.message == FRACTIONAL_POINTS


@pytest.mark.parametrize(
    ("text", "default"),
    [
        ("ST-5", ("st", -5)),
        ("DX−5", ("dx", -5)),
        ("IQ-4", ("iq", -4)),
        ("DX", ("dx", 0)),
        ("ht - 6", ("ht", -6)),
    ],
)
def test_it_reads_an_attribute_default(text: str, default: tuple[str, int]) -> None:
    assert parse_default(text) == default


@pytest.mark.parametrize("text", ["Espada Larga-2", "PER-5", "", "DX-"])
def test_it_refuses_a_default_that_is_not_an_attribute(text: str) -> None:
    with pytest.raises(InvalidValue) as caught:
        parse_default(text)
    assert (caught.value.field, caught.value.message) == ("default", BAD_DEFAULT)


def test_the_best_default_wins() -> None:
    assert default_level({"ST": 11, "DX": 14}, ["ST-5", "DX-5"]) == 9


def test_an_attribute_above_20_counts_as_20_for_a_default() -> None:
    assert default_level({"dx": 25}, ["DX-5"]) == 15
    assert general_default(Difficulty.A, 23) == 15


def test_a_skill_without_defaults_has_none() -> None:
    with pytest.raises(NoDefault) as caught:
        default_level({"dx": 10}, [])
    assert caught.value.message == NO_DEFAULT


def test_a_default_on_a_missing_attribute_is_refused() -> None:
    with pytest.raises(InvalidValue) as caught:
        default_level({"dx": 10}, ["IQ-5"])
    assert (caught.value.field, caught.value.message) == ("iq", MISSING_ATTRIBUTE)


@pytest.mark.parametrize(("difficulty", "level"), [("E", 8), ("A", 7), ("H", 6)])
def test_the_general_default_follows_the_difficulty(difficulty: str, level: int) -> None:
    assert general_default(difficulty, 12) == level


def test_very_hard_skills_have_no_general_default() -> None:
    with pytest.raises(NoDefault):
        general_default(Difficulty.VH, 12)
