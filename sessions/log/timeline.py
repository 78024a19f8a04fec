"""The scene log as each viewer may see it: its entries in order (declarations, announced
modifiers, rolls, narration), a hidden roll masked until the weekly report is homologated
(DESIGN.md invariant 4), and the scene's export.
"""

from __future__ import annotations

from dataclasses import dataclass

from sessions.log.chain import roll_canonical_content, roll_hash
from sessions.models import (
    Combat,
    Declaration,
    Exploration,
    ModifierAnnouncement,
    Narration,
    Roll,
    Scene,
    StateChange,
)
from sheets.models import Membership

FULL, MASKED, ABSENT = "full", "masked", "absent"


def roll_visibility(roll: Roll, *, membership: Membership, user, revealed: bool) -> str:
    """How much of ``roll`` a member sees (DESIGN.md invariant 4).

    Every roll in full to the Mestre and the Árbitro. A hidden roll: to its player, name, time
    and commitment until the week's report is homologated; to other jogadores, nothing;
    after homologation, everything, to everyone, so anyone can check the commitment.
    """
    if not roll.hidden or membership.runs_the_table or revealed:
        return FULL
    if roll.character is not None and roll.character.is_owned_by(user):
        return MASKED
    return ABSENT


# --- the log as a page shows it ---------------------------------------------------------------

_ORDER = {"declaration": 0, "announcement": 1, "roll": 2, "narration": 3, "state_change": 4}


@dataclass(frozen=True)
class LogEntry:
    """One line of the scene log. For a hidden roll a jogador sees name and hash only."""

    kind: str  # "declaration" | "announcement" | "roll" | "narration" | "state_change"
    created_at: object
    declaration: Declaration | None = None
    roll: Roll | None = None
    masked: bool = False
    announcement: ModifierAnnouncement | None = None
    narration: Narration | None = None
    revealed: bool = False  # a hidden roll shown in full because the report is homologated
    state_change: StateChange | None = None
    # The roll a state change answers, when the viewer may see that roll (else None).
    answers: Roll | None = None

    @property
    def canonical(self) -> str:
        """What the roll's hash covers, for whoever checks a revealed commitment."""
        return roll_canonical_content(self.roll)

    @property
    def commitment_ok(self) -> bool:
        return roll_hash(self.roll.previous_hash, self.canonical) == self.roll.hash


def scene_log_entries(scene: Scene, *, membership, user) -> list[LogEntry]:
    """The scene's timeline in the order it happened (6 queries: the week's report, then
    declarations, announcements, rolls, narrations and state changes)."""
    revealed = scene.week.hidden_rolls_revealed
    declarations = Declaration.objects.filter(scene=scene).select_related("character", "author")
    announcements = ModifierAnnouncement.objects.filter(scene=scene).select_related(
        "declaration__character", "author"
    )
    rolls = Roll.objects.filter(scene=scene).select_related(
        "character", "rolled_by", "declaration__character", "announcement", "campaign", "scene"
    )
    narrations = Narration.objects.filter(scene=scene).select_related("author")
    entries = [LogEntry("declaration", d.created_at, declaration=d) for d in declarations]
    entries += [LogEntry("announcement", a.created_at, announcement=a) for a in announcements]
    for roll in rolls:
        seen = roll_visibility(roll, membership=membership, user=user, revealed=revealed)
        if seen == ABSENT:
            continue
        entries.append(
            LogEntry(
                "roll",
                roll.created_at,
                roll=roll,
                masked=seen == MASKED,
                revealed=roll.hidden and revealed,
            )
        )
    entries += [LogEntry("narration", n.created_at, narration=n) for n in narrations]
    entries += _state_change_entries(scene, entries)
    entries.sort(key=lambda e: (e.created_at, _ORDER[e.kind]))
    return entries


def _state_change_entries(scene: Scene, seen: list[LogEntry]) -> list[LogEntry]:
    """The scene's PV and fatigue changes outside a fight (sessions.log.scene_ops); the roll
    one answers is named only to whoever sees that roll."""
    visible = {e.roll.pk: e.roll for e in seen if e.kind == "roll"}
    changes = StateChange.objects.filter(scene=scene).select_related("character", "author")
    return [
        LogEntry("state_change", c.created_at, state_change=c, answers=visible.get(c.roll_id))
        for c in changes
    ]


def scene_log_token(scene: Scene, entries: list[LogEntry]) -> str:
    """What a polling page already has: the count of entries, and whether hidden rolls are
    revealed (homologation changes what the same entries show)."""
    return f"{len(entries)}{'r' if scene.week.hidden_rolls_revealed else ''}"


# --- exports ----------------------------------------------------------------------------------


