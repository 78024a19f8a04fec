"""«Estats» and «Nivells d'esgotament»: every condition's lines and what the engine does with
each (xuleta.conditions)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.xuleta.conftest import TEXT
from xuleta.conditions import (
    CONDITIONS,
    EXHAUSTION_LEVELS,
    condition_keys,
    dead_from_exhaustion,
    exhaustion_after,
    exhaustion_effects,
    exhaustion_level,
    hit_is_critical,
    implied,
    incapacitated,
    max_hp,
    resists_all_damage,
    roll_edge,
    speed,
)
from xuleta.errors import XuletaError
from xuleta.rolls import ADVANTAGE, ATTACK, CHECK, DISADVANTAGE, NONE, SAVE

PROPERTY = settings(
    database=None, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
ALL = tuple(CONDITIONS)


def test_fifteen_conditions_printed_as_the_text_has_them():
    """Each condition's name, summary and lines are the text's block, in the text's order."""
    assert len(CONDITIONS) == 15
    positions = []
    for condition in CONDITIONS.values():
        block = "\n\n".join((condition.label, condition.summary, "\n".join(condition.effects)))
        assert block in TEXT, condition.key
        positions.append(TEXT.index(block))
    assert positions == sorted(positions)


def test_two_of_the_same_count_as_one(quote):
    quote("Si en tens dos d'iguals, compten com un de sol.")
    assert condition_keys(["poisoned", "Enverinat", "poisoned"]) == {"poisoned"}
    once = roll_edge(ATTACK, conditions=["poisoned"])
    twice = roll_edge(ATTACK, conditions=["poisoned", "poisoned"])
    assert once == twice


def test_unknown_condition_refused_naming_the_fifteen():
    with pytest.raises(XuletaError) as caught:
        condition_keys(["drunk"])
    assert caught.value.field == "conditions"
    assert all(c.label in caught.value.message for c in CONDITIONS.values())


def test_blinded(quote):
    quote("Falles sense tirar qualsevol prova que depengui de la vista.")
    quote("Els atacs contra tu tenen avantatge.")
    quote("Els teus atacs tenen desavantatge.")
    assert roll_edge(CHECK, conditions=["blinded"], senses=["sight"]).auto_fail
    assert not roll_edge(CHECK, conditions=["blinded"], senses=["hearing"]).auto_fail
    assert roll_edge(ATTACK, target_conditions=["blinded"]).edge == ADVANTAGE
    assert roll_edge(ATTACK, conditions=["blinded"]).edge == DISADVANTAGE


def test_charmed_changes_no_roll_of_its_own(quote):
    quote("No pots atacar qui t'ha encantat ni apuntar-li amb habilitats o màgia que facin mal.")
    # The charmer's advantage on social checks is the caller's (``advantages=``).
    for kind in (CHECK, SAVE, ATTACK):
        assert roll_edge(kind, conditions=["charmed"]).edge == NONE
    reading = roll_edge(CHECK, advantages=["Encantat: qui t'ha encantat té avantatge"])
    assert reading.edge == ADVANTAGE


def test_deafened(quote):
    quote("Falles sense tirar qualsevol prova que depengui de l'oïda.")
    assert roll_edge(CHECK, conditions=["deafened"], senses=["hearing"]).auto_fail
    assert not roll_edge(CHECK, conditions=["deafened"], senses=["sight"]).auto_fail


def test_frightened_while_the_source_is_in_sight(quote):
    quote(
        "Desavantatge en proves de característica i tirades d'atac mentre vegis el que t'espanta."
    )
    for kind in (CHECK, ATTACK):
        assert roll_edge(kind, conditions=["frightened"]).edge == DISADVANTAGE
        assert roll_edge(kind, conditions=["frightened"], sees_fear_source=False).edge == NONE
    assert roll_edge(SAVE, conditions=["frightened"]).edge == NONE


