"""Fire, poison and disease (canon §5g), heat and cold (§5h).

The canon cites no book page for these two sections, so every row here has ``page`` "".
Damage is given as dice expressions (``gurps.dice``); rolling them, and what the damage does,
is the caller's (§4.9, §5).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum

from gurps._validate import check_attribute, require_at_least, require_int
from gurps.checks import Outcome
from gurps.dice import DiceExpression, RandomSource, parse_dice
from gurps.errors import (
    DIE_OUT_OF_RANGE,
    FIRE_DR_OUTSIDE_CANON,
    FLOOR_TOO_LOW,
    NEGATIVE_DR,
    NEGATIVE_DURATION,
    NEGATIVE_SKILL,
    ORDINARY_COLD_OUTSIDE_CANON,
    TORCH_DAMAGE_IS_PER_HIT,
    UNKNOWN_FIRE_ARMOUR,
    UNKNOWN_FIRE_KIND,
    UNKNOWN_POISON_TYPE,
    InvalidValue,
    OutsideCanon,
)
from gurps.rolling import require_outcome
from gurps.tabular import CanonTable

SECTION_FIRE_POISON_DISEASE = "5g"
SECTION_HEAT_COLD = "5h"


def _dice_text(expression: DiceExpression) -> str:
    """Dice as §5g and §5h write them: 1D, 1D−3."""
    return expression.display.upper()


def _times(expression: DiceExpression, times: int) -> DiceExpression:
    """``times`` rolls of ``expression`` summed: 3 turns of 1D−1 → 3d−3."""
    return DiceExpression(expression.count * times, expression.modifier * times)


# --- Fogo ---------------------------------------------------------------------------------------


class FireKind(StrEnum):
    ON_FIRE = "on_fire"  # estar em chamas
    TORCH = "torch"  # tocha em combate
    BURNING_OIL = "burning_oil"  # óleo em chamas


@dataclass(frozen=True)
class FireHazard:
    """One line of §5g "Fogo": the damage, and whether it is per turn (``per_turn``) or per
    blow (the torch)."""

    kind: FireKind
    name: str
    damage: DiceExpression
    per_turn: bool
    rule: str
    section: str = SECTION_FIRE_POISON_DISEASE
    page: str = ""


FIRE_HAZARDS: tuple[FireHazard, ...] = (
    FireHazard(
        FireKind.ON_FIRE,
        "Estar em chamas",
        parse_dice("1d"),
        True,
        "o fogo continua até ser apagado — rolar no chão, água, ou abafar leva 1 turno com "
        "sucesso em DX",
    ),
    FireHazard(
        FireKind.TORCH,
        "Tocha em combate",
        parse_dice("1d-3"),
        False,
        "incendeia com 5 ou menos em 1d",
    ),
    FireHazard(
        FireKind.BURNING_OIL,
        "Óleo em chamas",
        parse_dice("1d-1"),
        True,
        "enquanto arder, e a armadura não protege contra fogo que entra por baixo dela",
    ),
)
# "rolar no chão, água, ou abafar leva 1 turno com sucesso em DX"
PUT_OUT_TURNS = 1
# "Tocha em combate ... incendeia com 5 ou menos em 1d"
TORCH_IGNITES_AT_OR_BELOW = 5


def fire_hazard(kind: FireKind | str) -> FireHazard:
    """The §5g line for ``kind`` ("on_fire", "torch", "burning_oil"). Raises
    InvalidValue("kind") for anything else."""
    try:
        found = FireKind(kind)
    except ValueError:
        raise InvalidValue("kind", UNKNOWN_FIRE_KIND) from None
    return next(row for row in FIRE_HAZARDS if row.kind is found)


def fire_damage(kind: FireKind | str, *, turns: int = 1) -> DiceExpression:
    """The fire damage to roll (§5g): on fire 1D per turn until put out, burning oil 1D−1
    per turn while it burns (3 turns → 3d−3), a torch 1D−3 per blow.

    ``turns`` 0 or more; a torch's damage is per blow, so ``turns`` other than 1 raises
    InvalidValue("turns"). Raises InvalidValue("kind"/"turns").
    """
    row = fire_hazard(kind)
    count = require_at_least("turns", turns, 0, NEGATIVE_DURATION)
    if not row.per_turn:
        if count != 1:
            raise InvalidValue("turns", TORCH_DAMAGE_IS_PER_HIT)
        return row.damage
    return _times(row.damage, count)


def torch_ignites(die: int) -> bool:
    """True if a torch in combat sets its target on fire: 5 or less on 1d (§5g). ``die`` the
    face rolled, 1 to 6; raises InvalidValue("die") otherwise."""
    face = require_int("die", die)
    if not 1 <= face <= 6:
        raise InvalidValue("die", DIE_OUT_OF_RANGE)
    return face <= TORCH_IGNITES_AT_OR_BELOW


def roll_torch_ignites(source: RandomSource) -> tuple[int, bool]:
    """Roll the 1d of a torch in combat (§5g): (the face, whether it ignites)."""
    face = source.randint(1, 6)
    return face, torch_ignites(face)


def fire_put_out(dx_outcome: Outcome | str) -> bool:
    """Rolling on the ground, water or smothering takes 1 turn and puts the fire out with a
    DX success (§5g). ``dx_outcome`` of that turn's DX roll. Raises InvalidValue("outcome")."""
    return require_outcome(dx_outcome).is_success


