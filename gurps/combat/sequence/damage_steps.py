"""Steps 6 to 9 of the Mestre's table (canon §4.10; §4.8, §4.9, §4.13, §5.5): the damage
roll, the DR, the wound multiplier and the HP lost, each writing its line in the scene log.
Damage is in HP. ``Blow`` is what step 4's critical tables do to the blow; step 10 reads it too.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from gurps.combat.sequence.inputs import AttackInput, DefenceInput, TargetInput
from gurps.combat.sequence.log import faces_text, note, number_text, record_pending
from gurps.combat.sequence.plan import Plan
from gurps.combat.sequence.results import SequenceStep
from gurps.combat.sequence.table import StepNumber
from gurps.damage import DAMAGE_TYPE_NAMES, Wound, wound
from gurps.dice import RandomSource
from gurps.errors import OutsideCanon
from gurps.injury import limb_hp_lost
from gurps.tables import (
    BASIC_DAMAGE_MULTIPLIERS,
    CRITICAL_HIT,
    HEAD_FIXED_HP,
    HeadEffect,
    HitEffect,
    TableRoll,
)
from gurps.tabular import signed

# Head table rows that do not speak of damage (reading "critical_head_damage_when_unsaid").
_HEAD_DAMAGE_UNSAID = (
    HeadEffect.KNOCKOUT,
    HeadEffect.BLINDED_BOTH_EYES,
    HeadEffect.BLINDED_ONE_EYE,
)


@dataclass(frozen=True)
class Blow:
    """What the critical hit table (or the head table) does to this blow."""

    multiplier: int = 1
    bypasses_armour: bool = False
    fixed_hp: int | None = None
    instant_death: bool = False
    knockout: bool = False
    blinded: bool = False
    crippled: bool = False
    drops_weapon: bool = False
    damage_unsaid: bool = False

    @classmethod
    def of(cls, table: TableRoll | None) -> Blow:
        if table is None:
            return cls()
        effect = table.effect
        if table.table_key == CRITICAL_HIT.key:
            return cls(
                multiplier=BASIC_DAMAGE_MULTIPLIERS.get(effect, 1),
                bypasses_armour=effect == HitEffect.BYPASSES_ARMOUR,
                knockout=effect == HitEffect.KNOCKOUT,
                crippled=effect == HitEffect.LIMB_CRIPPLED,
                drops_weapon=effect == HitEffect.OPPONENT_DROPS_WEAPON,
            )
        return cls(
            fixed_hp=HEAD_FIXED_HP.get(effect),
            instant_death=effect == HeadEffect.INSTANT_DEATH,
            knockout=effect == HeadEffect.KNOCKOUT,
            blinded=effect in (HeadEffect.BLINDED_BOTH_EYES, HeadEffect.BLINDED_ONE_EYE),
            drops_weapon=effect == HeadEffect.DROPS_WEAPON,
            damage_unsaid=effect in _HEAD_DAMAGE_UNSAID,
        )


def damage_steps(
    source: RandomSource,
    steps: list[SequenceStep],
    pending: list[str],
    attack: AttackInput,
    defence: DefenceInput,
    target: TargetInput,
    plan: Plan,
    blow: Blow,
) -> tuple[tuple[int, ...], Wound | None, int]:
    """Steps 6–9 of §4.10 for a blow that landed: (the damage dice, the ``Wound``, the HP
    lost). Head table 3 (instant death) rolls no damage; head table 12 and 13 cutting or
    impaling take 1 and 2 HP without a damage roll (§4.8)."""
    if blow.instant_death:
        return (), None, 0
    if blow.fixed_hp is not None:
        steps.append(
            note(
                StepNumber.HP_LOST,
                "PV perdidos",
                f"Tabela da cabeça: {blow.fixed_hp} PV, sem rolar dano.",
            )
        )
        return (), None, blow.fixed_hp
    damage_dice, basic = damage_roll_step(source, steps, plan, blow)
    wounded = dr_step(steps, attack, target, plan, blow, basic)
    wounding_step(steps, plan, wounded)
    hp_lost = hp_lost_step(steps, pending, defence, target, plan, wounded)
    return damage_dice, wounded, hp_lost


def damage_roll_step(
    source: RandomSource, steps: list[SequenceStep], plan: Plan, blow: Blow
) -> tuple[tuple[int, ...], int]:
    """Step 6, the damage roll (§4.10 row 6; §4.9): the weapon's dice, doubled or tripled by
    the critical hit table (§4.8: "todo dobro e triplo se refere ao dano básico dos dados"),
    then Ataque Total (d)'s +2 (reading "critical_multiplier_before_all_out_bonus").
    Returns (the dice, the basic damage in HP)."""
    damage_dice, rolled = plan.damage.roll(source)
    basic = rolled * blow.multiplier + plan.damage_bonus
    text = f"Dano {plan.damage.display}: {faces_text(damage_dice) or '0'} → {number_text(rolled)}"
    if blow.multiplier != 1:
        text += f"; ×{blow.multiplier} pela tabela = {number_text(rolled * blow.multiplier)}"
    if plan.damage_bonus:
        text += f"; Ataque Total {signed(plan.damage_bonus)} = {number_text(basic)}"
    readings = (
        ("critical_multiplier_before_all_out_bonus",)
        if (blow.multiplier != 1 and plan.damage_bonus)
        else ()
    ) + (("critical_head_damage_when_unsaid",) if blow.damage_unsaid else ())
    steps.append(
        SequenceStep(
            StepNumber.DAMAGE_ROLL,
            "Dano",
            text + ".",
            dice=damage_dice,
            total=rolled,
            readings=readings,
        )
    )
    return damage_dice, basic


def dr_step(
    steps: list[SequenceStep],
    attack: AttackInput,
    target: TargetInput,
    plan: Plan,
    blow: Blow,
    basic: int,
) -> Wound:
    """Step 7, the DR (§4.10 row 7; §4.9): the target's DR at the location — none when the
    critical hit table says the blow passes the armour — comes off the ``basic`` damage. If
    nothing passes there is no wound. ``gurps.damage.wound`` also multiplies (step 8) and
    applies the caps of §4.13; returns its ``Wound``."""
    dr = 0 if blow.bypasses_armour else target.dr
    wounded = wound(
        basic,
        dr,
        plan.damage_type,
        location=plan.location,
        ht=target.ht,
        thrust=attack.thrust,
        beam=attack.beam,
    )
    dr_text = f"RD {target.dr}, ultrapassada pela tabela" if blow.bypasses_armour else f"RD {dr}"
    passed = wounded.penetrating
    steps.append(
        note(
            StepNumber.DAMAGE_RESISTANCE,
            "RD",
            f"{dr_text}: passam {passed}."
            + ("" if passed else " Não sobrou nada: não houve ferimento."),
        )
    )
    return wounded


def wounding_step(steps: list[SequenceStep], plan: Plan, wounded: Wound) -> None:
    """Step 8, the multiplier by damage type (§4.10 row 8; §4.9, §5.5): crushing ×1, cutting
    +50%, impaling ×2, ×3 into the vitals."""
    steps.append(
        note(
            StepNumber.WOUNDING,
            "Multiplicador",
            f"{DAMAGE_TYPE_NAMES[plan.damage_type].capitalize()} "
            f"×{_fraction_text(wounded.multiplier)}: {wounded.multiplied}.",
        )
    )


def hp_lost_step(
    steps: list[SequenceStep],
    pending: list[str],
    defence: DefenceInput,
    target: TargetInput,
    plan: Plan,
    wounded: Wound,
) -> int:
    """Step 9, the HP lost (§4.10 row 9): the wound's, after the §4.13 cap, and no more than
    the limb hit needs to be crippled, in one blow or over the fight (§5.5). Returns HP."""
    hp_lost = wounded.hp_lost
    lines = []
    if wounded.cap is not None and wounded.lost_to_cap:
        lines.append(f"teto de trespassar {wounded.cap} (§4.13)")
    try:
        limb = limb_hp_lost(
            target.ht,
            plan.location,
            hp_lost,
            limb_hp_lost_before=target.limb_hp_lost_before,
        )
    except OutsideCanon as error:
        record_pending(steps, pending, error)
        limb = hp_lost
    if limb != hp_lost:
        lines.append("o que passa do necessário para incapacitar o membro se perde (§5.5)")
        hp_lost = limb
    extra = f" ({'; '.join(lines)})" if lines else ""
    steps.append(
        note(StepNumber.HP_LOST, "PV perdidos", f"{defence.name} perde {hp_lost} PV{extra}.")
    )
    return hp_lost


def _fraction_text(value: Fraction) -> str:
    """×1, ×1,5, ×2, ×3 as the page writes them."""
    return f"{float(value):g}".replace(".", ",")
