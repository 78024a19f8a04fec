from __future__ import annotations

import re
from fractions import Fraction

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
    Default,
    Difficulty,
    SkillKind,
    SkillLine,
    best_default,
    default_level,
    general_default,
    general_defaults,
    parse_default,
    parse_skill_line,
    read_default,
    skill_default,
    split_defaults,
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


@pytest.mark.parametrize(
    ("text", "points"),
    [("Alquimia 10 (½)", Fraction(1, 2)), ("Faca 14 (1½)", Fraction(3, 2)), ("Faca 13 (0,5)", 0.5)],
)
def test_it_reads_half_points(text: str, points) -> None:
    # The cost table has ½-point rows (§9 item 1: "½ ponto compra Fácil em IQ−1").
    assert parse_skill_line(text).points == points


def test_it_refuses_points_that_are_not_in_halves() -> None:
    with pytest.raises(InvalidValue) as caught:
        parse_skill_line("Alquimia 10 (0,3)")
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


# --- best_default: the catalogue's defaults, from attributes and from other skills ------------

ATTRIBUTES = {"st": 11, "dx": 14, "iq": 12, "ht": 11}
MAGIC_TEXT = canon_section("### Magia: os outros alcances").replace("**", "")


@pytest.mark.parametrize(
    ("text", "default"),
    [
        ("DX−5", Default("dx", -5, True)),
        ("Arremesso", Default("Arremesso", 0, False)),
        ("Primeiros Socorros−4", Default("Primeiros Socorros", -4, False)),
        ("Espada Larga -2", Default("Espada Larga", -2, False)),
    ],
)
def test_it_reads_a_default_to_an_attribute_or_to_a_skill(text: str, default: Default) -> None:
    assert read_default(text) == default


@pytest.mark.parametrize("text", ["", "-5", "5", "DX-", "+3", "DX menos seis"])
def test_it_refuses_a_default_with_no_source(text: str) -> None:
    with pytest.raises(InvalidValue) as caught:
        read_default(text)
    assert (caught.value.field, caught.value.message) == ("default", BAD_DEFAULT)


def test_it_splits_a_description_as_the_canon_writes_it() -> None:
    rules = re.search(r"Escalada é (ST−\d ou DX−\d)", DEFAULTS_TEXT).group(1)
    assert split_defaults(rules) == ("ST−5", "DX−5")


def test_the_best_default_names_the_one_used_in_the_rastreadors_climb() -> None:
    st_, dx, level = (
        int(n) for n in re.search(r"ST (\d+) e DX (\d+), escala em (\d+)", DEFAULTS_TEXT).groups()
    )
    rules = split_defaults(re.search(r"Escalada é (ST−\d ou DX−\d)", DEFAULTS_TEXT).group(1))
    used = best_default(defaults=rules, attributes={**ATTRIBUTES, "st": st_, "dx": dx})
    assert used.level == level
    assert used.default.text == "DX−5"
    assert used.computation == "DX−5: DX 14 − 5 = 9"
    assert used.considered == ("ST−5: ST 11 − 5 = 6", "DX−5: DX 14 − 5 = 9")


def test_a_default_from_another_skill_on_the_sheet() -> None:
    # §4.11 (MAGIA p. 11): Arremesso de Mágica, "pré-definido: NH em Arremesso, ou DX−3".
    assert "pré-definido: NH em Arremesso, ou DX−3" in MAGIC_TEXT
    used = best_default(
        defaults=["Arremesso", "DX−3"], attributes=ATTRIBUTES, skills={"Arremesso": 13}
    )
    assert (used.level, used.default.text, used.base) == (13, "Arremesso", 13)
    without = best_default(defaults=["Arremesso", "DX−3"], attributes=ATTRIBUTES, skills={})
    assert (without.level, without.default.text) == (11, "DX−3")


def test_a_default_whose_source_the_sheet_lacks_is_not_offered() -> None:
    assert best_default(defaults=["Primeiros Socorros−4"], attributes=ATTRIBUTES) is None


def test_a_skill_with_no_default_has_none() -> None:
    # §3.3: "Algumas perícias não têm pré-definido — Muito Difíceis, sobretudo."
    assert best_default(defaults=[], attributes=ATTRIBUTES) is None
    assert general_defaults("VH", "mental") == ()
    assert best_default(defaults=general_defaults("VH", "mental"), attributes=ATTRIBUTES) is None


def test_the_general_rule_as_a_list_of_defaults() -> None:
    assert general_defaults("A", "physical") == ("DX−5",)
    assert general_defaults("E", "mental") == ("IQ−4",)


def test_an_attribute_default_counts_a_superhuman_attribute_as_20() -> None:
    used = best_default(defaults=["DX−5"], attributes={**ATTRIBUTES, "dx": 30})
    assert (used.level, used.base, used.capped_from) == (15, 20, 30)
    assert used.computation == "DX−5: DX 30 conta como 20 (§3.3), 20 − 5 = 15"


def test_a_skill_default_is_not_capped_at_20() -> None:
    # The cap is for a default to an attribute (p. 87); a skill's level is the sheet's.
    used = best_default(defaults=["Arremesso"], attributes=ATTRIBUTES, skills={"arremesso": 22})
    assert used.level == 22


def test_a_default_that_would_be_negative_is_not_offered() -> None:
    assert best_default(defaults=["DX−6"], attributes={**ATTRIBUTES, "dx": 3}) is None
    used = best_default(defaults=["DX−6", "IQ−5"], attributes={**ATTRIBUTES, "dx": 3})
    assert used.default.text == "IQ−5"
    assert "default_never_negative" in READINGS_BY_KEY


defaults_lists = st.lists(
    st.tuples(st.sampled_from(["ST", "DX", "IQ", "HT"]), st.integers(min_value=0, max_value=10)),
    min_size=1,
    max_size=4,
)
sheets = st.fixed_dictionaries({key: st.integers(min_value=1, max_value=40) for key in ATTRIBUTES})


@PROPERTY
@given(sheets, defaults_lists)
def test_an_attribute_default_never_passes_the_attribute_capped_at_20(attributes, listed) -> None:
    used = best_default(defaults=[f"{a}-{p}" for a, p in listed], attributes=attributes)
    possible = [min(attributes[a.lower()], DEFAULT_ATTRIBUTE_CAP) - p for a, p in listed]
    if max(possible) < 0:
        assert used is None
        return
    assert used.level == max(possible)
    assert 0 <= used.level <= DEFAULT_ATTRIBUTE_CAP
    assert used.level == min(attributes[used.default.source], 20) + used.default.modifier


@PROPERTY
@given(
    sheets,
    st.integers(min_value=0, max_value=40),
    st.integers(min_value=0, max_value=10),
    st.integers(min_value=0, max_value=10),
)
def test_a_skill_on_the_sheet_only_ever_raises_the_default(attributes, level, minus, dx_minus):
    alone = best_default(defaults=[f"DX-{dx_minus}"], attributes=attributes)
    both = best_default(
        defaults=[f"DX-{dx_minus}", f"Arremesso-{minus}"],
        attributes=attributes,
        skills={"Arremesso": level},
    )
    if alone is not None:
        assert both.level >= alone.level
    if both is not None:
        assert both.level >= 0
