"""Injury, incapacitation and death: shock, major wounds and stun, knockout, and the HP
ladder (canon §5.1–5.4; book p. 126–127). The campaign's house rule on who dies when
(§5.4.1) is in ``gurps.house``.

All HP are whole hit points; "hp_lost" is what came off the HP in one blow (after DR and the
wound multiplier, §4.9), and "hp" is what remains (0 and negative included).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from gurps._validate import check_attribute, require_at_least, require_int
from gurps.attributes import STAGGERED_AT
from gurps.damage import DamageType, wound_multiplier
from gurps.errors import (
    EYES_KNOCKOUT_OUTSIDE_CANON,
    HP_AFTER_ABOVE_HP_BEFORE,
    NEGATIVE_HP_LOST,
    NEGATIVE_WILL_LEVEL,
    UNKNOWN_HIT_LOCATION,
    InvalidValue,
    OutsideCanon,
)

# --- §5.1 Choque (p. 126–127) -----------------------------------------------------------------
# Shock lasts the victim's next turn only, and never touches the active defences (p. 127).
SHOCK_TURNS = 1
SHOCK_AFFECTS_ACTIVE_DEFENCES = False


def shock_penalty(hp_lost: int) -> int:
    """The modifier to IQ, DX and every skill based on them, on the victim's next turn only:
    minus the HP lost (§5.1, p. 126). Lost 3 HP → −3; lost 0 → 0. Wounds of the same turn
    add up, so pass their sum. Active defences are not affected (p. 127).

    ``hp_lost`` in HP, 0 or more; raises InvalidValue("hp_lost") if negative or not an int.
    """
    return -require_at_least("hp_lost", hp_lost, 0, NEGATIVE_HP_LOST)


# --- §5.2 Prostração e atordoamento (p. 127) ----------------------------------------------------


@dataclass(frozen=True)
class MajorWound:
    """What a major wound does after its HT roll (§5.2, p. 127): stunned either way,
    knocked down only on a failed roll."""

    stunned: bool
    knocked_down: bool
    section: str = "5.2"
    page: str = "127"


def is_major_wound(ht: int, hp_lost: int) -> bool:
    """True if ``hp_lost`` in one blow is more than HT/2 — exactly, no rounding: HT 11 needs 6
    (§5.2, p. 127). Such a blow forces an immediate HT roll (see ``major_wound``).

    ``ht`` 1 or more, ``hp_lost`` in HP, 0 or more; raises InvalidValue("ht"/"hp_lost").
    """
    check_attribute("ht", ht)
    require_at_least("hp_lost", hp_lost, 0, NEGATIVE_HP_LOST)
    return 2 * hp_lost > ht


def major_wound(ht_roll_passed: bool) -> MajorWound:
    """The outcome of a major wound's HT roll (§5.2, p. 127): failed → falls and is stunned;
    passed → stays up, and is stunned all the same. Stunned is −4 on every active defence
    (``gurps.defence.STUNNED_PENALTY``). Raises nothing.
    """
    return MajorWound(stunned=True, knocked_down=not ht_roll_passed)


def is_stunned_by_brain_blow(ht: int, hp_lost: int) -> bool:
    """True if a blow to the brain took more than HT/3 — exactly, no rounding (§5.2, p. 127).

    ``ht`` 1 or more, ``hp_lost`` in HP, 0 or more; raises InvalidValue("ht"/"hp_lost").
    """
    check_attribute("ht", ht)
    require_at_least("hp_lost", hp_lost, 0, NEGATIVE_HP_LOST)
    return 3 * hp_lost > ht


# --- §5.3 Nocaute (p. 127) ----------------------------------------------------------------------


class HitLocation(StrEnum):
    """The locations the canon names (§5.5, p. 203)."""

    BRAIN = "brain"
    HEAD = "head"
    EYES = "eyes"
    ARM = "arm"
    HAND = "hand"
    LEG = "leg"
    FOOT = "foot"
    VITALS = "vitals"
    TORSO = "torso"


class KnockoutCheck(StrEnum):
    """What a blow asks for under §5.3: nothing, an HT roll (failed → unconscious), or an
    automatic knockout."""

    NONE = "none"
    HT_ROLL = "ht_roll"
    AUTOMATIC = "automatic"


def _hit_location(value: HitLocation | str) -> HitLocation:
    try:
        return HitLocation(value)
    except ValueError:
        raise InvalidValue("location", UNKNOWN_HIT_LOCATION) from None


def knockout_check(
    ht: int, hp_lost: int, location: HitLocation | str, damage_type: DamageType | str
) -> KnockoutCheck:
    """The knockout a blow calls for (§5.3, p. 127).

    A blow to the head or the brain, or a crushing blow to the vitals, forces an HT roll even
    if the DR absorbed it all (``hp_lost`` 0); failed, the victim falls unconscious. A blow to
    the brain that takes more than HT/2 (exactly, no rounding) is an automatic knockout. Any
    other location: no knockout roll.

    ``ht`` 1 or more; ``hp_lost`` in HP, 0 or more; ``location`` a HitLocation; ``damage_type``
    "cr", "cut" or "imp". Raises InvalidValue("ht"/"hp_lost"/"location"/"damage_type"), and
    OutsideCanon("5.3") for the eyes, which the canon neither includes nor excludes.
    """
    check_attribute("ht", ht)
    require_at_least("hp_lost", hp_lost, 0, NEGATIVE_HP_LOST)
    where = _hit_location(location)
    kind = wound_multiplier(damage_type).damage_type
    if where is HitLocation.EYES:
        raise OutsideCanon("5.3", EYES_KNOCKOUT_OUTSIDE_CANON)
    if where is HitLocation.BRAIN and 2 * hp_lost > ht:
        return KnockoutCheck.AUTOMATIC
    if where in (HitLocation.HEAD, HitLocation.BRAIN):
        return KnockoutCheck.HT_ROLL
    if where is HitLocation.VITALS and kind is DamageType.CRUSHING:
        return KnockoutCheck.HT_ROLL
    return KnockoutCheck.NONE


# --- §5.4 Os limiares de PV (p. 126) ------------------------------------------------------------


class Threshold(StrEnum):
    STAGGERED = "staggered"
    HT_ROLL_EACH_TURN = "ht_roll_each_turn"
    DEATH_CHECK = "death_check"
    AUTOMATIC_DEATH = "automatic_death"
    BODY_MAY_BE_DESTROYED = "body_may_be_destroyed"


@dataclass(frozen=True)
class HpThreshold:
    """One row of the canon's HP ladder: it applies at ``fixed + ht_multiple × HT`` HP or
    below. ``label`` is the row as the canon writes it ("3, 2 ou 1", "−5 × HT")."""

    threshold: Threshold
    label: str
    fixed: int
    ht_multiple: int
    page: str
    section: str = "5.4"

    def at(self, ht: int) -> int:
        """The HP at or below which the row applies, for ``ht`` (1 or more; else
        InvalidValue("ht"))."""
        check_attribute("ht", ht)
        return self.fixed + self.ht_multiple * ht


HP_THRESHOLDS: tuple[HpThreshold, ...] = (
    HpThreshold(Threshold.STAGGERED, "3, 2 ou 1", STAGGERED_AT, 0, "126 e 99"),
    HpThreshold(Threshold.HT_ROLL_EACH_TURN, "0 ou menos", 0, 0, "126"),
    HpThreshold(Threshold.DEATH_CHECK, "−HT", 0, -1, "126"),
    HpThreshold(Threshold.AUTOMATIC_DEATH, "−5 × HT", 0, -5, "126"),
    HpThreshold(Threshold.BODY_MAY_BE_DESTROYED, "−10 × HT", 0, -10, "126"),
)
# §5.4 (p. 126): after −HT, a new death check for every 5 HP lost.
DEATH_CHECK_EVERY_HP = 5


def hp_threshold(threshold: Threshold | str) -> HpThreshold:
    """The ladder row of ``threshold`` (§5.4, p. 126). Raises ValueError for an unknown one."""
    kind = Threshold(threshold)
    return next(row for row in HP_THRESHOLDS if row.threshold is kind)


@dataclass(frozen=True)
class HpLadder:
    """The HP ladder of §5.4 worked out for one HT. HT 12: staggered at 3, an HT roll each
    turn at 0, death checks at −12, −17, … −57, dead at −60, body maybe destroyed at −120."""

    ht: int
    staggered_at_or_below: int
    ht_roll_each_turn_at_or_below: int
    death_checks_at: tuple[int, ...]
    dead_at: int
    body_may_be_destroyed_at: int
    section: str = "5.4"
    page: str = "126"


def hp_thresholds(ht: int) -> HpLadder:
    """The full ladder for ``ht`` (§5.4, p. 126; −5 × HT per §9 item 6: HT 14 dies at −70).

    Death checks at −HT and every 5 HP below it, while above the automatic death line (a line
    that falls on −5 × HT is death, not a check). ``ht`` 1 or more; raises InvalidValue("ht").
    """
    check_attribute("ht", ht)
    first = hp_threshold(Threshold.DEATH_CHECK).at(ht)
    dead_at = hp_threshold(Threshold.AUTOMATIC_DEATH).at(ht)
    return HpLadder(
        ht=ht,
        staggered_at_or_below=hp_threshold(Threshold.STAGGERED).at(ht),
        ht_roll_each_turn_at_or_below=hp_threshold(Threshold.HT_ROLL_EACH_TURN).at(ht),
        death_checks_at=tuple(range(first, dead_at, -DEATH_CHECK_EVERY_HP)),
        dead_at=dead_at,
        body_may_be_destroyed_at=hp_threshold(Threshold.BODY_MAY_BE_DESTROYED).at(ht),
    )


def death_checks_crossed(ht: int, hp_before: int, hp_after: int) -> int:
    """How many death checks (HT rolls or die) a blow from ``hp_before`` to ``hp_after`` HP
    calls for (§5.4, p. 126): one for each death-check line of ``hp_thresholds(ht)`` it
    reaches or passes — so a blow of 6 or more that crosses two bands calls for two. A line
    already reached before the blow does not count again.

    The count ignores automatic death: a blow that reaches −5 × HT kills with no roll
    (``is_dead``). ``ht`` 1 or more; HP as whole numbers, ``hp_after`` ≤ ``hp_before``.
    Raises InvalidValue("ht"/"hp_before"/"hp_after").
    """
    ladder = hp_thresholds(ht)
    before = require_int("hp_before", hp_before)
    after = require_int("hp_after", hp_after)
    if after > before:
        raise InvalidValue("hp_after", HP_AFTER_ABOVE_HP_BEFORE)
    return sum(1 for line in ladder.death_checks_at if after <= line < before)


def turn_start_ht_roll(ht: int, hp: int, *, strong_will: int = 0, weak_will: int = 0) -> int | None:
    """At 0 HP or less, the level of the HT roll at the start of each turn: HT plus Strong
    Will, minus Weak Will (§5.4, p. 126). Passed: the turn runs as usual; failed: faints.
    None above 0 HP (no roll).

    ``ht`` 1 or more; ``hp`` remaining, in HP; ``strong_will`` and ``weak_will`` in levels,
    0 or more. Raises InvalidValue("ht"/"hp"/"strong_will"/"weak_will").
    """
    check_attribute("ht", ht)
    remaining = require_int("hp", hp)
    plus = require_at_least("strong_will", strong_will, 0, NEGATIVE_WILL_LEVEL)
    minus = require_at_least("weak_will", weak_will, 0, NEGATIVE_WILL_LEVEL)
    if remaining > hp_threshold(Threshold.HT_ROLL_EACH_TURN).at(ht):
        return None
    return ht + plus - minus


def is_dead(ht: int, hp: int) -> bool:
    """True at −5 × HT or below: automatic death, no roll (§5.4 and §9 item 6, p. 126).

    ``ht`` 1 or more; ``hp`` remaining, in HP. Raises InvalidValue("ht"/"hp").
    """
    return require_int("hp", hp) <= hp_thresholds(ht).dead_at


def body_may_be_destroyed(ht: int, hp: int) -> bool:
    """True at −10 × HT or below: the body may have been destroyed (§5.4, p. 126).

    ``ht`` 1 or more; ``hp`` remaining, in HP. Raises InvalidValue("ht"/"hp").
    """
    return require_int("hp", hp) <= hp_thresholds(ht).body_may_be_destroyed_at
