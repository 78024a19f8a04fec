"""One attack run through steps 3 to 10 of the Mestre's table (canon §4.10), one function a
step (``attack_steps``, ``damage_steps``, ``consequence_steps``), every die from one source.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from gurps.checks import Outcome, SuccessRoll
from gurps.combat.maneuvers import ManeuverRow
from gurps.combat.sequence.attack_steps import (
    attack_roll_step,
    critical_check_step,
    defence_roll_step,
)
from gurps.combat.sequence.consequence_steps import consequences_step
from gurps.combat.sequence.damage_steps import Blow, damage_steps
from gurps.combat.sequence.inputs import AttackInput, DefenceInput, TargetInput
from gurps.combat.sequence.plan import Plan, plan_attack
from gurps.combat.sequence.results import AttackResolution, SequenceStep
from gurps.defence import ActiveDefence
from gurps.dice import RandomSource
from gurps.errors import (
    ATTACK_ROLL_NOT_AWAITING_DEFENCE,
    ATTACK_ROLL_OTHER_LEVEL,
    InvalidValue,
)
from gurps.tables import TableRoll


@dataclass(frozen=True)
class AttackRolled:
    """Steps 3 and 4 of one attack done (§4.10): the attack roll, the critical table's roll
    (None without a critical) and the steps written so far. ``awaits_defence``: the attack hit
    without a critical — the defender's choice comes now, before step 5 (§4.1, §4.6); after a
    miss or a critical hit there is nothing to choose."""

    roll: SuccessRoll
    table: TableRoll | None
    steps: tuple[SequenceStep, ...]

    @property
    def awaits_defence(self) -> bool:
        return self.roll.outcome is Outcome.SUCCESS


def roll_attack(
    source: RandomSource, attack: AttackInput, defence: DefenceInput, target: TargetInput
) -> AttackRolled:
    """Steps 3 and 4 only (§4.10 rows 3–4): the attack roll and the critical check, every die
    from ``source``, so the defender can choose his defence at the moment of the attack
    (§4.6) and ``resolve_attack(..., rolled=)`` go on from there. The same checks as
    ``resolve_attack`` before the first die."""
    plan = plan_attack(attack, defence, target)
    steps: list[SequenceStep] = []
    roll = attack_roll_step(source, steps, attack, plan)
    table = critical_check_step(source, steps, attack, plan, roll)
    return AttackRolled(roll, table, tuple(steps))


def attack_hit_awaiting_defence(roll: SuccessRoll) -> AttackRolled:
    """An attack roll kept while the defender chooses (a plain success, §4.10 row 4: no
    critical), as ``resolve_attack(..., rolled=)`` takes it back: its steps are already in
    the log. Raises InvalidValue("attack_roll") for a roll that leaves nothing to choose."""
    if roll.outcome is not Outcome.SUCCESS:
        raise InvalidValue("attack_roll", ATTACK_ROLL_NOT_AWAITING_DEFENCE)
    return AttackRolled(roll, None, ())


def resolve_attack(
    source: RandomSource,
    attack: AttackInput,
    defence: DefenceInput,
    target: TargetInput,
    *,
    rolled: AttackRolled | None = None,
) -> AttackResolution:
    """Run one attack through steps 3–10 of the Mestre's table (§4.10; §4.4–4.9, §4.13,
    §5.1–5.5, §5.4.1), every die from ``source``, and keep each step for the scene log.

    3. Attack roll: 3d6 against the weapon skill plus every announced modifier (§1.4: all in
       the input, none after), the hit location's penalty (§5.5) and Ataque Total (c)'s +4.
       A miss ends it.
    4. Critical check (§4.8, §1.2): a critical success is a critical hit — no active defence,
       no defence roll at all, and a roll on the Tabela de Golpes Fulminantes (or the head
       table for an attack aimed at the head, brain or eyes) through
       ``gurps.tables.roll_on_table``. This table uses the table, never the book's maximum
       damage (house setting "critical_hit_table"; §4.10 row 4's "3 = dano máximo" is a known
       slip). A critical failure rolls on the Tabela de Erros Críticos, and the attack ends.
       A 17 at effective 16+ is a plain miss (reading "attack_17_at_16_plus").
    5. Defence roll: 3d6 against PD plus the active defence his maneuver leaves and he chose
       (two different in Defesa Total: the second only if the first fails), minus the
       attacker's feint margin; 3 or 4 always pass, 17 or 18 always fail (§4.6). With no
       active defence he rolls against the PD alone (reading "defence_roll_on_passive_only").
    6–9. Damage roll (Ataque Total (d) +2 after the table's double or triple of the dice,
       reading "critical_multiplier_before_all_out_bonus"), DR (none if the table says it
       passes the armour), wound multiplier and the caps of §4.13 (``gurps.damage.wound``),
       the limb's crippling cap (§5.5), HP lost. Head table 3: instant death, no damage
       rolled; 12 and 13 cutting or impaling: 1 and 2 HP.
    10. Consequences, in order: shock; major wound (HT roll: knocked down if failed) and
       every cause of stun (§5.2: a critical hit received stuns); knockout (§5.3, and the
       tables' knockouts); the HP thresholds (§5.4) under the house rule of §5.4.1 — death
       checks rolled for a player character. A forced HT roll at HT 3 or less is not rolled
       and counts as failed (reading "forced_ht_roll_at_three_or_less"). What the canon does
       not settle (the eyes' knockout and crippling) goes to ``Consequences.pending``.

    Everything is checked before the first die: InvalidValue("attack.<field>",
    "defence.<field>", "target.<field>") for bad input, NoRollAtThreeOrLess for an attack at
    effective level 3 or less (§1.1). Returns an ``AttackResolution``.

    ``rolled``: steps 3–4 already done (``roll_attack``, or ``attack_hit_awaiting_defence``
    for a roll kept while the defender chose): they are not rolled again, and the resolution's
    steps are ``rolled.steps`` followed by the new ones. Raises InvalidValue("attack_roll")
    when it was rolled against another level than this attack's.
    """
    plan = plan_attack(attack, defence, target)
    steps: list[SequenceStep] = list(rolled.steps) if rolled is not None else []
    pending: list[str] = []
    finish = partial(_resolution, attack, defence, target, plan, steps)

    if rolled is None:
        rolled = roll_attack(source, attack, defence, target)
        steps.extend(rolled.steps)
    elif rolled.roll.effective_level != plan.level:
        raise InvalidValue("attack_roll", ATTACK_ROLL_OTHER_LEVEL)
    roll, table = rolled.roll, rolled.table
    if not roll.outcome.is_success:
        return finish(attack_roll=roll, hit=False, critical_miss=table)
    critical = roll.outcome is Outcome.CRITICAL_SUCCESS
    defence_rolls, defended, used = defence_roll_step(
        source, steps, attack, defence, plan, critical=critical
    )
    flags = _maneuver_flags(defence, plan.defence_maneuver, used)
    if defended:
        return finish(
            attack_roll=roll, hit=False, defence_rolls=defence_rolls, defended=True, **flags
        )
    blow = Blow.of(table)
    damage_dice, wounded, hp_lost = damage_steps(
        source, steps, pending, attack, defence, target, plan, blow
    )
    consequences = consequences_step(
        source, steps, pending, plan, target, blow, critical=critical, hp_lost=hp_lost
    )
    return finish(
        attack_roll=roll,
        hit=True,
        critical_hit=critical,
        critical_table=table,
        defence_rolls=defence_rolls,
        damage_dice=damage_dice,
        wound=wounded,
        hp_lost=hp_lost,
        hp_after=target.hp - hp_lost,
        consequences=consequences,
        **flags,
    )


def _maneuver_flags(
    defence: DefenceInput, row: ManeuverRow, used: tuple[ActiveDefence, ...]
) -> dict[str, object]:
    """What defending cost under the defender's own maneuver (§4.3): the aim spoiled, the
    reload cancelled by a dodge, the Will−3 roll to keep concentrating."""
    return {
        "defences_used": used,
        "aim_spoiled": row.spoils_aim and bool(used),
        "reload_cancelled": defence.reloading_missile_weapon and ActiveDefence.DODGE in used,
        "concentration_will_level": (
            defence.will + row.concentration_will_modifier
            if used and row.concentration_will_modifier is not None and defence.will is not None
            else None
        ),
    }


def _resolution(
    attack: AttackInput,
    defence: DefenceInput,
    target: TargetInput,
    plan: Plan,
    steps: list[SequenceStep],
    **kwargs,
) -> AttackResolution:
    """The ``AttackResolution`` with the steps so far; ``kwargs`` what differs from a miss."""
    base = {
        "attacker": attack.name,
        "defender": defence.name,
        "effective_level": plan.level,
        "modifiers": plan.modifiers,
        "critical_hit": False,
        "critical_table": None,
        "critical_miss": None,
        "defence_rolls": (),
        "defended": False,
        "damage_dice": (),
        "wound": None,
        "hp_lost": 0,
        "hp_after": target.hp,
        "consequences": None,
    }
    base.update(kwargs)
    return AttackResolution(steps=tuple(steps), **base)