class FireArmour(StrEnum):
    """What the DR is made of, against fire (§5g)."""

    METAL = "metal"
    LEATHER = "leather"
    OTHER = "other"


def dr_against_fire(dr: int, armour: FireArmour | str, *, fire_under_armour: bool = False) -> int:
    """The DR an armour keeps against fire (§5g): metal none ("esquenta"), leather half,
    rounding down (reading ``leather_fire_dr_rounds_down``). Fire that gets under the armour
    — burning oil — meets no armour at all.

    ``dr`` 0 or more; ``armour`` "metal", "leather" or "other". Raises
    InvalidValue("dr"/"armour"), and OutsideCanon("5g") for "other" (the canon names only
    metal and leather).
    """
    value = require_at_least("dr", dr, 0, NEGATIVE_DR)
    try:
        material = FireArmour(armour)
    except ValueError:
        raise InvalidValue("armour", UNKNOWN_FIRE_ARMOUR) from None
    if fire_under_armour or material is FireArmour.METAL:
        return 0
    if material is FireArmour.LEATHER:
        return value // 2
    raise OutsideCanon(SECTION_FIRE_POISON_DISEASE, FIRE_DR_OUTSIDE_CANON)


# --- Veneno -------------------------------------------------------------------------------------


class PoisonType(StrEnum):
    BLOOD = "blood"  # de sangue
    NERVE = "nerve"  # de nervo
    SLEEP = "sleep"  # sonífero


class PoisonEffectKind(StrEnum):
    DAMAGE_PER_MINUTE = "damage_per_minute"  # 1D de dano por minuto, até passar num teste
    PARALYSIS_MINUTES = "paralysis_minutes"  # paralisia por 1D minutos
    SLEEP_HOURS = "sleep_hours"  # dorme 1D horas


@dataclass(frozen=True)
class Poison:
    """One row of the §5g poison table: the HT roll's modifier and what a failure does,
    ``dice`` of it. ``effect`` is the row as the canon writes it."""

    poison_type: PoisonType
    name: str
    effect: str
    ht_modifier: int
    failure: PoisonEffectKind
    dice: DiceExpression
    section: str = SECTION_FIRE_POISON_DISEASE
    page: str = ""


