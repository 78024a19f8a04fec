"""Step 10 of the Mestre's table (canon §4.10; §5.1–5.5, §5.4.1): the consequences of a blow
that landed, in the canon's order — shock, knockdown and stun, knockout, the HP thresholds —
each writing its lines in the scene log.
"""

from __future__ import annotations

from gurps.attributes import is_staggered
from gurps.checks import NO_ROLL_AT_OR_BELOW, Outcome, RollKind, roll_success
from gurps.combat.sequence.damage_steps import Blow
from gurps.combat.sequence.inputs import TargetInput
from gurps.combat.sequence.log import note, record_pending, roll_step
from gurps.combat.sequence.plan import Plan
from gurps.combat.sequence.results import Consequences, SequenceStep
from gurps.combat.sequence.table import StepNumber
from gurps.defence import STUNNED_PENALTY
from gurps.dice import RandomSource
from gurps.errors import OutsideCanon
from gurps.house import CombatantKind, death_rule, house_death_checks, is_out_of_the_fight
from gurps.injury import (
    STUN_SOURCES,
    KnockoutCheck,
    StunCause,
    body_may_be_destroyed,
    crippling_effects,
    is_crippled,
    is_dead,
    is_major_wound,
    knockout_check,
    major_wound,
    shock_penalty,
    stun_causes,
    turn_start_ht_roll,
)
from gurps.tabular import signed


def _ht_roll(source: RandomSource, ht: int, title: str) -> tuple[SequenceStep, bool]:
    """A forced HT roll of step 10; at HT 3 or less none is made and it counts as failed
    (reading "forced_ht_roll_at_three_or_less")."""
    if ht <= NO_ROLL_AT_OR_BELOW:
        text = f"{title}: HT {ht} — não se rola com 3 ou menos (§1.1); conta como falho."
        step = SequenceStep(
            StepNumber.CONSEQUENCES,
            title,
            text,
            level=ht,
            outcome=Outcome.FAILURE.value,
            readings=("forced_ht_roll_at_three_or_less",),
        )
        return step, False
    roll = roll_success(source, ht, RollKind.ATTRIBUTE)
    return (
        roll_step(StepNumber.CONSEQUENCES, title, roll, f"HT {ht}"),
        roll.outcome.is_success,
    )


_STUN_WORDS = {source.cause: source.words for source in STUN_SOURCES}


def consequences_step(
    source: RandomSource,
    steps: list[SequenceStep],
    pending: list[str],
    plan: Plan,
    target: TargetInput,
    blow: Blow,
    *,
    critical: bool,
    hp_lost: int,
) -> Consequences:
    """Step 10 of §4.10, in order: shock (§5.1); major wound, crippling and stun (§5.2,
    §5.5); knockout (§5.3, and the tables' knockouts, §4.8); the HP thresholds (§5.4) under
    the house rule of §5.4.1. A forced HT roll at HT 3 or less is not rolled and counts as
    failed (reading "forced_ht_roll_at_three_or_less")."""
    ht = target.ht
    hp_after = target.hp - hp_lost
    shock = shock_step(steps, hp_lost)
    # Past its death line the blow leaves no one to roll for: no Prostração, no Nocaute
    # (§5.4.1: a bestiary creature at 0 HP is out "de qualquer jeito, e não volta").
    past = beyond_the_death_line(plan.kind, ht, hp_after) or blow.instant_death
    knocked_down = not past and knockdown_step(source, steps, ht, hp_lost)
    crippled, knocked_down, drops_weapon = crippling_step(
        steps, pending, plan, target, blow, hp_lost, knocked_down=knocked_down
    )
    causes = stun_step(
        steps,
        plan,
        ht,
        blow,
        hp_lost,
        critical=critical,
        crippled=crippled,
        knocked_down=knocked_down,
    )
    knocked_out = not past and knockout_step(source, steps, pending, plan, ht, blow, hp_lost)
    dead, checks, out = death_step(source, steps, plan, target, blow, hp_after)
    staggered, each_turn, body = hp_threshold_step(steps, plan, target, hp_after, out=out)
    return Consequences(
        shock=shock,
        stun_causes=causes,
        knocked_down=knocked_down,
        knocked_out=knocked_out,
        crippled=crippled,
        drops_weapon=drops_weapon,
        staggered=staggered,
        ht_roll_each_turn=each_turn,
        death_checks=checks,
        dead=dead,
        out_of_the_fight=out,
        body_may_be_destroyed=body,
        pending=tuple(pending),
    )


