"""The defender's side of a blow, shared by the attack (``sessions.combat.attack``) and the
jogador's later answer to an attack that waited for it (§4.1, §4.6): his choice as the engine's
levels, the defender as §4.10 rows 5–10 read him, the round's defences he spent, the rolls and
effects after the sequence, what the blow left on him, and ``pending_resolve``.

Below ``sessions.combat.pending`` (which resolves answers) and above ``state``: the attack's
service, which starts with ``begin.combat_begin``, imports this module, never the reverse.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.contrib.auth import get_user_model

from campaigns import doorbell
from campaigns.errors import ServiceError
from gurps import combat as engine
from gurps import damage, defence
from gurps.attributes import will as will_of
from gurps.checks import Outcome, SuccessRoll
from gurps.errors import UNKNOWN_ACTIVE_DEFENCE, InvalidValue
from gurps.hit_locations import Limb
from gurps.house import CombatantKind
from gurps.rolling import Modifier
from sessions.combat.defending import defence_for_attack, defence_options
from sessions.combat.effects import (
    ExtraRolls,
    concentration_check,
    critical_hit_effects,
    critical_miss_effects,
    drop_a_weapon,
    parry_extras,
)
from sessions.combat.messages import (
    DEFENCE_NAMES,
    DEFENCE_NOT_NOW,
    NO_ACTIVE_DEFENCE_NOW,
    NO_BLOCK,
    NO_MANEUVER_YET,
    NO_PARRY,
    NO_RETREAT_NOW,
    PARRY_UNREADY,
)
from sessions.combat.numbers import CombatantNumbers, combatant_numbers, round_defences
from sessions.combat.rolls import check_every_die, combat_source, write_steps
from sessions.combat.specs import DefenceSpec
from sessions.combat.state import combat_event, combatant_save, status_for_out, weapon_problem
from sessions.combat.weapons import CombatWeapon
from sessions.models import Combat, Combatant, CombatEvent


@dataclass(frozen=True)
class Blow:
    """What the attacker swings: its line, the line's index and its damage at his ST."""

    index: int
    line: CombatWeapon
    read: damage.WeaponDamage


def _parry_line(defender: Combatant, spec: DefenceSpec) -> int:
    """The line that parries: the one named, else the first ready weapon that parries."""
    index = spec.parry_weapon
    lines = defender.weapon_lines()
    if index is None:
        index = next(
            (
                i
                for i, line in enumerate(lines)
                if line.parries and weapon_problem(defender, i) is None
            ),
            None,
        )
    if index is None or not 0 <= index < len(lines):
        raise ServiceError(NO_PARRY.format(name=defender.name), field="parry_weapon")
    problem = weapon_problem(defender, index)
    if problem and index in defender.unready and index not in defender.dropped:
        problem = PARRY_UNREADY.format(weapon=lines[index].name)
    if problem:
        raise ServiceError(problem, field="parry_weapon")
    return index


def defence_choices(
    defender: Combatant, numbers: CombatantNumbers, spec: DefenceSpec
) -> tuple[list[engine.DefenceChoice], int | None]:
    """The defender's choice as the engine's levels (his numbers now, +3 for a retreat)."""
    choices, parry_index, bonus = [], None, 0
    if spec.retreat:
        sitting = defender.posture == Combatant.Posture.SITTING
        kneeling = defender.posture == Combatant.Posture.KNEELING
        bonus = defence.retreat_bonus(sitting=sitting, kneeling=kneeling, stunned=defender.stunned)
    for kind in spec.defences:
        if kind == "dodge":
            level = numbers.dodge
        elif kind == "block":
            level = numbers.block
            if level is None:
                raise ServiceError(NO_BLOCK.format(name=defender.name), field="defence")
        elif kind == "parry":
            parry_index = _parry_line(defender, spec)
            level = numbers.parry_of(defender.weapon_lines()[parry_index])
            if level is None:
                raise ServiceError(NO_PARRY.format(name=defender.name), field="parry_weapon")
        else:
            raise InvalidValue("defence", UNKNOWN_ACTIVE_DEFENCE)
        choices.append(engine.DefenceChoice(kind, level + bonus))
    return choices, parry_index


def awareness(d: Combatant, spec: DefenceSpec) -> bool:
    """Whether the defender knows of the attack (§4.6, §5e): not when unconscious, nor under
    total surprise while he has not yet acted. An active defence named then is refused."""
    why = ""
    if d.status == Combatant.Status.UNCONSCIOUS:
        why = "inconsciente"
    elif engine.still_surprised(d.surprise, d.acting):
        why = "surpresa total"
    if why and spec.defences:
        raise ServiceError(NO_ACTIVE_DEFENCE_NOW.format(name=d.name, why=why), field="defence")
    return not why


