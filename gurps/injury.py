"""Injury, incapacitation and death: shock, major wounds and stun, knockout, the HP ladder,
instant death, hit locations and crippling, and recovery (canon §5.1–5.6, with the unseen
target of §5e; book p. 97, 126–128, 203). The campaign's house rule on who dies when
(§5.4.1) is in ``gurps.house``.

All HP are whole hit points; "hp_lost" is what came off the HP in one blow (after DR and the
wound multiplier, §4.9), and "hp" is what remains (0 and negative included). The hit
locations themselves live in ``gurps.hit_locations`` (below ``gurps.damage``, which reads them
too) and are re-exported here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from gurps._validate import check_attribute, require_at_least, require_int
from gurps.attributes import STAGGERED_AT
from gurps.checks import Outcome
from gurps.damage import DamageType, wound_multiplier
from gurps.dice import RandomSource, parse_dice
from gurps.errors import (
    EYES_CRIPPLING_OUTSIDE_CANON,
    EYES_KNOCKOUT_OUTSIDE_CANON,
    HP_AFTER_ABOVE_HP_BEFORE,
    NEGATIVE_HP_LOST,
    NEGATIVE_SKILL,
    NEGATIVE_WILL_LEVEL,
    PHYSICIAN_WEEKLY_OUTSIDE_CANON,
    UNKNOWN_HIT_LOCATION,
    UNKNOWN_STUN_KIND,
    UNKNOWN_TARGET_CONDITION,
    InvalidValue,
    OutsideCanon,
)
from gurps.hit_locations import (
    ARM_PENALTIES,
    HIT_LOCATION_PAGE,
    ArmSide,
    HitLocation,
    hit_location,
    hit_location_penalty,
)
from gurps.hit_locations import HIT_LOCATION_SECTION as HIT_LOCATION_SECTION  # re-exported
from gurps.rolling import Modifier, require_outcome
from gurps.tabular import CanonTable, signed

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


def wound_attack_penalty(wounds_last_round: Iterable[int]) -> int:
    """The modifier to the attack roll: minus the HP lost in the previous round, the wounds
    of that round added together (§5.1 and §4.5, p. 97). Wounds of 2 and 3 → −5; none → 0.

    The canon gives it "em separado" from the shock of ``shock_penalty``; how the two meet
    on one attack roll is the attack's business (``gurps.combat``, §4.5 "Ferimento").
    ``wounds_last_round`` HP lost in each wound, each 0 or more; raises
    InvalidValue("hp_lost") for a negative or non-int wound.
    """
    return -sum(require_at_least("hp_lost", hp, 0, NEGATIVE_HP_LOST) for hp in wounds_last_round)


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


class StunKind(StrEnum):
    """Physical stun (a wound) or mental stun (surprise, shock: "você não está ferido, está
    confuso"), §5.2, p. 127. Both work the same way; only the recovery roll differs."""

    PHYSICAL = "physical"
    MENTAL = "mental"


class StunCause(StrEnum):
    MAJOR_WOUND = "major_wound"
    CRITICAL_HIT_RECEIVED = "critical_hit_received"
    BRAIN_BLOW = "brain_blow"
    CRIPPLING_INJURY = "crippling_injury"
    BLINDING_INJURY = "blinding_injury"
    SURPRISE = "surprise"
    SHOCK = "shock"


@dataclass(frozen=True)
class StunSource:
    """One thing that stuns, in the canon's words (§5.2, p. 127), and the kind of stun."""

    cause: StunCause
    words: str
    kind: StunKind
    section: str = "5.2"
    page: str = "127"


STUN_SOURCES: tuple[StunSource, ...] = (
    StunSource(StunCause.MAJOR_WOUND, "perder mais que HT/2 num único golpe", StunKind.PHYSICAL),
    StunSource(StunCause.CRITICAL_HIT_RECEIVED, "golpe fulminante recebido", StunKind.PHYSICAL),
    StunSource(StunCause.BRAIN_BLOW, "golpe no cérebro que tire mais que HT/3", StunKind.PHYSICAL),
    StunSource(StunCause.CRIPPLING_INJURY, "lesão incapacitante", StunKind.PHYSICAL),
    StunSource(StunCause.BLINDING_INJURY, "lesão cegante", StunKind.PHYSICAL),
    StunSource(StunCause.SURPRISE, "surpresa", StunKind.MENTAL),
    StunSource(StunCause.SHOCK, "choque", StunKind.MENTAL),
)
# §5.2 (p. 127): stunned is −4 on every active defence (gurps.defence.STUNNED_PENALTY), and
# still an active defence: a stunned target is not helpless (§5.4.1).


def stun_causes(
    ht: int,
    hp_lost: int,
    *,
    location: HitLocation | str | None = None,
    critical_hit_received: bool = False,
    crippled: bool = False,
    blinded: bool = False,
) -> tuple[StunCause, ...]:
    """Why a blow stuns its victim (§5.2, p. 127), in the order of ``STUN_SOURCES``; empty:
    not stunned. A physical stun: losing more than HT/2 in one blow (the HT roll then decides
    only whether the victim also falls, ``major_wound``), a critical hit received, a blow to
    the brain over HT/3, and any crippling or blinding injury.

    ``ht`` 1 or more; ``hp_lost`` in HP, 0 or more; ``location`` where it hit (None: not
    located); ``crippled`` from ``is_crippled`` (it counts a series of blows, so the caller
    passes it), ``blinded`` as the Mestre rules it (the canon has no blinding threshold).
    Raises InvalidValue("ht"/"hp_lost"/"location").
    """
    causes = []
    if is_major_wound(ht, hp_lost):
        causes.append(StunCause.MAJOR_WOUND)
    if critical_hit_received:
        causes.append(StunCause.CRITICAL_HIT_RECEIVED)
    if location is not None and hit_location(location) is HitLocation.BRAIN:
        if is_stunned_by_brain_blow(ht, hp_lost):
            causes.append(StunCause.BRAIN_BLOW)
    if crippled:
        causes.append(StunCause.CRIPPLING_INJURY)
    if blinded:
        causes.append(StunCause.BLINDING_INJURY)
    return tuple(causes)


def stun_recovery_level(
    kind: StunKind | str, *, ht: int | None = None, iq: int | None = None
) -> int:
    """The level of the roll to leave a stun, at the start of the victim's next turn (§5.2,
    p. 127): basic HT — no modifier — for a physical stun, IQ for a mental one. Passed: acts
    normally that same turn. Failed: stays stunned, no maneuver, and rolls again next turn.

    ``kind`` "physical" or "mental"; ``ht`` (physical) or ``iq`` (mental), 1 or more.
    Raises InvalidValue("kind") for an unknown kind, InvalidValue("ht"/"iq") if the
    attribute needed is missing or below 1.
    """
    try:
        stun = StunKind(kind)
    except ValueError:
        raise InvalidValue("kind", UNKNOWN_STUN_KIND) from None
    if stun is StunKind.PHYSICAL:
        check_attribute("ht", ht)  # type: ignore[arg-type]
        return ht  # type: ignore[return-value]
    check_attribute("iq", iq)  # type: ignore[arg-type]
    return iq  # type: ignore[return-value]


# --- §5.3 Nocaute (p. 127) ----------------------------------------------------------------------


class KnockoutCheck(StrEnum):
    """What a blow asks for under §5.3: nothing, an HT roll (failed → unconscious), or an
    automatic knockout."""

    NONE = "none"
    HT_ROLL = "ht_roll"
    AUTOMATIC = "automatic"


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
    where = hit_location(location)
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
    below. ``label`` is the row as the canon writes it ("3, 2 ou 1", "−5 × HT"); ``effect``
    is what happens there, in the canon's words (without the page, which is ``page``)."""

    threshold: Threshold
    label: str
    fixed: int
    ht_multiple: int
    page: str
    section: str = "5.4"
    effect: str = ""

    def at(self, ht: int) -> int:
        """The HP at or below which the row applies, for ``ht`` (1 or more; else
        InvalidValue("ht"))."""
        check_attribute("ht", ht)
        return self.fixed + self.ht_multiple * ht


HP_THRESHOLDS: tuple[HpThreshold, ...] = (
    HpThreshold(
        Threshold.STAGGERED,
        "3, 2 ou 1",
        STAGGERED_AT,
        0,
        "126 e 99",
        effect="Deslocamento e Esquiva caem à metade, para baixo. Você está cambaleando.",
    ),
    HpThreshold(
        Threshold.HT_ROLL_EACH_TURN,
        "0 ou menos",
        0,
        0,
        "126",
        effect=(
            "No início de cada turno, teste de HT (somando Força de Vontade, subtraindo "
            "Vontade Fraca). Passou: o turno corre normal. Falhou: desmaia."
        ),
    ),
    HpThreshold(
        Threshold.DEATH_CHECK,
        "−HT",
        0,
        -1,
        "126",
        effect=(
            "Teste de HT básico ou morre. Sobrevivendo, ainda fala e luta. Novo teste a cada "
            "5 PV perdidos depois disso — e um golpe de 6 ou mais que cruze duas faixas "
            "obriga a dois testes."
        ),
    ),
    HpThreshold(Threshold.AUTOMATIC_DEATH, "−5 × HT", 0, -5, "126", effect="Morte automática."),
    HpThreshold(
        Threshold.BODY_MAY_BE_DESTROYED,
        "−10 × HT",
        0,
        -10,
        "126",
        effect="O corpo pode ter sido destruído.",
    ),
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


# --- §5.4 Morte instantânea, and the unseen target of §5e (p. 126) ----------------------------


class TargetCondition(StrEnum):
    """The state of the one attacked, as §5.4 and §5e tell them apart."""

    ACTIVE = "active"  # em guarda
    UNAWARE = "unaware"  # apenas desprevenida: a sentinela que não te vê
    STUNNED = "stunned"  # atordoado: ainda tem defesa ativa, a −4
    HELPLESS = "helpless"  # indefesa
    UNCONSCIOUS = "unconscious"  # inconsciente


class InstantDeath(StrEnum):
    DECAPITATION = "decapitation"
    THROAT_CUT = "throat_cut"
    LETHAL_ATTACK_ON_HELPLESS = "lethal_attack_on_helpless"


# §5.4: "pessoa indefesa ou inconsciente atacada de maneira claramente letal está morta".
HELPLESS_CONDITIONS = frozenset({TargetCondition.HELPLESS, TargetCondition.UNCONSCIOUS})


def _target_condition(value: TargetCondition | str) -> TargetCondition:
    try:
        return TargetCondition(value)
    except ValueError:
        raise InvalidValue("condition", UNKNOWN_TARGET_CONDITION) from None


def instant_death(
    condition: TargetCondition | str,
    *,
    clearly_lethal: bool = False,
    decapitation: bool = False,
    throat_cut: bool = False,
) -> InstantDeath | None:
    """Death outside the HP ladder, with no damage roll (§5.4, p. 126), or None.

    Decapitation and a cut throat kill. A target that is helpless or unconscious, attacked in
    a clearly lethal way, is dead. A merely unaware target is not (she is attacked with
    ``unaware_target_modifiers``), and neither is a stunned one: stunned still has an active
    defence, at −4 (§5.4.1). ``condition`` a TargetCondition; ``clearly_lethal`` as the
    Mestre rules the attack. Raises InvalidValue("condition") for an unknown condition.
    """
    state = _target_condition(condition)
    if decapitation:
        return InstantDeath.DECAPITATION
    if throat_cut:
        return InstantDeath.THROAT_CUT
    if clearly_lethal and state in HELPLESS_CONDITIONS:
        return InstantDeath.LETHAL_ATTACK_ON_HELPLESS
    return None


# §5.4 and §5e: a still target who does not see you: +4 to hit, no active defence.
UNAWARE_TARGET_HIT_BONUS = 4
UNAWARE_TARGET_HAS_ACTIVE_DEFENCE = False


# --- §5.5 Lesões incapacitantes (p. 127 and 203); the price of choosing where is in
# gurps.hit_locations --------------------------------------------------------------------------


def unaware_target_modifiers(
    location: HitLocation | str = HitLocation.VITALS, *, arm_side: ArmSide | str | None = None
) -> tuple[Modifier, Modifier]:
    """The modifiers, announced before the dice, to hit a still target who does not see you
    (§5.4 and §5e, p. 126): +4, and the location's penalty — at the vital organs +4 and −3,
    as for the canon's sentry. She has no active defence
    (``UNAWARE_TARGET_HAS_ACTIVE_DEFENCE``), and it is not instant death
    (``instant_death``). Raises InvalidValue("location"/"arm_side")."""
    where = hit_location(location)
    return (
        Modifier(UNAWARE_TARGET_HIT_BONUS, "alvo parado que não te vê"),
        Modifier(hit_location_penalty(where, arm_side=arm_side), where.label),
    )


@dataclass(frozen=True)
class CripplingRule:
    """One row of the §5.5 table: ``locations`` are crippled by damage ≥ HT × ``ht_fraction``
    (exactly, compared as a Fraction: reading ``crippling_exact_fraction``)."""

    locations: tuple[HitLocation, ...]
    ht_fraction: Fraction
    section: str = "5.5"
    page: str = "127 e 203"

    @property
    def limb(self) -> str:
        """The row as the canon writes it: "Mão ou pé"."""
        first, *others = (location.label for location in self.locations)
        return " ou ".join([first.capitalize(), *others])

    @property
    def threshold(self) -> str:
        """ "dano ≥ HT/3"."""
        return f"dano ≥ HT/{self.ht_fraction.denominator}"


CRIPPLING_RULES: tuple[CripplingRule, ...] = (
    CripplingRule((HitLocation.HAND, HitLocation.FOOT), Fraction(1, 3)),
    CripplingRule((HitLocation.ARM, HitLocation.LEG), Fraction(1, 2)),
)


def _crippling_rule(location: HitLocation | str) -> CripplingRule | None:
    where = hit_location(location)
    if where is HitLocation.EYES:
        raise OutsideCanon("5.5", EYES_CRIPPLING_OUTSIDE_CANON)
    return next((rule for rule in CRIPPLING_RULES if where in rule.locations), None)


def crippling_threshold(ht: int, location: HitLocation | str) -> Fraction | None:
    """The damage that cripples ``location``, exact (§5.5, p. 127): HT/3 for a hand or a
    foot, HT/2 for an arm or a leg (HT 10 hand: 10/3). None for a location that is not a limb
    (brain, head, vitals, torso). Raises InvalidValue("ht"/"location"), and
    OutsideCanon("5.5") for the eyes, whose threshold the canon does not give."""
    check_attribute("ht", ht)
    rule = _crippling_rule(location)
    return None if rule is None else ht * rule.ht_fraction


def is_crippled(ht: int, location: HitLocation | str, hp_lost: int) -> bool:
    """True if ``hp_lost`` to the limb — one blow or the sum of a series — reaches the
    threshold: damage ≥ HT/3 (hand, foot) or ≥ HT/2 (arm, leg), compared exactly (reading
    ``crippling_exact_fraction``: HT 10 hand needs 4, HT 12 hand 4, HT 11 arm 6) (§5.5,
    p. 127). False for a location that is not a limb. A crippling injury also stuns (§5.2).

    Raises InvalidValue("ht"/"hp_lost"/"location"), OutsideCanon("5.5") for the eyes.
    """
    threshold = crippling_threshold(ht, location)
    lost = require_at_least("hp_lost", hp_lost, 0, NEGATIVE_HP_LOST)
    return threshold is not None and lost >= threshold


def limb_hp_lost(
    ht: int, location: HitLocation | str, hp_lost: int, *, limb_hp_lost_before: int = 0
) -> int:
    """The HP a blow really takes when it hits ``location`` (§5.5, p. 127): damage beyond what
    cripples the limb is lost, in one blow or over a series. The limb takes at most the least
    whole HP that reaches the threshold (HT 12 hand: 4), counting what it took before.
    A location that is not a limb takes ``hp_lost`` whole.

    ``hp_lost`` the blow's HP lost (after DR and wound multiplier); ``limb_hp_lost_before``
    what the same limb took earlier in the series, 0 or more. Raises
    InvalidValue("ht"/"location"/"hp_lost"/"limb_hp_lost_before"), OutsideCanon("5.5") for
    the eyes.
    """
    threshold = crippling_threshold(ht, location)
    lost = require_at_least("hp_lost", hp_lost, 0, NEGATIVE_HP_LOST)
    before = require_at_least("limb_hp_lost_before", limb_hp_lost_before, 0, NEGATIVE_HP_LOST)
    if threshold is None:
        return lost
    limit = -(-threshold.numerator // threshold.denominator)  # the least whole HP ≥ threshold
    return max(0, min(lost, limit - before))


@dataclass(frozen=True)
class CripplingEffects:
    """What a crippled limb does (§5.5 and §5.2, p. 127): a hand drops what it held, a leg
    brings the victim down; the victim is stunned; it lasts to the end of the fight, and
    failing an HT roll it may last longer or be permanent (the canon gives no modifier or
    duration for that roll)."""

    drops_what_it_holds: bool
    knocked_down: bool
    stunned: bool = True
    lasts_until_end_of_fight: bool = True
    ht_roll_or_longer: bool = True
    section: str = "5.5"
    page: str = "127"


def crippling_effects(location: HitLocation | str) -> CripplingEffects:
    """The effects of crippling ``location`` (§5.5, p. 127). Raises InvalidValue("location")
    for a location that is not a limb, OutsideCanon("5.5") for the eyes."""
    where = hit_location(location)
    if _crippling_rule(where) is None:
        raise InvalidValue("location", UNKNOWN_HIT_LOCATION)
    return CripplingEffects(
        drops_what_it_holds=where is HitLocation.HAND, knocked_down=where is HitLocation.LEG
    )


# --- §5.6 Recuperação (p. 127–128) --------------------------------------------------------------


class Recovery(StrEnum):
    BANDAGE = "bandage"
    FIRST_AID = "first_aid"
    NATURAL_HEALING = "natural_healing"
    PHYSICIAN = "physician"


@dataclass(frozen=True)
class RecoveryMeans:
    """One row of the §5.6 table, in the canon's words."""

    means: Recovery
    name: str
    effect: str
    time: str
    page: str
    section: str = "5.6"


RECOVERY_MEANS: tuple[RecoveryMeans, ...] = (
    RecoveryMeans(
        Recovery.BANDAGE,
        "Atadura, por qualquer pessoa",
        "1 PV, e nunca mais que isso",
        "30 min por ferido",
        "127",
    ),
    RecoveryMeans(
        Recovery.FIRST_AID,
        "Primeiros Socorros, NT 2–3",
        "1d−3 PV, mínimo 1. Sucesso decisivo: recupera todo o PV. Falha crítica: −2 PV e as "
        "ataduras não servem mais. Não soma com atadura.",
        "30 min por ferido",
        "128",
    ),
    RecoveryMeans(
        Recovery.NATURAL_HEALING,
        "Cura natural",
        "Teste de HT ao fim de cada dia de repouso e boa alimentação. Passou: 1 PV.",
        "por dia",
        "128",
    ),
    RecoveryMeans(
        Recovery.PHYSICIAN,
        "Médico com NH 12+ em Medicina",
        "+1 nos testes de cura do paciente. Em NT 1–3 o médico ainda rola contra Medicina uma "
        "vez por semana: sucesso dá 1 PV extra, decisivo dá 2, falha crítica custa 1 PV.",
        "semanal",
        "128",
    ),
)

BANDAGE_HP = 1
TREATMENT_MINUTES_PER_PATIENT = 30
# First Aid at NT 2–3: the canon's own reading (§9 item 3: the campaign never declared a
# tech level; the equipment of `03` is Roman / medieval).
FIRST_AID_TECH_LEVEL = "2–3"
FIRST_AID_DICE = parse_dice("1d-3")
FIRST_AID_MINIMUM_HP = 1
FIRST_AID_CRITICAL_FAILURE_HP = -2
NATURAL_HEALING_HP = 1
PHYSICIAN_MINIMUM_MEDICINE = 12
PHYSICIAN_HEALING_BONUS = 1
# The physician's weekly Medicine roll at NT 1–3, HP per outcome. A plain failure is not in
# the canon's row: reading plain_failure_heals_nothing.
PHYSICIAN_WEEKLY_HP: dict[Outcome, int] = {
    Outcome.CRITICAL_SUCCESS: 2,
    Outcome.SUCCESS: 1,
    Outcome.FAILURE: 0,
    Outcome.CRITICAL_FAILURE: -1,
}


def _hp_lost(value: int) -> int:
    return require_at_least("hp_lost", value, 0, NEGATIVE_HP_LOST)


def hp_lost_after(hp_lost: int, change: int) -> int:
    """HP lost after ``change`` (signed: negative lost, positive recovered), outside the §4.10
    sequence: a loss adds to what was lost (below 0 HP the §5.4 ladder applies, and its rolls
    are the Mestre's to ask); a recovery never brings HP above full (§5.6: what comes back is
    what was lost). 3 lost, +5 → 0; 3 lost, −2 → 5.

    Raises InvalidValue("hp_lost") if negative, InvalidValue("change") if not an int."""
    lost = _hp_lost(hp_lost)
    return max(0, lost - require_int("change", change))


def bandage(hp_lost: int, *, first_aid_given: bool = False) -> int:
    """HP a bandage gives back (§5.6, p. 127): 1, and never more — never more than was lost,
    and nothing if First Aid already treated the wound (reading
    ``first_aid_does_not_add_to_bandage``). Anyone can bandage; 30 min per patient.

    ``hp_lost`` HP below full, 0 or more. Raises InvalidValue("hp_lost").
    """
    lost = _hp_lost(hp_lost)
    return 0 if first_aid_given else min(BANDAGE_HP, lost)


@dataclass(frozen=True)
class FirstAid:
    """The result of a First Aid roll (§5.6, p. 128): ``hp_change`` HP (negative on a
    critical failure), whether the bandages are spoiled, and the die rolled (empty if none)."""

    hp_change: int
    bandages_spoiled: bool
    dice: tuple[int, ...] = ()
    section: str = "5.6"
    page: str = "128"


def first_aid(
    outcome: Outcome | str, source: RandomSource, *, hp_lost: int, bandaged: bool = False
) -> FirstAid:
    """First Aid at NT 2–3 — the canon's reading of the tech level, §9 item 3 (§5.6, p. 128).

    Success: 1d−3 HP, at least 1 (the die comes from ``source``). Critical success: every HP
    lost comes back. Critical failure: −2 HP and the bandages are spoiled. Plain failure:
    nothing (reading ``plain_failure_heals_nothing``). It does not add to a bandage: a wound
    already bandaged gets only what First Aid gives beyond the bandage's 1 HP (reading
    ``first_aid_does_not_add_to_bandage``). Never more than ``hp_lost``.

    ``outcome`` of the First Aid roll (gurps.checks.Outcome); ``hp_lost`` HP below full now,
    0 or more; ``bandaged`` True if a bandage already gave its HP. Raises
    InvalidValue("outcome"/"hp_lost").
    """
    result = require_outcome(outcome)
    lost = _hp_lost(hp_lost)
    if result is Outcome.CRITICAL_FAILURE:
        return FirstAid(FIRST_AID_CRITICAL_FAILURE_HP, bandages_spoiled=True)
    if result is Outcome.CRITICAL_SUCCESS:
        return FirstAid(lost, bandages_spoiled=False)
    if result is Outcome.FAILURE:
        return FirstAid(0, bandages_spoiled=False)
    faces, total = FIRST_AID_DICE.roll(source)
    healed = max(FIRST_AID_MINIMUM_HP, total) - (BANDAGE_HP if bandaged else 0)
    return FirstAid(min(lost, max(0, healed)), bandages_spoiled=False, dice=faces)


def natural_healing_level(ht: int, *, physician_medicine: int | None = None) -> int:
    """The level of the daily healing roll: HT, +1 under a physician with Medicine 12 or more
    (§5.6, p. 128). ``physician_medicine`` the physician's Medicine NH, None without one.
    Raises InvalidValue("ht"/"physician_medicine")."""
    check_attribute("ht", ht)
    if physician_medicine is None:
        return ht
    return ht + physician_healing_bonus(physician_medicine)


def natural_healing(outcome: Outcome | str) -> int:
    """HP regained by the HT roll at the end of a day of rest and good food: 1 if it passed,
    else 0 (§5.6, p. 128). The campaign's accounting for what leaves the descent is `03`
    §10.4 (50 g and a week; 200 g at a sanctuary). Raises InvalidValue("outcome")."""
    return NATURAL_HEALING_HP if require_outcome(outcome).is_success else 0


def physician_healing_bonus(medicine_level: int) -> int:
    """+1 to the patient's healing rolls if the physician has Medicine 12 or more, else 0
    (§5.6, p. 128). Raises InvalidValue("physician_medicine") for a negative NH."""
    level = require_at_least("physician_medicine", medicine_level, 0, NEGATIVE_SKILL)
    return PHYSICIAN_HEALING_BONUS if level >= PHYSICIAN_MINIMUM_MEDICINE else 0


def physician_weekly(outcome: Outcome | str, *, medicine_level: int) -> int:
    """HP from the physician's weekly Medicine roll at NT 1–3 (§5.6, p. 128): success +1,
    critical success +2, critical failure −1, plain failure 0 (reading
    ``plain_failure_heals_nothing``).

    ``medicine_level`` the physician's Medicine NH; the canon gives the roll only to a
    physician with 12 or more: below that, OutsideCanon("5.6"). Raises
    InvalidValue("outcome"/"physician_medicine").
    """
    result = require_outcome(outcome)
    if physician_healing_bonus(medicine_level) == 0:
        raise OutsideCanon("5.6", PHYSICIAN_WEEKLY_OUTSIDE_CANON)
    return PHYSICIAN_WEEKLY_HP[result]


# --- the tables, as the rules pages show them ------------------------------------------------


def _location_penalty_cell(location: HitLocation) -> str:
    if location is HitLocation.ARM:
        weapon, other = ARM_PENALTIES[ArmSide.WEAPON], ARM_PENALTIES[ArmSide.OTHER]
        return f"{signed(weapon)} o da arma, {signed(other)} o outro"
    return signed(location.penalty)  # type: ignore[arg-type]


CANON_TABLES: tuple[CanonTable, ...] = (
    CanonTable(
        key="stun_sources",
        title="O que atordoa",
        section="5.2",
        page="127",
        columns=("Causa", "Sai com teste de"),
        rows=tuple(
            (row.words, "HT básico" if row.kind is StunKind.PHYSICAL else "IQ")
            for row in STUN_SOURCES
        ),
        note="Atordoado: −4 em todas as defesas ativas.",
    ),
    CanonTable(
        key="hp_thresholds",
        title="Os limiares de PV",
        section="5.4",
        page="126",
        columns=("PV restantes", "O que acontece"),
        rows=tuple((row.label, f"{row.effect} (pág. {row.page})") for row in HP_THRESHOLDS),
        heading="## 5.4 Os limiares de PV",
    ),
    CanonTable(
        key="hit_location_penalties",
        title="Escolher onde bater",
        section="5.5",
        page=HIT_LOCATION_PAGE,
        columns=("Local", "Redutor no NH"),
        rows=tuple(
            (location.label.capitalize(), _location_penalty_cell(location))
            for location in HitLocation
        ),
        note=(
            "Órgãos vitais recebem dano triplo de perfurante. "
            "O braço da arma a −2 e o outro a −4 é leitura do site: o cânone diz «conforme o lado»."
        ),
    ),
    CanonTable(
        key="crippling",
        title="Lesões incapacitantes",
        section="5.5",
        page="127 e 203",
        columns=("Membro", "Fica incapacitado com"),
        rows=tuple((rule.limb, rule.threshold) for rule in CRIPPLING_RULES),
        heading="## 5.5 Lesões incapacitantes",
        note="Dano além do necessário para incapacitar o membro é perdido, num golpe ou numa série.",
    ),
    CanonTable(
        key="recovery",
        title="Recuperação",
        section="5.6",
        page="127–128",
        columns=("Meio", "Efeito", "Tempo", "Onde"),
        rows=tuple((row.name, row.effect, row.time, f"pág. {row.page}") for row in RECOVERY_MEANS),
        heading="## 5.6 Recuperação",
        note="NT 2–3 é a leitura do próprio cânone (§9, item 3): a campanha nunca declarou um NT.",
    ),
)