def roll_data(roll: Roll, *, masked: bool) -> dict:
    """A roll as the API and the JSON exports give it; a masked one keeps only what its
    player may see before homologation (name, time, sequence, commitment). ``level_source``
    and ``level_text`` say where a test's level came from ("Rastreamento 13 (ficha)"); None
    for a roll made before levels were read from the sheet, and for a contest (each side's
    is in ``details``)."""
    level = (roll.details or {}).get("level") or {}
    data = {
        "id": roll.code,
        "sequence": roll.sequence,
        "name": roll.name,
        "label": roll.label,
        "kind": roll.kind,
        "character": roll.character.code if roll.character_id else None,
        "declaration": roll.declaration.code if roll.declaration_id else None,
        "announcement": roll.announcement.code if roll.announcement_id else None,
        "hidden": roll.hidden,
        "base_level": roll.base_level,
        "modifiers": roll.modifiers,
        "dice": roll.dice,
        "total": roll.total,
        "effective_level": roll.effective_level,
        "outcome": roll.outcome or None,
        "outcome_label": Roll.Outcome(roll.outcome).label if roll.outcome else None,
        "margin": roll.margin,
        "details": roll.details or None,
        "level_source": level.get("source"),
        "level_text": level.get("text"),
        "hash": roll.hash,
        "previous_hash": roll.previous_hash,
        "salt": roll.salt,
        "canonical": roll_canonical_content(roll),
        "rolled_by": roll.rolled_by.get_username(),
        "created_at": roll.created_at,
    }
    if masked:
        # A hidden roll's values show only after the weekly report is homologated (§1.6).
        for key in (
            "base_level",
            "modifiers",
            "dice",
            "total",
            "effective_level",
            "outcome",
            "outcome_label",
            "margin",
            "details",
            "level_source",
            "level_text",
            "salt",
            "canonical",
        ):
            data[key] = None
        data["label"] = data["kind"] = ""
    return data


def entry_data(entry: LogEntry) -> dict:
    if entry.kind == "declaration":
        d = entry.declaration
        return {
            "type": "declaration",
            "id": d.code,
            "created_at": d.created_at,
            "character": {"id": d.character.code, "name": d.character.name},
            "author": d.author.get_username(),
            "text": d.text,
        }
    if entry.kind == "announcement":
        a = entry.announcement
        return {
            "type": "announcement",
            "id": a.code,
            "created_at": a.created_at,
            "declaration": a.declaration.code,
            "modifiers": a.modifiers,
            "net": a.net_modifier,
            "note": a.note,
            "author": a.author.get_username(),
        }
    if entry.kind == "narration":
        n = entry.narration
        return {
            "type": "narration",
            "id": n.code,
            "created_at": n.created_at,
            "author": n.author.get_username(),
            "text": n.text,
        }
    if entry.kind == "state_change":
        return state_change_data(entry)
    return {"type": "roll", **roll_data(entry.roll, masked=entry.masked)}


def state_change_line(change: StateChange) -> str:
    """The change as the table reads it: «Jurado: −1 PV (Pânico)», «Hoplita: −2 PF (marcha)»;
    "+" is what comes back."""
    parts = [
        f"{'+' if points > 0 else '−'}{abs(points)} {unit}"
        for points, unit in ((change.hp, "PV"), (change.fatigue, "PF"))
        if points
    ]
    return f"{change.character.name}: {', '.join(parts)} ({change.reason})"


def state_change_data(entry: LogEntry) -> dict:
    c = entry.state_change
    return {
        "type": "state_change",
        "id": c.code,
        "created_at": c.created_at,
        "character": {"id": c.character.code, "name": c.character.name},
        "author": c.author.get_username(),
        "text": state_change_line(c),
        "hp": c.hp,
        "fatigue": c.fatigue,
        "reason": c.reason,
        "answers_roll": entry.answers.code if entry.answers else None,
    }


def scene_export(scene: Scene, *, membership, user) -> dict:
    """A scene and its whole timeline, every roll the viewer may see, as plain data."""
    entries = scene_log_entries(scene, membership=membership, user=user)
    week = scene.week
    return {
        "scene": {
            "id": scene.code,
            "title": scene.title,
            "campaign": week.campaign.slug,
            "week": week.number,
            "floor": scene.floor,
            "terrain": scene.terrain,
            "boss": scene.boss,
            "status": scene.status,
            "characters": [{"id": c.code, "name": c.name} for c in scene.characters.all()],
        },
        "entries": [entry_data(e) for e in entries],
        **trackers_export(scene, entries),
    }


def trackers_export(scene: Scene, entries: list[LogEntry]) -> dict:
    """The scene's combats and descents with their events, for the exports (4 queries). An
    event names its dice by their sequence in the chain, and only the dice the viewer sees in
    ``entries`` (the rolls' own visibility, ``roll_visibility``)."""
    seen = {e.roll.pk: e.roll for e in entries if e.kind == "roll" and not e.masked}
    by_event: dict[str, list[int]] = {}
    for roll in seen.values():
        event = (roll.details or {}).get("event")
        if event:
            by_event.setdefault(str(event), []).append(roll.sequence)
    combats = Combat.objects.filter(scene=scene).prefetch_related("events").order_by("created_at")
    explorations = (
        Exploration.objects.filter(scene=scene)
        .prefetch_related("events__rolls")
        .order_by("created_at")
    )
    return {
        "combats": [
            {
                **_tracker_head(c, round=c.round),
                "events": [
                    {
                        **_event_head(e),
                        "round": e.round,
                        "turn": e.turn,
                        "rolls": sorted(by_event.get(str(e.code), [])),
                    }
                    for e in c.events.all()
                ],
            }
            for c in combats
        ],
        "explorations": [
            {
                **_tracker_head(x, turn=x.turn),
                "events": [
                    {
                        **_event_head(e),
                        "turn": e.turn,
                        "rolls": sorted(r.sequence for r in e.rolls.all() if r.pk in seen),
                    }
                    for e in x.events.all()
                ],
            }
            for x in explorations
        ],
    }


def _tracker_head(tracker, **counter) -> dict:
    return {
        "id": tracker.code,
        "state": "running" if tracker.is_active else "ended",
        **counter,
        "started_at": tracker.created_at,
        "ended_at": tracker.ended_at,
    }


def _event_head(event) -> dict:
    return {
        "id": event.code,
        "kind": event.kind,
        "kind_label": event.get_kind_display(),
        "created_at": event.created_at,
        "text": event.text,
        "lines": event.lines,
    }
