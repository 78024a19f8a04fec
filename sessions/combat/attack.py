"""One attack through the §4.10 sequence, the server rolling every die: what the Mestre announced
(§1.4, §4.5), what the defender chose (§4.6–4.7), the engine's ``resolve_attack``, and what the
result leaves on both.

Everything is checked before the first die; then each die-bearing step becomes a Roll of the
scene, in order, and the fight's state changes — all in one transaction.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from campaigns import doorbell
from campaigns.errors import ServiceError
from gurps import combat as engine
from gurps import damage, defence, injury
from gurps.attributes import will as will_of
from gurps.checks import Outcome, SuccessRoll
from gurps.errors import UNKNOWN_ACTIVE_DEFENCE, InvalidValue, OutsideCanon
from gurps.hit_locations import Limb, limb_hit
from gurps.house import CombatantKind
from gurps.ranged import range_modifier, target_posture_modifier
from gurps.rolling import Modifier
from sessions.combat.begin import combat_begin
from sessions.combat.defending import defence_for_attack, defence_options, waits_for_the_player
from sessions.combat.effects import (
    ExtraRolls,
    concentration_check,
    critical_hit_effects,
    critical_miss_effects,
    drop_a_weapon,
    parry_extras,
)
from sessions.combat.messages import (
    ATTACKS_USED,
    AWAITS_DEFENCE,
    CLOSE_COMBAT_CANNOT,
    DEFENCE_AWAITED,
    DEFENCE_NAMES,
    DEFENCE_NOT_NOW,
    MANEUVER_FIRST,
    NO_ACCURACY_AIM,
    NO_ACTIVE_DEFENCE_NOW,
    NO_BLOCK,
    NO_MANEUVER_YET,
    NO_PARRY,
    NO_RETREAT_NOW,
    NOT_AN_ATTACK_MANEUVER,
    NOT_STARTED,
    OFF_BALANCE_NOTHING,
    OUT_OF_THE_FIGHT,
    PARRY_UNREADY,
    RANGE_NEEDED,
    SELF_ATTACK,
    UNBALANCED_TURN,
    UNKNOWN_LOCATION,
    UNKNOWN_WEAPON,
    WAIT_USED,
)
from sessions.combat.numbers import CombatantNumbers, combatant_numbers, round_defences
from sessions.combat.rolls import check_every_die, combat_source, write_steps
from sessions.combat.specs import AttackSpec, DefenceSpec
from sessions.combat.state import (
    between,
    combat_event,
    combatant_save,
    current,
    ensure_turn_of,
    make_unready,
    status_for_out,
    weapon_problem,
)
from sessions.combat.weapons import CombatWeapon, lines_of_weapon
from sessions.log import services as log_services
from sessions.models import Combat, Combatant, CombatEvent, Roll


@dataclass
class AttackOutcome:
    """What one attack wrote: its event, the engine's resolution (None while the attack waits
    for the defender's answer, §4.6: ``awaits_defence``), its rolls."""

    event: CombatEvent
    resolution: engine.AttackResolution | None
    rolls: list[Roll] = field(default_factory=list)

    @property
    def awaits_defence(self) -> bool:
        return self.resolution is None


@dataclass(frozen=True)
class Blow:
    """What the attacker swings: its line, the line's index and its damage at his ST."""

    index: int
    line: CombatWeapon
    read: damage.WeaponDamage


