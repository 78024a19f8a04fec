"""One attack run through steps 3 to 10 of the Mestre's table (canon §4.10), every die from one
source, each step kept for the scene log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from gurps.attributes import is_staggered
from gurps.checks import (
    NO_ROLL_AT_OR_BELOW,
    OUTCOME_NAMES,
    Outcome,
    RollKind,
    SuccessRoll,
    roll_success,
)
from gurps.combat.sequence.inputs import AttackInput, DefenceInput, TargetInput
from gurps.combat.sequence.plan import Plan, plan_attack
from gurps.combat.sequence.results import AttackResolution, Consequences, SequenceStep
from gurps.combat.sequence.table import StepNumber
from gurps.damage import DAMAGE_TYPE_NAMES, DamageType, wound
from gurps.defence import STUNNED_PENALTY, ActiveDefence, AttackKind, defence_rule, roll_defence
from gurps.dice import RandomSource
from gurps.errors import OutsideCanon
from gurps.house import (
    HOUSE_SETTINGS,
    CombatantKind,
    death_rule,
    house_death_checks,
    is_out_of_the_fight,
)
from gurps.injury import (
    STUN_SOURCES,
    KnockoutCheck,
    body_may_be_destroyed,
    crippling_effects,
    is_crippled,
    is_dead,
    is_major_wound,
    knockout_check,
    limb_hp_lost,
    major_wound,
    shock_penalty,
    stun_causes,
    turn_start_ht_roll,
)
from gurps.rolling import Modifier
from gurps.tables import (
    BASIC_DAMAGE_MULTIPLIERS,
    CRITICAL_HEAD,
    CRITICAL_HIT,
    CRITICAL_MISS,
    HEAD_FIXED_HP,
    HEAD_LOCATIONS,
    HeadEffect,
    HitEffect,
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


def _faces(dice: Sequence[int]) -> str:
    return "+".join(str(face) for face in dice)


def _number(value: int) -> str:
    return str(value).replace("-", "\u2212")


def _roll_text(title: str, roll: SuccessRoll, against: str) -> str:
    return (
        f"{title}: 3d6 = {_faces(roll.dice)} = {roll.total} contra {against} — "
        f"{OUTCOME_NAMES[roll.outcome]}."
    )


def _roll_step(
    number: StepNumber, title: str, roll: SuccessRoll, against: str, *readings: str
) -> SequenceStep:
    return SequenceStep(
        number,
        title,
        _roll_text(title, roll, against),
        dice=roll.dice,
        total=roll.total,
        level=roll.effective_level,
        outcome=roll.outcome.value,
        readings=readings,
    )


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
        _roll_step(StepNumber.CONSEQUENCES, title, roll, f"HT {ht}"),
        roll.outcome.is_success,
    )


def _note(number: StepNumber, title: str, text: str, *readings: str) -> SequenceStep:
    return SequenceStep(number, title, text, readings=readings)


def _modifiers_text(skill: int, modifiers: Sequence[Modifier]) -> str:
    parts = [f"NH {skill}"] + [f"{m.reason} {signed(m.value)}" for m in modifiers]
    return ", ".join(parts)


def resolve_attack(
    source: RandomSource, attack: AttackInput, defence: DefenceInput, target: TargetInput
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
    """
    plan = plan_attack(attack, defence, target)
    steps: list[SequenceStep] = []

    def finish(**kwargs) -> AttackResolution:
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

    # --- 3. Jogada de ataque
    roll = roll_success(source, plan.level, RollKind.SKILL)
    against = f"NH efetivo {_number(plan.level)} ({_modifiers_text(attack.skill, plan.modifiers)})"
    readings = ("attack_17_at_16_plus",) if roll.total == 17 and plan.level >= 16 else ()
    steps.append(
        _roll_step(StepNumber.ATTACK_ROLL, f"Ataque de {attack.name}", roll, against, *readings)
    )

    # --- 4. Checa crítico
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
        return finish(attack_roll=roll, hit=False, critical_miss=miss)
    if not roll.outcome.is_success:
        steps.append(_note(StepNumber.ATTACK_ROLL, "Errou", "Errou. Fim do golpe."))
        return finish(attack_roll=roll, hit=False)
    critical = roll.outcome is Outcome.CRITICAL_SUCCESS
    table = None
    if critical:
        key = CRITICAL_HEAD.key if plan.location in HEAD_LOCATIONS else CRITICAL_HIT.key
        table = roll_on_table(key, source, location=plan.location, damage_type=plan.damage_type)
        steps.append(_table_step(table))
    else:
        steps.append(
            _note(StepNumber.CRITICAL_CHECK, "Sem crítico", "Sem golpe fulminante: acertou.")
        )

    # --- 5. Jogada de defesa
    defence_rolls: list[SuccessRoll] = []
    defended = False
    used: list[ActiveDefence] = []
    if critical:
        steps.append(
            _note(
                StepNumber.DEFENCE_ROLL,
                "Sem defesa",
                "Golpe fulminante: sem defesa ativa, e não se rola defesa (§4.6, §4.8).",
            )
        )
    else:
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
                against = f"PD {pd} + {name} {_number(level)}{feint} = {_number(total)}"
                title, why = f"{name} de {defence.name}", ()
                used.append(kind)
            result = roll_defence(source, total)
            defence_rolls.append(result)
            steps.append(_roll_step(StepNumber.DEFENCE_ROLL, title, result, against, *why))
            if result.outcome.is_success:
                defended = True
                break
    row = plan.defence_maneuver
    flags = {
        "defences_used": tuple(used),
        "aim_spoiled": row.spoils_aim and bool(used),
        "reload_cancelled": defence.reloading_missile_weapon and ActiveDefence.DODGE in used,
        "concentration_will_level": (
            defence.will + row.concentration_will_modifier
            if used and row.concentration_will_modifier is not None and defence.will is not None
            else None
        ),
    }
    if defended:
        steps.append(_note(StepNumber.DEFENCE_ROLL, "Defendeu", "Defendeu: o golpe não passou."))
        return finish(
            attack_roll=roll,
            hit=False,
            defence_rolls=tuple(defence_rolls),
            defended=True,
            **flags,
        )
    if defence_rolls:
        steps.append(_note(StepNumber.DEFENCE_ROLL, "Atingido", "Foi atingido."))

    # --- 6–9. Dano, RD, multiplicador, PV perdidos
    blow = _Blow.of(table)
    damage_dice: tuple[int, ...] = ()
    wounded = None
    pending: list[str] = []
    if blow.instant_death:
        hp_lost = 0
    elif blow.fixed_hp is not None:
        hp_lost = blow.fixed_hp
        steps.append(
            _note(
                StepNumber.HP_LOST,
                "PV perdidos",
                f"Tabela da cabeça: {hp_lost} PV, sem rolar dano.",
            )
        )
    else:
        damage_dice, rolled = plan.damage.roll(source)
        basic = rolled * blow.multiplier + plan.damage_bonus
        text = f"Dano {plan.damage.display}: {_faces(damage_dice) or '0'} → {_number(rolled)}"
        if blow.multiplier != 1:
            text += f"; ×{blow.multiplier} pela tabela = {_number(rolled * blow.multiplier)}"
        if plan.damage_bonus:
            text += f"; Ataque Total {signed(plan.damage_bonus)} = {_number(basic)}"
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
        dr_text = (
            f"RD {target.dr}, ultrapassada pela tabela" if blow.bypasses_armour else f"RD {dr}"
        )
        passed = wounded.penetrating
        steps.append(
            _note(
                StepNumber.DAMAGE_RESISTANCE,
                "RD",
                f"{dr_text}: passam {passed}."
                + ("" if passed else " Não sobrou nada: não houve ferimento."),
            )
        )
        steps.append(
            _note(
                StepNumber.WOUNDING,
                "Multiplicador",
                f"{DAMAGE_TYPE_NAMES[plan.damage_type].capitalize()} "
                f"×{_fraction_text(wounded.multiplier)}: {wounded.multiplied}.",
            )
        )
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
            _pending(steps, pending, error)
            limb = hp_lost
        if limb != hp_lost:
            lines.append("o que passa do necessário para incapacitar o membro se perde (§5.5)")
            hp_lost = limb
        extra = f" ({'; '.join(lines)})" if lines else ""
        steps.append(
            _note(StepNumber.HP_LOST, "PV perdidos", f"{defence.name} perde {hp_lost} PV{extra}.")
        )
    hp_after = target.hp - hp_lost

    # --- 10. Consequências
    consequences = _consequences(source, steps, plan, target, blow, critical, hp_lost, pending)
    return finish(
        attack_roll=roll,
        hit=True,
        critical_hit=critical,
        critical_table=table,
        defence_rolls=tuple(defence_rolls),
        damage_dice=damage_dice,
        wound=wounded,
        hp_lost=hp_lost,
        hp_after=hp_after,
        consequences=consequences,
        **flags,
    )


