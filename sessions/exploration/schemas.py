"""The exploration tracker's answers, typed: what the API (and the Mestre's MCP tools) return
for a descent, its timers, its events and the closing tally (``sessao-do-mestre.txt``)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal
from uuid import UUID

from ninja import Field, Schema

from procedure import clock as procedure_clock
from procedure import journey as procedure_journey
from sessions.exploration.journey import JourneyView
from sessions.exploration.services import ExplorationView
from sessions.models import (
    Exploration,
    ExplorationEvent,
    ExplorationTest,
    ExplorationTimer,
    SupplyChange,
)


def _enum(choices) -> tuple[type, str]:
    """A closed set as a ``Literal`` of its keys, and its labels for the description."""
    keys = tuple(key for key, _ in choices)
    return Literal[keys], "; ".join(f"{key}: {label}" for key, label in choices)  # type: ignore[valid-type]


def _pairs(choices) -> list[tuple[str, str]]:
    return [(c.key, c.label) for c in choices]


# The closed sets the exploration takes and answers, published as enums (docs/DESIGN.md,
# invariant 13 (Closed sets are published)).
Season, SEASON_LABELS = _enum(_pairs(procedure_journey.SEASONS))
Region, REGION_LABELS = _enum(_pairs(procedure_journey.REGIONS))
Activity, ACTIVITY_LABELS = _enum(_pairs(procedure_journey.ACTIVITIES))
Mode, MODE_LABELS = _enum(_pairs(procedure_journey.MODES))
Danger, DANGER_LABELS = _enum(Exploration.Danger.choices)
TimerKind, TIMER_KIND_LABELS = _enum(ExplorationTimer.Kind.choices)
EventKind, EVENT_KIND_LABELS = _enum(ExplorationEvent.Kind.choices)
TestKind, TEST_KIND_LABELS = _enum(ExplorationTest.Kind.choices)
Status, STATUS_LABELS = _enum(Exploration.Status.choices)
Phase, PHASE_LABELS = _enum(Exploration.Phase.choices)
SupplyKind, SUPPLY_KIND_LABELS = _enum(SupplyChange.Kind.choices)
PendencyStatus, PENDENCY_STATUS_LABELS = _enum(
    [("open", "Aberta"), ("resolved", "Resolvida"), ("missing", "Não está no registro")]
)


class TimerOut(Schema):
    id: UUID
    name: str
    kind: TimerKind = Field(description=TIMER_KIND_LABELS)
    duration_turns: int
    remaining_turns: int
    out: bool


class PendencyOut(Schema):
    """A pendência of the Árbitro's register that holds a step: what is in force is the
    Árbitro's resolution once resolved, the reading in use until then."""

    key: str  # its source key, e.g. procedure:forced-march-con
    id: str  # its id in the register ("" when the register lacks it)
    title: str
    status: PendencyStatus = Field(description=PENDENCY_STATUS_LABELS)
    in_force: str


class ExplorationEventOut(Schema):
    id: UUID
    kind: EventKind = Field(description=EVENT_KIND_LABELS)
    turn: int
    day: int | None = None  # a round of travel: its day and round of the day
    round: int | None = None
    text: str
    lines: list[str]
    rolls: list[int]  # the sequence numbers of the event's rolls in the chain
    pendencies: list[PendencyOut]
    created_at: datetime


class SuppliesOut(Schema):
    """Counts, each the sum of its changes (never a number kept by hand)."""

    food: int
    water: int
    ammunition: int


class JourneyMemberOut(Schema):
    name: str
    rested_today: bool
    rest_owed: int  # rounds of Descansar owed after a failed forced march
    exhaustion: int  # the procedure's level (Tabela I); its GURPS consequence is the Mestre's
    supplies: SuppliesOut


class ExhaustionOut(Schema):
    """A character's exhaustion — one count, the journey's and the dungeon's — and Tabela I's
    effect for it; in GURPS, ``ExplorationOut.exhaustion_reading`` (the pendência)."""

    name: str
    level: int
    effect: str


class JourneyTestOut(Schema):
    """A test the text asks in another game's terms, and the GURPS roll that resolved it."""

    id: UUID
    kind: TestKind = Field(description=TEST_KIND_LABELS)
    character: str
    asks: str  # «teste de CON DC 15»
    modifier: int | None  # the GURPS modifier the roll must carry (DC 15 → −1), if any
    pendency: str  # the source key of the pendência that holds it
    open: bool
    roll: int | None  # the sequence number of the Mestre's GURPS roll
    passed: bool | None