def shock_step(steps: list[SequenceStep], hp_lost: int) -> int:
    """Shock (§5.1): minus the HP lost to IQ, DX and their skills on the victim's next turn
    only; the active defence does not change. Returns the modifier (0 or negative)."""
    shock = shock_penalty(hp_lost)
    if shock:
        steps.append(
            note(
                StepNumber.CONSEQUENCES,
                "Choque",
                f"Choque: {signed(shock)} em IQ e DX, e nas perícias baseadas nelas, só no "
                "próximo turno; a defesa ativa não muda (§5.1).",
            )
        )
    return shock


def beyond_the_death_line(kind: CombatantKind, ht: int, hp_after: int) -> bool:
    """True when ``hp_after`` puts the target past its line for certain (§5.4.1): a bestiary
    creature at 0 HP, a named NPC or boss at −HT, a player character at −5 × HT (§5.4)."""
    if death_rule(kind).death_checks:
        return is_dead(ht, hp_after)
    return is_out_of_the_fight(kind, ht, hp_after)


def knockdown_step(source: RandomSource, steps: list[SequenceStep], ht: int, hp_lost: int) -> bool:
    """Knockdown (§5.2): more than HT/2 lost in one blow is a major wound, and an HT roll;
    failed, the victim falls. Returns whether he was knocked down."""
    if not is_major_wound(ht, hp_lost):
        return False
    step, passed = _ht_roll(source, ht, "Prostração (perdeu mais que HT/2)")
    steps.append(step)
    return major_wound(passed).knocked_down


def crippling_step(
    steps: list[SequenceStep],
    pending: list[str],
    plan: Plan,
    target: TargetInput,
    blow: Blow,
    hp_lost: int,
    *,
    knocked_down: bool,
) -> tuple[bool, bool, bool]:
    """Crippling (§5.5, and the critical hit table's crippled limb, §4.8): the limb hit is
    crippled by this blow; a crippled leg knocks down, a crippled hand drops what it holds.
    Returns (crippled, knocked down, drops the weapon)."""
    ht, where = target.ht, plan.location
    crippled = blow.crippled
    try:
        before = target.limb_hp_lost_before
        crippled = crippled or (
            is_crippled(ht, where, before + hp_lost) and not is_crippled(ht, where, before)
        )
    except OutsideCanon as error:
        record_pending(steps, pending, error)
    drops_weapon = blow.drops_weapon
    if crippled:
        effects = crippling_effects(where)
        knocked_down = knocked_down or effects.knocked_down
        drops_weapon = drops_weapon or effects.drops_what_it_holds
        steps.append(
            note(
                StepNumber.CONSEQUENCES,
                "Incapacitado",
                f"{where.label.capitalize()} incapacitado (§5.5).",
            )
        )
    if drops_weapon:
        steps.append(note(StepNumber.CONSEQUENCES, "Arma", "A vítima deixa cair a arma."))
    return crippled, knocked_down, drops_weapon


def stun_step(
    steps: list[SequenceStep],
    plan: Plan,
    ht: int,
    blow: Blow,
    hp_lost: int,
    *,
    critical: bool,
    crippled: bool,
    knocked_down: bool,
) -> tuple[StunCause, ...]:
    """Stun (§5.2): every cause there is — a major wound, a critical hit received, a brain
    blow over HT/3, a crippling or blinding injury. Returns the causes (empty: not
    stunned)."""
    causes = stun_causes(
        ht,
        hp_lost,
        location=plan.location,
        critical_hit_received=critical,
        crippled=crippled,
        blinded=blow.blinded,
    )
    if causes:
        why = "; ".join(_STUN_WORDS[cause] for cause in causes)
        fell = "Cai no chão e fica atordoado" if knocked_down else "Atordoado"
        steps.append(
            note(
                StepNumber.CONSEQUENCES,
                "Atordoado",
                f"{fell} ({why}): {signed(STUNNED_PENALTY)} em todas as defesas ativas; no "
                "início do próximo turno, teste de HT para agir (§5.2).",
            )
        )
    return causes


