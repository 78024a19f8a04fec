"""«Modificador segons la puntuació», «Bonificació per competència segons el nivell»,
«Habilitats i la seva característica», «CD habituals» (xuleta.abilities)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.xuleta.conftest import TEXT
from xuleta.abilities import (
    ABILITIES,
    ABILITY_LABELS,
    DIFFICULTY_CLASSES,
    MODIFIER_TABLE,
    PROFICIENCY_TABLE,
    SKILLS,
    ability_key,
    ability_modifier,
    proficiency_bonus,
    skill_ability,
    skill_name,
)
from xuleta.errors import XuletaError

# The ``quote`` fixture is a pure check: sharing it between generated inputs is harmless.
PROPERTY = settings(
    database=None, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def printed_rows(heading: str) -> list[list[str]]:
    """The rows of the text's tab-separated table under ``heading`` (header line skipped)."""
    lines = TEXT.splitlines()
    start = lines.index(heading) + 2
    rows = []
    for line in lines[start:]:
        if "\t" not in line:
            break
        rows.append(line.split("\t"))
    return rows


def signed(text: str) -> int:
    return int(text.replace("−", "-").replace("+", ""))


def test_modifier_table_is_the_texts_row_by_row():
    """The engine's table is the text's, every row."""
    rows = printed_rows("Modificador segons la puntuació")
    engine = [
        (str(low) if low == high else f"{low}–{high}", modifier)
        for low, high, modifier in MODIFIER_TABLE
    ]
    assert engine == [(score, signed(mod)) for score, mod in rows]


@PROPERTY
@given(st.integers(min_value=1, max_value=30))
def test_modifier_is_score_minus_ten_halved_rounded_down(quote, score):
    quote("El modificador és (puntuació − 10) ÷ 2, arrodonint cap avall.")
    assert ability_modifier(score) == (score - 10) // 2


def test_modifier_examples_at_the_ends():
    assert ability_modifier(1) == -5
    assert ability_modifier(9) == -1
    assert ability_modifier(10) == 0
    assert ability_modifier(30) == 10


@pytest.mark.parametrize("score", [0, 31, -3, True, 10.5, "12"])
def test_a_score_outside_the_table_is_refused_naming_the_ability(score):
    with pytest.raises(XuletaError) as caught:
        ability_modifier(score, "dex")
    assert caught.value.field == "abilities.dex"
    assert "Destresa" in caught.value.message


def test_proficiency_table_is_the_texts_row_by_row():
    rows = printed_rows("Bonificació per competència segons el nivell")
    assert [(f"{low}–{high}", bonus) for low, high, bonus in PROFICIENCY_TABLE] == [
        (level, signed(bonus)) for level, bonus in rows
    ]


@PROPERTY
@given(st.integers(min_value=1, max_value=20))
def test_proficiency_bonus_by_level(quote, level):
    quote("Puja amb el nivell.")
    # The printed table's rows are four levels each, from +2: 2 + (level − 1) // 4.
    assert proficiency_bonus(level) == 2 + (level - 1) // 4


@pytest.mark.parametrize("level", [0, 21, -1, False, 3.0])
def test_a_level_outside_1_to_20_is_refused(level):
    with pytest.raises(XuletaError) as caught:
        proficiency_bonus(level)
    assert caught.value.field == "level"


def test_skills_and_their_abilities_are_the_texts(quote):
    quote("Cada habilitat va amb una característica.")
    rows = printed_rows("Habilitats i la seva característica")
    assert [(skill, ABILITY_LABELS[ability]) for skill, ability in SKILLS.items()] == [
        tuple(row) for row in rows
    ]
    assert len(SKILLS) == 18


def test_skill_names_are_read_in_any_case_and_refused_when_unknown():
    assert skill_name("  joc  DE mans ") == "Joc de mans"
    assert skill_ability("percepció") == "wis"
    with pytest.raises(XuletaError) as caught:
        skill_name("Stealth")
    assert caught.value.field == "skill"
    assert "Sigil" in caught.value.message


def test_skill_names_ignore_accents_and_suggest_the_nearest():
    """The MCP schema's promise: «maiúsculas e acentos não importam»."""
    assert skill_name("Percepcio") == "Percepció"
    assert skill_name("PERCEPCIÓ") == "Percepció"
    with pytest.raises(XuletaError) as caught:
        skill_name("Percepsió")
    assert caught.value.field == "skill"
    assert "Você quis dizer Percepció ou Persuasió?" in caught.value.message


def test_ability_keys_and_labels():
    assert ABILITIES == ("str", "dex", "con", "int", "wis", "cha")
    assert ability_key("Intel·ligència") == "int"
    assert ability_key("força") == "str"
    with pytest.raises(XuletaError) as caught:
        ability_key("luck")
    assert caught.value.field == "ability"
    assert "cha (Carisma)" in caught.value.message


def test_usual_dcs_are_the_texts():
    rows = printed_rows("CD habituals")
    assert [(name, dc) for name, dc in DIFFICULTY_CLASSES] == [(name, int(dc)) for name, dc in rows]