def test_grappled_speed_zero(quote):
    quote("La teva velocitat és 0 i res no la pot pujar.")
    assert speed(9, ["grappled"]) == 0
    assert roll_edge(ATTACK, conditions=["grappled"]).edge == NONE


def test_incapacitated_can_still_move(quote):
    quote("No pots fer accions ni reaccions.")
    quote("Sí que et pots moure, si cap altre estat no ho impedeix.")
    assert incapacitated(["incapacitated"])
    assert speed(9, ["incapacitated"]) == 9


def test_invisible(quote):
    quote("Els atacs contra tu tenen desavantatge.")
    quote("Els teus atacs tenen avantatge.")
    assert roll_edge(ATTACK, conditions=["invisible"]).edge == ADVANTAGE
    assert roll_edge(ATTACK, target_conditions=["invisible"]).edge == DISADVANTAGE
    # Both invisible: the advantage and the disadvantage cancel.
    assert roll_edge(ATTACK, conditions=["invisible"], target_conditions=["invisible"]).edge == NONE


@pytest.mark.parametrize("key", ["paralyzed", "petrified", "stunned", "unconscious"])
def test_fail_str_and_dex_saves_are_incapacitated_and_attacked_with_advantage(quote, key):
    quote("Falles sense tirar les salvacions de Força i Destresa.")
    quote("Els atacs contra tu tenen avantatge.")
    for ability in ("str", "dex"):
        reading = roll_edge(SAVE, ability=ability, conditions=[key])
        assert reading.auto_fail and reading.failures
    for ability in ("con", "int", "wis", "cha"):
        assert not roll_edge(SAVE, ability=ability, conditions=[key]).auto_fail
    assert incapacitated([key])
    assert speed(9, [key]) == 0
    # Within 1,5 m: an unconscious target is also prone (advantage either way).
    assert roll_edge(ATTACK, target_conditions=[key], within_1_5_m=True).edge == ADVANTAGE


@pytest.mark.parametrize("key", ["paralyzed", "unconscious"])
def test_a_hit_from_1_5_m_is_a_critical(quote, key):
    quote("Si et toquen des d'1,5 m o menys, el cop és crític.")
    assert hit_is_critical([key], within_1_5_m=True)
    assert not hit_is_critical([key], within_1_5_m=False)
    assert not hit_is_critical(["stunned"], within_1_5_m=True)


def test_paralyzed(quote):
    quote("No et pots moure ni parlar.")
    quote("Estàs incapacitat.")
    assert "incapacitated" in implied(["paralyzed"])


def test_petrified_resists_all_damage(quote):
    quote("Estàs incapacitat, no et mous, no parles i no t'assabentes de res.")
    quote("Tens resistència a tot el dany.")
    assert resists_all_damage(["petrified"])
    assert not resists_all_damage(["paralyzed"])


def test_poisoned(quote):
    quote("Desavantatge en tirades d'atac i proves de característica.")
    assert roll_edge(ATTACK, conditions=["poisoned"]).edge == DISADVANTAGE
    assert roll_edge(CHECK, conditions=["poisoned"]).edge == DISADVANTAGE
    assert roll_edge(SAVE, ability="con", conditions=["poisoned"]).edge == NONE


def test_prone(quote):
    quote("Els teus atacs tenen desavantatge.")
    quote("Qui t'ataca des d'1,5 m o menys té avantatge; des de més lluny, desavantatge.")
    assert roll_edge(ATTACK, conditions=["prone"]).edge == DISADVANTAGE
    assert roll_edge(ATTACK, target_conditions=["prone"], within_1_5_m=True).edge == ADVANTAGE
    assert roll_edge(ATTACK, target_conditions=["prone"], within_1_5_m=False).edge == DISADVANTAGE
    # The distance unsaid: the line is left out (reading prone_attack_distance_unsaid).
    assert roll_edge(ATTACK, target_conditions=["prone"]).edge == NONE


