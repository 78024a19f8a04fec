"""Travel and moving: the pace table, the day's hours, the forced march, difficult terrain,
climbing, swimming, crawling and jumping (Xuleta, «§8 Viatge i entorn», §8.1–§8.4).

Pure. Distances: kilometres and metres as ``Fraction`` (exact; the text's «4,5 km»), jumps in
centimetres (int). Dice only from ``source``. Errors: ``XuletaError`` naming the field.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from dice.rolling import RandomSource
from xuleta.errors import XuletaError
from xuleta.readings import Reading
from xuleta.rolls import D20Result, roll_against

FAST, NORMAL, SLOW = "fast", "normal", "slow"


@dataclass(frozen=True)
class Pace:
    """One row of the «Ritme de viatge» table: ``label`` (the text's word), metres a minute,
    km an hour and a day, and its ``effect`` as printed («—» for none); ``passive_perception``
    (the shift to passive Perception) and ``stealth`` (whether Sigil may be used)."""

    key: str
    label: str
    per_minute_m: int
    per_hour_km: Fraction
    per_day_km: int
    effect: str
    passive_perception: int = 0
    stealth: bool = False


# «Ritme | Per minut | Per hora | Per dia | Efecte» (the table at the end of the text)
PACES = MappingProxyType(
    {
        FAST: Pace(FAST, "Ràpid", 120, Fraction(6), 48, "−5 a la Percepció passiva", -5),
        NORMAL: Pace(NORMAL, "Normal", 90, Fraction(9, 2), 36, "—"),
        SLOW: Pace(SLOW, "Lent", 60, Fraction(3), 24, "Pots fer servir Sigil", stealth=True),
    }
)
TRAVEL_HOURS_PER_DAY = 8  # «Es compten unes 8 hores de viatge al dia.»
FORCED_MARCH_BASE_DC = 10  # «salvació de Constitució CD 10 + 1 per hora extra»

BAD_PACE = "Ritmo de viagem desconhecido: «{pace}». Use um de: {known}."
BAD_HOURS = "«{field}» deve ser um número inteiro de horas, 0 ou mais."
BAD_METRES = "«{field}» deve ser uma distância em metros, 0 ou mais."
BAD_MODE = "Modo de mover desconhecido: «{mode}». Use um de: {known}."


def pace(key: str) -> Pace:
    """The pace ``key`` (fast, normal, slow); ``XuletaError`` (field ``pace``) otherwise."""
    if key not in PACES:
        known = ", ".join(f"{k} ({p.label})" for k, p in PACES.items())
        raise XuletaError(BAD_PACE.format(pace=key, known=known), "pace")
    return PACES[key]


def _hours(value, field: str = "hours") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise XuletaError(BAD_HOURS.format(field=field), field)
    return value


def travel_km(pace_key: str, hours: int, difficult: bool = False) -> Fraction:
    """Kilometres covered in ``hours`` at ``pace_key`` (the table's «Per hora»); on difficult
    terrain half: «Viatjant, avances la meitat de distància.» (§8.2 Terreny difícil)."""
    km = pace(pace_key).per_hour_km * _hours(hours)
    return km / 2 if difficult else km


def extra_hours(hours_travelled: int) -> int:
    """Hours beyond the day's 8 («Es compten unes 8 hores de viatge al dia.»)."""
    return max(0, _hours(hours_travelled, "hours_travelled") - TRAVEL_HOURS_PER_DAY)


def forced_march_dc(extra_hour: int) -> int:
    """«Marxa forçada: per cada hora de més, salvació de Constitució CD 10 + 1 per hora
    extra.» (§8.1): the ``extra_hour``-th hour beyond 8 (1, 2…) asks DC 10 + that number."""
    if isinstance(extra_hour, bool) or not isinstance(extra_hour, int) or extra_hour < 1:
        raise XuletaError("A hora extra conta de 1 em diante.", "extra_hour")
    return FORCED_MARCH_BASE_DC + extra_hour


def forced_march_dcs(hours_before: int, hours_after: int) -> tuple[tuple[int, int], ...]:
    """The saves a stretch of travel asks: ``(extra hour, DC)`` for each hour past the 8th
    between ``hours_before`` and ``hours_after`` travelled today (e.g. 8 → 12: (1, 11), (2, 12),
    (3, 13), (4, 14))."""
    start, end = _hours(hours_before, "hours_before"), _hours(hours_after, "hours_after")
    return tuple(
        (hour - TRAVEL_HOURS_PER_DAY, forced_march_dc(hour - TRAVEL_HOURS_PER_DAY))
        for hour in range(max(start, TRAVEL_HOURS_PER_DAY) + 1, end + 1)
    )


@dataclass(frozen=True)
class MarchSave:
    """One forced-march save: the extra hour, its DC, the d20 result (None when the save failed
    without a roll) and whether it ``exhausts`` (a failure: «Si falles, un nivell
    d'esgotament.»)."""

    extra_hour: int
    dc: int
    result: D20Result | None
    exhausts: bool


def forced_march(
    source: RandomSource,
    save_bonus: int,
    hours_before: int,
    hours_after: int,
    edge: str = "none",
    auto_fail: bool = False,
) -> tuple[MarchSave, ...]:
    """Roll each save of ``forced_march_dcs`` (a Constitution save: d20 + ``save_bonus`` under
    ``edge``, equal or more passes); each failure is one exhaustion level. ``auto_fail``: the
    save fails without a roll (never for Constitution under the conditions, but kept for the
    caller's edge reading)."""
    saves = []
    for hour, dc in forced_march_dcs(hours_before, hours_after):
        if auto_fail:
            saves.append(MarchSave(hour, dc, None, True))
            continue
        result = roll_against(source, "save", save_bonus, dc, edge)
        saves.append(MarchSave(hour, dc, result, not result.success))
    return tuple(saves)


# --- moving: difficult terrain, climbing, swimming, crawling ------------------------------------

WALK, CLIMB, SWIM, CRAWL = "walk", "climb", "swim", "crawl"
MOVE_MODES = MappingProxyType(
    {WALK: "caminhar", CLIMB: "enfilar-se", SWIM: "nedar", CRAWL: "arrossegar-se"}
)


def movement_factor(mode: str = WALK, difficult: bool = False, special_speed: bool = False) -> int:
    """How many metres of movement each metre costs.

    - «Cada casella costa el doble: 1,5 m et gasten 3 m de moviment.» (§8.2, difficult terrain)
    - «Cada metre compta doble, tret que tinguis velocitat per a això (velocitat d'escalada o de
      natació). Si a més és terreny difícil, cada metre compta el triple.» (§8.3)

    ``special_speed``: a climbing speed for ``climb``, a swimming speed for ``swim`` (crawling
    has none); with it the metre counts as walking (reading ``special_speed_difficult``)."""
    if mode not in MOVE_MODES:
        known = ", ".join(MOVE_MODES)
        raise XuletaError(BAD_MODE.format(mode=mode, known=known), "mode")
    if mode == WALK or (special_speed and mode in (CLIMB, SWIM)):
        return 2 if difficult else 1
    return 3 if difficult else 2


def movement_cost_m(
    distance_m: Fraction | int,
    mode: str = WALK,
    difficult: bool = False,
    special_speed: bool = False,
) -> Fraction:
    """Metres of movement spent to cover ``distance_m`` (``movement_factor``)."""
    distance = Fraction(distance_m)
    if distance < 0:
        raise XuletaError(BAD_METRES.format(field="distance_m"), "distance_m")
    return distance * movement_factor(mode, difficult, special_speed)


# --- jumping -------------------------------------------------------------------------------------

LONG_JUMP_CM_PER_STR = 30  # «Longitud: 30 cm per cada punt de Força»
HIGH_JUMP_BASE_CM = 90  # «Alçada: 90 cm + 30 cm per cada punt del teu mod. de Força.»
HIGH_JUMP_CM_PER_MOD = 30
RUN_UP_M = 3  # «Amb 3 m d'embranzida saltes el màxim; sense embranzida, la meitat.»


def long_jump_cm(strength: int, run_up: bool = True) -> int:
    """The long jump in cm: 30 × the Força score; half without a 3 m run-up (rounded down)."""
    full = LONG_JUMP_CM_PER_STR * max(0, int(strength))
    return full if run_up else full // 2


def high_jump_cm(strength_modifier: int, run_up: bool = True) -> int:
    """The high jump in cm: 90 + 30 × the Força modifier, never below 0 (reading
    ``high_jump_minimum``); half without a 3 m run-up (rounded down)."""
    full = max(0, HIGH_JUMP_BASE_CM + HIGH_JUMP_CM_PER_MOD * int(strength_modifier))
    return full if run_up else full // 2


def jump_movement_cm(jump_cm: int) -> int:
    """«Cada metre de salt gasta un metre de moviment.»"""
    return max(0, int(jump_cm))


def passive_perception_at(passive: int, pace_key: str) -> int:
    """Passive Perception while travelling at ``pace_key``: −5 fast («−5 a la Percepció
    passiva»)."""
    return passive + pace(pace_key).passive_perception


def pace_allows_stealth(pace_key: str) -> bool:
    """«anar lent deixa moure's amb sigil»: only the slow pace lets the group use Sigil."""
    return pace(pace_key).stealth


def paces() -> Iterable[Pace]:
    return PACES.values()


READINGS = (
    Reading(
        "forced_march_round_hours",
        "8.1",
        "A rodada de viagem do procedimento tem 4 horas; a Xuleta pede a salvação «per cada hora "
        "de més»: numa rodada além das 8 horas, quantas salvações?",
        "Uma por hora extra: a 3ª rodada de Avançar (horas 9–12) pede 4 salvações, CD 11, 12, 13 "
        "e 14; cada falha é um nível de esgotamento.",
    ),
    Reading(
        "special_speed_difficult",
        "8.3",
        "Com velocidade de escalada (ou natação) em terreno difícil, o metro conta o dobro ou o "
        "triplo?",
        "O dobro: a velocidade própria tira o dobro do enfilar-se; fica o do terreno difícil.",
    ),
    Reading(
        "high_jump_minimum",
        "8.4",
        "Alçada: 90 cm + 30 cm por ponto do mod. de Força; com mod. −4 ou menos dá menos de 0.",
        "Nunca menos de 0 cm; a metade sem embalo arredonda para baixo (em cm).",
    ),
)
