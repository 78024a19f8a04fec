"""The maneuver a combatant declares on its turn (canon §4.1, §4.3): the movement and the
defences it keeps until its next turn; aim, readying, posture, waiting; the feint's contest.
"""

from __future__ import annotations

import uuid

from django.db import transaction

from garganta_site.errors import ServiceError
from gurps import checks
from gurps import combat as engine
from sessions.combat.messages import (
    AIM_NEEDS_RANGED,
    FEINT_TARGET_NEEDED,
    FEINT_WEAPON_NEEDED,
    MANEUVER_ALREADY,
    OUT_OF_THE_FIGHT,
    PARTIAL_SURPRISE_LOSES_TURN,
    POSTURE_NEEDED,
    STUNNED_NO_MANEUVER,
    TOTAL_SURPRISE_STILL,
    UNBALANCED_TURN,
    UNKNOWN_WEAPON,
    WEAPON_BROKEN,
)
from sessions.combat.numbers import combatant_numbers
from sessions.combat.rolls import (
    LoggedDice,
    append_combat_roll,
    check_every_die,
    combat_source,
    roll_details,
    roll_label,
)
from sessions.combat.state import (
    clear_weapon,
    combat_begin,
    combat_event,
    combatant_save,
    ensure_turn_of,
    usable_weapons,
    weapon_problem,
)
from sessions.combat.weapons import lines_of_weapon
from sessions.models import Combat, Combatant, CombatEvent


@transaction.atomic
def maneuver_declare(
    *,
    combat: Combat,
    combatant: Combatant,
    user,
    maneuver: str,
    all_out_option: str = "",
    posture: str = "",
    weapon: int | None = None,
    reloading: bool = False,
    target: Combatant | None = None,
    target_sees: bool = True,
    request_key: str = "",
) -> CombatEvent:
    """The combatant whose turn it is declares its maneuver (§4.1, §4.3): it fixes the
    movement and the defences it keeps until its next turn.

    Finta, and Ataque Total (b), roll the feint's quick contest at once against ``target``
    with ``weapon`` (``gurps.combat.feint``; each die a Roll of the log): a win keeps the
    margin for this combatant's next attack on that target only, within one round. In the
    dark (terrain "Escuro") or when the target cannot see him (``target_sees`` False) the
    feint is worth nothing and no die is rolled. Aguardar leaves one attack out of turn,
    before his next turn (§4.3)."""
    combat, replay = combat_begin(combat, user, request_key, CombatEvent.Kind.MANEUVER)
    if replay is not None:
        return replay
    c = Combatant.objects.select_related("character").get(pk=combatant.pk)
    _ensure_may_declare(combat, c)
    row = engine.maneuver_row(maneuver)
    option = ""
    feints = row.maneuver is engine.Maneuver.FEINT
    if row.maneuver is engine.Maneuver.ALL_OUT_ATTACK:
        found = engine.all_out_attack(all_out_option, ready_weapons=len(usable_weapons(c)))
        option = all_out_option
        feints = found.feint_first
    if weapon is not None and not 0 <= weapon < len(c.weapons):
        raise ServiceError(UNKNOWN_WEAPON.format(name=c.name), field="weapon")
    lines = []
    code = uuid.uuid4()
    if feints:
        _feint(combat, user, code, c, weapon, target, target_sees, lines)
    _aim(c, row, weapon, lines)
    c.reloading = bool(reloading) and row.maneuver is engine.Maneuver.READY
    if row.maneuver is engine.Maneuver.READY and weapon is not None:
        _ready(c, weapon, lines)
    c.concentration_lost = False
    c.waiting = row.maneuver is engine.Maneuver.WAIT
    if row.maneuver is engine.Maneuver.CHANGE_POSITION:
        _change_position(c, posture, lines)
    move = combatant_numbers(c, terrain=combat.terrain).move
    metres = engine.maneuver_movement(row.maneuver, move, first_aim_turn=c.aim_turns <= 1)
    left = engine.defences_left(row.maneuver, reloading_missile_weapon=c.reloading)
    c.maneuver, c.all_out_option, c.maneuver_round = row.maneuver.value, option, combat.round
    combatant_save(c)
    text = (
        f"{c.name}: {row.name}"
        + (f" ({all_out_text(option)})" if option else "")
        + f" — anda até {metres} m; defesas até o próximo turno: {left.text} (§4.3)."
    )
    return combat_event(
        combat,
        user,
        CombatEvent.Kind.MANEUVER,
        text,
        lines=lines,
        data={"combatant": str(c.code), "maneuver": row.maneuver.value, "movement_m": metres},
        request_key=request_key,
        code=code,
    )


