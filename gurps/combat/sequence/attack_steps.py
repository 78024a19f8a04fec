"""Steps 3 to 5 of the Mestre's table (canon §4.10; §4.4, §4.6, §4.8): the attack roll, the
critical check and the defence roll, each writing its lines in the scene log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from gurps.checks import Outcome, RollKind, SuccessRoll, roll_success
from gurps.combat.sequence.inputs import AttackInput, DefenceInput
from gurps.combat.sequence.log import note, number_text, roll_step
from gurps.combat.sequence.plan import Plan
from gurps.combat.sequence.results import SequenceStep
from gurps.combat.sequence.table import StepNumber
from gurps.damage import DamageType
from gurps.defence import ActiveDefence, AttackKind, defence_rule, roll_defence
from gurps.dice import RandomSource
from gurps.house import HOUSE_SETTINGS
from gurps.rolling import Modifier
from gurps.tables import (
    CRITICAL_HEAD,
    CRITICAL_HIT,
    CRITICAL_MISS,
    HEAD_LOCATIONS,
    TableRoll,
    roll_on_table,
)
from gurps.tabular import signed

# "Ataque perfurante ou de longo alcance" (§4.8): the attacks that are not hand-to-hand.
RANGED_ATTACK_KINDS = frozenset(
    {
        AttackKind.THROWN,
        AttackKind.ARROW,
        AttackKind.SLING_STONE,
        AttackKind.BULLET,
        AttackKind.BEAM,
        AttackKind.MISSILE_SPELL,
    }
)


def _modifiers_text(skill: int, modifiers: Sequence[Modifier]) -> str:
    parts = [f"NH {skill}"] + [f"{m.reason} {signed(m.value)}" for m in modifiers]
    return ", ".join(parts)


def _table_step(roll: TableRoll) -> SequenceStep:
    """Step 4's roll on a §4.8 table (every reroll's faces kept, in order)."""
    if roll.table_key == CRITICAL_MISS.key:
        title, house = "Erro crítico", ""
    else:
        # House setting "critical_hit_table" (§4.8): the table, never the maximum damage.
        title = "Golpe fulminante"
        house = f" (regra da casa, {HOUSE_SETTINGS['critical_hit_table'].decided})"
    return SequenceStep(
        StepNumber.CRITICAL_CHECK,
        title,
        f"{title} — {roll.title}{house}: {roll.text}",
        dice=tuple(face for faces in roll.faces for face in faces),
        total=roll.total,
        table=roll,
        readings=roll.readings,
    )


def attack_roll_step(
    source: RandomSource, steps: list[SequenceStep], attack: AttackInput, plan: Plan
) -> SuccessRoll:
    """Step 3, the attack roll (§4.10 row 3; §4.4): 3d6 against the effective level (the
    weapon skill and every modifier said before the dice, §1.4: ``plan_attack``). A miss
    ends the attack ("Errou. Fim do golpe."); a critical failure goes to step 4's table. A
    17 at effective 16+ is a plain miss (reading "attack_17_at_16_plus")."""
    roll = roll_success(source, plan.level, RollKind.SKILL)
    against = (
        f"NH efetivo {number_text(plan.level)} ({_modifiers_text(attack.skill, plan.modifiers)})"
    )
    readings = ("attack_17_at_16_plus",) if roll.total == 17 and plan.level >= 16 else ()
    steps.append(
        roll_step(StepNumber.ATTACK_ROLL, f"Ataque de {attack.name}", roll, against, *readings)
    )
    if not roll.outcome.is_success and roll.outcome is not Outcome.CRITICAL_FAILURE:
        steps.append(note(StepNumber.ATTACK_ROLL, "Errou", "Errou. Fim do golpe."))
    return roll


def critical_check_step(
    source: RandomSource,
    steps: list[SequenceStep],
    attack: AttackInput,
    plan: Plan,
    roll: SuccessRoll,
) -> TableRoll | None:
    """Step 4, the critical check (§4.10 row 4; §4.8, §1.2). A critical success is a
    critical hit: a roll on the Tabela de Golpes Fulminantes, or the head table for an attack
    aimed at the head, brain or eyes — the table, never the book's maximum damage (house
    setting "critical_hit_table"; row 4's "3 = dano máximo" is a known slip). A critical
    failure rolls on the Tabela de Erros Críticos. Returns the table's roll, None if none
    (nothing is written after a plain miss)."""
    if roll.outcome is Outcome.CRITICAL_FAILURE:
        miss = roll_on_table(
            CRITICAL_MISS.key,
            source,
            unarmed=plan.attack_kind is AttackKind.UNARMED,
            unbreakable=attack.unbreakable,
            cheap=attack.cheap,
            impaling=plan.damage_type is DamageType.IMPALING,
            ranged=plan.attack_kind in RANGED_ATTACK_KINDS,
        )
        steps.append(_table_step(miss))
        return miss
    if not roll.outcome.is_success:
        return None
    if roll.outcome is not Outcome.CRITICAL_SUCCESS:
        steps.append(
            note(StepNumber.CRITICAL_CHECK, "Sem crítico", "Sem golpe fulminante: acertou.")
        )
        return None
    key = CRITICAL_HEAD.key if plan.location in HEAD_LOCATIONS else CRITICAL_HIT.key
    table = roll_on_table(key, source, location=plan.location, damage_type=plan.damage_type)
    steps.append(_table_step(table))
    return table


def _passive_only(result: SuccessRoll) -> SuccessRoll:
    """A roll against the PD alone passes or fails, no more (§4.6; reading
    "defence_roll_on_passive_only"): no active defence is tested, so §1.2's criticals — a
    roll 10 over PD 1 is not a "falha crítica" — say nothing; 3 or 4 pass, 17 or 18 fail."""
    plain = Outcome.SUCCESS if result.outcome.is_success else Outcome.FAILURE
    return replace(result, outcome=plain)


def defence_roll_step(
    source: RandomSource,
    steps: list[SequenceStep],
    attack: AttackInput,
    defence: DefenceInput,
    plan: Plan,
    *,
    critical: bool,
) -> tuple[tuple[SuccessRoll, ...], bool, tuple[ActiveDefence, ...]]:
    """Step 5, the defence roll (§4.10 row 5; §4.6): 3d6 against PD plus the active defence
    chosen (two different in Defesa Total: the second only if the first fails), minus the
    attacker's feint margin; with no active defence, against the PD alone (reading
    "defence_roll_on_passive_only"). After a ``critical`` hit nothing is rolled (§4.8).
    Returns (the rolls, whether he defended, the active defences rolled, in order)."""
    if critical:
        steps.append(
            note(
                StepNumber.DEFENCE_ROLL,
                "Sem defesa",
                "Golpe fulminante: sem defesa ativa, e não se rola defesa (§4.6, §4.8).",
            )
        )
        return (), False, ()
    defence_rolls: list[SuccessRoll] = []
    used: list[ActiveDefence] = []
    pd = defence.passive_defense
    rounds = plan.choices or ((None, 0),)
    for kind, level in rounds:
        if kind is None:
            total, against = pd, f"Defesa Passiva {pd}"
            title, why = f"Defesa de {defence.name}", ("defence_roll_on_passive_only",)
        else:
            active = level - attack.feint_penalty
            total = pd + active
            name = defence_rule(kind).name
            feint = f", finta −{attack.feint_penalty}" if attack.feint_penalty else ""
            against = f"PD {pd} + {name} {number_text(level)}{feint} = {number_text(total)}"
            title, why = f"{name} de {defence.name}", ()
            used.append(kind)
        result = roll_defence(source, total)
        if kind is None:
            result = _passive_only(result)
        defence_rolls.append(result)
        steps.append(roll_step(StepNumber.DEFENCE_ROLL, title, result, against, *why))
        if result.outcome.is_success:
            steps.append(note(StepNumber.DEFENCE_ROLL, "Defendeu", "Defendeu: o golpe não passou."))
            return tuple(defence_rolls), True, tuple(used)
    steps.append(note(StepNumber.DEFENCE_ROLL, "Atingido", "Foi atingido."))
    return tuple(defence_rolls), False, tuple(used)