POISONS: tuple[Poison, ...] = (
    Poison(
        PoisonType.BLOOD,
        "De sangue",
        "HT ou 1D de dano por minuto, até passar num teste",
        0,
        PoisonEffectKind.DAMAGE_PER_MINUTE,
        parse_dice("1d"),
    ),
    Poison(
        PoisonType.NERVE,
        "De nervo",
        "HT ou paralisia por 1D minutos",
        0,
        PoisonEffectKind.PARALYSIS_MINUTES,
        parse_dice("1d"),
    ),
    Poison(
        PoisonType.SLEEP,
        "Sonífero",
        "HT −2 ou dorme 1D horas",
        -2,
        PoisonEffectKind.SLEEP_HOURS,
        parse_dice("1d"),
    ),
)
# "Antídoto testa Farmacologia, ou Primeiros Socorros a −4 se for improvisado."
IMPROVISED_ANTIDOTE_MODIFIER = -4
ANTIDOTE_SKILL = "Farmacologia"
IMPROVISED_ANTIDOTE_SKILL = "Primeiros Socorros"


def poison(poison_type: PoisonType | str) -> Poison:
    """The row for ``poison_type`` ("blood", "nerve", "sleep"). Raises
    InvalidValue("poison_type") for anything else."""
    try:
        found = PoisonType(poison_type)
    except ValueError:
        raise InvalidValue("poison_type", UNKNOWN_POISON_TYPE) from None
    return next(row for row in POISONS if row.poison_type is found)


def poison_delivered(basic_damage: int, dr: int) -> bool:
    """True if a poisoned weapon delivers its poison: only when the blow passes the DR, i.e.
    its basic damage is more than the DR (§5g). ``basic_damage`` as rolled; ``dr`` 0 or more.
    Raises InvalidValue("basic_damage"/"dr")."""
    return require_int("basic_damage", basic_damage) > require_at_least("dr", dr, 0, NEGATIVE_DR)


def poison_resistance_level(
    ht: int, poison_type: PoisonType | str, *, modifier: int | None = None
) -> int:
    """The level of the HT roll against a poison (§5g): HT plus the poison's modifier. With
    ``modifier`` None, the table's: 0 for blood and nerve poisons, −2 for a sleeping poison.
    A poison with its own modifier (given by the bestiary or the Mestre) uses that one in
    place of the table's (reading ``poison_modifier_replaces_type``).

    Raises InvalidValue("ht"/"poison_type"/"modifier").
    """
    check_attribute("ht", ht)
    row = poison(poison_type)
    extra = row.ht_modifier if modifier is None else require_int("modifier", modifier)
    return ht + extra


@dataclass(frozen=True)
class PoisonEffect:
    """What one HT roll against a poison gave (§5g): nothing on a success; on a failure,
    ``amount`` of ``kind`` (HP of damage, minutes of paralysis, hours of sleep), with the
    faces rolled. ``rolls_again``: a blood poison keeps going — another roll next minute —
    until a roll passes."""

    poison_type: PoisonType
    kind: PoisonEffectKind
    amount: int
    rolls_again: bool
    dice: tuple[int, ...] = ()


def poison_effect(
    poison_type: PoisonType | str, outcome: Outcome | str, source: RandomSource
) -> PoisonEffect:
    """Apply one HT roll against a poison (§5g). ``outcome`` of the roll at
    ``poison_resistance_level``; on a failure the effect's 1D comes from ``source``.
    Raises InvalidValue("poison_type"/"outcome")."""
    row = poison(poison_type)
    if require_outcome(outcome).is_success:
        return PoisonEffect(row.poison_type, row.failure, 0, rolls_again=False)
    faces, total = row.dice.roll(source)
    again = row.failure is PoisonEffectKind.DAMAGE_PER_MINUTE
    return PoisonEffect(row.poison_type, row.failure, total, rolls_again=again, dice=faces)


@dataclass(frozen=True)
class AntidoteRoll:
    """The roll for an antidote (§5g): the skill and the level to roll against."""

    skill: str
    level: int
    section: str = SECTION_FIRE_POISON_DISEASE
    page: str = ""


