"""The maneuvers, their movement and the defences they leave (gurps.combat.maneuvers; canon §4.1, §4.3)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps.combat import (
    ALL_OUT_ATTACK_OPTIONS,
    MANEUVERS,
    Maneuver,
    all_out_attack,
    defences_left,
    maneuver_movement,
    maneuver_row,
)
from gurps.defence import ActiveDefence
from gurps.errors import (
    AIM_TURN_REQUIRED,
    DOUBLE_ATTACK_NEEDS_WEAPONS,
    RELOAD_ONLY_WITH_READY,
    UNKNOWN_MANEUVER,
    InvalidValue,
)
from tests.gurps.helpers import canon_section, canon_table

PROPERTY = settings(database=None, deadline=None)


def _signed(text: str) -> int:
    return int(text.replace("\u2212", "-").replace("+", ""))


def test_the_ten_maneuvers_are_the_canons_rows_in_order() -> None:
    rows = canon_table("## 4.3 Manobras")
    assert [row[0] for row in rows] == [row.name for row in MANEUVERS]
    assert len(MANEUVERS) == len(Maneuver) == 10


def test_a_one_metre_row_of_the_canon_moves_one_metre_whatever_the_move() -> None:
    for cells, row in zip(canon_table("## 4.3 Manobras"), MANEUVERS, strict=True):
        if cells[1] == "1 metro":
            for move in (0, 1, 5, 9):
                assert maneuver_movement(row.maneuver, move) == 1, row.name
        if cells[1] == "nenhum":
            assert maneuver_movement(row.maneuver, 7) == 0
        if cells[1] == "até o Deslocamento inteiro":
            assert maneuver_movement(row.maneuver, 7) == 7


@pytest.mark.parametrize(("move", "metres"), [(0, 2), (1, 2), (4, 2), (5, 2), (6, 3), (9, 4)])
def test_all_out_attack_moves_2_m_or_half_move_whichever_is_greater(move: int, metres: int) -> None:
    # §9 item 5: the text (2 m or half Move), not the p. 203 table; half Move rounds down.
    cell = next(row[1] for row in canon_table("## 4.3 Manobras") if row[0] == "Ataque Total")
    least = int(re.fullmatch(r"até (\d+) m, ou metade do Deslocamento, o que for maior", cell)[1])
    assert metres == max(least, move // 2)
    assert maneuver_movement("all_out_attack", move) == metres


def test_aim_moves_half_move_and_at_most_2_m_after_the_first_turn() -> None:
    assert maneuver_movement(Maneuver.AIM, 7, first_aim_turn=True) == 3
    assert maneuver_movement(Maneuver.AIM, 7, first_aim_turn=False) == 2
    assert maneuver_movement(Maneuver.AIM, 3, first_aim_turn=False) == 1
    with pytest.raises(InvalidValue) as caught:
        maneuver_movement(Maneuver.AIM, 7)
    assert (caught.value.field, caught.value.message) == ("first_aim_turn", AIM_TURN_REQUIRED)


def test_an_unknown_maneuver_is_refused() -> None:
    with pytest.raises(InvalidValue) as caught:
        maneuver_row("charge")
    assert (caught.value.field, caught.value.message) == ("maneuver", UNKNOWN_MANEUVER)


@PROPERTY
@given(st.integers(0, 20))
def test_all_out_attack_leaves_no_active_defence(move: int) -> None:
    left = defences_left(Maneuver.ALL_OUT_ATTACK)
    assert (left.allowed, left.rolls) == (frozenset(), 0)
    assert left.text == "Nenhuma. Só a Defesa Passiva."
    assert maneuver_movement(Maneuver.ALL_OUT_ATTACK, move) >= max(2, move // 2)


def test_what_each_maneuver_leaves() -> None:
    assert defences_left("all_out_defense").rolls == 2
    assert defences_left("aim").spoils_aim
    section = canon_section("## 4.3 Manobras")
    will = _signed(re.search(r"teste de Vontade (−\d+)", section)[1])
    assert defences_left("concentrate").concentration_will_modifier == will
    reloading = defences_left("ready", reloading_missile_weapon=True)
    assert reloading.allowed == {ActiveDefence.DODGE} and reloading.dodge_cancels_reload
    assert defences_left("ready").allowed == frozenset(ActiveDefence)
    with pytest.raises(InvalidValue) as caught:
        defences_left("aim", reloading_missile_weapon=True)
    assert caught.value.message == RELOAD_ONLY_WITH_READY


def test_the_four_all_out_attack_options() -> None:
    section = canon_section("## 4.3 Manobras")
    skill = _signed(re.search(r"um ataque com (\+\d+) no NH", section)[1])
    damage = _signed(re.search(r"NH normal e \*\*(\+\d+) de dano", section)[1])
    assert all_out_attack("determined").skill_bonus == skill
    assert all_out_attack("strong").damage_bonus == damage
    assert all_out_attack("feint").feint_first
    assert [row.letter for row in ALL_OUT_ATTACK_OPTIONS] == ["a", "b", "c", "d"]
    with pytest.raises(InvalidValue) as caught:
        all_out_attack("double")
    assert caught.value.message == DOUBLE_ATTACK_NEEDS_WEAPONS
    assert all_out_attack("double", ready_weapons=2).attacks == 2
    assert all_out_attack("double", weapon_needs_no_readying=True).attacks == 2
