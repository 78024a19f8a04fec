"""The conditions a body is in, named as the canon names them (§5.2–5.4, §5.4.1)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gurps.conditions import DEAD, FAINTING, STAGGERED, STUNNED, UNCONSCIOUS, conditions_now
from tests.gurps.helpers import canon_table


def test_the_names_are_the_canons() -> None:
    ladder = {row[0]: row[1] for row in canon_table("## 5.4 Os limiares de PV")}
    assert "cambaleando" in ladder["3, 2 ou 1"]
    assert "desmaia" in ladder["0 ou menos"]
    assert "Morte automática" in ladder["−5 × HT"]


def test_a_player_character_is_dead_at_minus_5_ht_and_only_dead() -> None:
    assert conditions_now(12, -60) == (DEAD,)
    assert conditions_now(12, -59) == (STAGGERED, FAINTING)
    assert conditions_now(12, 3, stunned=True) == (STAGGERED, STUNNED)
    assert conditions_now(12, 4) == ()


def test_a_named_npc_dies_at_minus_ht_and_a_creature_is_out_at_0() -> None:
    assert conditions_now(12, -12, kind="named_npc") == (DEAD,)
    assert conditions_now(12, -11, kind="named_npc") == (STAGGERED, FAINTING)
    # A bestiary creature at 0 is out, dead or fled as its species says: not dead by HP.
    assert conditions_now(9, 0, kind="creature") == (STAGGERED,)


def test_a_failed_death_check_is_death_whatever_the_hp() -> None:
    assert conditions_now(12, -15, died=True) == (DEAD,)


def test_unconscious_replaces_the_turn_roll_and_the_stun() -> None:
    assert conditions_now(12, -2, unconscious=True, stunned=True) == (UNCONSCIOUS, STAGGERED)


@given(ht=st.integers(1, 20), hp=st.integers(-120, 20))
def test_dead_is_never_said_with_anything_else(ht: int, hp: int) -> None:
    found = conditions_now(ht, hp)
    assert DEAD not in found or found == (DEAD,)
    assert (STAGGERED in found or DEAD in found) == (hp <= 3)