def test_restrained(quote):
    quote("La teva velocitat és 0 i res no la pot pujar.")
    quote("Desavantatge en les salvacions de Destresa.")
    assert speed(9, ["restrained"]) == 0
    assert roll_edge(ATTACK, target_conditions=["restrained"]).edge == ADVANTAGE
    assert roll_edge(ATTACK, conditions=["restrained"]).edge == DISADVANTAGE
    assert roll_edge(SAVE, ability="dex", conditions=["restrained"]).edge == DISADVANTAGE
    assert roll_edge(SAVE, ability="str", conditions=["restrained"]).edge == NONE


def test_unconscious_falls_prone(quote):
    quote("Deixes anar el que tens a les mans i caus tombat.")
    assert {"prone", "incapacitated"} <= implied(["unconscious"])
    # Prone from farther than 1,5 m cancels the advantage against the unconscious.
    assert roll_edge(ATTACK, target_conditions=["unconscious"], within_1_5_m=False).edge == NONE


def test_exhaustion_table_is_the_texts():
    lines = TEXT.splitlines()
    start = lines.index("Nivells d'esgotament") + 2
    printed = dict(line.split("\t") for line in lines[start : start + 6])
    assert {str(k): v for k, v in EXHAUSTION_LEVELS.items()} == printed


@PROPERTY
@given(st.integers(min_value=0, max_value=6))
def test_exhaustion_is_cumulative(quote, level):
    quote("a cada nivell pateixes el seu efecte i els de tots els anteriors.")
    assert exhaustion_effects(level) == tuple(EXHAUSTION_LEVELS[n] for n in range(1, level + 1))
    check = roll_edge(CHECK, exhaustion=level).edge
    attack = roll_edge(ATTACK, exhaustion=level).edge
    save = roll_edge(SAVE, ability="wis", exhaustion=level).edge
    assert check == (DISADVANTAGE if level >= 1 else NONE)
    assert attack == save == (DISADVANTAGE if level >= 3 else NONE)
    expected_speed = 0 if level >= 5 else (4.5 if level >= 2 else 9)
    assert speed(9, exhaustion=level) == expected_speed
    assert max_hp(13, level) == (6 if level >= 4 else 13)
    assert dead_from_exhaustion(level) == (level == 6)


def test_exhaustion_goes_up_by_levels_and_stops_at_six(quote):
    quote("Si alguna cosa et dona esgotament, puges un nivell (o els que digui).")
    assert exhaustion_after(0) == 1
    assert exhaustion_after(2, 3) == 5
    assert exhaustion_after(5, 4) == 6
    with pytest.raises(XuletaError) as caught:
        exhaustion_level(7)
    assert caught.value.field == "exhaustion"


def test_exhaustion_and_a_condition_do_not_stack_disadvantage():
    reading = roll_edge(ATTACK, conditions=["poisoned", "prone"], exhaustion=3)
    assert reading.edge == DISADVANTAGE
    assert len(reading.disadvantages) == 3
    # One advantage cancels any number of disadvantages.
    reading = roll_edge(ATTACK, conditions=["poisoned"], exhaustion=3, advantages=["Amagar-se"])
    assert reading.edge == NONE


@PROPERTY
@given(
    st.sets(st.sampled_from(ALL)),
    st.sets(st.sampled_from(ALL)),
    st.integers(min_value=0, max_value=6),
    st.sampled_from([CHECK, SAVE, ATTACK]),
)
def test_the_edge_is_always_edge_of_its_reasons(mine, theirs, level, kind):
    reading = roll_edge(
        kind, ability="dex", conditions=mine, exhaustion=level, target_conditions=theirs
    )
    if reading.advantages and reading.disadvantages:
        assert reading.edge == NONE
    elif reading.advantages:
        assert reading.edge == ADVANTAGE
    elif reading.disadvantages:
        assert reading.edge == DISADVANTAGE
    else:
        assert reading.edge == NONE
    assert set(reading.reasons) == {
        *reading.failures,
        *reading.advantages,
        *reading.disadvantages,
    }
