"""Mana by floor of the Garganta, the house rule that there is no spell without Magery
(canon §6.4 and §8; `17` §6.2 and §6.5), the energy a spell roll spends (§4.15, Decision 33)
and resisting magic (§7.3, book p. 150).

The mana table is the campaign's, not the book's: high mana gives +2 to the effective level
and half the fatigue (a number the Árbitro set), and Magery is required on every floor. The
table of critical failures in spellcasting is in ``gurps.tables``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from gurps._validate import check_attribute, require_at_least, require_int
from gurps.checks import (
    NO_ROLL_AT_OR_BELOW,
    OUTCOME_NAMES,
    Outcome,
    RollKind,
    SuccessRoll,
    roll_success,
    success_outcome,
)
from gurps.dice import RandomSource
from gurps.errors import (
    FLOOR_TOO_LOW,
    NEGATIVE_MAGIC_RESISTANCE,
    NEGATIVE_SPELL_COST,
    NEGATIVE_WILL_LEVEL,
    NO_MANA_IN_POCKET,
    NO_SPELL_WITHOUT_MAGERY,
    NOT_AN_INTEGER,
    ONE_TARGET_UNLESS_AREA,
    TABLE_OPTION_NOT_BOOLEAN,
    UNKNOWN_RESISTANCE_ATTRIBUTE,
    InvalidValue,
)
from gurps.house import HOUSE_SETTINGS
from gurps.rolling import require_outcome
from gurps.tabular import CanonTable


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
    effect: str = ""  # the row's "Efeito na fadiga", in the canon's words
    section: str = "6.4"
    page: str = "17 §6.5"


MANA_BANDS: tuple[ManaBand, ...] = (
    ManaBand("Andares 1–8", Mana.NORMAL, "Normal", 1, 8, 0, 1, 1, effect="Custo cheio"),
    ManaBand(
        "Andares 9–20",
        Mana.HIGH,
        "Alta",
        9,
        20,
        2,
        1,
        2,
        effect="+2 no nível efetivo e metade da fadiga, arredondando para cima",
    ),
    ManaBand(
        "Andares 21+",
        Mana.VERY_HIGH,
        "Muito alta",
        21,
        None,
        0,
        0,
        1,
        True,
        effect="Nenhuma fadiga — e toda falha comum vira falha crítica",
    ),
    ManaBand(
        "Bolsão", Mana.NONE, "Nula", None, None, 0, 0, 1, spells_work=False, effect="Nada funciona"
    ),
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


# --- §4.15 The energy a spell roll spends (Decision 33, 13/09/2026) -----------------------------


@dataclass(frozen=True)
class EnergyRule:
    """What a spell roll of ``outcome`` spends (§4.15): ``points`` energy points, capped at
    the spell's cost, or the whole cost where ``points`` is None. ``text``: the canon's words
    (§4.15's list; the plain success is §6.4's "Custo cheio")."""

    outcome: Outcome
    text: str
    points: int | None
    section: str = "4.15"


SPELL_ENERGY_RULES: tuple[EnergyRule, ...] = (
    EnergyRule(Outcome.CRITICAL_SUCCESS, "Sucesso decisivo não gasta energia nenhuma.", 0),
    EnergyRule(Outcome.SUCCESS, "Custo cheio", None, section="6.4"),
    EnergyRule(Outcome.FAILURE, "Falha comum gasta 1 ponto, não o custo inteiro da mágica.", 1),
    EnergyRule(
        Outcome.CRITICAL_FAILURE,
        "Falha crítica gasta o custo inteiro e rola-se 3d na tabela abaixo.",
        None,
    ),
)


def _outcome(value: Outcome | str) -> Outcome:
    return require_outcome(value)


def spell_energy_spent(outcome: Outcome | str, cost: int) -> int:
    """Energy points a spell roll of ``outcome`` spends, for a spell of ``cost`` points
    (§4.15, Decision 33): critical success 0; success the whole cost; ordinary failure 1
    point, never above the cost (reading ``spell_failure_cost_zero``: a 0-cost spell spends
    0); critical failure the whole cost (and a roll on the table, ``gurps.tables``).

    This is before the floor's mana band: ``spell_fatigue_spent`` applies it. ``outcome``
    an ``Outcome`` or its value; ``cost`` in energy points, 0 or more. Raises
    InvalidValue("outcome"/"spell_cost").
    """
    kind = _outcome(outcome)
    whole = require_at_least("spell_cost", cost, 0, NEGATIVE_SPELL_COST)
    rule = next(rule for rule in SPELL_ENERGY_RULES if rule.outcome is kind)
    return whole if rule.points is None else min(rule.points, whole)


def spell_fatigue_spent(
    outcome: Outcome | str, floor: int, spell_cost: int, magery: int, *, pocket: bool = False
) -> int:
    """Fatigue (ST points) a caster with ``magery`` levels pays for a spell roll of
    ``outcome`` on ``floor``, for a spell of ``spell_cost`` energy points (§4.15 with §6.4).

    First the floor turns the outcome (very high mana: an ordinary failure is critical,
    ``mana_outcome``); then §4.15 gives the energy spent (``spell_energy_spent``); then the
    band takes its share, rounding up: normal, all of it; high (9–20), half; very high (21+),
    none (reading ``mana_applies_to_energy_spent``). High mana, cost 3: success 2, failure 1,
    critical success 0.

    Raises InvalidValue as ``spell_casting`` (no Magery, a null-mana pocket, a bad floor or
    cost) and InvalidValue("outcome").
    """
    casting = spell_casting(floor, spell_cost, magery, pocket=pocket)
    energy = spell_energy_spent(mana_outcome(_outcome(outcome), floor, pocket=pocket), spell_cost)
    band = casting.band
    return -(-energy * band.fatigue_numerator // band.fatigue_denominator)


# --- §7.3 Resistir a magia (p. 150) -------------------------------------------------------------

# §7.3: "Contra alvo vivo, o conjurador rola contra 16 no máximo, mesmo que o NH seja maior."
LIVING_TARGET_LEVEL_CAP = 16
# §7.3: "Abascanto conta em dobro contra magia de área."
AREA_MAGIC_RESISTANCE_FACTOR = 2


class ResistAttribute(StrEnum):
    """The attribute a spell is resisted with (§7.3): IQ, ST, DX or HT, per spell."""

    IQ = "iq"
    ST = "st"
    DX = "dx"
    HT = "ht"


@dataclass(frozen=True)
class SpellTarget:
    """One target of a resistible hostile spell (§7.3).

    ``attribute`` the one the spell is resisted with ("iq", "st", "dx", "ht") and ``level``
    its value on the sheet; ``strong_will`` levels of Força de Vontade, always added;
    ``magic_resistance`` levels of Abascanto, added (twice against an area spell);
    ``living`` False for a target that is not alive (the caster's level is then not capped);
    ``resists`` False when the target chooses not to resist; ``name`` for the scene log.
    """

    attribute: ResistAttribute | str
    level: int
    strong_will: int = 0
    magic_resistance: int = 0
    living: bool = True
    resists: bool = True
    name: str = ""


def caster_level_against(spell_level: int, *, living: bool) -> int:
    """The level the caster's spell roll counts against for one target (§7.3, p. 150): the
    effective spell level (mana bonus and modifiers included), at most 16 against a living
    target — there is no automatic victory over resistance. Raises InvalidValue("level")."""
    level = require_int("level", spell_level)
    return min(level, LIVING_TARGET_LEVEL_CAP) if living else level


def resistance_level(target: SpellTarget, *, area: bool = False, field: str = "target") -> int:
    """The target's resistance (§7.3, p. 150): the spell's attribute, plus Strong Will
    levels, plus Magic Resistance (Abascanto) levels — counted twice against an area spell.
    Weak Will is not subtracted (reading ``resist_magic_no_weak_will``).

    Raises InvalidValue(``field`` + ".attribute"/".iq"…/".strong_will"/".magic_resistance").
    """
    try:
        attribute = ResistAttribute(target.attribute)
    except ValueError:
        raise InvalidValue(f"{field}.attribute", UNKNOWN_RESISTANCE_ATTRIBUTE) from None
    check_attribute(f"{field}.{attribute.value}", target.level)
    will = require_at_least(f"{field}.strong_will", target.strong_will, 0, NEGATIVE_WILL_LEVEL)
    resistance = require_at_least(
        f"{field}.magic_resistance", target.magic_resistance, 0, NEGATIVE_MAGIC_RESISTANCE
    )
    factor = AREA_MAGIC_RESISTANCE_FACTOR if area else 1
    return target.level + will + factor * resistance


CASTER_FAILED_TEXT = "O conjurador falhou: o alvo não percebe nada."
NOT_RESISTED_TEXT = "O alvo escolheu não resistir: a magia funciona."
NO_RESISTANCE_ROLL_TEXT = (
    "Resistência {level}: não se rola com nível efetivo 3 ou menos; o alvo não resiste, e a "
    "magia funciona."
)
RESISTED_TEXT = (
    "Margem do alvo {target} contra {caster} do conjurador: a magia não funciona, mas a energia "
    "foi gasta do mesmo jeito. O alvo consciente sente um desconforto e nada mais. O "
    "conjurador sabe que foi rechaçado."
)
OVERCOME_TEXT = "Margem do alvo {target} contra {caster} do conjurador: a magia funciona."


@dataclass(frozen=True)
class TargetResistance:
    """How one target fared (§7.3): the caster's level and margin against it
    (``caster_level`` ≤ 16 if living), the target's ``resistance`` level and ``roll`` (None
    when there was none: the caster failed, the target chose not to resist, or its level was
    3 or less), whether it ``resisted`` (the spell does not work on it) or is ``affected``,
    and ``text``, the outcome in Portuguese."""

    target: SpellTarget
    caster_level: int
    caster_margin: int
    resistance: int
    roll: SuccessRoll | None
    resisted: bool
    affected: bool
    text: str
    readings: tuple[str, ...] = ()


@dataclass(frozen=True)
class SpellResistance:
    """A resisted spell (§7.3): the one ``spell_roll`` (against the full effective level; its
    outcome is what the energy rule reads — energy is spent even when the target resists),
    whether it was an ``area`` spell, and one ``TargetResistance`` per target."""

    spell_roll: SuccessRoll
    area: bool
    targets: tuple[TargetResistance, ...]

    @property
    def caster_rebuffed(self) -> bool:
        """True if any target resisted: the caster knows he was rebuffed."""
        return any(result.resisted for result in self.targets)


def _flag(field: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise InvalidValue(field, TABLE_OPTION_NOT_BOOLEAN)
    return value


def resist_spell(
    source: RandomSource,
    *,
    spell_level: int,
    targets: Sequence[SpellTarget],
    area: bool = False,
) -> SpellResistance:
    """Cast a resistible hostile spell at ``spell_level`` (effective, after the mana bonus
    and every modifier) on ``targets`` and roll each resistance (§7.3, p. 150).

    1. One spell roll, 3d against ``spell_level``. Failed: no target notices anything, and no
       resistance is rolled.
    2. Against a living target the caster's margin is taken against at most 16
       (``caster_level_against``); the same dice serve every target of an area spell.
    3. Each target that resists rolls 3d against ``resistance_level`` (Abascanto counts
       double against an area spell). A resistance of 3 or less is not rolled and does not
       resist (reading ``resist_at_three_or_less``). A target may choose not to resist.
    4. Target's margin ≥ caster's margin: the spell does not work on it (ties go to the
       target); the energy is spent all the same (``spell_energy_spent`` with
       ``spell_roll.outcome``), the conscious target feels a discomfort, the caster knows.

    The mana band is the caller's: add its bonus to ``spell_level`` (``spell_casting``) and
    pass ``spell_roll.outcome`` through ``mana_outcome`` before the energy rule.

    A spell that is not an area spell has exactly one target. Dice are taken from ``source``
    in that order: the spell roll, then each resisting target's roll, in ``targets`` order.
    Raises NoRollAtThreeOrLess for ``spell_level`` 3 or less (§1.1),
    InvalidValue("targets", ONE_TARGET_UNLESS_AREA), InvalidValue("targets.N.…") for a bad
    target, InvalidValue("area") for a non-bool.
    """
    is_area = _flag("area", area)
    found = tuple(targets)
    if not is_area and len(found) != 1:
        raise InvalidValue("targets", ONE_TARGET_UNLESS_AREA)
    levels = []
    for index, target in enumerate(found):
        field = f"targets.{index}"
        levels.append(resistance_level(target, area=is_area, field=field))
        _flag(f"{field}.living", target.living)
        _flag(f"{field}.resists", target.resists)
    spell_roll = roll_success(source, spell_level, RollKind.SKILL)
    results = []
    for target, resistance in zip(found, levels, strict=True):
        caster_level = caster_level_against(spell_level, living=target.living)
        caster_margin = caster_level - spell_roll.total
        common = (target, caster_level, caster_margin, resistance)
        if not success_outcome(spell_roll.total, caster_level).is_success:
            results.append(TargetResistance(*common, None, False, False, CASTER_FAILED_TEXT))
        elif not target.resists:
            results.append(TargetResistance(*common, None, False, True, NOT_RESISTED_TEXT))
        elif resistance <= NO_ROLL_AT_OR_BELOW:
            text = NO_RESISTANCE_ROLL_TEXT.format(level=resistance)
            results.append(
                TargetResistance(
                    *common, None, False, True, text, readings=("resist_at_three_or_less",)
                )
            )
        else:
            roll = roll_success(source, resistance, RollKind.ATTRIBUTE)
            resisted = roll.margin >= caster_margin
            text = (RESISTED_TEXT if resisted else OVERCOME_TEXT).format(
                target=roll.margin, caster=caster_margin
            )
            results.append(TargetResistance(*common, roll, resisted, not resisted, text))
    return SpellResistance(spell_roll, is_area, tuple(results))


# --- The tables this module shows ----------------------------------------------------------------

CANON_TABLES: tuple[CanonTable, ...] = (
    CanonTable(
        key="spell_energy",
        title="Energia gasta no teste de mágica",
        section="4.15",
        page="",
        columns=("Resultado", "Energia gasta"),
        rows=tuple((OUTCOME_NAMES[rule.outcome], rule.text) for rule in SPELL_ENERGY_RULES),
        decided=HOUSE_SETTINGS["spell_critical_failure"].decided,
        note="Vale para todo teste de mágica.",
    ),
    CanonTable(
        key="mana_bands",
        title="Mana por faixa de andares",
        section="6.4",
        page="",  # the canon takes it from document `17`, §6.5, and cites no book page
        columns=("Faixa", "Mana", "Efeito na fadiga"),
        rows=tuple((band.band, band.name, band.effect) for band in MANA_BANDS),
        heading="## 6.4 Por que isso é decisivo para o mago",
        note="Do `17`, seção 6.5. Sem Aptidão Mágica não há feitiço em nenhuma faixa.",
    ),
)
