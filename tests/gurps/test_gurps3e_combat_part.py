"""``rulesets.gurps3e.combat``: GURPS's ``CombatPart`` names the turn order, the maneuvers, the
attack, the start of a turn and the feint's round, each the engine's own answer."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from fractions import Fraction

import pytest

from gurps import combat as engine
from gurps.errors import InvalidValue
from rulesets.base import CombatPart
from rulesets.gurps3e import combat as part
from rulesets.gurps3e.combat import COMBAT


def test_it_has_every_function_of_the_protocol_with_its_parameters():
    wanted = {
        name: fn
        for name, fn in vars(CombatPart).items()
        if inspect.isfunction(fn) and not name.startswith("_")
    }
    assert set(wanted) == {
        "turn_order",
        "actions",
        "budget",
        "plan",
        "act",
        "start_of_turn",
        "effect_lasts",
    }
    for name, fn in wanted.items():
        own = inspect.signature(getattr(COMBAT, name))
        assert list(own.parameters) == list(inspect.signature(fn).parameters)[1:], name


def test_turn_order_is_the_engines():
    fighters = [
        _Fighter("Lento", move=4, basic_speed=Fraction(4), dx=12, declared=1),
        _Fighter("Rápido", move=6, basic_speed=Fraction(6), dx=10, declared=2),
    ]
    assert COMBAT.turn_order(fighters) == engine.turn_order(fighters)
    assert [f.name for f in COMBAT.turn_order(fighters)] == ["Rápido", "Lento"]


def test_the_budget_is_the_maneuvers_row():
    assert COMBAT.actions() == tuple(row.maneuver.value for row in engine.MANEUVERS)
    assert COMBAT.budget("all_out_attack") == engine.maneuver_row("all_out_attack")
    with pytest.raises(InvalidValue):
        COMBAT.budget("dançar")


@dataclass
class _Fighter:
    name: str
    move: int
    basic_speed: Fraction
    dx: int
    declared: int


@dataclass
class _Now:
    ht: int = 10
    hp_now: int = 10
    strong_will: int = 0
    weak_will: int = 0
    stunned: bool = False
    surprise: str = ""
    acting: bool = True


def test_the_start_of_a_turn_asks_what_the_canon_asks():
    assert COMBAT.start_of_turn(_Now(), 1) == ()
    assert COMBAT.start_of_turn(_Now(hp_now=0), 2) == (part.HT_AT_ZERO_HP,)
    assert COMBAT.start_of_turn(_Now(stunned=True), 2) == (part.STUN_RECOVERY,)
    assert COMBAT.start_of_turn(_Now(surprise="total", acting=False), 1) == (part.TOTAL_SURPRISE,)
    assert COMBAT.start_of_turn(_Now(surprise="partial"), 1) == (part.PARTIAL_SURPRISE,)
    assert COMBAT.start_of_turn(_Now(surprise="partial"), 2) == ()


def test_a_feint_lasts_its_round_and_the_next():
    assert COMBAT.effect_lasts(part.FEINT, 3, 4) is True
    assert COMBAT.effect_lasts(part.FEINT, 3, 5) is False
    with pytest.raises(InvalidValue):
        COMBAT.effect_lasts("veneno", 1, 1)


def test_no_django_in_the_adapter():
    source = inspect.getsource(part)
    assert "django" not in source
