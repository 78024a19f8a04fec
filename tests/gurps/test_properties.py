"""Properties that must hold for every input, not only the canon's examples."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from gurps.attributes import basic_speed, move
from gurps.checks import (
    Outcome,
    RollKind,
    critical_failure_probability,
    critical_success_probability,
    success_outcome,
    success_probability,
)
from gurps.damage import DamageType, injury
from gurps.dice import DiceExpression, parse_dice
from gurps.encumbrance import encumbrance

# No example database: the engine's tests leave nothing behind in the work tree.
PROPERTY = settings(database=None, deadline=None)

levels = st.integers(min_value=-30, max_value=40)
rolls = st.integers(min_value=3, max_value=18)
attributes = st.integers(min_value=1, max_value=30)
weights = st.fractions(min_value=0, max_value=600, max_denominator=1000)


@PROPERTY
@given(levels)
def test_success_probability_never_falls_as_the_level_rises(level: int) -> None:
    assert success_probability(level) <= success_probability(level + 1)


@PROPERTY
@given(rolls, levels, st.sampled_from(list(RollKind)))
def test_a_critical_success_is_always_a_success(roll: int, level: int, kind: RollKind) -> None:
    outcome = success_outcome(roll, level, kind)
    if outcome is Outcome.CRITICAL_SUCCESS:
        assert outcome.is_success
    if outcome is Outcome.CRITICAL_FAILURE:
        assert not outcome.is_success


@PROPERTY
@given(levels)
def test_a_defence_roll_of_3_or_4_passes_and_17_or_18_fails_at_any_level(level: int) -> None:
    for roll in (3, 4):
        assert success_outcome(roll, level, RollKind.DEFENCE).is_success
    for roll in (17, 18):
        assert not success_outcome(roll, level, RollKind.DEFENCE).is_success


@PROPERTY
@given(levels)
def test_the_outcome_classes_add_up_to_certainty(level: int) -> None:
    p_success = success_probability(level)
    assert 0 <= critical_success_probability(level) <= p_success <= 1
    p_failure = sum(
        Fraction(1, 216)
        for a in range(1, 7)
        for b in range(1, 7)
        for c in range(1, 7)
        if not success_outcome(a + b + c, level).is_success
    )
    assert p_success + p_failure == 1
    assert critical_failure_probability(level) <= p_failure


@PROPERTY
@given(attributes, attributes, attributes, weights, weights)
def test_move_never_rises_as_the_load_grows(
    st_: int, dx: int, ht: int, lighter: Fraction, heavier: Fraction
) -> None:
    lighter, heavier = sorted((lighter, heavier))
    speed = basic_speed(dx, ht)
    light, heavy = encumbrance(st_, lighter), encumbrance(st_, heavier)
    assert move(speed, heavy.level) <= move(speed, light.level)


@PROPERTY
@given(attributes, weights, weights)
def test_the_carga_level_never_falls_as_the_load_grows(
    st_: int, lighter: Fraction, heavier: Fraction
) -> None:
    lighter, heavier = sorted((lighter, heavier))

    # None (over 10×ST) counts as heavier than any level.
    def rank(level: int | None) -> int:
        return 5 if level is None else level

    assert rank(encumbrance(st_, lighter).level) <= rank(encumbrance(st_, heavier).level)


@PROPERTY
@given(st.integers(-10, 60), st.integers(0, 30), st.sampled_from(list(DamageType)))
def test_injury_is_never_negative(basic: int, dr: int, damage_type: DamageType) -> None:
    assert injury(basic, dr, damage_type) >= 0


@PROPERTY
@given(st.integers(-10, 60), st.integers(0, 60))
def test_crushing_that_does_not_beat_the_dr_does_no_injury(basic: int, dr: int) -> None:
    if basic <= dr:
        assert injury(basic, dr, DamageType.CRUSHING) == 0


dice = st.builds(DiceExpression, st.integers(0, 30), st.integers(-40, 40))


@PROPERTY
@given(dice)
def test_a_dice_expression_survives_being_written_and_read(expression: DiceExpression) -> None:
    assert parse_dice(str(expression)) == expression
    assert parse_dice(expression.display) == expression


@PROPERTY
@given(dice, st.integers())
def test_a_roll_stays_within_its_minimum_and_maximum(expression: DiceExpression, seed: int) -> None:
    faces, total = expression.roll(random.Random(seed))
    assert len(faces) == expression.count
    assert all(1 <= face <= 6 for face in faces)
    assert expression.minimum <= total <= expression.maximum
