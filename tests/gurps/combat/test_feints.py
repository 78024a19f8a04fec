"""The feint (gurps.combat.feints; canon §4.3)."""

from __future__ import annotations

import pytest

from gurps.combat import feint
from gurps.errors import NoRollAtThreeOrLess
from tests.gurps.helpers import ScriptedSource


def test_a_won_feint_subtracts_the_feinters_margin() -> None:
    result = feint(ScriptedSource([3, 3, 3, 4, 4, 4]), 14, 12)
    assert (result.winner, result.defence_penalty) == ("feinter", 5)


def test_a_feint_won_while_failing_subtracts_nothing() -> None:
    result = feint(ScriptedSource([5, 5, 4, 6, 6, 5]), 12, 10)  # 14 vs 12, 17 vs 10
    assert result.winner == "feinter" and result.defence_penalty == 0


def test_a_lost_feint_subtracts_nothing() -> None:
    result = feint(ScriptedSource([6, 5, 5, 1, 2, 3]), 12, 12)
    assert (result.winner, result.defence_penalty) == ("defender", 0)


def test_a_feint_in_the_dark_or_unseen_is_worthless_and_rolls_nothing() -> None:
    for kwargs in ({"in_darkness": True}, {"defender_sees_you": False}):
        result = feint(ScriptedSource([]), 14, 10, **kwargs)
        assert result.worthless and result.defence_penalty == 0 and result.feinter is None


def test_a_feint_at_level_3_is_refused_before_any_die() -> None:
    with pytest.raises(NoRollAtThreeOrLess):
        feint(ScriptedSource([]), 3, 10)
