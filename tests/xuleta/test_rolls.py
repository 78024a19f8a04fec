"""«Proves i tirades»: the d20, advantage and disadvantage, natural 20 and 1, contests, group
and passive checks, and the exact odds (xuleta.rolls)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.gurps.helpers import ScriptedSource
from xuleta.errors import XuletaError
from xuleta.rolls import (
    ADVANTAGE,
    ATTACK,
    CHECK,
    DISADVANTAGE,
    EDGES,
    NONE,
    ROLL_KINDS,
    SAVE,
    contest,
    critical_chance,
    d20,
    edge_key,
    edge_of,
    group_succeeds,
    kept_distribution,
    passes,
    passive,
    resolve,
    roll_against,
    roll_kind,
    success_chance,
)

# The ``quote`` fixture is a pure check: sharing it between generated inputs is harmless.
PROPERTY = settings(
    database=None, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
bonuses = st.integers(min_value=-15, max_value=25)
targets = st.integers(min_value=-5, max_value=40)
edges = st.sampled_from(EDGES)
kinds = st.sampled_from(ROLL_KINDS)


def brute_force(bonus: int, target: int, edge: str, kind: str) -> Fraction:
    """Every die (one d20, or every ordered pair of two) enumerated and judged by hand."""
    if edge == NONE:
        outcomes = [(f,) for f in range(1, 21)]
    else:
        outcomes = list(itertools.product(range(1, 21), repeat=2))
    wins = 0
    for faces in outcomes:
        kept = max(faces) if edge == ADVANTAGE else min(faces)
        if kind == ATTACK and kept == 20:
            wins += 1
        elif kind == ATTACK and kept == 1:
            pass
        elif kept + bonus >= target:
            wins += 1
    return Fraction(wins, len(outcomes))


@PROPERTY
@given(bonuses, targets, edges, kinds)
def test_success_chance_is_the_enumeration_of_the_dice(quote, bonus, target, edge, kind):
    quote("Si l'iguales o el superes, ho aconsegueixes.")
    quote("Amb avantatge tires dos d20 i et quedes el més alt. Amb desavantatge, el més baix.")
    quote("Només compta a les tirades d'atac, mirant el dau sense sumar-hi res.")
    assert success_chance(bonus, target, edge, kind) == brute_force(bonus, target, edge, kind)


@pytest.mark.parametrize("edge", EDGES)
def test_kept_distribution_sums_to_one_and_matches_enumeration(edge):
    dist = kept_distribution(edge)
    assert sum(dist.values()) == 1
    if edge == NONE:
        assert set(dist.values()) == {Fraction(1, 20)}
    for face, p in dist.items():
        pairs = [
            (a, b)
            for a, b in itertools.product(range(1, 21), repeat=2)
            if (max(a, b) if edge == ADVANTAGE else min(a, b)) == face
        ]
        if edge != NONE:
            assert p == Fraction(len(pairs), 400)


def test_worked_odds():
    # +5 against DC 15 needs 10+: 11 faces of 20; with advantage 1 − (9/20)², with
    # disadvantage (11/20)².
    assert success_chance(5, 15) == Fraction(11, 20)
    assert success_chance(5, 15, ADVANTAGE) == Fraction(319, 400)
    assert success_chance(5, 15, DISADVANTAGE) == Fraction(121, 400)
    assert critical_chance(NONE) == Fraction(1, 20)
    assert critical_chance(ADVANTAGE) == Fraction(39, 400)
    assert critical_chance(DISADVANTAGE) == Fraction(1, 400)


def test_natural_20_and_1_count_on_attacks_only(quote):
    quote("Un 20 natural sempre encerta i és un cop crític.")
    quote("Un 1 natural sempre falla.")
    quote(
        "A les proves i salvacions, segons les regles, un 20 o un 1 no tenen res d'especial "
        "(tot i que moltes taules ho celebren igualment)."
    )
    # An attack: 20 hits an AC 30 with +0; 1 misses an AC 5 with +10.
    assert passes(ATTACK, 20, 0, 30) and not passes(ATTACK, 1, 10, 5)
    assert success_chance(0, 40, kind=ATTACK) == Fraction(1, 20)
    assert success_chance(30, 2, kind=ATTACK) == Fraction(19, 20)
    # Checks and saves: the 20 and the 1 are numbers like the others.
    for kind in (CHECK, SAVE):
        assert not passes(kind, 20, 0, 30) and passes(kind, 1, 10, 5)
        assert success_chance(0, 40, kind=kind) == 0
        assert success_chance(30, 2, kind=kind) == 1


def test_a_resolved_attack_says_critical_and_fumble_and_a_check_never():
    hit = resolve(ATTACK, d20(ScriptedSource([20])), 0, 25)
    assert (hit.success, hit.critical, hit.fumble, hit.total) == (True, True, False, 20)
    miss = resolve(ATTACK, d20(ScriptedSource([1])), 10, 5)
    assert (miss.success, miss.critical, miss.fumble) == (False, False, True)
    check = resolve(CHECK, d20(ScriptedSource([20])), 0, 25)
    assert (check.success, check.critical, check.fumble) == (False, False, False)


def test_advantage_keeps_the_higher_and_disadvantage_the_lower(quote):
    quote("Amb avantatge tires dos d20 i et quedes el més alt. Amb desavantatge, el més baix.")
    roll = d20(ScriptedSource([4, 17]), ADVANTAGE)
    assert (roll.faces, roll.kept) == ((4, 17), 17)
    roll = d20(ScriptedSource([4, 17]), DISADVANTAGE)
    assert (roll.faces, roll.kept) == ((4, 17), 4)
    roll = d20(ScriptedSource([9]), NONE)
    assert (roll.faces, roll.kept) == ((9,), 9)


@PROPERTY
@given(st.integers(min_value=0, max_value=5), st.integers(min_value=0, max_value=5))
def test_advantage_and_disadvantage_never_stack_and_cancel(quote, advantages, disadvantages):
    quote("No s'acumulen: dos avantatges continuen sent un de sol.")
    quote("Si tens avantatge i desavantatge alhora, s'anul·len i tires un sol dau.")
    edge = edge_of(advantages, disadvantages)
    if advantages and disadvantages:
        assert edge == NONE
    elif advantages:
        assert edge == ADVANTAGE
    elif disadvantages:
        assert edge == DISADVANTAGE
    else:
        assert edge == NONE
    # Cancelled, one die is rolled.
    assert len(d20(ScriptedSource([11, 12]), edge).faces) == (1 if edge == NONE else 2)


@PROPERTY
@given(bonuses, targets, kinds, st.integers(min_value=0, max_value=2**32))
def test_roll_against_uses_the_source_and_passes_as_the_odds_say(bonus, target, kind, seed):
    source = random.Random(seed)
    result = roll_against(source, kind, bonus, target, ADVANTAGE)
    assert len(result.roll.faces) == 2 and result.roll.kept == max(result.roll.faces)
    assert result.success == passes(kind, result.roll.kept, bonus, target)
    assert result.total == result.roll.kept + bonus


def test_contest_higher_wins_a_tie_leaves_things(quote):
    quote("tiren tots dos i guanya el resultat més alt.")
    quote("Si empaten, tot continua com estava.")
    assert contest(15, 12) == "a"
    assert contest(8, 19) == "b"
    assert contest(13, 13) is None


@PROPERTY
@given(st.integers(min_value=1, max_value=12), st.data())
def test_group_check_at_least_half(quote, members, data):
    quote("si almenys la meitat ho aconsegueix, ho aconsegueix el grup.")
    successes = data.draw(st.integers(min_value=0, max_value=members))
    assert group_succeeds(successes, members) == (successes >= Fraction(members, 2))


def test_group_examples_and_refusals():
    assert group_succeeds(2, 4) and not group_succeeds(1, 4) and group_succeeds(2, 3)
    assert not group_succeeds(1, 3)
    for successes, members in ((0, 0), (5, 4), (-1, 3)):
        with pytest.raises(XuletaError):
            group_succeeds(successes, members)


@PROPERTY
@given(st.integers(min_value=-10, max_value=20))
def test_passive_is_ten_plus_modifiers_five_for_an_edge(quote, bonus):
    quote("No es tira: és 10 + tots els teus modificadors.")
    quote("Amb avantatge, suma'n 5. Amb desavantatge, resta'n 5.")
    assert passive(bonus) == 10 + bonus
    assert passive(bonus, ADVANTAGE) == 15 + bonus
    assert passive(bonus, DISADVANTAGE) == 5 + bonus


def test_unknown_edge_and_kind_are_refused_naming_the_allowed():
    with pytest.raises(XuletaError) as caught:
        edge_key("double")
    assert caught.value.field == "edge" and "advantage" in caught.value.message
    with pytest.raises(XuletaError) as caught:
        roll_kind("damage")
    assert caught.value.field == "roll" and "attack" in caught.value.message
    with pytest.raises(XuletaError):
        success_chance(0, 10, "both")
