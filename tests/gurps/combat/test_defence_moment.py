"""The defence chosen at the moment of the attack (canon §4.1, §4.6, §4.10 rows 3–5):
``roll_attack`` stops after the critical check, and ``resolve_attack(..., rolled=)`` goes on
from there with the defence the defender chose then — no die rolled twice."""

from __future__ import annotations

from fractions import Fraction

import pytest

from gurps.checks import Outcome, SuccessRoll
from gurps.combat import (
    AttackInput,
    DefenceChoice,
    DefenceInput,
    StepNumber,
    TargetInput,
    attack_hit_awaiting_defence,
    resolve_attack,
    roll_attack,
)
from gurps.defence import defence_chance
from gurps.errors import ATTACK_ROLL_NOT_AWAITING_DEFENCE, ATTACK_ROLL_OTHER_LEVEL, InvalidValue
from tests.gurps.helpers import ScriptedSource


def _attack() -> AttackInput:
    return AttackInput(name="Murador", skill=12, damage="1d+2", damage_type="cut")


def _defence(*choices, maneuver="aim") -> DefenceInput:
    chosen = tuple(DefenceChoice(kind, level) for kind, level in choices)
    return DefenceInput(name="Rastreador", maneuver=maneuver, passive_defense=1, choices=chosen)


def _target() -> TargetInput:
    return TargetInput(ht=10, hp=12, dr=0, kind="player_character")


def test_a_plain_hit_stops_before_the_defence_roll_and_awaits_the_defender() -> None:
    source = ScriptedSource([3, 3, 4])  # 10 against 12: a hit, no critical
    rolled = roll_attack(source, _attack(), _defence(), _target())
    assert rolled.roll.total == 10 and rolled.awaits_defence
    assert {s.number for s in rolled.steps} == {StepNumber.ATTACK_ROLL, StepNumber.CRITICAL_CHECK}


@pytest.mark.parametrize("faces", [[6, 6, 5], [1, 1, 1]])  # 17 misses; 3 is a critical hit
def test_a_miss_or_a_critical_hit_leaves_nothing_to_choose(faces) -> None:
    source = ScriptedSource(faces + [3, 3, 3] * 4)
    rolled = roll_attack(source, _attack(), _defence(), _target())
    assert not rolled.awaits_defence


def test_going_on_with_the_chosen_parry_rolls_the_defence_and_not_the_attack_again() -> None:
    rolled = roll_attack(ScriptedSource([3, 3, 4]), _attack(), _defence(), _target())
    later = ScriptedSource([2, 2, 3])  # 7 against PD 1 + Aparar 6 = 7: parried
    result = resolve_attack(later, _attack(), _defence(("parry", 6)), _target(), rolled=rolled)
    assert result.attack_roll.total == 10 and result.defended and not result.hit
    assert result.defence_rolls[0].effective_level == 7
    assert result.aim_spoiled  # §4.3: defending spoils the aim


def test_not_defending_keeps_the_aim_and_rolls_against_the_passive_defence_alone() -> None:
    rolled = roll_attack(ScriptedSource([3, 3, 4]), _attack(), _defence(), _target())
    later = ScriptedSource([5, 5, 5, 1])  # 15 against PD 1: hit; damage 1 + 2 = 3 cut → 4
    result = resolve_attack(later, _attack(), _defence(), _target(), rolled=rolled)
    assert result.hit and not result.aim_spoiled and result.defences_used == ()
    assert result.defence_rolls[0].effective_level == 1
    assert result.hp_lost == 4


def test_a_kept_roll_goes_on_with_its_steps_already_in_the_log() -> None:
    kept = SuccessRoll((3, 3, 4), 10, 12, Outcome.SUCCESS, 2)
    result = resolve_attack(
        ScriptedSource([2, 2, 3]),
        _attack(),
        _defence(("dodge", 6)),
        _target(),
        rolled=attack_hit_awaiting_defence(kept),
    )
    assert result.steps[0].number == StepNumber.DEFENCE_ROLL and result.defended


def test_a_kept_roll_that_was_not_a_plain_hit_is_refused() -> None:
    kept = SuccessRoll((1, 1, 1), 3, 12, Outcome.CRITICAL_SUCCESS, 9)
    with pytest.raises(InvalidValue) as raised:
        attack_hit_awaiting_defence(kept)
    assert raised.value.message == ATTACK_ROLL_NOT_AWAITING_DEFENCE


def test_a_kept_roll_against_another_level_is_refused() -> None:
    kept = attack_hit_awaiting_defence(SuccessRoll((3, 3, 4), 10, 14, Outcome.SUCCESS, 4))
    with pytest.raises(InvalidValue) as raised:
        resolve_attack(ScriptedSource([]), _attack(), _defence(), _target(), rolled=kept)
    assert raised.value.message == ATTACK_ROLL_OTHER_LEVEL


@pytest.mark.parametrize(
    ("total", "passes"),
    [(10, 27 + 25 + 21 + 15 + 10 + 6 + 3 + 1), (0, 1 + 3), (-5, 4), (16, 216 - 4), (30, 212)],
)
def test_a_defence_rolls_chance_counts_3_and_4_as_always_and_17_and_18_as_never(
    total, passes
) -> None:
    assert defence_chance(total) == Fraction(passes, 216)
