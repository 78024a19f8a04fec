"""The last GURPS rules that lived outside ``gurps/`` (issue 21, item 8), each now in the
engine: how armour and shield make PD and DR (§4.6), an unknown Carga in a fight's fatigue
(§6.1), the feint's round, level and sight (§4.3), surprise (§5e), a bestiary weapon's NH."""

from __future__ import annotations

import pytest

from gurps import combat as engine
from gurps.armour import ArmourPiece, ShieldPiece, protection
from gurps.derived import Shield
from gurps.errors import InvalidValue
from gurps.fatigue import HEAVIEST_ENCUMBRANCE, combat_fatigue, fight_encumbrance_level

# --- armour and shield (§4.6) -------------------------------------------------------------------


def test_nothing_carried_protects_nothing():
    found = protection([], [])
    assert (found.armour_pd, found.armour_dr, found.shield) == (0, 0, None)


def test_the_canon_example_mail_and_shield():
    """§4.6: mail of PD 3 and a shield of PD 2, Shield 14: the shield's PD and skill go to
    ``derive``, which adds the two PDs."""
    found = protection([ArmourPiece(3, 3)], [ShieldPiece(2, 14)])
    assert (found.armour_pd, found.armour_dr) == (3, 3)
    assert found.shield == Shield(skill=14, pd=2)


def test_a_second_armour_does_not_add_to_the_first():
    found = protection([ArmourPiece(2, 1), ArmourPiece(3, 3), ArmourPiece(0, 4)], [])
    assert (found.armour_pd, found.armour_dr) == (3, 4)


def test_of_several_shields_the_highest_pd_counts_and_the_first_on_a_tie():
    found = protection([], [ShieldPiece(1, 12), ShieldPiece(3, None), ShieldPiece(3, 15)])
    assert found.shield == Shield(skill=None, pd=3)


# --- Carga in a fight's fatigue (§6.1, §2.2) ----------------------------------------------------


@pytest.mark.parametrize("level", [0, 1, 2, 3, 4])
def test_a_carga_level_counts_as_it_is(level):
    assert fight_encumbrance_level(level) == level


def test_a_load_above_ten_times_st_counts_as_muito_pesada():
    assert fight_encumbrance_level(None) == HEAVIEST_ENCUMBRANCE == 4
    assert combat_fatigue(11, fight_encumbrance_level(None)) == 5  # §6.1: Muito Pesada, 5


# --- the feint (§4.3) ---------------------------------------------------------------------------


def test_a_feint_counts_in_its_round_and_the_next_only():
    assert engine.feint_penalty_now(3, feint_round=2, round_=2) == 3
    assert engine.feint_penalty_now(3, feint_round=2, round_=3) == 3
    assert engine.feint_penalty_now(3, feint_round=2, round_=4) == 0


def test_the_feint_is_contested_with_the_best_weapon_in_hand_or_dx():
    assert engine.feint_defender_level([12, 14], 11) == 14
    assert engine.feint_defender_level([], 11) == 11
    assert engine.feint_defender_level([9], 11) == 11


@pytest.mark.parametrize(
    "told, fighting, blind, surprised, sees",
    [
        (True, True, False, False, True),
        (False, True, False, False, False),
        (True, False, False, False, False),
        (True, True, True, False, False),
        (True, True, False, True, False),
    ],
)
def test_a_feint_against_who_cannot_see_is_worth_nothing(told, fighting, blind, surprised, sees):
    got = engine.feint_target_sees(
        told_sees=told, fighting=fighting, blind_both_eyes=blind, still_surprised=surprised
    )
    assert got is sees


# --- surprise (§5e) -----------------------------------------------------------------------------


def test_only_total_surprise_keeps_a_combatant_from_acting_at_the_start():
    assert engine.acting_from_the_start("") is True
    assert engine.acting_from_the_start("partial") is True
    assert engine.acting_from_the_start("total") is False
    with pytest.raises(InvalidValue):
        engine.acting_from_the_start("meia")


def test_total_surprise_holds_until_the_iq_roll_passes():
    assert engine.still_surprised("total", acting=False) is True
    assert engine.still_surprised("total", acting=True) is False
    assert engine.still_surprised("partial", acting=False) is False
    assert engine.still_surprised("", acting=False) is False


def test_partial_surprise_loses_the_first_turn_only():
    assert engine.loses_the_turn("partial", 1) is True
    assert engine.loses_the_turn("partial", 2) is False
    assert engine.loses_the_turn("partial", 0) is False  # before the first round
    assert engine.loses_the_turn("total", 1) is False
    assert engine.loses_the_turn("", 1) is False


# --- a bestiary weapon's NH (§4.4) --------------------------------------------------------------


def test_a_bestiary_weapon_without_its_nh_attacks_at_dx():
    assert engine.creature_weapon_skill(None, 12) == 12
    assert engine.creature_weapon_skill(14, 12) == 14
    assert engine.creature_weapon_skill(0, 12) == 0