def _announced(
    combat: Combat, attacker: Combatant, blow: Blow, spec: AttackSpec, defender: Combatant
) -> tuple[list[engine.AnnouncedModifier], list[Modifier]]:
    """The modifiers of the attack roll, all said before the dice (§1.4, §4.5, §4.11): a
    ranged attack's include the target's posture (``gurps.ranged.target_posture_modifier``)."""
    announced = _situations(combat, attacker, blow, spec)
    modifiers = []
    if blow.line.ranged:
        modifiers += _ranged_modifiers(attacker, blow, spec)
        low = target_posture_modifier(defender.posture, defender.get_posture_display())
        if low is not None:
            modifiers.append(low)
    if attacker.shock and not attacker.shock_pending:
        modifiers.append(Modifier(attacker.shock, "choque (§5.1)", section="5.1"))
    for extra in log_services.clean_modifiers(spec.modifiers):
        # Announced by the Mestre before the dice (§1.4), with his reason.
        modifiers.append(Modifier(extra.value, extra.label, section="1.4"))
    if attacker.dx_penalty:
        blind = "dos dois olhos" if attacker.blind == "both_eyes" else "de um olho"
        reason = f"cego {blind}: DX pelo resto da batalha (§4.8)"
        modifiers.append(Modifier(attacker.dx_penalty, reason, section="4.8"))
    return announced, modifiers


def _situations(
    combat: Combat, attacker: Combatant, blow: Blow, spec: AttackSpec
) -> list[engine.AnnouncedModifier]:
    """The §4.5 table's situations the Mestre announced or the fight knows."""
    announced = []
    situation = engine.AttackSituation
    if spec.lighting:
        announced.append(engine.AnnouncedModifier(situation.POOR_LIGHTING, modifier=spec.lighting))
    if spec.total_darkness:
        announced.append(engine.AnnouncedModifier(situation.TOTAL_DARKNESS))
    if spec.bad_footing:
        announced.append(engine.AnnouncedModifier(situation.BAD_FOOTING, modifier=spec.bad_footing))
    if spec.awkward_position:
        announced.append(
            engine.AnnouncedModifier(situation.AWKWARD_POSITION, modifier=spec.awkward_position)
        )
    if attacker.posture in (Combatant.Posture.CROUCHING, Combatant.Posture.SITTING):
        announced.append(engine.AnnouncedModifier(situation.CROUCHING_OR_SITTING))
    last_round = int(attacker.wounds.get(str(combat.round - 1), 0))
    if last_round:
        announced.append(engine.AnnouncedModifier(situation.WOUND, amount=last_round))
    if "waist_deep_water" in combat.terrain and blow.read.attack == "swing":
        announced.append(engine.AnnouncedModifier(situation.SWING_IN_WAIST_DEEP_WATER))
    if "tight" in combat.terrain and blow.line.weapon_class:
        close = engine.close_combat_modifier(blow.line.weapon_class)
        if close is None:
            raise ServiceError(CLOSE_COMBAT_CANNOT.format(weapon=blow.line.name), field="weapon")
        if close:
            announced.append(engine.AnnouncedModifier(situation.CLOSE_COMBAT_WEAPON))
    return announced


def aimed_turns(attacker: Combatant, index: int) -> int:
    """The turns ``attacker`` has aimed the weapon of line ``index`` (§4.3), 0 if another."""
    aimed = attacker.aim_weapon
    if aimed is None or aimed >= len(attacker.weapons):
        return 0
    same = index in lines_of_weapon(attacker.weapon_lines(), aimed)
    return attacker.aim_turns if same else 0


def _ranged_modifiers(attacker: Combatant, blow: Blow, spec: AttackSpec) -> list[Modifier]:
    """Distance (§4.11) and aim: unaimed −4, Prec on the first aimed turn, +1 each turn after
    up to +3 (§4.3, ``gurps.combat.AimState``)."""
    if spec.distance_m is None:
        raise ServiceError(RANGE_NEEDED, field="distance_m")
    distance = between(spec.distance_m, 0, 100_000, "distance_m")
    turns = aimed_turns(attacker, blow.index)
    bonus = engine.AimState(turns).bonus(blow.line.accuracy or 0, blow.line.skill)
    aim = f"mira de {turns} turno(s)" if turns else "sem apontar"
    if turns and blow.line.accuracy is None:
        aim += f" ({NO_ACCURACY_AIM.format(weapon=blow.line.name)})"
    return [
        Modifier(range_modifier(distance), f"distância {distance} m", section="4.11"),
        Modifier(bonus, aim, section="4.3, 4.11"),
    ]


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


