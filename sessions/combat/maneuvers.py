"""The maneuver a combatant declares on its turn (canon §4.1, §4.3): the movement and the
defences it keeps until its next turn; aim, readying, posture, waiting; the feint's contest;
and the change of a maneuver before its first die.

A declaration is cut in two so the one-call turn (``sessions.combat.acting``) can rehearse it:
``maneuver_apply`` checks it and sets it on the combatant in memory (no die, nothing saved);
``maneuver_run`` does that, rolls the feint's contest and writes.
"""

from __future__ import annotations

import copy
import uuid
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max

from campaigns.errors import ServiceError
from gurps import checks
from gurps import combat as engine
from sessions.combat.begin import combat_begin
from sessions.combat.messages import (
    AIM_NEEDS_RANGED,
    CHANGED_BEFORE_FIRST_DIE,
    FEINT_TARGET_NEEDED,
    FEINT_WEAPON_NEEDED,
    MANEUVER_ALREADY,
    MANEUVER_LOCKED,
    MANEUVER_LOCKED_UNKNOWN,
    MANEUVER_NAMES,
    NOTHING_TO_CHANGE,
    OUT_OF_THE_FIGHT,
    POSTURE_NEEDED,
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
from sessions.combat.specs import ManeuverSpec
from sessions.combat.state import (
    clear_weapon,
    combat_event,
    combatant_save,
    ensure_turn_of,
    usable_weapons,
    weapon_problem,
    why_not_acting,
)
from sessions.combat.weapons import lines_of_weapon
from sessions.models import Combat, Combatant, CombatEvent, Roll

# What a maneuver sets on its combatant (§4.3): kept in its event as it was before, so a
# maneuver changed before its first die leaves nothing of itself behind.
MANEUVER_FIELDS = (
    "maneuver",
    "all_out_option",
    "maneuver_round",
    "reloading",
    "aim_turns",
    "aim_weapon",
    "unready",
    "ready_turns",
    "dropped",
    "concentration_lost",
    "waiting",
    "posture",
    "knocked_down",
    "feint",
)


@dataclass
class DeclaredManeuver:
    """A maneuver checked and set on its combatant in memory, before any die: its §4.3 row,
    the All-Out option, the metres it lets him move, the defences it leaves, whom the
    feint's contest is still to be rolled against (or None), and the log's lines."""

    combatant: Combatant
    row: engine.ManeuverRow
    option: str
    metres: int
    defences: engine.DefencesLeft
    feint_against: Combatant | None
    lines: list[str]

    @property
    def text(self) -> str:
        c = self.combatant
        return (
            f"{c.name}: {self.row.name}"
            + (f" ({all_out_text(self.option)})" if self.option else "")
            + f" — anda até {self.metres} m; defesas até o próximo turno: "
            + f"{self.defences.text} (§4.3)."
        )


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
    before his next turn (§4.3). A second declaration in the same turn is refused: the
    maneuver is changed with ``maneuver_change``, until its first die."""
    combat, replay = combat_begin(combat, user, request_key, CombatEvent.Kind.MANEUVER)
    if replay is not None:
        return replay
    c = Combatant.objects.select_related("character").get(pk=combatant.pk, combat=combat)
    spec = ManeuverSpec(
        maneuver=maneuver,
        all_out_option=all_out_option,
        posture=posture,
        weapon=weapon,
        reloading=reloading,
        target=target,
        target_sees=target_sees,
    )
    return maneuver_run(combat, user, c, spec, request_key=request_key)


@transaction.atomic
def maneuver_change(
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
    """Change the maneuver ``combatant`` declared this turn, before its first die (§4.1: one
    maneuver a turn; what the dice said stays). The earlier one is undone — what it set on
    him (aim, a readied weapon, posture …) back as it was before it — and the new one is
    declared with the same arguments and checks as ``maneuver_declare``; the log says so.
    Refused (ServiceError naming "maneuver") when he declared nothing this turn, and (code
    "maneuver_locked") once any die of the fight has been rolled after the earlier
    declaration, its own feint's included."""
    combat, replay = combat_begin(combat, user, request_key, CombatEvent.Kind.MANEUVER)
    if replay is not None:
        return replay
    c = Combatant.objects.select_related("character").get(pk=combatant.pk, combat=combat)
    spec = ManeuverSpec(
        maneuver=maneuver,
        all_out_option=all_out_option,
        posture=posture,
        weapon=weapon,
        reloading=reloading,
        target=target,
        target_sees=target_sees,
    )
    return maneuver_replace(combat, user, c, spec, request_key=request_key)


def maneuver_of_this_turn(combat: Combat, c: Combatant) -> CombatEvent | None:
    """The event of the maneuver ``c`` declared this round, or None."""
    if c.maneuver_round != combat.round or not c.maneuver:
        return None
    return (
        combat.events.filter(
            kind=CombatEvent.Kind.MANEUVER, round=combat.round, data__combatant=str(c.code)
        )
        .order_by("-pk")
        .first()
    )


def maneuver_locked(combat: Combat, earlier: CombatEvent) -> str:
    """Why the maneuver of ``earlier`` can no longer change, or "": a die of the fight was
    rolled after it was declared (§4.1; a roll is never undone, docs/DESIGN.md,
    invariant 2 (Rolls are append-only))."""
    name = earlier.data.get("name", "")
    last = earlier.data.get("last_roll")
    if last is None:
        return MANEUVER_LOCKED_UNKNOWN.format(name=name)
    rolled = (
        Roll.objects.filter(
            campaign=combat.scene.week.campaign,
            sequence__gt=last,
            details__combat=str(combat.code),
        )
        .order_by("sequence")
        .first()
    )
    if rolled is None:
        return ""
    return MANEUVER_LOCKED.format(name=name, sequence=rolled.sequence, label=rolled.label)


def maneuver_replace(
    combat: Combat, user, c: Combatant, spec: ManeuverSpec, *, request_key: str = "", data=None
) -> CombatEvent:
    """Undo the maneuver ``c`` declared this turn and declare ``spec`` in its place (see
    ``maneuver_change``); ``combat`` read afresh under the lock by the caller."""
    earlier = maneuver_of_this_turn(combat, c)
    if earlier is None:
        raise ServiceError(NOTHING_TO_CHANGE.format(name=c.name), field="maneuver")
    why = maneuver_locked(combat, earlier)
    if why:
        raise ServiceError(why, field="maneuver", code="maneuver_locked")
    before = earlier.data["before"]
    for name, value in before.items():
        setattr(c, name, copy.deepcopy(value))
    was = MANEUVER_NAMES.get(earlier.data.get("maneuver", ""), "?")
    return maneuver_run(
        combat,
        user,
        c,
        spec,
        request_key=request_key,
        data={"replaces": str(earlier.code), **(data or {})},
        before=before,
        notes=[CHANGED_BEFORE_FIRST_DIE.format(name=c.name, was=was)],
    )


def maneuver_apply(
    combat: Combat, c: Combatant, spec: ManeuverSpec, *, everyone=None
) -> DeclaredManeuver:
    """Check that ``c`` may declare ``spec`` now and set it on ``c`` in memory (§4.1, §4.3):
    everything a declaration checks, before any die; the feint's contest is not rolled
    (``feint_against`` names whom it will be). Nothing saved. ``everyone``: the combatants as
    the caller holds them (a turn passed in memory). Raises ServiceError naming the field."""
    _ensure_may_declare(combat, c, everyone)
    row = engine.maneuver_row(spec.maneuver)
    option = ""
    feints = row.maneuver is engine.Maneuver.FEINT
    if row.maneuver is engine.Maneuver.ALL_OUT_ATTACK:
        found = engine.all_out_attack(spec.all_out_option, ready_weapons=len(usable_weapons(c)))
        option = spec.all_out_option
        feints = found.feint_first
    weapon = spec.weapon
    if weapon is not None and not 0 <= weapon < len(c.weapons):
        raise ServiceError(UNKNOWN_WEAPON.format(name=c.name), field="weapon")
    lines: list[str] = []
    against = _feint_target(combat, c, spec.target, weapon) if feints else None
    _aim(c, row, weapon, lines)
    c.reloading = bool(spec.reloading) and row.maneuver is engine.Maneuver.READY
    if row.maneuver is engine.Maneuver.READY and weapon is not None:
        _ready(c, weapon, lines)
    c.concentration_lost = False
    c.waiting = row.maneuver is engine.Maneuver.WAIT
    if row.maneuver is engine.Maneuver.CHANGE_POSITION:
        _change_position(c, spec.posture, lines)
    move = combatant_numbers(c, terrain=combat.terrain).move
    metres = engine.maneuver_movement(row.maneuver, move, first_aim_turn=c.aim_turns <= 1)
    left = engine.defences_left(row.maneuver, reloading_missile_weapon=c.reloading)
    c.maneuver, c.all_out_option, c.maneuver_round = row.maneuver.value, option, combat.round
    return DeclaredManeuver(c, row, option, metres, left, against, lines)


def maneuver_run(
    combat: Combat,
    user,
    c: Combatant,
    spec: ManeuverSpec,
    *,
    request_key: str = "",
    data: dict | None = None,
    before: dict | None = None,
    notes=(),
) -> CombatEvent:
    """Declare ``spec`` for ``c`` (``maneuver_apply``), roll the feint's contest if it has one,
    save and write the maneuver's event. The event keeps what the maneuver changes as it was
    ``before`` it and the chain's last roll then, so it can be changed until its first die."""
    before = before or {name: copy.deepcopy(getattr(c, name)) for name in MANEUVER_FIELDS}
    declared = maneuver_apply(combat, c, spec)
    last = Roll.objects.filter(campaign=combat.scene.week.campaign).aggregate(n=Max("sequence"))
    code = uuid.uuid4()
    lines = [*notes, *declared.lines]
    if declared.feint_against is not None:
        _feint(combat, user, code, c, spec.weapon, declared.feint_against, spec.target_sees, lines)
    combatant_save(c)
    return combat_event(
        combat,
        user,
        CombatEvent.Kind.MANEUVER,
        declared.text,
        lines=lines,
        data={
            "combatant": str(c.code),
            "name": c.name,
            "maneuver": declared.row.maneuver.value,
            "movement_m": declared.metres,
            "before": before,
            "last_roll": last["n"] or 0,
            **(data or {}),
        },
        request_key=request_key,
        code=code,
    )


def _ensure_may_declare(combat, c: Combatant, everyone=None) -> None:
    """Whose turn, and what keeps him from choosing (§4.1, §5.2, §5e, §4.8)."""
    ensure_turn_of(combat, c, everyone)
    why = why_not_acting(combat, c)
    if why:
        raise ServiceError(why, field="maneuver")
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


def _feint(combat, user, code, c: Combatant, weapon, t: Combatant, target_sees, lines) -> None:
    """The feint's quick contest (§4.3, §1.5) against ``t`` (checked by ``_feint_target``),
    every die a Roll under the maneuver's event."""
    mine, theirs = _penalties(c), _penalties(t)
    line = c.weapon_lines()[weapon]
    skill = line.skill + sum(m["value"] for m in mine)
    # "contra a arma ou escudo do inimigo (ou a DX dele)": the best he has in hand.
    his = t.weapon_lines()
    his_base = engine.feint_defender_level((his[i].skill for i in usable_weapons(t)), t.dx)
    level = his_base + sum(m["value"] for m in theirs)
    sees = engine.feint_target_sees(
        told_sees=bool(target_sees),
        fighting=t.status == Combatant.Status.FIGHTING,
        blind_both_eyes=t.blind == "both_eyes",
        still_surprised=engine.still_surprised(t.surprise, t.acting),
    )
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
