"""Surprise (canon §5e): partial surprise loses the first turn; total surprise asks an IQ
roll each turn before the character acts or defends.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from gurps._validate import check_attribute, require_at_least
from gurps.checks import RollKind, SuccessRoll, roll_success
from gurps.combat.shared import enum_member
from gurps.dice import RandomSource
from gurps.errors import TURN_TOO_LOW, UNKNOWN_SURPRISE


class Surprise(StrEnum):
    PARTIAL = "partial"  # sabe que há inimigo, mas não de onde vem
    TOTAL = "total"  # não sabia de nada


# §5e: "Quem tem Reflexos em Combate testa a +6."
COMBAT_REFLEXES_SURPRISE_BONUS = 6
# §5e: partial surprise "Perde o primeiro turno".
PARTIAL_SURPRISE_TURNS_LOST = 1


def acts_this_turn(surprise: Surprise | str, turn: int) -> bool | None:
    """Whether a surprised side acts on its ``turn`` (1 = the first) without a roll (§5e):
    partial surprise loses the first turn and acts from the second; total surprise needs an
    IQ roll each turn (``total_surprise_roll``), so None. Raises InvalidValue("surprise")
    and InvalidValue("turn") below 1."""
    kind = enum_member(Surprise, surprise, "surprise", UNKNOWN_SURPRISE)
    number = require_at_least("turn", turn, 1, TURN_TOO_LOW)
    if kind is Surprise.TOTAL:
        return None
    return number > PARTIAL_SURPRISE_TURNS_LOST


def acting_from_the_start(surprise: Surprise | str) -> bool:
    """Whether a combatant entering the fight under ``surprise`` ("" none, "partial",
    "total") acts as soon as his turns come (§5e): all but the totally surprised, who first
    passes an IQ roll (``total_surprise_roll``). Raises InvalidValue("surprise")."""
    if not surprise:
        return True
    return enum_member(Surprise, surprise, "surprise", UNKNOWN_SURPRISE) is not Surprise.TOTAL


def still_surprised(surprise: Surprise | str, acting: bool) -> bool:
    """True while a totally surprised combatant has not yet passed his IQ roll (§5e): he
    stays still and has no active defence (the passive one still protects, §4.6), and a feint
    against him is worth nothing (he does not see it, §4.3). ``acting``: he has passed it.
    ``surprise`` "" (none), "partial" or "total"."""
    return surprise == Surprise.TOTAL and not acting


def loses_the_turn(surprise: Surprise | str, round_: int) -> bool:
    """True when partial surprise takes the combatant's turn in ``round_`` (§5e: "perde o
    primeiro turno"; round 1 is the first). ``surprise`` "" (none), "partial" or "total"
    (total surprise has its IQ roll instead, ``still_surprised``)."""
    return surprise == Surprise.PARTIAL and 1 <= round_ <= PARTIAL_SURPRISE_TURNS_LOST


@dataclass(frozen=True)
class SurpriseRoll:
    """One turn's IQ roll under total surprise (§5e): passed, the character starts to act;
    failed, stays still and has no active defence (the passive one still protects, §4.6)."""

    roll: SuccessRoll
    acts: bool
    has_active_defence: bool
    section: str = "5e"


def total_surprise_roll(
    source: RandomSource, iq: int, *, combat_reflexes: bool = False
) -> SurpriseRoll:
    """The IQ roll a totally surprised character makes each turn to start acting (§5e; a
    mental stun, §5.2): IQ, +6 with Combat Reflexes. Raises InvalidValue("iq") below 1 and
    NoRollAtThreeOrLess at an effective 3 or less (§1.1)."""
    check_attribute("iq", iq)
    level = iq + (COMBAT_REFLEXES_SURPRISE_BONUS if combat_reflexes else 0)
    roll = roll_success(source, level, RollKind.ATTRIBUTE)
    passed = roll.outcome.is_success
    return SurpriseRoll(roll, acts=passed, has_active_defence=passed)


# §5e: "Alvo parado que não te vê: +4 para acertar, sem defesa ativa, e órgão vital a −3.
# Não é morte automática." The same rule as §5.4's sentry: gurps.injury holds it
# (UNAWARE_TARGET_HIT_BONUS, unaware_target_modifiers, instant_death); the attack takes it as
# the situation UNSEEN_STATIONARY_TARGET and the defence as no active defence.