# Head table rows that do not speak of damage (reading "critical_head_damage_when_unsaid").
_HEAD_DAMAGE_UNSAID = (
    HeadEffect.KNOCKOUT,
    HeadEffect.BLINDED_BOTH_EYES,
    HeadEffect.BLINDED_ONE_EYE,
)


@dataclass(frozen=True)
class _Blow:
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
    def of(cls, table: TableRoll | None) -> _Blow:
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


def _pending(steps: list[SequenceStep], pending: list[str], error: OutsideCanon) -> None:
    """Record, once, what the canon does not settle (for the Árbitro), as a step-10 line."""
    if error.message not in pending:
        pending.append(error.message)
        steps.append(_note(StepNumber.CONSEQUENCES, "Pendência", error.message))


def _fraction_text(value: Fraction) -> str:
    """×1, ×1,5, ×2, ×3 as the page writes them."""
    return f"{float(value):g}".replace(".", ",")


_STUN_WORDS = {source.cause: source.words for source in STUN_SOURCES}


def _consequences(
    source: RandomSource,
    steps: list[SequenceStep],
    plan: Plan,
    target: TargetInput,
    blow: _Blow,
    critical: bool,
    hp_lost: int,
    pending: list[str],
) -> Consequences:
    """Step 10 of §4.10, appending its lines to ``steps``."""
    ht, where = target.ht, plan.location
    hp_after = target.hp - hp_lost
    step10 = StepNumber.CONSEQUENCES

    def outside(error: OutsideCanon) -> None:
        _pending(steps, pending, error)

    # Choque (§5.1)
    shock = shock_penalty(hp_lost)
    if shock:
        steps.append(
            _note(
                step10,
                "Choque",
                f"Choque: {signed(shock)} em IQ e DX, e nas perícias baseadas nelas, só no "
                "próximo turno; a defesa ativa não muda (§5.1).",
            )
        )

    # Prostração e atordoamento (§5.2), with the limb crippled (§5.5)
    knocked_down = False
    if is_major_wound(ht, hp_lost):
        step, passed = _ht_roll(source, ht, "Prostração (perdeu mais que HT/2)")
        steps.append(step)
        knocked_down = major_wound(passed).knocked_down
    crippled = blow.crippled
    try:
        before = target.limb_hp_lost_before
        crippled = crippled or (
            is_crippled(ht, where, before + hp_lost) and not is_crippled(ht, where, before)
        )
    except OutsideCanon as error:
        outside(error)
    drops_weapon = blow.drops_weapon
    if crippled:
        effects = crippling_effects(where)
        knocked_down = knocked_down or effects.knocked_down
        drops_weapon = drops_weapon or effects.drops_what_it_holds
        steps.append(
            _note(step10, "Incapacitado", f"{where.label.capitalize()} incapacitado (§5.5).")
        )
    if drops_weapon:
        steps.append(_note(step10, "Arma", "A vítima deixa cair a arma."))
    causes = stun_causes(
        ht,
        hp_lost,
        location=where,
        critical_hit_received=critical,
        crippled=crippled,
        blinded=blow.blinded,
    )
    if causes:
        why = "; ".join(_STUN_WORDS[cause] for cause in causes)
        fell = "Cai no chão e fica atordoado" if knocked_down else "Atordoado"
        steps.append(
            _note(
                step10,
                "Atordoado",
                f"{fell} ({why}): {signed(STUNNED_PENALTY)} em todas as defesas ativas; no "
                "início do próximo turno, teste de HT para agir (§5.2).",
            )
        )

    # Nocaute (§5.3) and the tables' knockouts (§4.8)
    knocked_out = False
    if blow.knockout:
        knocked_out = True
        steps.append(
            _note(
                step10,
                "Nocaute",
                "Nocaute pela tabela: inconsciente; teste de HT a cada 30 min para acordar.",
            )
        )
    elif not blow.instant_death:
        try:
            check = knockout_check(ht, hp_lost, where, plan.damage_type)
        except OutsideCanon as error:
            outside(error)
            check = KnockoutCheck.NONE
        if check is KnockoutCheck.AUTOMATIC:
            knocked_out = True
            steps.append(
                _note(
                    step10,
                    "Nocaute",
                    "Golpe no cérebro que tira mais que HT/2: nocaute automático (§5.3).",
                )
            )
        elif check is KnockoutCheck.HT_ROLL:
            step, passed = _ht_roll(source, ht, "Nocaute")
            steps.append(step)
            knocked_out = not passed

    # Limiares de PV (§5.4) under the house rule (§5.4.1)
    rule = death_rule(plan.kind)
    dead, checks = blow.instant_death, 0
    if dead:
        steps.append(_note(step10, "Morte", "Morte instantânea (tabela da cabeça)."))
        out = True
    elif rule.death_checks:
        if is_dead(ht, hp_after):
            dead = True
            steps.append(_note(step10, "Morte", "−5 × HT: morte automática (§5.4)."))
        else:
            for _ in range(house_death_checks(plan.kind, ht, target.hp, hp_after)):
                step, passed = _ht_roll(source, ht, "Teste de morte (HT básico)")
                steps.append(step)
                checks += 1
                if not passed:
                    dead = True
                    steps.append(_note(step10, "Morte", "Falhou o teste de morte: morre (§5.4)."))
                    break
        out = dead
    else:
        out = is_out_of_the_fight(plan.kind, ht, hp_after)
        if out and plan.kind is CombatantKind.CREATURE:
            steps.append(
                _note(
                    step10,
                    "Fora da luta",
                    "Bicho de bestiário a 0 PV: morto — ou em fuga, "
                    "se o `06` diz que a espécie foge; fora da luta, e não volta (§5.4.1).",
                )
            )
        elif out:
            dead = True
            steps.append(_note(step10, "Morte", "NPC nomeado ou chefe a −HT: morre (§5.4.1)."))
    staggered = not out and is_staggered(hp_after)
    each_turn = None
    if not out:
        each_turn = turn_start_ht_roll(
            ht, hp_after, strong_will=target.strong_will, weak_will=target.weak_will
        )
    if staggered:
        steps.append(
            _note(step10, "Cambaleando", "3 PV ou menos: Deslocamento e Esquiva à metade (§5.4).")
        )
    if each_turn is not None:
        steps.append(
            _note(
                step10,
                "Desmaio",
                f"0 PV ou menos: teste de HT ({each_turn}) no início de cada turno; falhando, "
                "desmaia (§5.4).",
                *(() if rule.death_checks else ("faint_roll_for_named_npcs",)),
            )
        )
    body = body_may_be_destroyed(ht, hp_after)
    if body:
        steps.append(_note(step10, "Corpo", "−10 × HT: o corpo pode ter sido destruído (§5.4)."))
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