def _defence_choices(
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


def _waits_out_of_turn(combat: Combat, a: Combatant, everyone=None) -> bool:
    """True when ``a`` attacks out of turn with the attack its Aguardar left (§4.3)."""
    if combat.round == 0:
        raise ServiceError(NOT_STARTED, code="not_started")
    now = current(combat, everyone)
    if now is not None and now.pk == a.pk:
        return False
    return a.waiting and a.in_the_fight and a.maneuver == engine.Maneuver.WAIT


def _check_attacker(
    combat: Combat, a: Combatant, d: Combatant, everyone=None
) -> tuple[bool, engine.ManeuverRow]:
    """Who may attack whom now (§4.1, §4.3, §4.8): (out of turn with Aguardar, the maneuver)."""
    out_of_turn = _waits_out_of_turn(combat, a, everyone)
    if not out_of_turn:
        ensure_turn_of(combat, a, everyone)
    if a.off_balance:
        raise ServiceError(OFF_BALANCE_NOTHING.format(name=a.name), field="combatant")
    if a.turn_lost_round == combat.round and not out_of_turn:
        raise ServiceError(UNBALANCED_TURN.format(name=a.name), field="maneuver")
    if a.pk == d.pk:
        raise ServiceError(SELF_ATTACK, field="defender")
    if d.status not in (Combatant.Status.FIGHTING, Combatant.Status.UNCONSCIOUS):
        status = d.get_status_display().lower()
        raise ServiceError(OUT_OF_THE_FIGHT.format(name=d.name, status=status), field="defender")
    if a.maneuver_round != combat.round and not out_of_turn:
        raise ServiceError(MANEUVER_FIRST.format(name=a.name), field="maneuver")
    row = engine.maneuver_row(a.maneuver)
    if row.maneuver is engine.Maneuver.WAIT and not a.waiting:
        raise ServiceError(WAIT_USED.format(name=a.name), code="attacks_used")
    if row.maneuver not in engine.ATTACK_MANEUVERS:
        raise ServiceError(
            NOT_AN_ATTACK_MANEUVER.format(name=a.name, maneuver=row.name), field="maneuver"
        )
    _check_attacks_left(combat, a, row)
    return out_of_turn, row


def _check_attacks_left(combat: Combat, a: Combatant, row: engine.ManeuverRow) -> None:
    allowed = 1
    if row.maneuver is engine.Maneuver.ALL_OUT_ATTACK and a.all_out_option:
        allowed = engine.all_out_attack(
            a.all_out_option, ready_weapons=2, weapon_needs_no_readying=True
        ).attacks
    made = CombatEvent.objects.filter(
        combat=combat,
        kind=CombatEvent.Kind.ATTACK,
        round=combat.round,
        turn=combat.turn,
        data__attacker=str(a.code),
    ).count()
    if made >= allowed:
        raise ServiceError(
            ATTACKS_USED.format(name=a.name, count=made, maneuver=row.name), code="attacks_used"
        )


def _blow(a: Combatant, index: int) -> Blow:
    """The line ``a`` attacks with, ready, and its damage at his ST; OutsideCanon("4.9") when
    the canon has no number for it (ST above 20), before any die."""
    lines = a.weapon_lines()
    if not 0 <= index < len(lines):
        raise ServiceError(UNKNOWN_WEAPON.format(name=a.name), field="weapon")
    problem = weapon_problem(a, index)
    if problem:
        raise ServiceError(problem, field="weapon")
    return Blow(index, lines[index], lines[index].read(a.st))


def _feint_penalty(combat: Combat, a: Combatant, d: Combatant) -> int:
    if a.feint.get("target") == str(d.code) and int(a.feint["round"]) >= combat.round - 1:
        return int(a.feint["penalty"])
    return 0


def _awareness(d: Combatant, spec: DefenceSpec) -> bool:
    """Whether the defender knows of the attack (§4.6, §5e): not when unconscious, nor under
    total surprise while he has not yet acted. An active defence named then is refused."""
    why = ""
    if d.status == Combatant.Status.UNCONSCIOUS:
        why = "inconsciente"
    elif d.surprise == "total" and not d.acting:
        why = "surpresa total"
    if why and spec.defences:
        raise ServiceError(NO_ACTIVE_DEFENCE_NOW.format(name=d.name, why=why), field="defence")
    return not why


@dataclass(frozen=True)
class AttackInputs:
    """Everything the engine is given, checked before the first die, and what the site adds:
    the location, the defences to roll (``kinds``, ``choice``, said in ``defence_lines``), the
    parrying line, the feint's margin, the defender's numbers now."""

    attack: engine.AttackInput
    defence: engine.DefenceInput
    target: engine.TargetInput
    location: injury.HitLocation
    limb: Limb | None
    kinds: list[str]
    parry_index: int | None
    feint_penalty: int
    choice: DefenceSpec
    defence_lines: list[str]
    defender_numbers: CombatantNumbers
    waits: bool = False  # a hit stops for the jogador's answer (§4.6)


def _plan(
    combat: Combat, a: Combatant, d: Combatant, row, blow: Blow, spec: AttackSpec, choice
) -> AttackInputs:
    announced, modifiers = _announced(combat, a, blow, spec, d)
    feint_penalty = _feint_penalty(combat, a, d)
    aware = _awareness(d, choice)
    d_numbers = combatant_numbers(d, terrain=combat.terrain)
    kind = blow.line.attack_kind
    waits = not choice.defences and waits_for_the_player(
        d, d_numbers, attack_kind=kind, aware=aware
    )
    if waits:
        defence_lines: list[str] = []  # he answers when the attack hits
    else:
        choice, defence_lines = defence_for_attack(
            d, d_numbers, choice, attack_kind=kind, aware=aware
        )
    choices, parry_index = _defence_choices(d, d_numbers, choice)
    kinds = [c.defence for c in choices]
    if kinds:
        # The round's limits (§4.7, §4.3, §4.14) and the one retreat, checked before any die.
        round_defences(d).defend(*kinds, dagger=choice.dagger, retreat=choice.retreat)
    try:
        location = injury.HitLocation(spec.location or injury.HitLocation.TORSO)
    except ValueError:
        raise ServiceError(UNKNOWN_LOCATION, field="location") from None
    # Each arm, leg, hand and foot has its own §5.5 limit: the side is said before the dice.
    limb = limb_hit(location, arm_side=spec.arm_side, side=spec.side)
    return AttackInputs(
        attack=engine.AttackInput(
            name=a.name,
            skill=blow.line.skill,
            damage=str(blow.read.expression),
            damage_type=blow.read.damage_type.value,
            maneuver=row.maneuver,
            all_out_option=a.all_out_option or None,
            announced=tuple(announced),
            modifiers=tuple(modifiers),
            location=spec.location,
            arm_side=spec.arm_side,
            attack_kind=blow.line.attack_kind,
            thrust=blow.read.attack == "thrust",
            feint_penalty=feint_penalty,
        ),
        defence=_defence_input(d, d_numbers, choices, aware),
        target=_target_input(d, d_numbers, limb),
        location=location,
        limb=limb,
        kinds=kinds,
        parry_index=parry_index,
        feint_penalty=feint_penalty,
        choice=choice,
        defence_lines=defence_lines,
        defender_numbers=d_numbers,
        waits=waits,
    )


def _after_the_attack(a: Combatant, blow: Blow, out_of_turn: bool, plan: AttackInputs, row) -> list:
    """What attacking leaves on the attacker (§4.3): a weapon to ready again, the Aguardar and
    the feint spent, the aim used."""
    lines = []
    if blow.line.weapon_class:
        try:
            after = engine.WeaponReadiness(blow.line.weapon_class).after_attack()
            if not after.ready and blow.index not in a.unready:
                make_unready(a, blow.index)
                lines.append(f"{blow.line.name} fica despreparada: um turno em Preparar (§4.3).")
        except OutsideCanon as error:
            line = f"Pendência: {error.message}"
            if not _said_in_this_fight(a, line):
                lines.append(line)
    a.fought = True
    if out_of_turn or row.maneuver is engine.Maneuver.WAIT:
        a.waiting = False
        if out_of_turn:
            lines.append(f"{a.name} ataca fora do turno: o ataque do Aguardar (§4.3).")
    if plan.feint_penalty:
        a.feint = {}
        lines.append(f"A finta de {a.name} foi usada neste ataque (−{plan.feint_penalty}, §4.3).")
    if aimed_turns(a, blow.index):
        lines.append(f"A mira de {a.name} foi usada neste ataque (§4.3).")
    a.aim_turns, a.aim_weapon = 0, None
    return lines


def _defence_input(d: Combatant, numbers, choices, aware: bool) -> engine.DefenceInput:
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


def _target_input(d: Combatant, numbers, limb: Limb | None) -> engine.TargetInput:
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


def _said_in_this_fight(a: Combatant, line: str) -> bool:
    """True if an attack of ``a`` earlier in this fight already said ``line`` (the weapon's
    open question is said once, not at every blow)."""
    earlier = CombatEvent.objects.filter(
        combat_id=a.combat_id, kind=CombatEvent.Kind.ATTACK, data__attacker=str(a.code)
    ).values_list("lines", flat=True)
    return any(line in said for said in earlier)


def _defender_spent(d: Combatant, kinds: list[str], result, choice: DefenceSpec) -> None:
    """The round's defences the defender used (§4.7)."""
    used = kinds[: len(result.defence_rolls)] if kinds else []
    if not used:
        return
    after = round_defences(d).defend(*used, dagger=choice.dagger, retreat=choice.retreat)
    d.dodges_used, d.blocks_used = after.dodges, after.blocks
    d.parries_used, d.dagger_parries_used = after.parries, after.dagger_parries
    d.retreated = after.retreated
    d.fought = True


def _extras(extra: ExtraRolls, a, d, blow: Blow, kinds: list[str], parry_index, result) -> None:
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


def _wounds(combat: Combat, d: Combatant, result, limb: Limb | None, round_=None) -> None:
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


@dataclass(frozen=True)
class AttackPlan:
    """One attack checked and worked out before its first die (§1.4, §4.10 rows 2–5): who
    attacks whom (``out_of_turn`` with the attack an Aguardar left), the maneuver's row, the
    blow, what the engine is given (``inputs``), the effective level with every modifier
    (``level``: ``gurps.combat.plan_attack``, the very plan the attack roll then rolls
    against) and the defence the defender will roll (``inputs.choice``, said in
    ``inputs.defence_lines``)."""

    attacker: Combatant
    defender: Combatant
    out_of_turn: bool
    row: engine.ManeuverRow
    blow: Blow
    inputs: AttackInputs
    level: engine.Plan


def attack_plan(
    combat: Combat,
    attacker: Combatant,
    defender: Combatant,
    attack: AttackSpec,
    defence_choice: DefenceSpec,
    *,
    everyone=None,
    preview: bool = False,
) -> AttackPlan:
    """Check one attack and work it out, before any die and writing nothing (§4.10 rows
    2–5): whose turn (``everyone``: the combatants as the caller holds them, for a turn
    passed in memory), the maneuver, the weapon, the announced modifiers, the defender's
    choice, the effective level (§1.1: none at 3 or less). ``attacker`` and ``defender`` are
    the caller's instances, read as they are. Raises ServiceError naming the field,
    OutsideCanon where the canon has no number, InvalidValue for what the engine refuses
    (and NoRollAtThreeOrLess, but not for a ``preview``, which shows the level and why)."""
    if defender.pending_defence:
        raise ServiceError(
            DEFENCE_AWAITED.format(name=defender.name), field="defender", code="defence_pending"
        )
    out_of_turn, row = _check_attacker(combat, attacker, defender, everyone)
    blow = _blow(attacker, attack.weapon)
    inputs = _plan(combat, attacker, defender, row, blow, attack, defence_choice)
    level = engine.plan_attack(inputs.attack, inputs.defence, inputs.target, preview=preview)
    return AttackPlan(attacker, defender, out_of_turn, row, blow, inputs, level)


@transaction.atomic
def attack_resolve(
    *,
    combat: Combat,
    attacker: Combatant,
    defender: Combatant,
    user,
    attack: AttackSpec,
    defence_choice: DefenceSpec | None = None,
    request_key: str = "",
) -> AttackOutcome | CombatEvent:
    """One attack through the §4.10 sequence (rows 2–10), the server rolling every die.

    Returns the earlier event when the same ``request_key`` comes again. Raises ServiceError
    naming the field for anything refused, OutsideCanon where the canon has no number (a
    weapon's damage above ST 20), always before the first die.
    """
    combat, replay = combat_begin(combat, user, request_key, CombatEvent.Kind.ATTACK)
    if replay is not None:
        return replay
    a = Combatant.objects.select_related("character").get(pk=attacker.pk, combat=combat)
    d = Combatant.objects.select_related("character").get(pk=defender.pk, combat=combat)
    return attack_run(
        combat, user, a, d, attack, defence_choice or DefenceSpec(), request_key=request_key
    )


def attack_run(
    combat: Combat,
    user,
    a: Combatant,
    d: Combatant,
    attack: AttackSpec,
    defence_choice: DefenceSpec,
    *,
    request_key: str = "",
    data: dict | None = None,
) -> AttackOutcome:
    """``attack_plan``, then the dice: the engine's ``resolve_attack`` on the same inputs, each
    die-bearing step a Roll of the chain, the extras after them, what the blow left on both,
    the attack's event (with ``data``). ``combat`` read afresh under the lock by the caller."""
    planned = attack_plan(combat, a, d, attack, defence_choice)
    plan, blow, row = planned.inputs, planned.blow, planned.row
    source = combat_source()
    rolled = engine.roll_attack(source, plan.attack, plan.defence, plan.target)
    if plan.waits and rolled.awaits_defence:
        return _attack_waits(combat, user, planned, rolled, source, request_key, data)
    result = engine.resolve_attack(source, plan.attack, plan.defence, plan.target, rolled=rolled)
    check_every_die(source.values, result.steps)
    lines = plan.defence_lines + list(result.lines)
    lines += _after_the_attack(a, blow, planned.out_of_turn, plan, row)
    code = uuid.uuid4()
    rolls = write_steps(
        combat,
        user,
        code,
        result.steps,
        attacker=a,
        defender=d,
        attack_skill=blow.line.skill,
        attack_modifiers=result.modifiers,
        expression=plan.attack.damage,
    )
    _defender_spent(d, plan.kinds, result, plan.choice)
    extra = ExtraRolls(combat, user, code, combat_source(), lines)
    _extras(extra, a, d, blow, plan.kinds, plan.parry_index, result)
    _wounds(combat, d, result, plan.limb)
    combatant_save(a)
    combatant_save(d)
    event = combat_event(
        combat,
        user,
        CombatEvent.Kind.ATTACK,
        f"{a.name} ataca {d.name} com {blow.line.name}.",
        lines=lines,
        data={
            "attacker": str(a.code),
            "defender": str(d.code),
            "hit": result.hit,
            "hp_lost": result.hp_lost,
            "hp_after": result.hp_after,
            "effective_level": result.effective_level,
            "rolls": [roll.sequence for roll in rolls],
            **(data or {}),
        },
        request_key=request_key,
        code=code,
    )
    return AttackOutcome(event=event, resolution=result, rolls=rolls)


# --- the attack that waits for the defender's answer (§4.1, §4.6) ------------------------------


def _plain(value):
    return getattr(value, "value", value)


def _attack_input_data(attack: engine.AttackInput) -> dict:
    """The attack as rolled, kept while the defender chooses (JSON)."""
    data = {name: _plain(getattr(attack, name)) for name in engine.AttackInput.__dataclass_fields__}
    data["damage"] = str(attack.damage)
    data["announced"] = [
        {"situation": _plain(m.situation), "modifier": m.modifier, "amount": m.amount}
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


def _attack_waits(
    combat: Combat, user, planned: AttackPlan, rolled, source, request_key: str, data
) -> AttackOutcome:
    """The attack hit and stops before the defence roll (§4.10 row 5): its roll in the chain,
    what attacking left on the attacker, and on the defender the attack as rolled, until his
    jogador answers (``pending_resolve``)."""
    a, d, plan, blow = planned.attacker, planned.defender, planned.inputs, planned.blow
    check_every_die(source.values, rolled.steps)
    lines = [step.text for step in rolled.steps]
    lines += _after_the_attack(a, blow, planned.out_of_turn, plan, planned.row)
    lines.append(AWAITS_DEFENCE.format(name=d.name, attacker=a.name, weapon=blow.line.name))
    code = uuid.uuid4()
    rolls = write_steps(
        combat,
        user,
        code,
        rolled.steps,
        attacker=a,
        defender=d,
        attack_skill=blow.line.skill,
        attack_modifiers=planned.level.modifiers,
        expression=plan.attack.damage,
    )
    roll = rolled.roll
    d.pending_defence = {
        "event": str(code),
        "attacker": str(a.code),
        "attacker_name": a.name,
        "weapon": blow.line.name,
        "weapon_index": blow.index,
        "attack_kind": _plain(blow.line.attack_kind),
        "location": plan.location.value,
        "limb": plan.limb.value if plan.limb else None,
        "effective_level": roll.effective_level,
        "roll": {"dice": list(roll.dice), "total": roll.total, "margin": roll.margin},
        "attack": _attack_input_data(plan.attack),
        "round": combat.round,
        "since": timezone.now().isoformat(),
        "by": user.pk,
        "roll_sequence": rolls[0].sequence if rolls else None,
    }
    combatant_save(a)
    d.save(update_fields=["pending_defence"])
    doorbell.ring(doorbell.character_key(d.character.code))
    event = combat_event(
        combat,
        user,
        CombatEvent.Kind.ATTACK,
        f"{a.name} ataca {d.name} com {blow.line.name}.",
        lines=lines,
        data={
            "attacker": str(a.code),
            "defender": str(d.code),
            "hit": None,
            "awaits_defence": True,
            "hp_lost": 0,
            "hp_after": d.hp_now,
            "effective_level": roll.effective_level,
            "rolls": [r.sequence for r in rolls],
            **(data or {}),
        },
        request_key=request_key,
        code=code,
    )
    return AttackOutcome(event=event, resolution=None, rolls=rolls)


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
    choices, parry_index = _defence_choices(d, numbers, spec)
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
    aware = _awareness(d, DefenceSpec())
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
    defence_input = _defence_input(d, numbers, choices, aware)
    target = _target_input(d, numbers, limb)
    kept = SuccessRoll(
        tuple(p["roll"]["dice"]),
        p["roll"]["total"],
        p["effective_level"],
        Outcome.SUCCESS,
        p["roll"]["margin"],
    )
    source = combat_source()
    result = engine.resolve_attack(
        source, attack, defence_input, target, rolled=engine.attack_hit_awaiting_defence(kept)
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
    _defender_spent(d, kinds, result, answer)
    extra = ExtraRolls(combat, asked_by, code, combat_source(), lines)
    _extras(extra, a, d, blow, kinds, parry_index, result)
    _wounds(combat, d, result, limb, int(p.get("round") or combat.round))
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
