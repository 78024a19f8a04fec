"""The procedure's clock: exploration turns, hours, rounds of travel and days, each number
written once with the line of ``sessao-do-mestre.txt`` it stands in.
"""

from __future__ import annotations

# «Encontros aleatórios são testados a cada x turnos de exploração (10 min.)»
TURN_MINUTES = 10
# «A cada 1 hora de exploração, os personagens precisam descansar por um turno de exploração ou
# sofrer 1 ponto de exaustão»: an hour is 6 turns of 10 minutes.
TURNS_PER_HOUR = 60 // TURN_MINUTES
# «1 dia tem 6 rodadas de viagem (4h/rodada)»
ROUNDS_PER_DAY = 6
ROUND_HOURS = 4
# A round of travel in exploration turns: what the timers run down each round (24).
TRAVEL_ROUND_TURNS = ROUND_HOURS * TURNS_PER_HOUR


def elapsed_minutes(turns: int, travel_rounds: int, hours_slept: int) -> int:
    """Minutes a descent has run: its played turns, its rounds of travel, its hours of sleep."""
    return (turns + travel_rounds * TRAVEL_ROUND_TURNS) * TURN_MINUTES + hours_slept * 60


def elapsed_text(minutes: int) -> str:
    """«3h05»."""
    return f"{minutes // 60}h{minutes % 60:02d}"
