"""Surprise (gurps.combat.surprise; canon §5e)."""

from __future__ import annotations

import re

import pytest

from gurps.combat import acts_this_turn, total_surprise_roll
from gurps.errors import TURN_TOO_LOW, InvalidValue
from tests.gurps.helpers import ScriptedSource, canon_section


def _signed(text: str) -> int:
    return int(text.replace("\u2212", "-").replace("+", ""))


def test_partial_surprise_loses_the_first_turn_and_total_needs_iq() -> None:
    assert acts_this_turn("partial", 1) is False
    assert acts_this_turn("partial", 2) is True
    assert acts_this_turn("total", 3) is None
    with pytest.raises(InvalidValue) as caught:
        acts_this_turn("partial", 0)
    assert caught.value.message == TURN_TOO_LOW


def test_total_surprise_rolls_iq_plus_6_with_combat_reflexes() -> None:
    bonus = _signed(re.search(r"testa a \*\*(\+\d+)\*\*", canon_section("# 5e. Surpresa"))[1])
    check = total_surprise_roll(ScriptedSource([6, 5, 4]), 9, combat_reflexes=True)
    assert check.roll.effective_level == 9 + bonus
    assert check.acts and check.has_active_defence
    stuck = total_surprise_roll(ScriptedSource([6, 5, 4]), 9)
    assert not stuck.acts and not stuck.has_active_defence
