"""The fight's dice in the scene log: every die the engine draws becomes a ``Roll`` of the scene,
appended to the campaign's chain in order, with ``details`` naming the combat, the round, the
turn and the row of the §4.10 table it belongs to. A ``RecordingSource`` checks that no die
was drawn that the log does not show.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gurps import checks
from gurps import combat as engine
from gurps.dice import RandomSource
from gurps.rolling import Modifier
from sessions import entries
from sessions.log import chain
from sessions.models import Combat, Combatant, Roll

# --- the random source that keeps every die --------------------------------------------------


class RecordingSource:
    """Wraps the server's source and keeps every value it gave, in order."""

    def __init__(self, inner: RandomSource) -> None:
        self.inner = inner
        self.values: list[int] = []

    def randint(self, a: int, b: int) -> int:
        value = self.inner.randint(a, b)
        self.values.append(value)
        return value


def combat_source() -> RecordingSource:
    return RecordingSource(entries.dice_source())


# --- rolls in the chain -----------------------------------------------------------------------


@dataclass(frozen=True)
class LoggedDice:
    """Dice drawn outside a §4.10 step (a feint's contest), for ``check_every_die``."""

    dice: tuple[int, ...]


def check_every_die(recorded: list[int], steps: Iterable) -> None:
    logged = [face for step in steps if step.dice for face in step.dice]
    if logged != recorded:
        raise RuntimeError("A die was drawn that no step of the log shows; nothing is saved.")


def success_fields(step, *, base_level: int, modifiers=(), kind: str) -> dict:
    return {
        "kind": kind,
        "base_level": base_level,
        "modifiers": [{"label": m.reason, "value": m.value} for m in modifiers],
        "effective_level": step.level,
        "dice": list(step.dice),
        "total": step.total,
        "outcome": step.outcome,
        "margin": step.level - step.total,
    }


def append_combat_roll(
    combat: Combat, user, *, character, label: str, fields: dict, details: dict
) -> Roll:
    roll = chain.append_roll(
        campaign=combat.scene.week.campaign,
        request_key="",
        scene=combat.scene,
        character=character,
        label=label[:200],
        rolled_by=user,
        details=details,
        **fields,
    )
    if combat.first_roll_id is None:
        combat.first_roll = roll
    return roll


def roll_label(who: Combatant, title: str) -> str:
    """The roll's label: the log already puts a character's name before it."""
    if who.character_id is not None or who.name in title:
        return title
    return f"{who.name}: {title}"


def roll_details(combat: Combat, event_code, step_number: int, **extra) -> dict:
    return {
        "combat": str(combat.code),
        "event": str(event_code),
        "round": combat.round,
        "turn": combat.turn,
        "step": step_number,
        **extra,
    }


def write_steps(
    combat: Combat,
    user,
    event_code,
    steps: Sequence,
    *,
    attacker: Combatant,
    defender: Combatant,
    attack_skill: int,
    attack_modifiers: Sequence[Modifier],
    expression: str,
) -> list[Roll]:
    """One Roll per die-bearing step, in order; the lines without a die that follow a roll
    go in its ``notes`` (so the whole §4.10 sequence is in the chain)."""
    groups: list[tuple[object, list[str]]] = []
    for step in steps:
        if step.dice:
            groups.append((step, []))
        elif groups:
            groups[-1][1].append(step.text)
    rolls = []
    for step, notes in groups:
        details = roll_details(
            combat,
            event_code,
            int(step.number),
            text=step.text,
            notes=notes,
            attacker=attacker.name,
            defender=defender.name,
        )
        if step.table is not None:
            table = step.table
            details.update(
                {
                    "table": table.table_key,
                    "title": table.title,
                    "rolls": list(table.rolls),
                    "faces": [list(faces) for faces in table.faces],
                    "row": table.row.label,
                    "effect": table.effect,
                    "readings": list(table.readings),
                }
            )
            fields = {"kind": Roll.Kind.TABLE.value, "dice": list(step.dice), "total": step.total}
            who = attacker
        elif step.number == engine.StepNumber.DAMAGE_ROLL:
            details["expression"] = expression
            fields = {"kind": Roll.Kind.DAMAGE.value, "dice": list(step.dice), "total": step.total}
            who = attacker
        elif step.number == engine.StepNumber.ATTACK_ROLL:
            fields = success_fields(
                step, base_level=attack_skill, modifiers=attack_modifiers, kind="skill"
            )
            who = attacker
        elif step.number == engine.StepNumber.DEFENCE_ROLL:
            fields = success_fields(step, base_level=step.level, kind="defence")
            who = defender
        else:
            fields = success_fields(step, base_level=step.level, kind="attribute")
            who = defender
        label = roll_label(who, step.title)
        rolls.append(
            append_combat_roll(
                combat, user, character=who.character, label=label, fields=fields, details=details
            )
        )
    return rolls


def log_success(
    combat: Combat,
    user,
    event_code,
    who: Combatant,
    result: checks.SuccessRoll,
    *,
    label,
    rule,
    step=engine.StepNumber.MANEUVER,
    kind="attribute",
    modifiers=(),
) -> checks.SuccessRoll:
    """A roll outside the attack's own steps in the log: at the start of a turn (stun, total
    surprise, 0 HP: §4.10 row 1), or after a defence (Will −3, the unarmed parry's)."""
    outcome = checks.OUTCOME_NAMES[result.outcome]
    faces = "+".join(map(str, result.dice))
    level = result.effective_level
    text = f"{label}: 3d6 = {faces} = {result.total} contra {level} — {outcome}."
    append_combat_roll(
        combat,
        user,
        character=who.character,
        label=roll_label(who, label),
        fields={
            "kind": kind,
            "base_level": level - sum(m.value for m in modifiers),
            "modifiers": [{"label": m.reason, "value": m.value} for m in modifiers],
            "effective_level": level,
            "dice": list(result.dice),
            "total": result.total,
            "outcome": str(result.outcome),
            "margin": result.margin,
        },
        details=roll_details(combat, event_code, int(step), text=text, notes=[], rule=rule),
    )
    return result


def attribute_roll(
    combat, user, event_code, source, who: Combatant, *, level: int, label: str, rule: str
) -> checks.SuccessRoll:
    checks.ensure_rollable(level, checks.RollKind.ATTRIBUTE)
    result = checks.roll_success(source, level, checks.RollKind.ATTRIBUTE)
    return log_success(combat, user, event_code, who, result, label=label, rule=rule)
