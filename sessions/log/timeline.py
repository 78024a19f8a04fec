"""The scene log as each viewer may see it: its entries in order (declarations, announced
modifiers, rolls, narration), a hidden roll masked until the weekly report is homologated
(DESIGN.md invariant 4), and the scene's export.
"""

from __future__ import annotations

from dataclasses import dataclass

from sessions.log.chain import roll_canonical_content, roll_hash
from sessions.models import (
    Declaration,
    ModifierAnnouncement,
    Narration,
    Roll,
    Scene,
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

_ORDER = {"declaration": 0, "announcement": 1, "roll": 2, "narration": 3}


@dataclass(frozen=True)
class LogEntry:
    """One line of the scene log. For a hidden roll a jogador sees name and hash only."""

    kind: str  # "declaration" | "announcement" | "roll" | "narration"
    created_at: object
    declaration: Declaration | None = None
    roll: Roll | None = None
    masked: bool = False
    announcement: ModifierAnnouncement | None = None
    narration: Narration | None = None
    revealed: bool = False  # a hidden roll shown in full because the report is homologated

    @property
    def canonical(self) -> str:
        """What the roll's hash covers, for whoever checks a revealed commitment."""
        return roll_canonical_content(self.roll)

    @property
    def commitment_ok(self) -> bool:
        return roll_hash(self.roll.previous_hash, self.canonical) == self.roll.hash


def scene_log_entries(scene: Scene, *, membership, user) -> list[LogEntry]:
    """The scene's timeline in the order it happened (5 queries: the week's report, then
    declarations, announcements, rolls and narrations)."""
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
    entries.sort(key=lambda e: (e.created_at, _ORDER[e.kind]))
    return entries


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
    return {"type": "roll", **roll_data(entry.roll, masked=entry.masked)}


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
    }
