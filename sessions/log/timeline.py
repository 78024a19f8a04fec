"""The scene log as each viewer may see it: its entries in order (declarations, announced
modifiers, rolls, narration), a hidden roll masked until the weekly report is homologated
(docs/DESIGN.md, invariant 4 (Hidden is not invisible)), and the scene's export.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.db.models import Q

from campaigns.errors import ServiceError
from campaigns.models import Membership
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

FULL, MASKED, ABSENT = "full", "masked", "absent"


def roll_visibility(roll: Roll, *, membership: Membership, user, revealed: bool) -> str:
    """How much of ``roll`` a member sees (docs/DESIGN.md, invariant 4 (Hidden is not invisible)).

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


def _sources(scene: Scene, *, membership, user):
    """The five querysets of the log, each with what its entries show; rolls filtered in SQL
    to what the viewer may see (roll_visibility), so a LIMIT counts only visible rows."""
    revealed = scene.week.hidden_rolls_revealed
    rolls = Roll.objects.filter(scene=scene)
    if not (membership.runs_the_table or revealed):
        rolls = rolls.filter(Q(hidden=False) | Q(character__owner_id=user.pk))
    return revealed, {
        "declaration": Declaration.objects.filter(scene=scene).select_related(
            "character", "author"
        ),
        "announcement": ModifierAnnouncement.objects.filter(scene=scene).select_related(
            "declaration__character", "author"
        ),
        "roll": rolls.select_related(
            "character", "rolled_by", "declaration__character", "announcement", "campaign", "scene"
        ),
        "narration": Narration.objects.filter(scene=scene).select_related("author"),
        "state_change": StateChange.objects.filter(scene=scene).select_related(
            "character", "author", "roll__character"
        ),
    }


def _entry(kind: str, row, *, membership, user, revealed: bool) -> LogEntry:
    if kind == "state_change":
        # The roll a change answers is named only to whoever sees that roll.
        roll = row.roll
        if roll is not None and ABSENT == roll_visibility(
            roll, membership=membership, user=user, revealed=revealed
        ):
            roll = None
        return LogEntry(kind, row.created_at, state_change=row, answers=roll)
    if kind != "roll":
        return LogEntry(kind, row.created_at, **{kind: row})
    seen = roll_visibility(row, membership=membership, user=user, revealed=revealed)
    return LogEntry(
        "roll", row.created_at, roll=row, masked=seen == MASKED, revealed=row.hidden and revealed
    )


def scene_log_entries(scene: Scene, *, membership, user) -> list[LogEntry]:
    """The scene's whole timeline in the order it happened (5 queries: the week's report, then
    declarations, announcements, rolls and narrations). What grows with the log reads
    ``log_page`` instead; this is for the exports and the week's report."""
    revealed, sources = _sources(scene, membership=membership, user=user)
    entries = [
        _entry(kind, row, membership=membership, user=user, revealed=revealed)
        for kind, rows in sources.items()
        for row in rows.order_by("created_at", "pk")
    ]
    entries.sort(key=entry_key)
    return entries


# --- pages of the log: keyset cursors ----------------------------------------------------------

CURSOR_INVALID = "Cursor inválido: use o valor que a leitura anterior devolveu."
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True, order=True)
class Cursor:
    """A place in the log between two entries: the key (time, kind, row) of the entry just
    before it. Entries are ordered by that key, the same key for every kind, so each source
    is paged by the same cursor and the pages merge without loss or repetition."""

    created_at: datetime
    kind: int
    pk: int

    def __str__(self) -> str:
        micros = (self.created_at - _EPOCH) // timedelta(microseconds=1)
        raw = f"{micros}.{self.kind}.{self.pk}".encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    @classmethod
    def parse(cls, text: str, *, field: str = "cursor") -> Cursor:
        """``str(cursor)`` back; ServiceError (``field``) for anything else."""
        try:
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode()
            micros, kind, pk = (int(part) for part in raw.split("."))
            if kind not in _ORDER.values() or pk < 1:
                raise ValueError(raw)
            return cls(_EPOCH + timedelta(microseconds=micros), kind, pk)
        except (ValueError, UnicodeDecodeError, OverflowError, binascii.Error):
            raise ServiceError(CURSOR_INVALID, field=field) from None


def entry_key(entry: LogEntry) -> Cursor:
    """The entry's place in the log (its cursor): time, then kind, then row."""
    row = getattr(entry, entry.kind)
    return Cursor(entry.created_at, _ORDER[entry.kind], row.pk)