def knockout_step(
    source: RandomSource,
    steps: list[SequenceStep],
    pending: list[str],
    plan: Plan,
    ht: int,
    blow: Blow,
    hp_lost: int,
) -> bool:
    """Knockout (§5.3, and the tables' knockouts, §4.8): the table's knockout, a brain blow
    over HT/2 (automatic), or a head or vitals blow that asks an HT roll. What the canon
    does not settle (the eyes) is recorded as pending. Returns whether he is unconscious."""
    step10 = StepNumber.CONSEQUENCES
    if blow.knockout:
        steps.append(
            note(
                step10,
                "Nocaute",
                "Nocaute pela tabela: inconsciente; teste de HT a cada 30 min para acordar.",
            )
        )
        return True
    if blow.instant_death:
        return False
    try:
        check = knockout_check(ht, hp_lost, plan.location, plan.damage_type)
    except OutsideCanon as error:
        record_pending(steps, pending, error)
        check = KnockoutCheck.NONE
    if check is KnockoutCheck.AUTOMATIC:
        steps.append(
            note(
                step10,
                "Nocaute",
                "Golpe no cérebro que tira mais que HT/2: nocaute automático (§5.3).",
            )
        )
        return True
    if check is KnockoutCheck.HT_ROLL:
        step, passed = _ht_roll(source, ht, "Nocaute")
        steps.append(step)
        return not passed
    return False


def death_step(
    source: RandomSource,
    steps: list[SequenceStep],
    plan: Plan,
    target: TargetInput,
    blow: Blow,
    hp_after: int,
) -> tuple[bool, int, bool]:
    """Death (§5.4, under the house rule of §5.4.1): the head table's instant death; for a
    player character, −5 × HT or a failed death check (one per threshold crossed, rolled
    here); for the others, out of the fight at their threshold (a bestiary creature at 0 HP,
    a named NPC or boss at −HT). Returns (dead, death checks rolled, out of the fight)."""
    step10, ht = StepNumber.CONSEQUENCES, target.ht
    rule = death_rule(plan.kind)
    dead, checks = blow.instant_death, 0
    if dead:
        steps.append(note(step10, "Morte", "Morte instantânea (tabela da cabeça)."))
        out = True
    elif rule.death_checks:
        if is_dead(ht, hp_after):
            dead = True
            steps.append(note(step10, "Morte", "−5 × HT: morte automática (§5.4)."))
        else:
            for _ in range(house_death_checks(plan.kind, ht, target.hp, hp_after)):
                step, passed = _ht_roll(source, ht, "Teste de morte (HT básico)")
                steps.append(step)
                checks += 1
                if not passed:
                    dead = True
                    steps.append(note(step10, "Morte", "Falhou o teste de morte: morre (§5.4)."))
                    break
        out = dead
    else:
        out = is_out_of_the_fight(plan.kind, ht, hp_after)
        if out and plan.kind is CombatantKind.CREATURE:
            steps.append(
                note(
                    step10,
                    "Fora da luta",
                    "Bicho de bestiário a 0 PV: morto — ou em fuga, "
                    "se o `06` diz que a espécie foge; fora da luta, e não volta (§5.4.1).",
                )
            )
        elif out:
            dead = True
            steps.append(note(step10, "Morte", "NPC nomeado ou chefe a −HT: morre (§5.4.1)."))
    return dead, checks, out


def hp_threshold_step(
    steps: list[SequenceStep],
    plan: Plan,
    target: TargetInput,
    hp_after: int,
    *,
    out: bool,
) -> tuple[bool, int | None, bool]:
    """The HP thresholds of §5.4 for one still in the fight: at 3 HP or less, Move and Dodge
    halved; at 0 or less, an HT roll at the start of each turn (reading
    "faint_roll_for_named_npcs" for those without death checks); at −10 × HT the body may be
    destroyed. Returns (staggered, the turn-start HT roll's level or None, body destroyed)."""
    step10, ht = StepNumber.CONSEQUENCES, target.ht
    rule = death_rule(plan.kind)
    staggered = not out and is_staggered(hp_after)
    each_turn = None
    if not out:
        each_turn = turn_start_ht_roll(
            ht, hp_after, strong_will=target.strong_will, weak_will=target.weak_will
        )
    if staggered:
        steps.append(
            note(step10, "Cambaleando", "3 PV ou menos: Deslocamento e Esquiva à metade (§5.4).")
        )
    if each_turn is not None:
        steps.append(
            note(
                step10,
                "Desmaio",
                f"0 PV ou menos: teste de HT ({each_turn}) no início de cada turno; falhando, "
                "desmaia (§5.4).",
                *(() if rule.death_checks else ("faint_roll_for_named_npcs",)),
            )
        )
    body = body_may_be_destroyed(ht, hp_after)
    if body:
        steps.append(note(step10, "Corpo", "−10 × HT: o corpo pode ter sido destruído (§5.4)."))
    return staggered, each_turn, body
