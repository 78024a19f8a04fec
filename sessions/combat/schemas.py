"""The combat tracker's answers, typed: what the API (and the Mestre's MCP tools) return for a
fight, a combatant's card, an attack. Every field is listed (no ``dict[str, Any]``); a
jogador's view of another side's card leaves the full-card fields ``None``.
"""

from __future__ import annotations

from uuid import UUID

from ninja import Schema

from sessions.combat.cards import Card, CombatView
from sessions.log.api import RollOut
from sessions.log.timeline import roll_data
from sessions.models import CombatEvent, Roll


class WeaponOut(Schema):
    """One attack line: ``damage`` the dice at the wielder's ST, or None with
    ``damage_problem`` saying why the canon has no number (§4.9, ST above 20)."""

    index: int
    name: str
    skill: int
    written: str
    damage: str | None
    damage_type: str | None
    damage_problem: str | None
    parry: int | None
    ready: bool
    broken: bool
    dropped: bool
    strained: bool
    weight_kg: str | None


class ParryOut(Schema):
    weapon: str
    value: int


class DefencesUsedOut(Schema):
    dodge: int
    block: int
    parry: int
    retreated: bool


class FeintOut(Schema):
    target: UUID
    penalty: int
    round: int


class CombatantOut(Schema):
    """A combatant's card. Move, Dodge, Block and the parries are the sheet's numbers now
    (``gurps.derived.derive``), with the fight's terrain on Move (§5d)."""

    id: UUID
    name: str
    kind: str
    position: int | None
    status: str
    posture: str
    stunned: bool
    effects: list[str]
    maneuver: str | None
    current: bool
    character: UUID | None
    hp: int | None = None
    hp_now: int | None = None
    hp_lost: int | None = None
    staggered: bool | None = None
    shock: int | None = None
    move: int | None = None
    dodge: int | None = None
    block: int | None = None
    parries: list[ParryOut] | None = None
    passive_defense: int | None = None
    damage_resistance: int | None = None
    defences_left: str | None = None
    aim_turns: int | None = None
    weapons: list[WeaponOut] | None = None
    defences_used: DefencesUsedOut | None = None
    crippled: list[str] | None = None
    dies_at: str | None = None
    off_balance: bool | None = None
    blind: str | None = None
    dx_penalty: int | None = None
    feint: FeintOut | None = None
    concentration_lost: bool | None = None
    waiting: bool | None = None


class CombatEventOut(Schema):
    kind: str
    round: int
    text: str
    lines: list[str]


class CombatOut(Schema):
    id: UUID
    scene: UUID
    status: str
    round: int
    turn: int
    current: UUID | None
    terrain: list[str]
    locked: bool
    first_roll: int | None
    spoils: str
    combatants: list[CombatantOut]
    events: list[CombatEventOut]


class AttackOut(Schema):
    """An attack's answer: its event, what it did, and every die it rolled (each a roll of the
    chain, in order: the §4.10 steps, then the extras after them)."""

    event: UUID
    hit: bool
    hp_lost: int
    hp_after: int
    effective_level: int
    lines: list[str]
    rolls: list[RollOut]
    combat: CombatOut


class CombatantAddedOut(Schema):
    id: UUID
    combat: CombatOut


class AdjustmentOut(Schema):
    event: UUID
    combat: CombatOut


def _weapons_data(card: Card) -> list[dict]:
    c = card.combatant
    return [
        {
            "index": w.index,
            "name": w.line.name,
            "skill": w.line.skill,
            "written": w.line.damage,
            "damage": w.damage,
            "damage_type": w.damage_type,
            "damage_problem": w.damage_problem,
            "parry": w.parry,
            "ready": w.ready,
            "broken": w.index in c.broken,
            "dropped": w.index in c.dropped,
            "strained": w.index in c.strained,
            "weight_kg": w.line.weight_kg,
        }
        for w in card.weapons
    ]


def _full_card(card: Card) -> dict:
    c, numbers = card.combatant, card.numbers
    return {
        "hp": numbers.hp,
        "hp_now": numbers.hp_now,
        "hp_lost": c.hp_lost,
        "staggered": card.staggered,
        "shock": c.shock,
        "move": numbers.move,
        "dodge": numbers.dodge,
        "block": numbers.block,
        "parries": [{"weapon": n, "value": v} for n, v in card.parries],
        "passive_defense": numbers.passive_defense,
        "damage_resistance": numbers.damage_resistance,
        "defences_left": card.defences_left,
        "aim_turns": c.aim_turns,
        "weapons": _weapons_data(card),
        "defences_used": {
            "dodge": c.dodges_used,
            "block": c.blocks_used,
            "parry": c.parries_used,
            "retreated": c.retreated,
        },
        "crippled": c.crippled,
        "dies_at": card.dies_at,
        "off_balance": c.off_balance,
        "blind": c.blind or None,
        "dx_penalty": c.dx_penalty,
        "feint": c.feint or None,
        "concentration_lost": c.concentration_lost,
        "waiting": c.waiting,
    }


def card_data(card: Card) -> dict:
    """A card as ``CombatantOut``."""
    c = card.combatant
    data = {
        "id": c.code,
        "name": c.name,
        "kind": c.kind,
        "position": c.position,
        "status": c.status,
        "posture": c.posture,
        "stunned": c.stunned,
        "effects": list(card.effects),
        "maneuver": c.maneuver or None,
        "current": card.is_current,
        "character": c.character.code if c.character_id else None,
    }
    if card.full:
        data.update(_full_card(card))
    return data


def combat_data(view: CombatView) -> dict:
    """The tracker as ``CombatOut``."""
    combat = view.combat
    return {
        "id": combat.code,
        "scene": combat.scene.code,
        "status": combat.status,
        "round": combat.round,
        "turn": combat.turn,
        "current": view.current.code if view.current else None,
        "terrain": combat.terrain,
        "locked": combat.locked,
        "first_roll": combat.first_roll.sequence if combat.first_roll_id else None,
        "spoils": combat.spoils,
        "combatants": [card_data(card) for card in view.cards],
        "events": [
            {"kind": e.kind, "round": e.round, "text": e.text, "lines": e.lines}
            for e in reversed(view.events)
        ],
    }


def event_rolls(event: CombatEvent) -> list[dict]:
    """Every roll an event of the fight made, in the chain's order, as ``RollOut``."""
    rolls = Roll.objects.filter(
        scene_id=event.combat.scene_id, details__event=str(event.code)
    ).select_related("character", "announcement", "rolled_by", "declaration", "campaign", "scene")
    return [roll_data(roll, masked=False) for roll in rolls.order_by("sequence")]