def _ensure_may_declare(combat, c: Combatant) -> None:
    """Whose turn, and what keeps him from choosing (§4.1, §5.2, §5e, §4.8)."""
    ensure_turn_of(combat, c)
    if c.stunned:
        raise ServiceError(STUNNED_NO_MANEUVER.format(name=c.name), field="maneuver")
    if c.surprise == "partial" and combat.round == 1:
        raise ServiceError(PARTIAL_SURPRISE_LOSES_TURN.format(name=c.name), field="maneuver")
    if c.surprise == "total" and not c.acting:
        raise ServiceError(TOTAL_SURPRISE_STILL.format(name=c.name), field="maneuver")
    if c.turn_lost_round == combat.round:
        raise ServiceError(UNBALANCED_TURN.format(name=c.name), field="maneuver")
    if c.maneuver_round == combat.round:
        raise ServiceError(MANEUVER_ALREADY.format(name=c.name), field="maneuver")


def _aim(c: Combatant, row, weapon: int | None, lines: list[str]) -> None:
    """Apontar adds a turn of aim with a ready ranged weapon (§4.3, §4.11); an attack keeps
    what was aimed, for the attack to use; any other maneuver loses it."""
    lines_of = c.weapon_lines()
    if row.maneuver is engine.Maneuver.AIM:
        if weapon is None or not lines_of[weapon].ranged or weapon in c.unready:
            raise ServiceError(AIM_NEEDS_RANGED, field="weapon")
        same = c.aim_weapon is not None and weapon in lines_of_weapon(lines_of, c.aim_weapon)
        c.aim_turns = engine.AimState(c.aim_turns if same else 0).aim().turns
        c.aim_weapon = weapon
        lines.append(f"Mira acumulada: {c.aim_turns} turno(s) com {lines_of[weapon].name}.")
    elif row.maneuver not in engine.ATTACK_MANEUVERS:
        c.aim_turns, c.aim_weapon = 0, None


def _ready(c: Combatant, weapon: int, lines: list[str]) -> None:
    """Preparar (§4.3): a weapon picked up from the floor, or one more turn of readying it."""
    name = c.weapon_lines()[weapon].name
    if weapon in c.broken:
        raise ServiceError(WEAPON_BROKEN.format(weapon=name), field="weapon")
    if weapon in c.dropped:
        clear_weapon(c, "dropped", weapon)
        lines.append(f"{name} apanhada do chão (§4.8).")
    if weapon not in c.unready:
        return
    left = max(0, int(c.ready_turns.get(str(weapon), 1)) - 1)
    same = lines_of_weapon(c.weapon_lines(), weapon)
    c.ready_turns = {k: v for k, v in c.ready_turns.items() if int(k) not in same}
    if left:
        c.ready_turns.update({str(i): left for i in same})
        lines.append(f"{name}: falta(m) {left} turno(s) de Preparar (§4.8).")
    else:
        clear_weapon(c, "unready", weapon)
        lines.append(f"{name} preparada (§4.3).")


def _change_position(c: Combatant, posture: str, lines: list[str]) -> None:
    if posture not in Combatant.Posture.values:
        raise ServiceError(POSTURE_NEEDED, field="posture")
    c.posture = posture
    c.knocked_down = False
    lines.append(f"Posição: {Combatant.Posture(posture).label.lower()}.")


def all_out_text(option: str) -> str:
    """ "(c) um ataque com +4 no NH" for "determined": the canon's words, not the key."""
    row = next((r for r in engine.ALL_OUT_ATTACK_OPTIONS if r.option.value == option), None)
    return f"({row.letter}) {row.text}" if row else option


