"""What every action of the fight shares: its beginning and its event (``sessions.tracker``),
whose turn it is, and what the fight has left on a combatant's weapons (broken, dropped,
strained, unready; §4.3, §4.8).
"""

from __future__ import annotations

from collections.abc import Iterable

from campaigns import doorbell
from campaigns.errors import ServiceError
from gurps import combat as engine
from sessions.combat.messages import (
    ARM_STRAINED,
    NOT_ITS_TURN,
    NOT_STARTED,
    OUT_OF_THE_FIGHT,
    PARTIAL_SURPRISE_LOSES_TURN,
    STUNNED_NO_MANEUVER,
    TOTAL_SURPRISE_STILL,
    UNBALANCED_TURN,
    VALUE_OUT_OF_RANGE,
    WEAPON_BROKEN,
    WEAPON_DROPPED,
    WEAPON_UNREADY,
)
from sessions.combat.weapons import lines_of_weapon
from sessions.models import Combat, Combatant
from sessions.tracker import tracker_event
from sheets.reads import state_of

# --- helpers ----------------------------------------------------------------------------------


def between(value: int, low: int, high: int, field_name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ServiceError(VALUE_OUT_OF_RANGE.format(low=low, high=high), field=field_name)
    return value


def combat_event(
    combat: Combat, user, kind: str, text: str, *, lines=(), data=None, request_key="", code=None
):
    """The event of one action, written after its rolls (which name its ``code``)."""
    return tracker_event(
        combat,
        user=user,
        kind=kind,
        text=text,
        lines=lines,
        data=data,
        request_key=request_key,
        code=code,
        update_fields=["round", "turn", "terrain", "first_roll", "status"],
        round=combat.round,
        turn=combat.turn,
    )


def weapon_problem(c: Combatant, index: int) -> str | None:
    """Why ``c`` cannot attack or parry with weapon line ``index`` now, or None: broken, its
    arm's shoulder strained (§4.8), on the floor, unready (§4.3)."""
    name = c.weapon_lines()[index].name
    if index in c.broken:
        return WEAPON_BROKEN.format(weapon=name)
    if index in c.strained:
        return ARM_STRAINED.format(weapon=name)
    if index in c.dropped:
        return WEAPON_DROPPED.format(weapon=name)
    if index in c.unready:
        return WEAPON_UNREADY.format(weapon=name)
    return None


def usable_weapons(c: Combatant) -> list[int]:
    return [i for i in range(len(c.weapons)) if weapon_problem(c, i) is None]


def make_unready(c: Combatant, index: int, turns: int = 1) -> None:
    """The weapon of line ``index`` needs ``turns`` more Ready turns (added to what it needs):
    every line of that weapon, since it is one thing in the hand."""
    for line in lines_of_weapon(c.weapon_lines(), index):
        key = str(line)
        c.ready_turns = {**c.ready_turns, key: int(c.ready_turns.get(key, 0)) + turns}
        c.unready = sorted({*c.unready, line})


def mark_weapon(c: Combatant, field: str, index: int) -> None:
    """The weapon of line ``index`` is ``field`` ("broken", "dropped", "strained", §4.8):
    all its lines."""
    lines = lines_of_weapon(c.weapon_lines(), index)
    setattr(c, field, sorted({*getattr(c, field), *lines}))


def clear_weapon(c: Combatant, field: str, index: int) -> None:
    """The weapon of line ``index`` is no longer ``field`` (picked up, readied): all its lines."""
    lines = set(lines_of_weapon(c.weapon_lines(), index))
    setattr(c, field, [i for i in getattr(c, field) if i not in lines])


def sync_character_state(c: Combatant) -> None:
    """A character's state is live (docs/DESIGN.md, invariant 12 (The state is live)): what the
    fight did to it — HP and fatigue lost, stun — is written into its state when it happens, so the
    sheet, the sheets API and the combat card agree at every moment. A creature has no state."""
    if c.character_id is None:
        return
    state = state_of(c.character)
    state.hp_lost = c.hp - c.hp_now
    state.fatigue_lost = c.fatigue_before
    state.stunned = c.stunned
    state.unconscious = c.status == Combatant.Status.UNCONSCIOUS
    state.dead = state.dead or c.status == Combatant.Status.DEAD  # death is permanent (§8)
    fields = ["hp_lost", "fatigue_lost", "stunned", "unconscious", "dead", "updated_at"]
    state.save(update_fields=fields)
    doorbell.ring(doorbell.character_key(c.character.code))  # its sheet page follows


def combatant_save(c: Combatant) -> None:
    """Save ``c`` and keep its character's state live."""
    c.save()
    sync_character_state(c)


def current(combat: Combat, combatants: Iterable[Combatant] | None = None) -> Combatant | None:
    if combat.round == 0:
        return None
    found = combatants if combatants is not None else combat.combatants.all()
    return next((c for c in found if c.position == combat.turn), None)


def status_for_out(c: Combatant) -> str:
    if c.kind == Combatant.Kind.CREATURE:
        return Combatant.Status.FLED if c.flees else Combatant.Status.DEAD
    return Combatant.Status.DEAD


def ensure_turn_of(
    combat: Combat, c: Combatant, everyone: Iterable[Combatant] | None = None
) -> None:
    """Refuse unless it is ``c``'s turn and ``c`` is in the fight (§4.1). ``everyone``: the
    combatants as the caller holds them (a turn passed in memory, not yet saved)."""
    if combat.round == 0:
        raise ServiceError(NOT_STARTED, code="not_started")
    now = current(combat, everyone)
    if now is None or now.pk != c.pk:
        raise ServiceError(
            NOT_ITS_TURN.format(name=c.name, current=now.name if now else "ninguém"),
            field="combatant",
            code="not_its_turn",
        )
    if not c.in_the_fight:
        raise ServiceError(
            OUT_OF_THE_FIGHT.format(name=c.name, status=c.get_status_display().lower()),
            field="combatant",
        )


def why_not_acting(combat: Combat, c: Combatant) -> str:
    """What keeps ``c`` from choosing a maneuver on his turn now, in the canon's words, or "":
    out of the fight, stunned until his HT roll (§5.2), the first turn lost to a partial
    surprise or still under a total one (§5e), the turn the head table's 8 took (§4.8)."""
    if not c.in_the_fight:
        return OUT_OF_THE_FIGHT.format(name=c.name, status=c.get_status_display().lower())
    if c.stunned:
        return STUNNED_NO_MANEUVER.format(name=c.name)
    if engine.loses_the_turn(c.surprise, combat.round):
        return PARTIAL_SURPRISE_LOSES_TURN.format(name=c.name)
    if engine.still_surprised(c.surprise, c.acting):
        return TOTAL_SURPRISE_STILL.format(name=c.name)
    if c.turn_lost_round == combat.round:
        return UNBALANCED_TURN.format(name=c.name)
    return ""