def antidote_roll(
    *, improvised: bool, pharmacy: int | None = None, first_aid: int | None = None
) -> AntidoteRoll:
    """An antidote rolls against Farmacologia (``pharmacy``), or against Primeiros Socorros
    at −4 (``first_aid``) if it is improvised (§5g). The canon does not say what a success
    cures beyond that.

    Raises InvalidValue("pharmacy"/"first_aid") if the skill needed is missing or negative.
    """
    if improvised:
        level = require_at_least("first_aid", first_aid, 0, NEGATIVE_SKILL)
        return AntidoteRoll(IMPROVISED_ANTIDOTE_SKILL, level + IMPROVISED_ANTIDOTE_MODIFIER)
    return AntidoteRoll(ANTIDOTE_SKILL, require_at_least("pharmacy", pharmacy, 0, NEGATIVE_SKILL))


# --- Doença -------------------------------------------------------------------------------------

# "Teste de HT, com o redutor da doença, uma vez por dia; três sucessos seguidos curam, três
# falhas agravam."
DISEASE_ROLLS_PER_DAY = 1
DISEASE_STREAK = 3
# "Infecção de ferimento: HT +3 para evitar, HT normal em área de infecção especial. O kit
# de primeiros socorros dá +1, e quem não tem kit não trata."
WOUND_INFECTION_MODIFIER = 3
SPECIAL_AREA_INFECTION_MODIFIER = 0
FIRST_AID_KIT_BONUS = 1
TREATMENT_NEEDS_KIT = True


def disease_level(ht: int, modifier: int = 0) -> int:
    """The level of the daily HT roll against a disease: HT plus the disease's modifier
    (§5g). Raises InvalidValue("ht"/"modifier")."""
    check_attribute("ht", ht)
    return ht + require_int("modifier", modifier)


@dataclass(frozen=True)
class DiseaseCourse:
    """A disease day by day (§5g): the current runs of successes and failures, how many times
    it has worsened, and whether it is cured (three successes in a row)."""

    successes_in_a_row: int = 0
    failures_in_a_row: int = 0
    worsened: int = 0
    cured: bool = False
    section: str = SECTION_FIRE_POISON_DISEASE
    page: str = ""


def disease_day(course: DiseaseCourse, outcome: Outcome | str) -> DiseaseCourse:
    """The course after one day's HT roll (§5g): three successes in a row cure; three
    failures in a row worsen it, and the count of failures starts again (reading
    ``disease_worsens_each_three_failures``). A cured disease stays cured. Raises
    InvalidValue("outcome")."""
    passed = require_outcome(outcome).is_success
    if course.cured:
        return course
    if passed:
        successes = course.successes_in_a_row + 1
        return replace(
            course,
            successes_in_a_row=successes,
            failures_in_a_row=0,
            cured=successes >= DISEASE_STREAK,
        )
    failures = course.failures_in_a_row + 1
    if failures >= DISEASE_STREAK:
        return replace(
            course, successes_in_a_row=0, failures_in_a_row=0, worsened=course.worsened + 1
        )
    return replace(course, successes_in_a_row=0, failures_in_a_row=failures)


def disease_course(outcomes: Iterable[Outcome | str]) -> DiseaseCourse:
    """The course after each day's outcome in order (``disease_day`` from a new disease)."""
    course = DiseaseCourse()
    for outcome in outcomes:
        course = disease_day(course, outcome)
    return course


def wound_infection_level(
    ht: int, *, special_area: bool = False, treated_with_kit: bool = False
) -> int:
    """The level of the HT roll to avoid a wound infection (§5g): HT+3, plain HT in an area
    of special infection; +1 if the wound was treated with a first aid kit (reading
    ``first_aid_kit_bonus_on_infection_roll``). Without a kit nobody treats, so no bonus.
    Raises InvalidValue("ht")."""
    check_attribute("ht", ht)
    base = SPECIAL_AREA_INFECTION_MODIFIER if special_area else WOUND_INFECTION_MODIFIER
    return ht + base + (FIRST_AID_KIT_BONUS if treated_with_kit else 0)


