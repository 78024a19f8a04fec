"""The combat tracker's answers, typed: what the API (and the Mestre's MCP tools) return for a
fight, a combatant's card, an attack. Every field is listed (no ``dict[str, Any]``); a
jogador's view of another side's card leaves the full-card fields ``None``.
"""

from __future__ import annotations

from uuid import UUID

from ninja import Field, Schema

from sessions import vocabularies as vocab
from sessions.combat.cards import Card, CombatView
from sessions.log.api import RollOut
from sessions.log.timeline import roll_data
from sessions.models import CombatEvent, Roll

# Which limbs are crippled (§5.5): each arm, leg, hand and foot by its side.
LimbKey = vocab.LIMB.annotated()


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
    crippled: list[LimbKey] | None = None
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


class AnswerOptionOut(Schema):
    """One answer the defender may give now (§4.6–4.7): ``answer`` the key to send
    (dodge, parry, block, none), ``parry_weapon`` the weapon line for parry, ``retreat`` with
    the retreat's +3; ``total`` what the defence roll is against (PD + active; the PD alone
    for none) and ``chance`` its percent (truncated, §1.1); ``why_not`` why it cannot be
    used now (None: it can)."""

    answer: str
    name: str
    total: int
    chance: int
    parry_weapon: int | None
    retreat: bool
    why_not: str | None


class PendingDefenceOut(Schema):
    """An attack that hit and waits for its defender's jogador to choose (§4.6): who attacks
    with what, where, the attack roll (its chain sequence), since when and until when (None:
    the fight waits), ``text`` «aguardando a defesa de …», and his answers (empty for a reader
    who does not see the defender's numbers)."""

    defender: UUID
    defender_name: str
    attacker: str
    weapon: str
    location: str
    attack_total: int
    effective_level: int
    roll: int | None
    since: str
    until: str | None
    text: str
    options: list[AnswerOptionOut]


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
    defence_wait_minutes: int | None = Field(
        default=None, description="Prazo do Mestre para a defesa de um jogador (None: espera)"
    )
    pending_defences: list[PendingDefenceOut] = []


class AttackOut(Schema):
    """An attack's answer: its event, what it did, and every die it rolled (each a roll of the
    chain, in order: the §4.10 steps, then the extras after them)."""

    event: UUID
    hit: bool | None = Field(description="None: acertou e aguarda a defesa do jogador (§4.6)")
    awaits_defence: bool = False
    hp_lost: int
    hp_after: int
    effective_level: int
    lines: list[str]
    rolls: list[RollOut]
    combat: CombatOut


class DefenceAnswerOut(Schema):
    """The jogador's answer and what it resolved (§4.10 rows 5–10): its event, whether the
    blow landed, HP lost and after, the lines and every die it rolled (defence, damage,
    injury), and the fight."""

    event: UUID
    hit: bool
    hp_lost: int
    hp_after: int
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
        "defence_wait_minutes": combat.defence_wait_minutes,
        "pending_defences": [pending_data(p, full) for p, full, _ in view.pending],
    }


def pending_data(p, full: bool) -> dict:
    """A ``sessions.combat.pending.PendingDefence`` as ``PendingDefenceOut``."""
    return {
        "defender": p.defender.code,
        "defender_name": p.defender.name,
        "attacker": p.attacker_name,
        "weapon": p.weapon,
        "location": p.location,
        "attack_total": p.attack_total,
        "effective_level": p.effective_level,
        "roll": p.roll_sequence,
        "since": p.since.isoformat(),
        "until": p.until.isoformat() if p.until else None,
        "text": f"Aguardando a defesa de {p.defender.name}.",
        "options": [
            {
                "answer": o.answer,
                "name": o.name,
                "total": o.total,
                "chance": o.chance,
                "parry_weapon": o.parry_weapon,
                "retreat": o.retreat,
                "why_not": o.why_not or None,
            }
            for o in p.options
        ]
        if full
        else [],
    }


def event_rolls(event: CombatEvent) -> list[dict]:
    """Every roll an event of the fight made, in the chain's order, as ``RollOut``."""
    rolls = Roll.objects.filter(
        scene_id=event.combat.scene_id, details__event=str(event.code)
    ).select_related("character", "announcement", "rolled_by", "declaration", "campaign", "scene")
    return [roll_data(roll, masked=False) for roll in rolls.order_by("sequence")]


class CombatActionOut(CombatOut):
    """The fight after one action of it (a turn passed, a maneuver declared or changed, a
    combatant marked fled), with the action's event and every die it rolled, in the chain's
    order (the start of the turn's HT and IQ rolls, a feint's contest)."""

    event: UUID
    rolls: list[RollOut]


class TurnEventOut(Schema):
    """One event the turn wrote, with the chain's sequence numbers of its dice."""

    id: UUID
    kind: str
    round: int
    text: str
    lines: list[str]
    rolls: list[int]


class TurnAttackOut(Schema):
    event: UUID
    hit: bool | None = Field(description="None: acertou e aguarda a defesa do jogador (§4.6)")
    awaits_defence: bool = False
    hp_lost: int
    hp_after: int
    effective_level: int


class TurnOut(Schema):
    """A combatant's turn run in one call: the events it wrote (the turn passed, the
    maneuver, the attack), every die it rolled in the chain's order — each with its
    ``sequence`` and ``details.step`` (the §4.10 row) — the attack's result, and ``stopped``:
    what the start of the turn's dice left that kept him from his maneuver (None if
    nothing). ``replayed``: the same Idempotency-Key again, this is what the first did."""

    combatant: UUID
    replayed: bool
    stopped: str | None
    events: list[TurnEventOut]
    rolls: list[RollOut]
    attack: TurnAttackOut | None
    combat: CombatOut