def _feint_target(combat, c: Combatant, target, weapon) -> Combatant:
    """Whom the feint is against, checked, and the feinting weapon ready (§4.3)."""
    if target is None:
        raise ServiceError(FEINT_TARGET_NEEDED, field="target")
    t = Combatant.objects.filter(pk=target.pk, combat=combat).first()
    if t is None or t.pk == c.pk:
        raise ServiceError(FEINT_TARGET_NEEDED, field="target")
    if t.status not in (Combatant.Status.FIGHTING, Combatant.Status.UNCONSCIOUS):
        raise ServiceError(
            OUT_OF_THE_FIGHT.format(name=t.name, status=t.get_status_display().lower()),
            field="target",
        )
    if weapon is None:
        raise ServiceError(FEINT_WEAPON_NEEDED, field="weapon")
    problem = weapon_problem(c, weapon)
    if problem:
        raise ServiceError(problem, field="weapon")
    return t


def _penalties(who: Combatant) -> list[dict]:
    """Blindness (§4.8) and shock (§5.1: −HP lost to IQ, DX and their skills, next turn)."""
    found = [{"label": "cego (§4.8)", "value": who.dx_penalty}] if who.dx_penalty else []
    if who.shock and not who.shock_pending:
        found.append({"label": "choque (§5.1)", "value": who.shock})
    return found


def _feint(combat, user, code, c: Combatant, weapon, target, target_sees, lines) -> None:
    """The feint's quick contest (§4.3, §1.5), every die a Roll under the maneuver's event."""
    t = _feint_target(combat, c, target, weapon)
    mine, theirs = _penalties(c), _penalties(t)
    line = c.weapon_lines()[weapon]
    skill = line.skill + sum(m["value"] for m in mine)
    # "contra a arma ou escudo do inimigo (ou a DX dele)": the best he has in hand.
    his = t.weapon_lines()
    his_base = max([*(his[i].skill for i in usable_weapons(t)), t.dx])
    level = his_base + sum(m["value"] for m in theirs)
    sees = bool(target_sees) and t.status == Combatant.Status.FIGHTING and t.blind != "both_eyes"
    sees = sees and not (t.surprise == "total" and not t.acting)
    dark = "dark" in combat.terrain
    source = combat_source()
    result = engine.feint(source, skill, level, defender_sees_you=sees, in_darkness=dark)
    if result.worthless:
        why = "no escuro" if dark else f"{t.name} não vê {c.name}"
        lines.append(f"Finta de {c.name} contra {t.name}: {why}, não vale nada (§4.3).")
        c.feint = {}
        return
    for who, roll, title, base in (
        (c, result.feinter, f"Finta de {c.name} ({line.name})", line.skill),
        (t, result.defender, f"{t.name} contra a finta", his_base),
    ):
        mods = mine if who is c else theirs
        text = (
            f"{title}: 3d6 = {'+'.join(map(str, roll.dice))} = {roll.total} contra "
            f"{roll.effective_level} — {checks.OUTCOME_NAMES[roll.outcome]}."
        )
        lines.append(text)
        append_combat_roll(
            combat,
            user,
            character=who.character,
            label=roll_label(who, title),
            fields={
                "kind": "skill",
                "base_level": base,
                "modifiers": mods,
                "effective_level": roll.effective_level,
                "dice": list(roll.dice),
                "total": roll.total,
                "outcome": str(roll.outcome),
                "margin": roll.margin,
            },
            details=roll_details(
                combat, code, int(engine.StepNumber.MANEUVER), text=text, notes=[], rule="4.3"
            ),
        )
    check_every_die(
        source.values, [LoggedDice(result.feinter.dice), LoggedDice(result.defender.dice)]
    )
    if result.defence_penalty:
        c.feint = {"target": str(t.code), "penalty": result.defence_penalty, "round": combat.round}
        lines.append(
            f"{c.name} vence a finta por {result.defence_penalty}: −{result.defence_penalty} "
            f"na defesa ativa de {t.name} contra o próximo ataque de {c.name}, nesta rodada "
            "(§4.3)."
        )
    else:
        c.feint = {}
        lines.append(f"A finta de {c.name} não vale: {t.name} não perde nada (§4.3).")