class JourneyOut(Schema):
    """The journey: the hexcrawl's days of six rounds of 4 hours."""

    season: Season = Field(description=SEASON_LABELS)
    weather: int  # the row of the season's table
    weather_text: str
    day: int
    day_round: int  # rounds played of the day
    rounds_per_day: int
    next_day: int
    next_round: int
    day_region: Region | None = Field(default=None, description=REGION_LABELS)
    region: Region | None = Field(default=None, description=REGION_LABELS)
    travel_mode: Mode | None = Field(default=None, description=MODE_LABELS)
    advance_streak: int
    free_advance_rounds: int
    next_advance_dc: int | None  # Tabela B's DC the next Avançar would ask
    next_advance_modifier: int | None  # its HT modifier, by the pendência's reading
    encounter_now: bool  # the last round met an encounter: the surprise roll is offered
    common_stock: SuppliesOut
    camp_safe: bool
    hexes: str  # a fraction: "11/2"
    party: list[JourneyMemberOut]
    tests: list[JourneyTestOut]


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
    status: Status = Field(description=STATUS_LABELS)
    danger: Danger | None = Field(description=DANGER_LABELS + " (None: jornada sem masmorra)")
    total_darkness: bool
    effective_danger: Danger | None = Field(description=DANGER_LABELS)
    region: str
    phase: Phase = Field(description=PHASE_LABELS)
    turn: int
    travel_rounds: int
    hours_slept: int
    elapsed: str  # "2h30": turns, travel rounds and sleep
    check_every: int
    check_due_next_turn: bool
    turns_since_rest: int
    rest_due: bool
    exhaustion_points: int  # points given, for the Mestre's GURPS consequences
    exhaustion_undecided: int
    exhaustion: list[ExhaustionOut]  # each character's level (the one count)
    exhaustion_reading: PendencyOut  # Tabela I's effects in GURPS
    encounter_pending: bool
    marching_order: list[str]
    timers: list[TimerOut]
    events: list[ExplorationEventOut]
    tally: TallyOut
    journey: JourneyOut | None  # None until the journey starts


class TimerAddedOut(Schema):
    id: UUID
    exploration: ExplorationOut


class ExplorationEventAnswerOut(Schema):
    """An action's answer: its event and the descent after it."""

    event: UUID
    text: str
    lines: list[str]
    rolls: list[int]
    pendencies: list[PendencyOut]
    exploration: ExplorationOut


def exploration_data(view: ExplorationView) -> dict:
    """The descent as ``ExplorationOut``."""
    e = view.exploration
    return {
        "id": e.code,
        "scene": e.scene.code,
        "status": e.status,
        "danger": e.danger or None,
        "total_darkness": e.total_darkness,
        "effective_danger": e.effective_danger or None,
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
        "exhaustion": [
            {"name": x.name, "level": x.level, "effect": x.effect} for x in view.exhaustion
        ],
        "exhaustion_reading": pendency_out(view.exhaustion_reading.data()),
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
        "events": [event_data(ev) for ev in reversed(view.events)],
        "tally": view.tally.data(),
        "journey": journey_data(view.journey) if view.journey else None,
    }


def pendency_out(p: dict) -> dict:
    return {
        "key": p["key"],
        "id": p["code"],
        "title": p["title"],
        "status": p["status"],
        "in_force": p["in_force"],
    }


def pendencies_data(event) -> list[dict]:
    """An event's pendências as ``PendencyOut`` (kept in its data when it was written)."""
    return [pendency_out(p) for p in (event.data or {}).get("pendencies", [])]


def event_data(event) -> dict:
    data = event.data or {}
    return {
        "id": event.code,
        "kind": event.kind,
        "turn": event.turn,
        "day": data.get("day"),
        "round": data.get("round"),
        "text": event.text,
        "lines": event.lines,
        "rolls": sorted(r.sequence for r in event.rolls.all()),
        "pendencies": pendencies_data(event),
        "created_at": event.created_at,
    }


def journey_data(view: JourneyView) -> dict:
    """The journey as ``JourneyOut``."""
    e = view.exploration
    next_day, next_round = view.next_round
    return {
        "season": e.season,
        "weather": e.weather,
        "weather_text": e.weather_text,
        "day": e.day,
        "day_round": e.day_round,
        "rounds_per_day": procedure_clock.ROUNDS_PER_DAY,
        "next_day": next_day,
        "next_round": next_round,
        "day_region": e.day_region or None,
        "region": e.hex_region or None,
        "travel_mode": e.travel_mode or None,
        "advance_streak": e.advance_streak,
        "free_advance_rounds": procedure_journey.FREE_ADVANCE_ROUNDS,
        "next_advance_dc": view.next_advance_dc,
        "next_advance_modifier": view.next_advance_modifier,
        "encounter_now": view.encounter_now,
        "common_stock": view.common_stock,
        "camp_safe": e.camp_safe,
        "hexes": e.hexes,
        "party": [
            {
                "name": name,
                "rested_today": member["rested_today"],
                "rest_owed": member["rest_owed"],
                "exhaustion": member["exhaustion"],
                "supplies": dict(view.member_supplies)[name],
            }
            for name, member in view.members
        ],
        "tests": [
            {
                "id": t.code,
                "kind": t.kind,
                "character": t.character,
                "asks": t.asks,
                "modifier": t.modifier,
                "pendency": t.pendency,
                "open": t.is_open,
                "roll": t.roll.sequence if t.roll else None,
                "passed": t.passed,
            }
            for t in view.tests
        ],
    }
