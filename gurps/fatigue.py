"""Fatigue: what spends it, what it takes, how it comes back, and asphyxia (canon §6.1–6.3
and §6.5; book p. 91, 122, 128, 134).

Fatigue is lost ST (§6, p. 134); ``attributes.effective_st`` applies it and
``attributes.move`` halves Move at ST 3 or less. Here are the costs as data, the ones the
canon gives as numbers, what fatigue takes (§6.2) and holding one's breath (§6.5).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from gurps._validate import check_attribute, require_at_least
from gurps.attributes import LOW_ST_AT, effective_st, low_st_from_fatigue
from gurps.encumbrance import encumbrance_row
from gurps.errors import (
    MARCH_FATIGUE_NOT_IN_CANON,
    NEGATIVE_DURATION,
    NEGATIVE_FATIGUE_COST,
    NEGATIVE_FATIGUE_LOST,
    NEGATIVE_SKILL,
    UNKNOWN_EXERTION,
    InvalidValue,
    OutsideCanon,
)
from gurps.tabular import CanonTable


@dataclass(frozen=True)
class FatigueSource:
    """One row of the §6.1 table, as the canon writes it: what spends fatigue and how much."""

    source: str
    cost: str
    page: str
    section: str = "6.1"


FATIGUE_SOURCES: tuple[FatigueSource, ...] = (
    FatigueSource(
        "Luta de mais de 10 segundos",
        "nível de Carga + 1. Sem carga, 1 ponto; Carga muito pesada, 5.",
        "134",
    ),
    FatigueSource(
        "Marcha, por hora de estrada",
        "2 pontos com Carga leve; 3 no calor; mais conforme a carga",
        "134",
    ),
    FatigueSource(
        "Corrida ou natação", "teste de HT a cada 100 m; cada falha custa 1 ponto", "134"
    ),
    FatigueSource(
        "Esforço extra — erguer, saltar, arrastar acima do peso", "1 ponto por tentativa", "134"
    ),
    FatigueSource("Noite sem dormir", "5 pontos. Meia noite: 2.", "134"),
    FatigueSource(
        "Refeição perdida",
        "1 ponto, e essa só volta com um dia inteiro de descanso e 3 refeições",
        "128",
    ),
    FatigueSource(
        "Sem água",
        "1 ponto de fadiga e 1 PV por dia; menos de um litro por dia, 2 de cada",
        "128",
    ),
    FatigueSource("Magia", "conforme o feitiço", "134, e `17` §6.4"),
)

# "Luta de mais de 10 segundos" (§6.1, p. 134).
COMBAT_FATIGUE_AFTER_SECONDS = 10
# Marching with Carga Leve, per hour of road; in the heat (§6.1, p. 134).
MARCH_LIGHT_PER_HOUR = 2
MARCH_LIGHT_HOT_PER_HOUR = 3
LIGHT_ENCUMBRANCE = 1
HEAVIEST_ENCUMBRANCE = 4  # Muito Pesada (§2.2)
# Per attempt at extra effort; per failed HT roll every 100 m running or swimming.
EXTRA_EFFORT_COST = 1
RUNNING_FAILURE_COST = 1
RUNNING_CHECK_EVERY_M = 100
# A night without sleep; half a night. A missed meal.
SLEEPLESS_NIGHT_COST = 5
HALF_NIGHT_COST = 2
MISSED_MEAL_COST = 1
# §6.3 (p. 134): 1 point per 10 minutes of quiet rest; the Mestre may give 1 more for a meal.
RECOVERY_MINUTES_PER_POINT = 10
MEAL_RECOVERY_BONUS = 1


def fight_encumbrance_level(level: int | None) -> int:
    """The Carga level a fight's fatigue counts (§6.1, p. 134; §2.2): 0–4 as it is; a load
    above 10 × ST has no level (``gurps.encumbrance.Encumbrance.level`` None: the character
    can only lift it, §2.2) and counts as Muito Pesada, 4 — reading: the heaviest row the
    table has."""
    return HEAVIEST_ENCUMBRANCE if level is None else level


def combat_fatigue(seconds: int, encumbrance_level: int) -> int:
    """Fatigue a fight of ``seconds`` costs a fighter at ``encumbrance_level`` (0 Nenhuma ..
    4 Muito Pesada): 0 for 10 s or less; above, the level + 1 (none 1, Muito Pesada 5)
    (§6.1, p. 134). A caster who crosses no weapon pays none (the caller's business).
    Raises InvalidValue("seconds") if negative, InvalidValue("encumbrance_level") outside 0–4.
    """
    duration = require_at_least("seconds", seconds, 0, NEGATIVE_DURATION)
    level = encumbrance_row(encumbrance_level).level
    return level + 1 if duration > COMBAT_FATIGUE_AFTER_SECONDS else 0


def march_fatigue(hours: int, encumbrance_level: int, *, hot: bool = False) -> int:
    """Fatigue of ``hours`` hours of marching (§6.1, p. 134): 2 per hour with Carga Leve,
    3 in the heat. The canon gives no number for other loads ("mais conforme a carga"):
    OutsideCanon("6.1"). Raises InvalidValue("hours") if negative,
    InvalidValue("encumbrance_level") outside 0–4."""
    duration = require_at_least("hours", hours, 0, NEGATIVE_DURATION)
    if encumbrance_row(encumbrance_level).level != LIGHT_ENCUMBRANCE:
        raise OutsideCanon("6.1", MARCH_FATIGUE_NOT_IN_CANON)
    return duration * (MARCH_LIGHT_HOT_PER_HOUR if hot else MARCH_LIGHT_PER_HOUR)


def rest_recovery(minutes: int, *, meal: bool = False) -> int:
    """Fatigue points recovered by ``minutes`` of quiet rest: 1 per full 10 minutes, plus 1
    if the Mestre grants it for a decent meal (§6.3, p. 134). Fatigue from lack of sleep
    comes back only with a night's sleep (not counted here). Raises InvalidValue("minutes")
    if negative."""
    duration = require_at_least("minutes", minutes, 0, NEGATIVE_DURATION)
    return duration // RECOVERY_MINUTES_PER_POINT + (MEAL_RECOVERY_BONUS if meal else 0)


# --- §6.2 O que a fadiga cobra (p. 134) ---------------------------------------------------------

# "ST 1: você desfalece" and "ST 0: desmaia, e descansa automaticamente até voltar a 1".
COLLAPSE_AT_ST = 1
FAINT_AT_ST = 0
# §6.2: "O dano básico das armas não muda."
FATIGUE_CHANGES_WEAPON_DAMAGE = False


@dataclass(frozen=True)
class FatigueEffects:
    """What fatigue takes at one moment (§6.2, p. 134).

    ``st_for_skills``: the ST that ST-based skills and tests use (ST − fatigue, never below
    0). ``st_for_weapon_damage``: the sheet's ST — basic weapon damage does not change.
    ``move_halved``: ST fallen to 3 or less (``attributes.low_st_from_fatigue``; ``attributes.move``
    does the halving). ``collapsed``: ST 1,
    nothing physical until 1 point comes back; still talks and still casts. ``unconscious``:
    ST 0, faints, and rests automatically until back at ST 1.
    """

    st: int
    fatigue_lost: int  # never more than ST: there is no negative fatigue
    st_for_skills: int
    st_for_weapon_damage: int
    move_halved: bool
    collapsed: bool
    unconscious: bool
    section: str = "6.2"
    page: str = "134"

    @property
    def can_act_physically(self) -> bool:
        return not (self.collapsed or self.unconscious)

    @property
    def can_talk_and_cast(self) -> bool:
        return not self.unconscious


def fatigue_effects(st: int, fatigue_lost: int) -> FatigueEffects:
    """What ``fatigue_lost`` points take from a character of sheet ST ``st`` (§6.2, p. 134).
    ST 10 with 4 fatigue works as ST 6 for ST-based skills and tests; weapon damage stays
    at ST 10; Move is unchanged until ST falls to 3; ST 1 collapses, ST 0 faints. There is no
    negative fatigue: 14 points on ST 10 is ST 0.

    The effects follow the ST left after fatigue, as ``attributes.move`` does. Raises
    InvalidValue("st") below 1, InvalidValue("fatigue_lost") if negative.
    """
    left = effective_st(st, fatigue_lost)
    return FatigueEffects(
        st=st,
        fatigue_lost=st - left,
        st_for_skills=left,
        st_for_weapon_damage=st,
        move_halved=low_st_from_fatigue(st, fatigue_lost),
        collapsed=left == COLLAPSE_AT_ST,
        unconscious=left == FAINT_AT_ST,
    )


def st_based_level(level: int, st: int, fatigue_lost: int) -> int:
    """An ST-based skill or test under fatigue: ``level`` minus the ST that fatigue took
    (§6.2, p. 134). An ST roll of 10 with 4 fatigue → 6.

    ``level`` the sheet's NH, 0 or more; ``st`` the sheet's ST. Raises
    InvalidValue("level"/"st"/"fatigue_lost").
    """
    base = require_at_least("level", level, 0, NEGATIVE_SKILL)
    return base - (st - effective_st(st, fatigue_lost))


def spend_fatigue(st: int, fatigue_lost: int, cost: int) -> int:
    """Fatigue lost after paying ``cost`` more points: never more than ST, since negative
    fatigue does not exist (§6.2, p. 134). ST 10 with 8 lost pays 5 → 10.

    Raises InvalidValue("st") below 1, InvalidValue("fatigue_lost"/"cost") if negative.
    """
    check_attribute("st", st)
    lost = require_at_least("fatigue_lost", fatigue_lost, 0, NEGATIVE_FATIGUE_LOST)
    spent = require_at_least("cost", cost, 0, NEGATIVE_FATIGUE_COST)
    return min(st, lost + spent)


def recover_fatigue(fatigue_lost: int, points: int) -> int:
    """Fatigue lost after ``points`` come back (``rest_recovery``, §6.3): never below 0.
    Raises InvalidValue("fatigue_lost"/"points") if negative."""
    lost = require_at_least("fatigue_lost", fatigue_lost, 0, NEGATIVE_FATIGUE_LOST)
    return max(0, lost - require_at_least("points", points, 0, NEGATIVE_FATIGUE_COST))


# --- §6.5 Asfixia e fôlego (p. 91 e 122) --------------------------------------------------------


class Exertion(StrEnum):
    RESTING = "resting"  # parado, sem esforço
    LIGHT = "light"  # andar, nadar devagar
    HEAVY = "heavy"  # lutar
    PASSIVE_HELD = "passive_held"  # passivo nas mãos do agressor


class BreathUnit(StrEnum):
    SECONDS = "segundos"
    TURNS = "turnos"


@dataclass(frozen=True)
class BreathHolding:
    """One row of the §6.5 table: how long one holds the breath, ``ht_multiple`` × HT in
    ``unit``. ``needs_will_roll``: the row holds only with a Will roll (the canon does not
    say what a failed one does)."""

    exertion: Exertion
    situation: str
    ht_multiple: int
    unit: BreathUnit
    needs_will_roll: bool = False
    section: str = "6.5"
    page: str = "91 e 122"

    @property
    def duration(self) -> str:
        """The row as the canon writes it: "HT × 10 segundos", "HT segundos", "4 × HT turnos"."""
        if self.unit is BreathUnit.TURNS:
            return f"{self.ht_multiple} × HT {self.unit}"
        if self.ht_multiple == 1:
            return f"HT {self.unit}"
        return f"HT × {self.ht_multiple} {self.unit}"


BREATH_HOLDING: tuple[BreathHolding, ...] = (
    BreathHolding(Exertion.RESTING, "Parado, sem esforço", 10, BreathUnit.SECONDS),
    BreathHolding(Exertion.LIGHT, "Esforço leve — andar, nadar devagar", 4, BreathUnit.SECONDS),
    BreathHolding(Exertion.HEAVY, "Esforço pesado — lutar", 1, BreathUnit.SECONDS),
    BreathHolding(
        Exertion.PASSIVE_HELD,
        "Passivo nas mãos do agressor (exige teste de Vontade)",
        4,
        BreathUnit.TURNS,
        needs_will_roll=True,
    ),
)

# §4.1 (p. 95): "Cada turno é 1 segundo."
SECONDS_PER_TURN = 1
# §6.5: out of breath, 1 fatigue point per turn; faints when fatigue equals ST; held by the
# aggressor, dies in 4 minutes whatever the HT; asphyxia takes no HP.
ASPHYXIA_FATIGUE_PER_TURN = 1
ASPHYXIA_DEATH_MINUTES = 4
ASPHYXIA_TAKES_HP = False


def breath_holding(exertion: Exertion | str) -> BreathHolding:
    """The §6.5 row for ``exertion`` ("resting", "light", "heavy", "passive_held").
    Raises InvalidValue("exertion") for anything else."""
    try:
        kind = Exertion(exertion)
    except ValueError:
        raise InvalidValue("exertion", UNKNOWN_EXERTION) from None
    return next(row for row in BREATH_HOLDING if row.exertion is kind)


def breath_holding_seconds(ht: int, exertion: Exertion | str) -> int:
    """How long a character of ``ht`` holds the breath, in seconds (§6.5, p. 91 and 122):
    at rest HT × 10, light effort HT × 4, heavy effort (fighting) HT, passive in the
    aggressor's hands 4 × HT turns of 1 second (§4.1) — that row only with a Will roll
    (``breath_holding(...).needs_will_roll``).

    Raises InvalidValue("ht"/"exertion").
    """
    check_attribute("ht", ht)
    row = breath_holding(exertion)
    per_unit = SECONDS_PER_TURN if row.unit is BreathUnit.TURNS else 1
    return row.ht_multiple * ht * per_unit


@dataclass(frozen=True)
class Asphyxia:
    """Where a victim stands after ``turns`` without breath (§6.5): fatigue lost (never more
    than ST), fainted once fatigue equals ST, and dead if an aggressor kept the hold 4
    minutes after that. HP are never touched (``ASPHYXIA_TAKES_HP``)."""

    fatigue_lost: int
    fainted: bool
    dead: bool
    section: str = "6.5"
    page: str = "91 e 122"


def asphyxia(
    st: int, fatigue_lost: int, turns: int, *, held_by_aggressor: bool = False
) -> Asphyxia:
    """The state after ``turns`` turns past the end of the breath (§6.5, p. 91 and 122):
    1 fatigue point a turn (never past ST); when fatigue equals ST the victim faints; if the
    aggressor does not let go, she dies 4 minutes (240 one-second turns) later, whatever her
    HT — reading ``asphyxia_death_counted_from_faint``. Let go in time, she comes to quickly
    (the canon gives no number for how quickly).

    ``st`` the sheet's ST; ``fatigue_lost`` before the breath ran out; ``turns`` 0 or more.
    Raises InvalidValue("st"/"fatigue_lost"/"turns").
    """
    check_attribute("st", st)
    before = require_at_least("fatigue_lost", fatigue_lost, 0, NEGATIVE_FATIGUE_LOST)
    elapsed = require_at_least("turns", turns, 0, NEGATIVE_DURATION)
    lost = spend_fatigue(st, min(before, st), elapsed * ASPHYXIA_FATIGUE_PER_TURN)
    turns_to_faint = -(-max(0, st - before) // ASPHYXIA_FATIGUE_PER_TURN)
    fainted = lost >= st
    death_turns = ASPHYXIA_DEATH_MINUTES * 60 // SECONDS_PER_TURN
    dead = held_by_aggressor and fainted and elapsed - turns_to_faint >= death_turns
    return Asphyxia(fatigue_lost=lost, fainted=fainted, dead=dead)


CANON_TABLES: tuple[CanonTable, ...] = (
    CanonTable(
        key="fatigue_sources",
        title="O que gasta fadiga",
        section="6.1",
        page="128, 134",
        columns=("Fonte", "Custo", "Página"),
        rows=tuple((row.source, row.cost, row.page) for row in FATIGUE_SOURCES),
        heading="## 6.1 O que gasta",
        note="Fadiga é perda de ST, do mesmo jeito que ferimento é perda de HT.",
    ),
    CanonTable(
        key="fatigue_effects",
        title="O que a fadiga cobra",
        section="6.2",
        page="134",
        columns=("ST depois da fadiga", "O que acontece"),
        rows=(
            ("qualquer", "Perícias e testes baseados em ST rodam com a ST reduzida."),
            ("qualquer", "O dano básico das armas não muda."),
            (f"{LOW_ST_AT} ou menos", "Deslocamento cai à metade."),
            (
                str(COLLAPSE_AT_ST),
                "Desfalece: nada físico até recuperar 1 ponto. Ainda fala e ainda conjura.",
            ),
            (
                str(FAINT_AT_ST),
                "Desmaia, e descansa automaticamente até voltar a 1. Fadiga negativa não existe.",
            ),
        ),
    ),
    CanonTable(
        key="breath_holding",
        title="Asfixia e fôlego",
        section="6.5",
        page="91 e 122",
        columns=("Situação", "Quanto se prende a respiração"),
        rows=tuple((row.situation, row.duration) for row in BREATH_HOLDING),
        heading="## 6.5 Asfixia e fôlego",
        note=(
            "Acabado o fôlego: 1 ponto de fadiga por turno. Quando a fadiga iguala a ST, a "
            "vítima desmaia. Se o agressor não soltar, ela morre em 4 minutos. Asfixia não "
            "tira PV."
        ),
    ),
)
