from __future__ import annotations

from fractions import Fraction

import pytest

from gurps.checks import (
    ODDS_TABLE,
    OUTCOME_NAMES,
    Outcome,
    RollKind,
    SuccessRoll,
    critical_failure_probability,
    critical_success_probability,
    effective_level,
    ensure_rollable,
    percent_truncated,
    quick_contest,
    roll_success,
    success_outcome,
    success_probability,
)
from gurps.errors import (
    NO_ROLL_AT_THREE_OR_LESS,
    ROLL_OUT_OF_RANGE,
    InvalidValue,
    NoRollAtThreeOrLess,
)
from tests.gurps.helpers import ScriptedSource, canon_section, canon_table


def test_the_odds_table_is_the_canons_table() -> None:
    rows = canon_table("## 1.1 Como se rola")
    assert [(int(level), int(percent.rstrip("%"))) for level, percent in rows] == [
        (row.level, row.percent) for row in ODDS_TABLE
    ]
    assert all((row.section, row.page) == ("1.1", "86") for row in ODDS_TABLE)


def test_the_odds_table_is_the_exact_chance_truncated() -> None:
    for row in ODDS_TABLE:
        assert percent_truncated(success_probability(row.level)) == row.percent


def test_the_outcome_table_of_the_canon_matches_the_engine() -> None:
    text = canon_section("## 1.2 Sucesso decisivo e falha crítica")
    assert "| 3 ou 4 | **Sucesso decisivo**, sempre |" in text
    assert "| 18 | **Falha crítica**, sempre |" in text
    for roll in (3, 4):
        assert all(
            success_outcome(roll, level) is Outcome.CRITICAL_SUCCESS for level in range(-20, 30)
        )
    assert all(success_outcome(18, level) is Outcome.CRITICAL_FAILURE for level in range(-20, 30))


@pytest.mark.parametrize(
    ("roll", "level", "outcome"),
    [
        (5, 14, Outcome.SUCCESS),
        (5, 15, Outcome.CRITICAL_SUCCESS),
        (6, 15, Outcome.SUCCESS),
        (6, 16, Outcome.CRITICAL_SUCCESS),
        (17, 15, Outcome.CRITICAL_FAILURE),
        (17, 16, Outcome.FAILURE),
        (17, 25, Outcome.FAILURE),
        (16, 25, Outcome.SUCCESS),
        (14, 4, Outcome.CRITICAL_FAILURE),
        (13, 4, Outcome.FAILURE),
        (12, 12, Outcome.SUCCESS),
        (13, 12, Outcome.FAILURE),
    ],
)
def test_it_reads_the_roll_as_section_1_2_says(roll: int, level: int, outcome: Outcome) -> None:
    assert success_outcome(roll, level) is outcome


@pytest.mark.parametrize("roll", [2, 19, 0])
def test_it_refuses_a_3d6_total_outside_3_to_18(roll: int) -> None:
    with pytest.raises(InvalidValue) as caught:
        success_outcome(roll, 10)
    assert (caught.value.field, caught.value.message) == ("roll", ROLL_OUT_OF_RANGE)


def test_modifiers_add_up() -> None:
    assert effective_level(12, [-5, 10, -2]) == 15


@pytest.mark.parametrize("level", [3, 0, -2])
def test_it_refuses_a_roll_at_effective_level_3_or_less(level: int) -> None:
    with pytest.raises(NoRollAtThreeOrLess) as caught:
        ensure_rollable(level, RollKind.SKILL)
    assert caught.value.message == NO_ROLL_AT_THREE_OR_LESS
    assert caught.value.effective_level == level
    with pytest.raises(NoRollAtThreeOrLess):
        roll_success(ScriptedSource([1, 1, 1]), level, RollKind.ATTRIBUTE)


def test_a_defence_is_rolled_at_any_level() -> None:
    result = roll_success(ScriptedSource([1, 1, 2]), 1, RollKind.DEFENCE)
    assert result.outcome is Outcome.CRITICAL_SUCCESS
    assert (result.dice, result.total, result.margin) == ((1, 1, 2), 4, -3)


def test_a_success_roll_records_dice_total_level_outcome_and_margin() -> None:
    assert roll_success(ScriptedSource([2, 3, 3]), 13) == SuccessRoll(
        dice=(2, 3, 3), total=8, effective_level=13, outcome=Outcome.SUCCESS, margin=5
    )


def test_the_odds_count_the_criticals() -> None:
    # At level 20 only 17 and 18 fail; 5 and 6 are critical successes.
    assert success_probability(20) == Fraction(212, 216)
    assert critical_success_probability(16) == Fraction(1 + 3 + 6 + 10, 216)
    assert critical_success_probability(10) == Fraction(1 + 3, 216)
    assert critical_failure_probability(16) == Fraction(1, 216)
    assert critical_failure_probability(10) == Fraction(1 + 3, 216)
    # At level 3, anything from 13 up is a critical failure: 3 and 4 still pass.
    assert success_probability(3) == Fraction(4, 216)


def test_percentages_are_truncated() -> None:
    assert percent_truncated(Fraction(81, 216)) == 37
    assert percent_truncated(Fraction(196, 216)) == 90


def _roll(total: int, level: int) -> SuccessRoll:
    outcome = success_outcome(total, level)
    return SuccessRoll((1, 1, total - 2), total, level, outcome, level - total)


@pytest.mark.parametrize(
    ("a", "b", "winner"),
    [
        (_roll(10, 12), _roll(13, 12), "a"),  # one passes, the other fails
        (_roll(14, 12), _roll(9, 10), "b"),
        (_roll(6, 12), _roll(9, 12), "a"),  # both pass: larger margin
        (_roll(15, 12), _roll(13, 12), "b"),  # both fail: smaller failure
        (_roll(8, 12), _roll(6, 10), None),  # tie
        (_roll(4, 2), _roll(16, 17), "b"),  # both pass: margin −2 loses to margin 1
    ],
)
def test_a_quick_contest_goes_to_the_one_who_did_better(
    a: SuccessRoll, b: SuccessRoll, winner: str | None
) -> None:
    assert quick_contest(a, b) == winner


def test_the_passer_wins_a_quick_contest_even_with_a_smaller_margin() -> None:
    passed_at_2 = _roll(4, 2)  # margin −2, but a 4 always passes
    failed = _roll(17, 18)  # margin 1, but 17 fails at 16 or more
    assert (passed_at_2.outcome.is_success, failed.outcome.is_success) == (True, False)
    assert quick_contest(passed_at_2, failed) == "a"


def test_every_outcome_has_a_portuguese_name() -> None:
    assert OUTCOME_NAMES[Outcome.CRITICAL_SUCCESS] == "Sucesso decisivo"
    assert set(OUTCOME_NAMES) == set(Outcome)
