"""Which weapon falls (gurps.combat.dropped_weapons; canon §4.8, head table 14)."""

from __future__ import annotations

import pytest

from tests.gurps.helpers import ScriptedSource


def test_the_only_weapon_in_hand_falls_without_a_die():
    from gurps.combat import draw_dropped_weapon

    assert draw_dropped_weapon(ScriptedSource([]), 1).index == 0
    assert draw_dropped_weapon(ScriptedSource([]), 0).index is None


@pytest.mark.parametrize(
    ("in_hand", "die", "index"),
    [(2, 1, 0), (2, 3, 0), (2, 4, 1), (2, 6, 1), (3, 2, 0), (3, 3, 1), (3, 6, 2)],
)
def test_with_two_weapons_a_fair_draw_picks_which_falls(in_hand, die, index):
    from gurps.combat import draw_dropped_weapon

    drawn = draw_dropped_weapon(ScriptedSource([die]), in_hand)
    assert (drawn.index, drawn.die) == (index, die)


def test_more_than_three_weapons_in_hand_is_the_mestres_draw():
    from gurps.combat import draw_dropped_weapon
    from gurps.errors import OutsideCanon

    with pytest.raises(OutsideCanon):
        draw_dropped_weapon(ScriptedSource([]), 4)
