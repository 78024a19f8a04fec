"""The dungeon's turn loop (``sessao-do-mestre.txt``, «Masmorra»): the encounter check's
cadence (Tabela A), the hour without rest, where the monsters arrive, surprise, and the sleep's
encounter checks (Tabela C) and mishaps (Tabela B).
"""

from __future__ import annotations

from dataclasses import dataclass

from procedure.clock import TURNS_PER_HOUR

# «4. Fim do Turno … Role 1d6. Resultados: 1:3 Os monstros chegam na sala onde os personagens
# estão. 4:6 Os monstros chegam em uma sala adjacente.»
ARRIVAL_ROOM = "room"
ARRIVAL_ADJACENT = "adjacent"
ARRIVAL_ROOM_UP_TO = 3

# Tabela B: Percalços da Dungeon, the rows that print «Teste de CON DC 12 para ter os benefícios
# do Descanso» (6, 7, 9) and the one that is an encounter (8, «Um Encontro Aleatório acontece.»).
MISHAP_TEST_ROWS = ("6", "7", "9")
MISHAP_ENCOUNTER_ROW = "8"
MISHAP_ASKS = "Teste de CON DC 12 para ter os benefícios do Descanso"
# «Dormir por 8 horas em uma dungeon cheia de monstros é um processo extremamente difícil.»: a
# shorter sleep is not the Descansar (the pendência procedure:dungeon-sleep-rest's reading).
REST_HOURS = 8


def check_due(turns_since_check: int, every: int) -> bool:
    """Whether the turn about to start checks for an encounter: «Encontros aleatórios são
    testados a cada x turnos de exploração (10 min.), seguindo a Tabela A» (counted from the
    last check; a change of level counts from there too)."""
    return turns_since_check + 1 >= every


@dataclass(frozen=True)
class HourCount:
    """The hour without rest after a turn ends: the new count of turns since the last rest,
    whether this turn costs the procedure's point of exhaustion, and whether the next turn is
    the one of rest."""

    turns_since_rest: int
    exhausted: bool = False
    rest_next: bool = False


def turn_ended(turns_since_rest: int, rested: bool) -> HourCount:
    """«A cada 1 hora de exploração, os personagens precisam descansar por um turno de
    exploração ou sofrer 1 ponto de exaustão»: a rest turn starts the count again; a seventh
    turn without one costs the point and opens the next hour."""
    if rested:
        return HourCount(0)
    count = turns_since_rest + 1
    if count > TURNS_PER_HOUR:
        return HourCount(1, exhausted=True)
    return HourCount(count, rest_next=count == TURNS_PER_HOUR)


def rest_due(turns_since_rest: int) -> bool:
    """An hour of exploration without rest: this turn is of rest, or a point of exhaustion."""
    return turns_since_rest >= TURNS_PER_HOUR


def turns_to_rest(turns_since_rest: int) -> int:
    return max(0, TURNS_PER_HOUR - turns_since_rest)


def arrival(total: int) -> str:
    """Where the monsters of an encounter arrive at the end of the turn, by the 1d6."""
    return ARRIVAL_ROOM if total <= ARRIVAL_ROOM_UP_TO else ARRIVAL_ADJACENT


def surprise(party: bool, monsters: bool) -> str:
    """«Caso os dois lados estejam, ninguém tem um turno de surpresa»: "nobody", "party",
    "monsters" or "none" (which side is surprised)."""
    if party and monsters:
        return "nobody"
    if party:
        return "party"
    if monsters:
        return "monsters"
    return "none"


def sleep_checks(hours: int, every: int) -> list[int]:
    """The hours of a sleep at which Tabela C checks for an encounter («3:6 a cada 4 horas» …):
    every ``every`` hours, none for a sleep shorter than that."""
    return [(block + 1) * every for block in range(hours // every)]


def sleep_is_rest(hours: int) -> bool:
    """Whether a sleep of ``hours`` is the Descansar of the hexcrawl (8 hours or more)."""
    return hours >= REST_HOURS
