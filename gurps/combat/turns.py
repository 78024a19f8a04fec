"""Turn order (canon §4.2, book p. 95; §4.10 row 0).

The realistic order this table plays — Move, then the full Basic Speed, then DX, then the
order of declaration (the house tie-break fixed on 10/09/2026) — and the book's simple method
on 1d, which the canon prints too. Move is in levels; Basic Speed is exact (a Fraction).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from gurps._validate import check_attribute, require_at_least, require_int
from gurps.dice import RandomSource
from gurps.errors import (
    BASIC_SPEED_NOT_A_NUMBER,
    DUPLICATE_COMBATANT_NAME,
    DUPLICATE_DECLARATION_ORDER,
    EMPTY_COMBATANT_NAME,
    NEGATIVE_DURATION,
    NEGATIVE_MOVE,
    NO_COMBATANTS,
    InvalidValue,
)
from gurps.house import HOUSE_SETTINGS

# §4.2 and §8: "nesta mesa desempata a DX maior e, persistindo, a ordem de declaração
# (fixado em 10/09/2026)" — the house setting "turn_order_tie_break".
TURN_ORDER_TIE_BREAK_DECIDED = HOUSE_SETTINGS["turn_order_tie_break"].decided


@dataclass(frozen=True)
class Combatant:
    """One combatant as turn order reads it. ``move`` in levels (metres per turn);
    ``basic_speed`` exact (a Fraction, never rounded: §2.1); ``dx`` 1 or more; ``declared``
    the order in which the combatant declared (any int, lower declared first, unique in a
    combat). Any object with these five attributes will do for ``turn_order``."""

    name: str
    move: int
    basic_speed: Fraction
    dx: int
    declared: int


class TieBreak(StrEnum):
    """What put one combatant before the next in the realistic order (§4.2)."""

    MOVE = "move"
    BASIC_SPEED = "basic_speed"
    DX = "dx"
    DECLARATION = "declaration"


TIE_BREAK_NAMES: dict[TieBreak, str] = {
    TieBreak.MOVE: "Deslocamento",
    TieBreak.BASIC_SPEED: "Velocidade Básica cheia",
    TieBreak.DX: "DX maior",
    TieBreak.DECLARATION: "ordem de declaração",
}


def _check_combatant(index: int, combatant: Combatant) -> None:
    field = f"combatants.{index}"
    name = getattr(combatant, "name", None)
    if not isinstance(name, str) or not name.strip():
        raise InvalidValue(f"{field}.name", EMPTY_COMBATANT_NAME)
    require_at_least(f"{field}.move", combatant.move, 0, NEGATIVE_MOVE)
    speed = combatant.basic_speed
    if isinstance(speed, bool) or not isinstance(speed, int | Fraction) or speed < 0:
        raise InvalidValue(f"{field}.basic_speed", BASIC_SPEED_NOT_A_NUMBER)
    check_attribute(f"{field}.dx", combatant.dx)
    require_int(f"{field}.declared", combatant.declared)


def _order_key(combatant: Combatant) -> tuple:
    return (-combatant.move, -Fraction(combatant.basic_speed), -combatant.dx, combatant.declared)


def turn_order(combatants: Iterable[Combatant]) -> tuple[Combatant, ...]:
    """The realistic turn order (§4.2, p. 95; §4.10 row 0; house tie-break fixed on
    10/09/2026): Move descending; tie, the full Basic Speed with its fraction; tie, the
    higher DX; tie, the order of declaration (lower ``declared`` first).

    The declaration order is unique, so this is a total order: the same combatants give the
    same tuple whatever order they come in. Inputs: ``Combatant`` (or any object with
    ``name``, ``move``, ``basic_speed``, ``dx``, ``declared``). Returns the same objects,
    first to act first. Raises InvalidValue("combatants") for none,
    InvalidValue("combatants.<i>.<attribute>") for a bad value, and
    InvalidValue("combatants.<i>.declared") for a repeated declaration order.
    """
    entries = tuple(combatants)
    if not entries:
        raise InvalidValue("combatants", NO_COMBATANTS)
    seen: set[int] = set()
    for index, combatant in enumerate(entries):
        _check_combatant(index, combatant)
        if combatant.declared in seen:
            raise InvalidValue(f"combatants.{index}.declared", DUPLICATE_DECLARATION_ORDER)
        seen.add(combatant.declared)
    return tuple(sorted(entries, key=_order_key))


def tie_break(first: Combatant, second: Combatant) -> TieBreak:
    """Which rule of §4.2 puts ``first`` before ``second`` (two combatants adjacent in
    ``turn_order``): Move if they differ, else Basic Speed, else DX, else declaration.
    Raises nothing for valid combatants."""
    if first.move != second.move:
        return TieBreak.MOVE
    if first.basic_speed != second.basic_speed:
        return TieBreak.BASIC_SPEED
    if first.dx != second.dx:
        return TieBreak.DX
    return TieBreak.DECLARATION


@dataclass(frozen=True)
class InitiativeRoll:
    """One 1d of the simple method: ``name``'s ``roll`` (1–6) in round ``round`` (1, or more
    for a re-roll among those tied on the highest)."""

    name: str
    roll: int
    round: int


@dataclass(frozen=True)
class SimpleTurnOrder:
    """The simple method's outcome: every die rolled, who starts, and the order of play
    (the starter, then around the table in seating order)."""

    rolls: tuple[InitiativeRoll, ...]
    first: str
    order: tuple[str, ...]
    section: str = "4.2"
    page: str = "95"
    readings: tuple[str, ...] = ("simple_order_tie_reroll",)


def simple_turn_order(seating: Sequence[str], source: RandomSource) -> SimpleTurnOrder:
    """The book's other method (§4.2, p. 95): the Mestre rolls 1d for each character; the
    highest starts, and play goes on around the table.

    ``seating``: the characters' names in the order they sit around the table (unique,
    non-empty). A tie on the highest die is re-rolled among the tied only, until one is
    highest (reading "simple_order_tie_reroll": the canon does not say). This table plays the
    realistic method (``turn_order``); this one is here because the canon prints both.
    Raises InvalidValue("seating") for no names, a blank or a repeated name.
    """
    names = tuple(seating)
    if not names:
        raise InvalidValue("seating", NO_COMBATANTS)
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise InvalidValue("seating", EMPTY_COMBATANT_NAME)
    if len(set(names)) != len(names):
        raise InvalidValue("seating", DUPLICATE_COMBATANT_NAME)
    rolls: list[InitiativeRoll] = []
    contenders, round_number = names, 1
    while True:
        this_round = [InitiativeRoll(n, source.randint(1, 6), round_number) for n in contenders]
        rolls.extend(this_round)
        best = max(r.roll for r in this_round)
        contenders = tuple(r.name for r in this_round if r.roll == best)
        if len(contenders) == 1:
            break
        round_number += 1
    start = names.index(contenders[0])
    return SimpleTurnOrder(tuple(rolls), contenders[0], names[start:] + names[:start])


def fight_seconds(rounds: int, *, fled_in_round: int = 0) -> int:
    """How long one combatant fought, in seconds: one round is one second (§4.1, p. 95). A
    fight of ``rounds`` rounds lasts that many for whoever stayed; one who fled in round
    ``fled_in_round`` (1 or more; 0: he did not flee) fought until then (reading
    "fled_fight_seconds": the canon does not say; it is what the fatigue of a fight of more
    than 10 seconds reads, §6.1). Raises InvalidValue("rounds") or
    InvalidValue("fled_in_round") if negative."""
    total = require_at_least("rounds", rounds, 0, NEGATIVE_DURATION)
    fled = require_at_least("fled_in_round", fled_in_round, 0, NEGATIVE_DURATION)
    return min(total, fled) if fled else total