class ModifierLineOut(Schema):
    """One modifier of the attack roll: its name, its value (levels), the canon § it comes
    from ("1.4": announced by the Mestre, with his reason)."""

    name: str
    value: int
    section: str


class DefenceOptionOut(Schema):
    """An active defence the defender has now: its level, its total with his PD (§4.6), and
    why it cannot be used against this attack (None if it can)."""

    defence: str
    name: str
    level: int
    total: int
    usable: bool
    why_not: str | None


class RolledDefenceOut(Schema):
    """A defence the defender would roll: its level (the retreat's +3 in it), and the total
    rolled against: PD plus the level, less the feint's margin."""

    defence: str
    level: int
    total: int


class AttackPreviewOut(Schema):
    attacker: UUID
    defender: UUID
    weapon: str
    skill: int
    effective_level: int
    rollable: bool = Field(description="Acima de 3: o ataque pode ser rolado (§1.1)")
    modifiers: list[ModifierLineOut]
    damage: str
    damage_type: str
    location: str
    passive_defense: int
    defences: list[DefenceOptionOut]
    rolled: list[RolledDefenceOut]
    defence_lines: list[str]
    feint_penalty: int
    notes: list[str]


class ManeuverPreviewOut(Schema):
    maneuver: str
    name: str
    all_out_option: str | None
    movement_m: int
    defences_left: str
    feint_against: UUID | None
    changes: bool


class TurnPreviewOut(Schema):
    """The dry run of a turn: nothing rolled, nothing written. Whether the turn would pass to
    him (and the round), the rolls the start of his turn asks (supposed to pass), his
    maneuver, the attack's effective level with every modifier and the defences the
    defender could use with their levels."""

    dry_run: bool
    combatant: UUID
    passes_turn: bool
    round: int
    start_rolls: list[str]
    maneuver: ManeuverPreviewOut | None
    attack: AttackPreviewOut | None
    lines: list[str]


def action_data(view: CombatView, event: CombatEvent) -> dict:
    """The tracker after one action, as ``CombatActionOut``."""
    return {**combat_data(view), "event": event.code, "rolls": event_rolls(event)}


def turn_data(outcome, view: CombatView) -> dict:
    """A ``sessions.combat.acting.TurnOutcome`` as ``TurnOut``."""
    by_event: dict[str, list[int]] = {}
    for roll in outcome.rolls:
        by_event.setdefault(roll.details.get("event"), []).append(roll.sequence)
    attack = outcome.attack
    return {
        "combatant": outcome.combatant.code,
        "replayed": outcome.replayed,
        "stopped": outcome.stopped or None,
        "events": [
            {
                "id": e.code,
                "kind": e.kind,
                "round": e.round,
                "text": e.text,
                "lines": e.lines,
                "rolls": by_event.get(str(e.code), []),
            }
            for e in outcome.events
        ],
        "rolls": [roll_data(roll, masked=False) for roll in outcome.rolls],
        "attack": None
        if attack is None
        else {
            "event": attack.event.code,
            "hit": attack.hit,
            "awaits_defence": attack.hit is None,
            "hp_lost": attack.hp_lost,
            "hp_after": attack.hp_after,
            "effective_level": attack.effective_level,
        },
        "combat": combat_data(view),
    }


def _attack_preview_data(attack) -> dict:
    pd, feint = attack.passive_defense, attack.feint_penalty
    return {
        "attacker": attack.attacker.code,
        "defender": attack.defender.code,
        "weapon": attack.weapon,
        "skill": attack.skill,
        "effective_level": attack.effective_level,
        "rollable": attack.rollable,
        "modifiers": [
            {"name": m.name, "value": m.value, "section": m.section} for m in attack.modifiers
        ],
        "damage": attack.damage,
        "damage_type": attack.damage_type,
        "location": attack.location,
        "passive_defense": pd,
        "defences": [
            {
                "defence": o.defence,
                "name": o.name,
                "level": o.level,
                "total": o.total,
                "usable": o.usable,
                "why_not": o.why_not or None,
            }
            for o in attack.defences
        ],
        "rolled": [
            {"defence": kind, "level": level, "total": pd + level - feint}
            for kind, level in attack.rolled
        ],
        "defence_lines": list(attack.defence_lines),
        "feint_penalty": feint,
        "notes": list(attack.notes),
    }


def preview_data(preview) -> dict:
    """A ``sessions.combat.acting.TurnPreview`` as ``TurnPreviewOut``."""
    declared = preview.maneuver
    maneuver = None
    if declared is not None:
        against = declared.feint_against
        maneuver = {
            "maneuver": declared.row.maneuver.value,
            "name": declared.row.name,
            "all_out_option": declared.option or None,
            "movement_m": declared.metres,
            "defences_left": declared.defences.text,
            "feint_against": against.code if against is not None else None,
            "changes": preview.changes,
        }
    return {
        "dry_run": True,
        "combatant": preview.combatant.code,
        "passes_turn": preview.passes_turn,
        "round": preview.round,
        "start_rolls": list(preview.start_rolls),
        "maneuver": maneuver,
        "attack": _attack_preview_data(preview.attack) if preview.attack else None,
        "lines": list(preview.lines),
    }
