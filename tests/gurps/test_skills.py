from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps.errors import (
    BAD_DEFAULT,
    BAD_SKILL_LINE,
    FRACTIONAL_POINTS,
    MISSING_ATTRIBUTE,
    NO_DEFAULT,
    UNKNOWN_DIFFICULTY,
    UNKNOWN_SKILL_KIND,
    InvalidValue,
    NoDefault,
)
from gurps.readings import READINGS_BY_KEY
from gurps.skills import (
    CANON_TABLES,
    DEFAULT_ATTRIBUTE_CAP,
    DEFAULT_PENALTIES,
    DIFFICULTY_NAMES,
    GENERAL_DEFAULT_ATTRIBUTE,
    Difficulty,
    SkillKind,
    SkillLine,
    default_level,
    general_default,
    parse_default,
    parse_skill_line,
    skill_default,
)
from tests.gurps.helpers import canon_section, canon_table

PROPERTY = settings(database=None, deadline=None)


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


# --- §3.3 every rule of a default ----------------------------------------------------------------

DEFAULTS_TEXT = canon_section("## 3.3 Perícia que você não tem").replace("**", "")


def test_the_general_defaults_table_is_built_from_the_data() -> None:
    (table,) = CANON_TABLES
    assert table.heading == "## 3.3 Perícia que você não tem"
    assert [list(row) for row in table.rows] == canon_table("## 3.3 Perícia que você não tem")


@pytest.mark.parametrize(
    ("difficulty", "kind", "level"),
    [("E", "physical", 10), ("A", "physical", 9), ("H", "physical", 8), ("E", "mental", 7)],
)
def test_the_general_rule_uses_dx_for_physical_and_iq_for_mental(
    difficulty: str, kind: str, level: int
) -> None:
    assert skill_default({"DX": 14, "IQ": 11}, difficulty, kind) == level


def test_a_skill_description_overrides_the_general_rule() -> None:
    # Escalada is Média and physical: the general rule would give DX−5; its description
    # says ST−5 or DX−5, and the best counts.
    attributes = {"st": 16, "dx": 12}
    assert skill_default(attributes, "A", "physical") == 7
    assert skill_default(attributes, "A", "physical", defaults=["ST-5", "DX-5"]) == 11


def test_the_rastreador_climbs_at_9_as_the_canon_says() -> None:
    st_, dx, level = (
        int(n) for n in re.search(r"ST (\d+) e DX (\d+), escala em (\d+)", DEFAULTS_TEXT).groups()
    )
    rules = re.search(r"Escalada é (ST−\d) ou (DX−\d)", DEFAULTS_TEXT).groups()
    assert skill_default({"st": st_, "dx": dx}, "A", "physical", defaults=rules) == level


def test_very_hard_has_no_default_unless_a_description_gives_one() -> None:
    assert "Muito Difíceis, sobretudo" in DEFAULTS_TEXT
    with pytest.raises(NoDefault):
        skill_default({"iq": 15}, "VH", "mental")
    assert skill_default({"iq": 15}, "VH", "mental", defaults=["IQ-6"]) == 9


def test_a_description_with_no_default_means_none() -> None:
    with pytest.raises(NoDefault):
        skill_default({"iq": 15}, "A", "mental", defaults=[])


def test_an_attribute_above_20_counts_as_20_in_every_path() -> None:
    assert "atributo sobre-humano conta como 20 e não mais" in DEFAULTS_TEXT
    assert skill_default({"dx": 24}, "E", "physical") == 16
    assert skill_default({"st": 30}, "A", "physical", defaults=["ST-5"]) == 15


def test_a_default_refuses_an_unknown_kind_or_difficulty_and_a_missing_attribute() -> None:
    with pytest.raises(InvalidValue) as caught:
        skill_default({"dx": 12}, "A", "magic")
    assert (caught.value.field, caught.value.message) == ("kind", UNKNOWN_SKILL_KIND)
    with pytest.raises(InvalidValue) as caught:
        skill_default({"dx": 12}, "X", "physical")
    assert (caught.value.field, caught.value.message) == ("difficulty", UNKNOWN_DIFFICULTY)
    with pytest.raises(InvalidValue) as caught:
        skill_default({"dx": 12}, "A", "mental")
    assert (caught.value.field, caught.value.message) == ("iq", MISSING_ATTRIBUTE)


def test_the_reading_of_the_general_attribute_is_registered() -> None:
    assert "general_default_attribute" in READINGS_BY_KEY
    assert GENERAL_DEFAULT_ATTRIBUTE == {SkillKind.PHYSICAL: "dx", SkillKind.MENTAL: "iq"}


attribute_values = st.integers(min_value=1, max_value=40)


@PROPERTY
@given(
    st.fixed_dictionaries(
        {
            "st": attribute_values,
            "dx": attribute_values,
            "iq": attribute_values,
            "ht": attribute_values,
        }
    ),
    st.sampled_from(["E", "A", "H"]),
    st.sampled_from(list(SkillKind)),
)
def test_the_general_default_never_passes_the_cap_of_20(attributes, difficulty, kind) -> None:
    level = skill_default(attributes, difficulty, kind)
    base = attributes[GENERAL_DEFAULT_ATTRIBUTE[kind]]
    assert level <= DEFAULT_ATTRIBUTE_CAP - 4
    penalty = next(row.penalty for row in DEFAULT_PENALTIES if row.difficulty == difficulty)
    assert level == min(base, DEFAULT_ATTRIBUTE_CAP) + penalty


@PROPERTY
@given(
    st.fixed_dictionaries({"st": attribute_values, "dx": attribute_values}),
    st.lists(
        st.tuples(st.sampled_from(["ST", "DX"]), st.integers(min_value=0, max_value=8)),
        min_size=1,
        max_size=4,
    ),
)
def test_the_best_listed_default_wins_and_never_passes_the_cap(attributes, listed) -> None:
    texts = [f"{name}-{penalty}" for name, penalty in listed]
    level = skill_default(attributes, "A", "physical", defaults=texts)
    each = [min(attributes[name.lower()], DEFAULT_ATTRIBUTE_CAP) - p for name, p in listed]
    assert level == max(each)
    assert level <= DEFAULT_ATTRIBUTE_CAP
