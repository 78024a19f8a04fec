"""Turn order (gurps.combat.turns; canon §4.2)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps.attributes import basic_speed
from gurps.combat import (
    Combatant,
    TieBreak,
    fight_seconds,
    simple_turn_order,
    tie_break,
    turn_order,
)
from gurps.errors import (
    BASIC_SPEED_NOT_A_NUMBER,
    DUPLICATE_COMBATANT_NAME,
    DUPLICATE_DECLARATION_ORDER,
    NEGATIVE_DURATION,
    NO_COMBATANTS,
    InvalidValue,
)
from tests.gurps.helpers import ScriptedSource, canon_cases

PROPERTY = settings(database=None, deadline=None)
CASES = canon_cases()


def test_the_canons_example_the_fraction_of_basic_speed_breaks_the_move_tie() -> None:
    case = CASES["speed-fraction-order"]
    a, b = case["given"]["a"], case["given"]["b"]
    speeds = {who: basic_speed(v["dx"], v["ht"]) for who, v in (("a", a), ("b", b))}
    moves = {who: case["expect"][who]["move"] for who in ("a", "b")}
    fighters = [
        Combatant("b", moves["b"], speeds["b"], b["dx"], declared=1),
        Combatant("a", moves["a"], speeds["a"], a["dx"], declared=2),
    ]
    order = turn_order(fighters)
    assert order[0].name == case["expect"]["acts_first"]
    assert tie_break(order[0], order[1]) is TieBreak.BASIC_SPEED


def test_move_first_then_speed_then_dx_then_declaration() -> None:
    fast = Combatant("fast", 7, Fraction(5), 10, declared=4)
    keen = Combatant("keen", 6, Fraction(27, 4), 10, declared=3)
    deft = Combatant("deft", 6, Fraction(25, 4), 12, declared=2)
    late = Combatant("late", 6, Fraction(25, 4), 11, declared=5)
    first = Combatant("first", 6, Fraction(25, 4), 11, declared=1)
    order = turn_order([late, first, deft, keen, fast])
    assert [c.name for c in order] == ["fast", "keen", "deft", "first", "late"]
    reasons = [tie_break(x, y) for x, y in zip(order, order[1:], strict=False)]
    assert reasons == [TieBreak.MOVE, TieBreak.BASIC_SPEED, TieBreak.DX, TieBreak.DECLARATION]


def test_a_repeated_declaration_order_is_refused() -> None:
    with pytest.raises(InvalidValue) as caught:
        turn_order([Combatant("a", 5, Fraction(5), 10, 1), Combatant("b", 5, Fraction(5), 10, 1)])
    assert (caught.value.field, caught.value.message) == (
        "combatants.1.declared",
        DUPLICATE_DECLARATION_ORDER,
    )


@pytest.mark.parametrize(
    ("fighters", "field", "message"),
    [
        ([], "combatants", NO_COMBATANTS),
        ([Combatant("a", 5, 5.25, 10, 1)], "combatants.0.basic_speed", BASIC_SPEED_NOT_A_NUMBER),
    ],
)
def test_turn_order_refuses_bad_input(fighters: list, field: str, message: str) -> None:
    with pytest.raises(InvalidValue) as caught:
        turn_order(fighters)
    assert (caught.value.field, caught.value.message) == (field, message)


combatants = st.lists(
    st.tuples(
        st.integers(0, 8),
        st.fractions(min_value=0, max_value=10, max_denominator=4),
        st.integers(1, 18),
    ),
    min_size=1,
    max_size=8,
).flatmap(
    lambda rows: st.permutations(range(len(rows))).map(
        lambda order: [
            Combatant(f"c{i}", move, speed, dx, declared=order[i])
            for i, (move, speed, dx) in enumerate(rows)
        ]
    )
)


@PROPERTY
@given(combatants, st.randoms(use_true_random=False))
def test_turn_order_is_a_total_order_that_ignores_input_order(fighters, rng) -> None:
    order = turn_order(fighters)
    shuffled = list(fighters)
    rng.shuffle(shuffled)
    assert turn_order(shuffled) == order
    assert sorted(c.name for c in order) == sorted(c.name for c in fighters)
    for first, second in zip(order, order[1:], strict=False):
        key = (-first.move, -first.basic_speed, -first.dx, first.declared)
        assert key < (-second.move, -second.basic_speed, -second.dx, second.declared)


def test_the_simple_method_starts_with_the_highest_die_and_goes_round_the_table() -> None:
    result = simple_turn_order(["Ana", "Bia", "Caio"], ScriptedSource([2, 5, 3]))
    assert (result.first, result.order) == ("Bia", ("Bia", "Caio", "Ana"))
    assert [r.roll for r in result.rolls] == [2, 5, 3]


def test_the_simple_method_rerolls_only_those_tied_on_the_highest() -> None:
    source = ScriptedSource([6, 1, 6, 2, 4])
    result = simple_turn_order(["Ana", "Bia", "Caio"], source)
    assert (result.first, result.order) == ("Caio", ("Caio", "Ana", "Bia"))
    assert [(r.name, r.round) for r in result.rolls[3:]] == [("Ana", 2), ("Caio", 2)]
    assert source.values == []
    assert "simple_order_tie_reroll" in result.readings


def test_the_simple_method_refuses_a_repeated_name() -> None:
    with pytest.raises(InvalidValue) as caught:
        simple_turn_order(["Ana", "Ana"], ScriptedSource([]))
    assert caught.value.message == DUPLICATE_COMBATANT_NAME


def test_one_who_fled_fought_until_the_round_he_fled() -> None:
    # One round is one second (§4.1): a fight of 14 rounds is 14 s for whoever stayed, 4 s
    # for one who fled in round 4 — not a fight of more than 10 seconds (§6.1).
    assert fight_seconds(14) == 14
    assert fight_seconds(14, fled_in_round=4) == 4


@PROPERTY
@given(st.integers(min_value=0, max_value=500), st.integers(min_value=0, max_value=500))
def test_no_one_fights_longer_than_the_fight(rounds: int, fled: int) -> None:
    seconds = fight_seconds(rounds, fled_in_round=fled)
    assert seconds <= rounds
    assert seconds == (min(rounds, fled) if fled else rounds)


def test_a_negative_duration_is_refused() -> None:
    with pytest.raises(InvalidValue) as refused:
        fight_seconds(-1)
    assert (refused.value.field, refused.value.message) == ("rounds", NEGATIVE_DURATION)