def _beyond(cursor: Cursor, kind: int, *, later: bool) -> Q:
    """Rows of one source (all of kind ``kind``) strictly after (or before) ``cursor``."""
    t = cursor.created_at
    if kind == cursor.kind:
        if later:
            return Q(created_at__gt=t) | Q(created_at=t, pk__gt=cursor.pk)
        return Q(created_at__lt=t) | Q(created_at=t, pk__lt=cursor.pk)
    if (kind > cursor.kind) == later:
        return Q(created_at__gte=t) if later else Q(created_at__lte=t)
    return Q(created_at__gt=t) if later else Q(created_at__lt=t)


@dataclass(frozen=True)
class LogPage:
    """A page of the log, its entries in the order they happened. ``more_before`` and
    ``more_after``: whether the log has entries (the viewer may see) beyond each end."""

    entries: list[LogEntry]
    more_before: bool
    more_after: bool
    revealed: bool

    @property
    def first(self) -> Cursor | None:
        return entry_key(self.entries[0]) if self.entries else None

    @property
    def last(self) -> Cursor | None:
        return entry_key(self.entries[-1]) if self.entries else None


def log_page(
    scene: Scene,
    *,
    membership,
    user,
    after: Cursor | None = None,
    before: Cursor | None = None,
    limit: int = 50,
    newest: bool = False,
) -> LogPage:
    """``limit`` entries of the scene's log the viewer may see, in order: the first ones after
    ``after`` (from the start without it) — or, with ``newest`` or with only ``before``, the
    last ones before ``before`` (up to the end without it). Five queries whatever the log's
    size: the week, and for each source one keyset query (``created_at, pk`` past the cursor,
    ``LIMIT limit + 1``); the sources' rows merge by ``entry_key``."""
    revealed, sources = _sources(scene, membership=membership, user=user)
    backwards = newest or (before is not None and after is None)
    order = ("-created_at", "-pk") if backwards else ("created_at", "pk")
    rows = []
    for kind, queryset in sources.items():
        if after is not None:
            queryset = queryset.filter(_beyond(after, _ORDER[kind], later=True))
        if before is not None:
            queryset = queryset.filter(_beyond(before, _ORDER[kind], later=False))
        rows += [
            _entry(kind, row, membership=membership, user=user, revealed=revealed)
            for row in queryset.order_by(*order)[: limit + 1]
        ]
    rows.sort(key=entry_key, reverse=backwards)
    more = len(rows) > limit
    entries = rows[:limit]
    if backwards:
        entries.reverse()
        return LogPage(entries, more, before is not None, revealed)
    return LogPage(entries, after is not None, more, revealed)


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
        "kind_label": roll.kind_label,
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
        "outcome_label": roll.outcome_label or None,
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
        data["label"] = data["kind"] = data["kind_label"] = ""
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


def log_entries_paged(scene: Scene, *, membership, user, chunk: int = 200):
    """Every entry of the log the viewer may see, in order, read ``chunk`` at a time by
    cursor (log_page): what a streamed export holds in memory does not grow with the log."""
    after = None
    while True:
        page = log_page(scene, membership=membership, user=user, after=after, limit=chunk)
        yield from page.entries
        if not page.more_after:
            return
        after = page.last


def scene_export(scene: Scene, *, membership, user) -> dict:
    """A scene and its whole timeline, every roll the viewer may see, as plain data."""
    entries = scene_log_entries(scene, membership=membership, user=user)
    return {
        **scene_header(scene),
        "entries": [entry_data(e) for e in entries],
        **trackers_export(scene, membership=membership, user=user),
    }


def scene_header(scene: Scene) -> dict:
    """The ``scene`` part of a scene's export (scene_export without its entries)."""
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
    }


def trackers_export(scene: Scene, *, membership, user) -> dict:
    """The scene's combats and descents with their events, for the exports (5 queries). An
    event names its dice by their sequence in the chain, and only the dice the viewer sees in
    full (the rolls' own visibility, ``roll_visibility``): a masked or absent roll is not named.
    The rolls are read a chunk at a time, so memory does not grow with the log."""
    revealed = scene.week.hidden_rolls_revealed
    seen: set[int] = set()
    by_event: dict[str, list[int]] = {}
    rolls = Roll.objects.filter(scene=scene).select_related("character").order_by("pk")
    for roll in rolls.iterator(chunk_size=500):
        if roll_visibility(roll, membership=membership, user=user, revealed=revealed) != FULL:
            continue
        seen.add(roll.pk)
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
