"""Fatigue: what spends it and how it comes back (canon §6.1 and §6.3; book p. 128, 134).

Fatigue is lost ST (§6, p. 134); ``attributes.effective_st`` applies it. Here are the
costs as data and the ones the canon gives as numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from gurps._validate import require_at_least
from gurps.encumbrance import encumbrance_row
from gurps.errors import MARCH_FATIGUE_NOT_IN_CANON, NEGATIVE_DURATION, OutsideCanon


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
