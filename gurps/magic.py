"""Mana by floor of the Garganta, and the house rule that there is no spell without Magery
(canon §6.4 and §8; `17` §6.2 and §6.5).

The mana table is the campaign's, not the book's: high mana gives +2 to the effective level
and half the fatigue (a number the Árbitro set), and Magery is required on every floor.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from gurps._validate import require_at_least
from gurps.checks import Outcome
from gurps.errors import (
    FLOOR_TOO_LOW,
    NEGATIVE_SPELL_COST,
    NO_MANA_IN_POCKET,
    NO_SPELL_WITHOUT_MAGERY,
    NOT_AN_INTEGER,
    InvalidValue,
)


class Mana(StrEnum):
    NORMAL = "normal"
    HIGH = "high"
    VERY_HIGH = "very_high"
    NONE = "none"


@dataclass(frozen=True)
class ManaBand:
    """One row of the §6.4 table. ``first_floor``/``last_floor`` None for the pocket (and
    ``last_floor`` None for "21+"). Fatigue is the spell's cost × ``fatigue_numerator`` /
    ``fatigue_denominator``, rounding up; ``failures_are_critical``: every ordinary failure
    becomes a critical failure; ``spells_work`` False: nothing works."""

    band: str
    mana: Mana
    name: str
    first_floor: int | None
    last_floor: int | None
    effective_level_bonus: int
    fatigue_numerator: int
    fatigue_denominator: int
    failures_are_critical: bool = False
    spells_work: bool = True
    section: str = "6.4"
    page: str = "17 §6.5"


MANA_BANDS: tuple[ManaBand, ...] = (
    ManaBand("Andares 1–8", Mana.NORMAL, "Normal", 1, 8, 0, 1, 1),
    ManaBand("Andares 9–20", Mana.HIGH, "Alta", 9, 20, 2, 1, 2),
    ManaBand("Andares 21+", Mana.VERY_HIGH, "Muito alta", 21, None, 0, 0, 1, True),
    ManaBand("Bolsão", Mana.NONE, "Nula", None, None, 0, 0, 1, spells_work=False),
)
POCKET = MANA_BANDS[-1]


def _floor(floor: int) -> int:
    if isinstance(floor, bool) or not isinstance(floor, int):
        raise InvalidValue("floor", NOT_AN_INTEGER)
    return require_at_least("floor", floor, 1, FLOOR_TOO_LOW)


def mana_band(floor: int, *, pocket: bool = False) -> ManaBand:
    """The mana band of ``floor`` of the Garganta (§6.4, `17` §6.5): 1–8 normal, 9–20 high,
    21 and below very high; ``pocket`` True is a null-mana pocket on any floor. Raises
    InvalidValue("floor") for a non-int or a floor below 1."""
    number = _floor(floor)
    if pocket:
        return POCKET
    return next(
        band
        for band in MANA_BANDS
        if band.first_floor is not None
        and band.first_floor <= number
        and (band.last_floor is None or number <= band.last_floor)
    )


@dataclass(frozen=True)
class SpellCasting:
    """What a floor does to one casting: the ``effective_level_bonus`` to the spell's level,
    the ``fatigue_cost`` actually paid (energy points), and whether ordinary failures
    become critical."""

    band: ManaBand
    spell_cost: int
    effective_level_bonus: int
    fatigue_cost: int
    failures_are_critical: bool


def spell_casting(
    floor: int, spell_cost: int, magery: int, *, pocket: bool = False
) -> SpellCasting:
    """The casting of a spell of ``spell_cost`` energy points on ``floor`` by a caster with
    ``magery`` levels of Magery (Aptidão Mágica) (§6.4 and §8; `17` §6.2 and §6.5).

    Normal mana: full cost. High (9–20): +2 to the effective level and half the fatigue,
    rounding up (cost 3 → 2). Very high (21+): no fatigue, every ordinary failure critical.
    Raises InvalidValue("magery", NO_SPELL_WITHOUT_MAGERY) for Magery 0 — house rule, on every
    floor; InvalidValue("floor", NO_MANA_IN_POCKET) in a null-mana pocket;
    InvalidValue("floor") below 1; InvalidValue("spell_cost") for a negative cost;
    InvalidValue("magery") for a negative or non-int Magery.
    """
    band = mana_band(floor, pocket=pocket)
    cost = require_at_least("spell_cost", spell_cost, 0, NEGATIVE_SPELL_COST)
    if require_at_least("magery", magery, 0, NO_SPELL_WITHOUT_MAGERY) == 0:
        raise InvalidValue("magery", NO_SPELL_WITHOUT_MAGERY)
    if not band.spells_work:
        raise InvalidValue("floor", NO_MANA_IN_POCKET)
    fatigue = math.ceil(cost * band.fatigue_numerator / band.fatigue_denominator)
    return SpellCasting(band, cost, band.effective_level_bonus, fatigue, band.failures_are_critical)


def mana_outcome(outcome: Outcome, floor: int, *, pocket: bool = False) -> Outcome:
    """The ``outcome`` (from ``checks.success_outcome``) of a spell roll on ``floor``: in very
    high mana (21+) an ordinary failure becomes a critical failure; elsewhere unchanged
    (§6.4, `17` §6.5). Raises InvalidValue("floor") as ``mana_band`` and
    InvalidValue("floor", NO_MANA_IN_POCKET) in a pocket."""
    band = mana_band(floor, pocket=pocket)
    if not band.spells_work:
        raise InvalidValue("floor", NO_MANA_IN_POCKET)
    if band.failures_are_critical and outcome is Outcome.FAILURE:
        return Outcome.CRITICAL_FAILURE
    return outcome