# --- §5h Calor e frio ---------------------------------------------------------------------------


class Climate(StrEnum):
    EXTREME_HEAT = "extreme_heat"
    EXTREME_COLD = "extreme_cold"
    ICY_WATER = "icy_water"


@dataclass(frozen=True)
class ClimateHazard:
    """One row of the §5h table: fatigue per hour, and damage ``damage`` per ``damage_every``
    ("hora", "minuto"); ``cost`` is the row as the canon writes it."""

    climate: Climate
    situation: str
    cost: str
    fatigue_per_hour: int
    damage: DiceExpression | None
    damage_every: str | None
    section: str = SECTION_HEAT_COLD
    page: str = ""


CLIMATE_HAZARDS: tuple[ClimateHazard, ...] = (
    ClimateHazard(
        Climate.EXTREME_HEAT,
        "Calor extremo",
        "1 de Fadiga por hora, e o dobro com armadura de metal",
        1,
        None,
        None,
    ),
    ClimateHazard(
        Climate.EXTREME_COLD,
        "Frio extremo",
        "1 de Fadiga por hora, e 1D de dano por hora sem roupa de inverno",
        1,
        parse_dice("1d"),
        "hora",
    ),
    ClimateHazard(
        Climate.ICY_WATER,
        "Água gelada",
        "1D por minuto sem proteção",
        0,
        parse_dice("1d"),
        "minuto",
    ),
)
# "o dobro com armadura de metal"
METAL_ARMOUR_HEAT_MULTIPLIER = 2
# "Do andar 9 para baixo o problema inverte-se: a rocha guarda calor, e armadura de metal vira
# forno." The canon gives no number for it.
DEEP_HEAT_FROM_FLOOR = 9
DEEP_HEAT_NOTE = (
    "Do andar 9 para baixo o problema inverte-se: a rocha guarda calor, e armadura de metal "
    "vira forno."
)


def _climate(climate: Climate) -> ClimateHazard:
    return next(row for row in CLIMATE_HAZARDS if row.climate is climate)


@dataclass(frozen=True)
class ClimateCost:
    """Fatigue points and damage dice a stretch of heat, cold or icy water costs (§5h)."""

    fatigue: int
    damage: DiceExpression


NO_DAMAGE = DiceExpression(0)


def extreme_heat(hours: int, *, metal_armour: bool = False) -> ClimateCost:
    """Extreme heat (§5h): 1 fatigue point per hour, double in metal armour. ``hours`` whole,
    0 or more. Raises InvalidValue("hours")."""
    count = require_at_least("hours", hours, 0, NEGATIVE_DURATION)
    per_hour = _climate(Climate.EXTREME_HEAT).fatigue_per_hour
    factor = METAL_ARMOUR_HEAT_MULTIPLIER if metal_armour else 1
    return ClimateCost(count * per_hour * factor, NO_DAMAGE)


def extreme_cold(hours: int, *, winter_clothes: bool) -> ClimateCost:
    """Extreme cold (§5h): 1 fatigue point per hour, and 1D of damage per hour without winter
    clothes — the canon ties the damage, not the fatigue, to the clothes, so with them the
    fatigue alone. ``hours`` whole, 0 or more. Raises InvalidValue("hours")."""
    count = require_at_least("hours", hours, 0, NEGATIVE_DURATION)
    row = _climate(Climate.EXTREME_COLD)
    damage = NO_DAMAGE if winter_clothes else _times(row.damage, count)  # type: ignore[arg-type]
    return ClimateCost(count * row.fatigue_per_hour, damage)