def defence_input(d: Combatant, numbers, choices, aware: bool) -> engine.DefenceInput:
    """The defender as §4.10 rows 5–6 read him: his maneuver, PD, the defences he rolls."""
    maneuver = d.maneuver or NO_MANEUVER_YET
    return engine.DefenceInput(
        name=d.name,
        maneuver=maneuver,
        passive_defense=numbers.passive_defense,
        choices=tuple(choices),
        aware=aware,
        reloading_missile_weapon=d.reloading and maneuver == engine.Maneuver.READY,
        will=will_of(d.iq, d.strong_will, d.weak_will),
    )


def target_input(d: Combatant, numbers, limb: Limb | None) -> engine.TargetInput:
    """The defender as §4.10 rows 7–10 wound him; ``limb`` the one hit (its §5.5 limit)."""
    return engine.TargetInput(
        ht=d.ht,
        hp=numbers.hp_now,
        dr=numbers.damage_resistance,
        kind=CombatantKind(d.kind),
        strong_will=d.strong_will,
        weak_will=d.weak_will,
        limb_hp_lost_before=int(d.limb_hp_lost.get(limb.value, 0)) if limb else 0,
    )


def defender_spent(d: Combatant, kinds: list[str], result, choice: DefenceSpec) -> None:
    """The round's defences the defender used (§4.7)."""
    used = kinds[: len(result.defence_rolls)] if kinds else []
    if not used:
        return
    after = round_defences(d).defend(*used, dagger=choice.dagger, retreat=choice.retreat)
    d.dodges_used, d.blocks_used = after.dodges, after.blocks
    d.parries_used, d.dagger_parries_used = after.parries, after.dagger_parries
    d.retreated = after.retreated
    d.fought = True


def blow_extras(extra: ExtraRolls, a, d, blow: Blow, kinds: list[str], parry_index, result) -> None:
    """The rolls and effects after the sequence's own steps (§4.3, §4.7, §4.8)."""
    if result.critical_miss is not None:
        critical_miss_effects(extra, a, blow.index, result.critical_miss)
    if result.hit and result.critical_table is not None:
        critical_hit_effects(extra, d, result.critical_table)
    if result.consequences is not None and result.consequences.drops_weapon:
        drop_a_weapon(extra, d)
    if result.concentration_will_level is not None:
        concentration_check(extra, d, result.concentration_will_level)
    used = kinds[: len(result.defence_rolls)] if kinds else []
    if result.defended and used and used[-1] == "parry" and parry_index is not None:
        parry_extras(extra, a, blow.line, d, parry_index)
    extra.check()


def wounds_apply(combat: Combat, d: Combatant, result, limb: Limb | None, round_=None) -> None:
    """What the blow did to the defender (§4.10 rows 9 and 10); ``limb`` the one hit, whose
    own §5.5 limit counts this blow (None: not a limb); ``round_`` the round of the blow (the
    attack's, for one that waited for the defence), else the combat's."""
    if result.aim_spoiled:
        d.aim_turns, d.aim_weapon = 0, None
    if result.reload_cancelled:
        d.reloading = False
    if result.hp_lost:
        d.hp_lost += result.hp_lost
        key = str(round_ or combat.round)
        d.wounds = {**d.wounds, key: int(d.wounds.get(key, 0)) + result.hp_lost}
        if limb is not None:
            lost = int(d.limb_hp_lost.get(limb.value, 0)) + result.hp_lost
            d.limb_hp_lost = {**d.limb_hp_lost, limb.value: lost}
    after = result.consequences
    if after is None:
        return
    if after.shock:
        d.shock += after.shock
        d.shock_pending = True
    d.stunned = d.stunned or after.stunned
    if after.knocked_down:
        d.knocked_down, d.posture = True, Combatant.Posture.LYING
    if after.crippled and limb is not None and limb.value not in d.crippled:
        d.crippled = [*d.crippled, limb.value]
    if after.knocked_out and d.status == Combatant.Status.FIGHTING:
        d.status = Combatant.Status.UNCONSCIOUS
    if after.dead:
        d.status = Combatant.Status.DEAD
    elif after.out_of_the_fight:
        d.status = status_for_out(d)


def plain(value):
    return getattr(value, "value", value)


def attack_input_data(attack: engine.AttackInput) -> dict:
    """The attack as rolled, kept while the defender chooses (JSON)."""
    data = {name: plain(getattr(attack, name)) for name in engine.AttackInput.__dataclass_fields__}
    data["damage"] = str(attack.damage)
    data["announced"] = [
        {"situation": plain(m.situation), "modifier": m.modifier, "amount": m.amount}
        for m in attack.announced
    ]
    data["modifiers"] = [
        {"value": m.value, "reason": m.reason, "section": m.section} for m in attack.modifiers
    ]
    return data


def _attack_input_of(data: dict) -> engine.AttackInput:
    return engine.AttackInput(
        **{
            **data,
            "announced": tuple(engine.AnnouncedModifier(**m) for m in data["announced"]),
            "modifiers": tuple(Modifier(**m) for m in data["modifiers"]),
        }
    )


