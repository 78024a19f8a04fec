"""Aiming (gurps.combat.aim; canon §4.3, §4.11)."""

from __future__ import annotations

import pytest

from gurps.combat import AimState
from gurps.errors import NEGATIVE_AIM_TURNS, InvalidValue


def test_aiming_adds_accuracy_then_one_a_turn_up_to_three_and_defending_loses_it() -> None:
    aim = AimState()
    assert aim.bonus(3, 12) == -4  # unaimed
    bonuses = []
    for _ in range(5):
        aim = aim.aim()
        bonuses.append(aim.bonus(3, 12))
    assert bonuses == [3, 4, 5, 6, 6]
    assert aim.bonus(3, 12, braced=True) == 7
    assert aim.defend().bonus(3, 12, braced=True) == -4
    assert AimState().aim().bonus(13, 8) == 8  # accuracy never above the skill
    with pytest.raises(InvalidValue) as caught:
        AimState(-1)
    assert caught.value.message == NEGATIVE_AIM_TURNS