def ordinary_cold(hours: int, *, winter_clothes: bool) -> ClimateCost:
    """Ordinary cold (§5h): winter clothes cancel it — nothing to pay. Without them the canon
    gives no number: OutsideCanon("5h"). Raises InvalidValue("hours")."""
    require_at_least("hours", hours, 0, NEGATIVE_DURATION)
    if not winter_clothes:
        raise OutsideCanon(SECTION_HEAT_COLD, ORDINARY_COLD_OUTSIDE_CANON)
    return ClimateCost(0, NO_DAMAGE)


def icy_water(minutes: int, *, protected: bool = False) -> ClimateCost:
    """Icy water (§5h): 1D of damage per minute without protection (3 minutes → 3d); the
    canon charges nothing else, so with protection nothing. ``minutes`` whole, 0 or more.
    Raises InvalidValue("minutes")."""
    count = require_at_least("minutes", minutes, 0, NEGATIVE_DURATION)
    row = _climate(Climate.ICY_WATER)
    damage = NO_DAMAGE if protected else _times(row.damage, count)  # type: ignore[arg-type]
    return ClimateCost(0, damage)


def metal_armour_is_an_oven(floor: int) -> bool:
    """True from floor 9 of the Garganta down: the rock keeps heat and metal armour becomes
    an oven (§5h). A description for the Mestre: the canon gives it no number, and this
    function adds none. ``floor`` 1 or more; raises InvalidValue("floor")."""
    return require_at_least("floor", floor, 1, FLOOR_TOO_LOW) >= DEEP_HEAT_FROM_FLOOR


# --- the tables, as the rules pages show them ------------------------------------------------


def _fire_cell(row: FireHazard) -> str:
    per = " por turno" if row.per_turn else ""
    return f"{_dice_text(row.damage)}{per}; {row.rule}"


CANON_TABLES: tuple[CanonTable, ...] = (
    CanonTable(
        key="fire",
        title="Fogo",
        section=SECTION_FIRE_POISON_DISEASE,
        page="",
        columns=("Fogo", "O que faz"),
        rows=(
            *((row.name, _fire_cell(row)) for row in FIRE_HAZARDS),
            ("RD de metal", "não protege contra fogo: esquenta"),
            ("Couro", "protege pela metade"),
        ),
    ),
    CanonTable(
        key="poison",
        title="Veneno",
        section=SECTION_FIRE_POISON_DISEASE,
        page="",
        columns=("Tipo", "Efeito de um golpe que passa"),
        rows=tuple((row.name, row.effect) for row in POISONS),
        heading="## Veneno",
        note=(
            "Só se o golpe passar a RD. Antídoto testa Farmacologia, ou Primeiros Socorros a "
            "−4 se for improvisado."
        ),
    ),
    CanonTable(
        key="disease",
        title="Doença",
        section=SECTION_FIRE_POISON_DISEASE,
        page="",
        columns=("Situação", "Teste"),
        rows=(
            (
                "Doença",
                f"HT com o redutor da doença, {DISEASE_ROLLS_PER_DAY} vez por dia; "
                f"{DISEASE_STREAK} sucessos seguidos curam, {DISEASE_STREAK} falhas agravam",
            ),
            ("Infecção de ferimento", f"HT +{WOUND_INFECTION_MODIFIER} para evitar"),
            ("Área de infecção especial", "HT normal"),
            ("Kit de primeiros socorros", f"+{FIRST_AID_KIT_BONUS}; quem não tem kit não trata"),
        ),
    ),
    CanonTable(
        key="heat_and_cold",
        title="Calor e frio",
        section=SECTION_HEAT_COLD,
        page="",
        columns=("Situação", "O que cobra"),
        rows=tuple((row.situation, row.cost) for row in CLIMATE_HAZARDS),
        heading="# 5h. Calor e frio",
        note="Roupa de inverno anula o frio comum. " + DEEP_HEAT_NOTE,
    ),
)