def _answer_inputs(d: Combatant, numbers: CombatantNumbers, choice: DefenceSpec, attack_kind):
    """The defender's answer as the engine's choices, checked against what he has now
    (§4.3, §4.7, the round's limits): (choices, parry line). Raises ServiceError naming the
    field."""
    if not choice.defences:
        return [], None
    wanted = choice.defences[0]
    found = {
        o.defence: o
        for o in defence_options(
            d, numbers, attack_kind=attack_kind, parry_weapon=choice.parry_weapon
        )
    }
    option = found.get(wanted)
    if option is None or not option.usable:
        why = option.why_not if option is not None else "não a tem"
        name = DEFENCE_NAMES.get(wanted, wanted)
        raise ServiceError(DEFENCE_NOT_NOW.format(defence=name, why=why), field="defence")
    if choice.retreat and (
        d.retreated
        or not defence.can_retreat(
            sitting=d.posture == Combatant.Posture.SITTING,
            kneeling=d.posture == Combatant.Posture.KNEELING,
            stunned=d.stunned,
        )
    ):
        raise ServiceError(NO_RETREAT_NOW.format(name=d.name), field="retreat")
    spec = DefenceSpec(defences=(wanted,), parry_weapon=option.parry_line, retreat=choice.retreat)
    choices, parry_index = defence_choices(d, numbers, spec)
    try:
        round_defences(d).defend(wanted, retreat=choice.retreat)
    except InvalidValue as error:
        raise ServiceError(error.message, field="defence") from None
    return choices, parry_index


def pending_resolve(
    combat: Combat,
    user,
    d: Combatant,
    answer: DefenceSpec | None,
    lines: list[str],
    *,
    request_key: str = "",
) -> CombatEvent:
    """Go on with the attack that waited for ``d``'s defence (§4.10 rows 5–10), ``combat``
    locked by the caller: ``answer`` the jogador's (no ``defences``: «não me defendo», the
    PD alone), or None for his standing choice or the best total (the Mestre's time ran out).
    The attack roll is not rolled again; the defence, damage and injury rolls join the chain
    (asked by the Mestre who attacked). Writes the answer's event (``user`` its author)."""
    p = d.pending_defence
    a = Combatant.objects.select_related("character").get(combat=combat, code=p["attacker"])
    numbers = combatant_numbers(d, terrain=combat.terrain)
    aware = awareness(d, DefenceSpec())
    if answer is None:
        answer, said = defence_for_attack(
            d, numbers, DefenceSpec(), attack_kind=p["attack_kind"], aware=aware
        )
        lines = lines + said
    elif not aware:
        answer = DefenceSpec()
    choices, parry_index = _answer_inputs(d, numbers, answer, p["attack_kind"])
    if answer.defences:
        answer = DefenceSpec(
            defences=answer.defences, parry_weapon=parry_index, retreat=answer.retreat
        )
    kinds = [c.defence for c in choices]
    attack = _attack_input_of(p["attack"])
    limb = Limb(p["limb"]) if p.get("limb") else None
    defender = defence_input(d, numbers, choices, aware)
    target = target_input(d, numbers, limb)
    kept = SuccessRoll(
        tuple(p["roll"]["dice"]),
        p["roll"]["total"],
        p["effective_level"],
        Outcome.SUCCESS,
        p["roll"]["margin"],
    )
    source = combat_source()
    result = engine.resolve_attack(
        source, attack, defender, target, rolled=engine.attack_hit_awaiting_defence(kept)
    )
    check_every_die(source.values, result.steps)
    lines = lines + list(result.lines)
    code = uuid.uuid4()
    asked_by = get_user_model().objects.get(pk=p["by"])
    rolls = write_steps(
        combat,
        asked_by,
        code,
        result.steps,
        attacker=a,
        defender=d,
        attack_skill=attack.skill,
        attack_modifiers=result.modifiers,
        expression=attack.damage,
    )
    index = int(p["weapon_index"])
    line = a.weapon_lines()[index]
    blow = Blow(index, line, line.read(a.st))
    defender_spent(d, kinds, result, answer)
    extra = ExtraRolls(combat, asked_by, code, combat_source(), lines)
    blow_extras(extra, a, d, blow, kinds, parry_index, result)
    wounds_apply(combat, d, result, limb, int(p.get("round") or combat.round))
    d.pending_defence = {}
    combatant_save(a)
    combatant_save(d)
    doorbell.ring(doorbell.character_key(d.character.code))
    return combat_event(
        combat,
        user,
        CombatEvent.Kind.DEFENCE,
        f"{d.name} e o ataque de {a.name} com {p['weapon']}.",
        lines=lines,
        data={
            "attack_event": p["event"],
            "attacker": str(a.code),
            "defender": str(d.code),
            "answer": answer.defences[0] if answer.defences else "none",
            "retreat": answer.retreat,
            "hit": result.hit,
            "hp_lost": result.hp_lost,
            "hp_after": result.hp_after,
            "rolls": [r.sequence for r in rolls],
        },
        request_key=request_key,
        code=code,
    )
