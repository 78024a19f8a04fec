"""``xuleta.derived.derive``: the numbers of the rules API's ``derived`` and the sheet, with
their formulas, under exhaustion and conditions."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xuleta.abilities import ABILITIES, SKILLS, proficiency_bonus
from xuleta.derived import DEFAULT_SPEED_M, derive
from xuleta.errors import XuletaError
from xuleta.readings import all_readings

PROPERTY = settings(
    database=None, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
ISSUE = {"str": 15, "dex": 12, "con": 14, "int": 8, "wis": 13, "cha": 10}


def test_the_issues_example():
    d = derive(ISSUE, 3, skills=["Percepció", "Atletisme"], saves=["str", "con"])
    assert d.modifiers == {"str": 2, "dex": 1, "con": 2, "int": -1, "wis": 1, "cha": 0}
    assert d.proficiency_bonus == 2
    assert d.skills["Percepció"] == 3 and d.skills["Atletisme"] == 4
    assert d.skills["Sigil"] == 1 and d.skills["Arcà"] == -1
    assert len(d.skills) == 18
    assert d.saves == {"str": 4, "dex": 1, "con": 4, "int": -1, "wis": 1, "cha": 0}
    assert d.passive_perception == 13
    assert d.speed == DEFAULT_SPEED_M == 9
    assert d.edges == {"check": "none", "save": "none", "attack": "none"}
    assert d.auto_fail == ()
    assert d.explanations["modifiers.str"] == "(15 − 10) ÷ 2, arrodonint cap avall = +2"
    assert d.explanations["skills.Atletisme"] == "mod. de Força +2 + competència +2 = +4"


@PROPERTY
@given(
    st.fixed_dictionaries({a: st.integers(min_value=1, max_value=30) for a in ABILITIES}),
    st.integers(min_value=1, max_value=20),
    st.sets(st.sampled_from(tuple(SKILLS))),
    st.sets(st.sampled_from(ABILITIES)),
)
def test_derive_agrees_with_the_tables(abilities, level, skills, saves):
    d = derive(abilities, level, skills=skills, saves=saves)
    prof = proficiency_bonus(level)
    for a in ABILITIES:
        assert d.modifiers[a] == (abilities[a] - 10) // 2
        assert d.saves[a] == d.modifiers[a] + (prof if a in saves else 0)
    for skill, ability in SKILLS.items():
        assert d.skills[skill] == d.modifiers[ability] + (prof if skill in skills else 0)
    assert d.passive_perception == 10 + d.skills["Percepció"]


def test_exhaustion_and_conditions_set_the_edges_and_speed(quote):
    quote(
        "Desavantatge en proves de característica i tirades d'atac mentre vegis el que t'espanta."
    )
    d = derive(ISSUE, 3, exhaustion=3, conditions=["restrained"])
    assert d.edges == {"check": "disadvantage", "save": "disadvantage", "attack": "disadvantage"}
    assert d.speed == 0
    assert d.save_edges["dex"] == "disadvantage"
    assert d.attacked_edge == "advantage"
    # Percepció passiva under a check's disadvantage: − 5.
    assert d.passive_perception == 10 + 1 - 5
    assert any("Esgotament 1" in r for r in d.reasons["check"])


def test_a_save_named_by_its_label_explains_its_proficiency():
    d = derive(ISSUE, 3, saves=["Força"])
    assert d.saves["str"] == 4
    assert d.explanations["saves.str"] == "mod. de Força +2 + competència +2 = +4"


def test_stunned_fails_str_and_dex_saves():
    d = derive(ISSUE, 1, conditions=["stunned"])
    assert d.auto_fail == ("str", "dex")
    assert d.speed == 0


def test_exhaustion_two_halves_the_sheets_speed():
    d = derive(ISSUE, 1, exhaustion=2, speed_m=7.5)
    assert d.speed == 3.75
    assert "Velocitat a la meitat" in d.explanations["speed"]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"skills": ["Stealth"]}, "skill"),
        ({"saves": ["luck"]}, "ability"),
        ({"conditions": ["drunk"]}, "conditions"),
        ({"exhaustion": 7}, "exhaustion"),
    ],
)
def test_unknown_inputs_name_their_field(kwargs, field):
    with pytest.raises(XuletaError) as caught:
        derive(ISSUE, 3, **kwargs)
    assert caught.value.field == field


def test_readings_have_unique_keys_and_known_sections():
    from xuleta.text import SECTIONS

    readings = all_readings()
    assert len({r.key for r in readings}) == len(readings)
    for reading in readings:
        assert reading.section in SECTIONS
        assert reading.kind in ("leitura", "mestre")
