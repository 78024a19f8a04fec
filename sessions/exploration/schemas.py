"""The exploration tracker's answers, typed: what the API (and the Mestre's MCP tools) return
for a descent, its timers, its events and the closing tally (``sessao-do-mestre.txt``)."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from ninja import Schema

from sessions.exploration.services import ExplorationView


class TimerOut(Schema):
    id: UUID
    name: str
    kind: str
    duration_turns: int
    remaining_turns: int
    out: bool


class ExplorationEventOut(Schema):
    id: UUID
    kind: str
    turn: int
    text: str
    lines: list[str]
    rolls: list[int]  # the sequence numbers of the event's rolls in the chain
    created_at: datetime


class CountOut(Schema):
    kind: str
    count: int


class QuantityOut(Schema):
    kind: str
    quantity: int


class DieCountOut(Schema):
    die: str
    count: int


class TallyOut(Schema):
    """The procedure's closing form: region, creatures defeated, treasure, items, dice used."""

    region: str
    creatures: list[CountOut]
    treasure: list[QuantityOut]
    items: list[QuantityOut]
    dice: list[DieCountOut]
    spoils: list[str]


class ExplorationOut(Schema):
    id: UUID
    scene: UUID
    status: str
    danger: str
    total_darkness: bool
    effective_danger: str
    region: str
    phase: str
    turn: int
    travel_rounds: int
    hours_slept: int
    elapsed: str  # "2h30": turns, travel rounds and sleep
    check_every: int
    check_due_next_turn: bool
    turns_since_rest: int
    rest_due: bool
    exhaustion_points: int
    exhaustion_undecided: int
    encounter_pending: bool
    marching_order: list[str]
    timers: list[TimerOut]
    events: list[ExplorationEventOut]
    tally: TallyOut


class TimerAddedOut(Schema):
    id: UUID
    exploration: ExplorationOut


class ExplorationEventAnswerOut(Schema):
    """An action's answer: its event and the descent after it."""

    event: UUID
    text: str
    lines: list[str]
    rolls: list[int]
    exploration: ExplorationOut


def exploration_data(view: ExplorationView) -> dict:
    """The descent as ``ExplorationOut``."""
    e = view.exploration
    return {
        "id": e.code,
        "scene": e.scene.code,
        "status": e.status,
        "danger": e.danger,
        "total_darkness": e.total_darkness,
        "effective_danger": e.effective_danger,
        "region": e.region,
        "phase": e.phase,
        "turn": e.turn,
        "travel_rounds": e.travel_rounds,
        "hours_slept": e.hours_slept,
        "elapsed": view.elapsed,
        "check_every": view.check_every,
        "check_due_next_turn": view.check_due,
        "turns_since_rest": e.turns_since_rest,
        "rest_due": view.rest_due,
        "exhaustion_points": e.exhaustion_points,
        "exhaustion_undecided": e.exhaustion_undecided,
        "encounter_pending": e.encounter_pending,
        "marching_order": e.marching_order,
        "timers": [
            {
                "id": t.code,
                "name": t.name,
                "kind": t.kind,
                "duration_turns": t.duration_turns,
                "remaining_turns": t.remaining_turns,
                "out": t.is_out,
            }
            for t in view.timers
        ],
        "events": [
            {
                "id": ev.code,
                "kind": ev.kind,
                "turn": ev.turn,
                "text": ev.text,
                "lines": ev.lines,
                "rolls": sorted(r.sequence for r in ev.rolls.all()),
                "created_at": ev.created_at,
            }
            for ev in reversed(view.events)
        ],
        "tally": view.tally.data(),
    }
