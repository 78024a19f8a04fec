"""One call runs a combatant's turn (issue «The Mestre's tools»): the turn passed to him in the
order of §4.2, his maneuver (§4.3), his attack through the §4.10 sequence — and the same call
as a dry run, which says the attack's effective level with every modifier and the defences
the defender has, rolling nothing and writing nothing.

Both go through one rehearsal: the turn passed in memory (``turns.turn_advance``,
``turns.turn_start_effects``), the maneuver set in memory (``maneuvers.maneuver_apply``), the
attack worked out (``attack.attack_plan``, whose ``gurps.combat.plan_attack`` is the very
plan the attack roll rolls against). Nothing is computed here that the separate actions do
not compute the same way. The real call rehearses first, so anything refused is refused
before the first die and nothing is written; then it runs the same actions for real
(``turn_pass``, ``maneuver_run``/``maneuver_replace``, ``attack_run``) in one transaction.

What the rehearsal cannot know is what the dice at the start of the turn will say (HT at 0
HP, HT to leave a stun, IQ under total surprise): it supposes each passes and says so. When
one fails, the real call stops after the turn — the dice stay, the maneuver and the attack
are not made, and the answer says why (``TurnOutcome.stopped``).
"""

from __future__ import annotations

import copy
import uuid
from dataclasses import dataclass

from django.db import transaction

from campaigns.errors import ServiceError
from gurps import checks, injury
from gurps import combat as engine
from sessions import entries
from sessions.combat.attack import AttackPlan, attack_plan, attack_run
from sessions.combat.begin import combat_begin
from sessions.combat.defending import DefenceOption, defence_options
from sessions.combat.maneuvers import (
    DeclaredManeuver,
    maneuver_apply,
    maneuver_locked,
    maneuver_of_this_turn,
    maneuver_replace,
    maneuver_run,
)
from sessions.combat.messages import (
    ACT_KEY_OF_ANOTHER_REQUEST,
    AWAITS_THE_PLAYER,
    COMBAT_ENDED,
    COMBATANT_NOT_FOUND,
    CRITICAL_NO_DEFENCE,
    CURRENT_HAS_NOT_ACTED,
    DEFENDER_NEEDED,
    FEINT_STILL_TO_ROLL,
    NOTHING_TO_DO,
    OUT_OF_THE_FIGHT,
    START_ROLL_ASSUMED,
    TURN_SKIPS_THE_ORDER,
)
from sessions.combat.specs import AttackSpec, DefenceSpec, ManeuverSpec
from sessions.combat.state import current, why_not_acting
from sessions.combat.turns import (
    turn_advance,
    turn_pass,
    turn_start_effects,
    turn_start_rolls_needed,
)
from sessions.models import Combat, Combatant, CombatEvent, Roll
from sessions.tracker import tracker_ensure_active

# --- what the answers hold ---------------------------------------------------------------------


@dataclass(frozen=True)
class AttackSummary:
    """What one attack of the turn did: hit (None: it hit and waits for the jogador's
    defence, §4.6), HP lost, HP after, the effective level rolled against (levels), its event."""

    event: CombatEvent
    hit: bool | None
    hp_lost: int
    hp_after: int
    effective_level: int


@dataclass(frozen=True)
class TurnOutcome:
    """What one call of ``combat_act`` did: ``events`` in the order written (the turn passed,
    the maneuver, the attack); ``rolls`` every die they rolled, in the chain's order (the
    start of the turn's HT and IQ, the feint's contest, the attack, the defence, the damage,
    the shock, stun, knockout and death HT rolls, the tables); ``attack`` its result, or
    None; ``stopped`` what the start of the turn's dice left that kept the combatant from its
    maneuver ("" if nothing); ``replayed`` True when this is what an earlier call with the
    same key did."""

    combat: Combat
    combatant: Combatant
    events: tuple[CombatEvent, ...]
    rolls: tuple[Roll, ...]
    attack: AttackSummary | None
    stopped: str = ""
    replayed: bool = False


@dataclass(frozen=True)
class ModifierLine:
    """One modifier of the attack roll: ``name`` as the log says it, ``value`` in levels,
    ``section`` the canon § it comes from ("1.4": announced by the Mestre with his reason)."""

    name: str
    value: int
    section: str


@dataclass(frozen=True)
class AttackPreview:
    """The attack as it would be rolled: the weapon line and its skill, the effective level
    and every modifier (levels), the damage at the attacker's ST, where it is aimed, and the
    defender's side — each active defence he has now with its level and total with his PD
    and why not when it cannot be used (``defences``), the ones he would roll (``rolled``:
    keys with their levels, the retreat's +3 in them; none: only the PD), why
    (``defence_lines``: the jogador's choice, the best total, no active defence), the feint's
    margin taken off, and the notes (a critical hit leaves no defence; a feint still to
    roll)."""

    attacker: Combatant
    defender: Combatant
    weapon: str
    skill: int
    effective_level: int
    rollable: bool  # §1.1: above 3; the real call refuses at 3 or less
    modifiers: tuple[ModifierLine, ...]
    damage: str
    damage_type: str
    location: str
    passive_defense: int
    defences: tuple[DefenceOption, ...]
    rolled: tuple[tuple[str, int], ...]
    defence_lines: tuple[str, ...]
    feint_penalty: int
    notes: tuple[str, ...]

    @property
    def location_label(self) -> str:
        return injury.HitLocation(self.location).label


@dataclass(frozen=True)
class TurnPreview:
    """The dry run of ``combat_act``: whether the turn would pass to the combatant (and the
    round it would be), the rolls the start of his turn asks (the preview supposes each
    passes), his maneuver as declared (or None; ``changes`` when it replaces the one he
    declared this turn), the attack as it would be rolled (or None), and the lines the turn
    would write before its dice. Nothing was rolled, nothing written."""

    combatant: Combatant
    passes_turn: bool
    round: int
    start_rolls: tuple[str, ...]
    maneuver: DeclaredManeuver | None
    changes: bool
    attack: AttackPreview | None
    lines: tuple[str, ...]


# --- the public operations ---------------------------------------------------------------------


@transaction.atomic
def combat_act(
    *,
    combat: Combat,
    combatant: Combatant,
    user,
    maneuver: ManeuverSpec | None = None,
    attack: AttackSpec | None = None,
    defender: Combatant | None = None,
    defence_choice: DefenceSpec | None = None,
    dry_run: bool = False,
    request_key: str = "",
) -> TurnOutcome | TurnPreview:
    """Run ``combatant``'s turn in one call (§4.1, §4.2, §4.3, §4.10), the server rolling every
    die; with ``dry_run`` only say what it would be (``combat_act_preview``: a TurnPreview,
    nothing rolled or written, ``request_key`` not used).

    1. The turn passes to him when it is not his yet: he must be the next in the stored order
       (§4.2; nobody is skipped), and the combatant whose turn it is must have declared his
       maneuver or be unable to (stunned, surprised, out of the fight). Not passed when it is
       his turn already, nor for the attack an Aguardar left him, out of turn (``maneuver``
       None). The start of his turn rolls what the canon asks (§5.4, §5.2, §5e).
    2. ``maneuver`` (its options in the spec) is declared; if he declared one this turn and no
       die of the fight has been rolled since, it is changed (``maneuvers.maneuver_change``).
       None: no maneuver now (the one declared this turn stands, for a second attack of
       Ataque Total (a) or the Aguardar's).
    3. ``attack`` against ``defender``, when given: his maneuver must attack (§4.3). The
       defender's active defence is ``defence_choice`` for a creature or an NPC without a
       jogador; for a jogador's character an attack that hits stops before the defence roll
       and waits for his answer (``sessions.combat.pending``; ``attack.hit`` None), unless he
       left a standing choice («decidir por mim») — naming one for him is refused (§4.1, §4.6).

    Everything is checked before the first die; anything refused (ServiceError naming the
    field, OutsideCanon, InvalidValue) leaves nothing written and no die rolled. If the dice
    at the start of his turn keep him from acting, the call stops there: the turn and its
    dice are kept and ``TurnOutcome.stopped`` says why. The same ``request_key`` again
    returns what the first call did (``replayed``). Only the Mestre or the Árbitro run it.
    """
    if dry_run:
        return combat_act_preview(
            combat=combat,
            combatant=combatant,
            user=user,
            maneuver=maneuver,
            attack=attack,
            defender=defender,
            defence_choice=defence_choice,
        )
    fresh, earlier = combat_begin(combat, user, request_key, None)
    if earlier is not None:
        return _replayed(fresh, earlier)
    rehearsal = _rehearse(fresh, combatant, maneuver, attack, defender, defence_choice)
    return _run(fresh, user, rehearsal, maneuver, attack, defender, defence_choice, request_key)


def combat_act_preview(
    *,
    combat: Combat,
    combatant: Combatant,
    user,
    maneuver: ManeuverSpec | None = None,
    attack: AttackSpec | None = None,
    defender: Combatant | None = None,
    defence_choice: DefenceSpec | None = None,
) -> TurnPreview:
    """What ``combat_act`` with these arguments would do, rolling nothing and writing nothing:
    the same checks and refusals, the attack's effective level with every modifier (name,
    value, canon §) and the defences the defender could use with their levels. The rolls at
    the start of the turn are supposed to pass (``start_rolls`` names them). Only the Mestre
    or the Árbitro ask it; it takes no idempotency key (it does nothing twice)."""
    entries.require_table(user, combat.scene.week.campaign, what=entries.RUNS_COMBAT)
    fresh = Combat.objects.select_related("scene__week__campaign", "first_roll").get(pk=combat.pk)
    tracker_ensure_active(fresh, ended=COMBAT_ENDED, code="combat_ended")
    return _rehearse(fresh, combatant, maneuver, attack, defender, defence_choice)


# --- the rehearsal: the turn in memory ---------------------------------------------------------


def _one(everyone: list[Combatant], wanted: Combatant | None, field: str) -> Combatant:
    found = next((c for c in everyone if wanted is not None and c.pk == wanted.pk), None)
    if found is None:
        raise ServiceError(COMBATANT_NOT_FOUND, field=field)
    return found


def _passes_turn(combat, everyone, c: Combatant, maneuver, attack) -> bool:
    """Whether the call passes the turn to ``c``; refuses passing over a combatant whose turn
    it is and who can still choose his maneuver (§4.1)."""
    if not c.in_the_fight:
        status = c.get_status_display().lower()
        raise ServiceError(OUT_OF_THE_FIGHT.format(name=c.name, status=status), field="combatant")
    now = current(combat, everyone)
    if now is not None and now.pk == c.pk:
        return False
    aguardar = c.waiting and c.maneuver == engine.Maneuver.WAIT
    if maneuver is None and attack is not None and aguardar:
        return False  # the attack his Aguardar left, out of turn (§4.3)
    if now is not None and now.maneuver_round != combat.round and not why_not_acting(combat, now):
        raise ServiceError(
            CURRENT_HAS_NOT_ACTED.format(current=now.name, name=c.name),
            field="combatant",
            code="not_its_turn",
        )
    return True


def _rehearse(
    combat: Combat,
    combatant: Combatant,
    maneuver: ManeuverSpec | None,
    attack: AttackSpec | None,
    defender: Combatant | None,
    defence_choice: DefenceSpec | None,
) -> TurnPreview:
    """The turn on copies read afresh (``combat`` itself is left as it is): every check the
    real call makes, before any die, and what it would be. Raises what the real call would."""
    ghost = Combat.objects.select_related("scene__week__campaign").get(pk=combat.pk)
    everyone = list(ghost.combatants.select_related("character"))
    c = _one(everyone, combatant, "combatant")
    d = None
    if attack is not None:
        if defender is None:
            raise ServiceError(DEFENDER_NEEDED, field="defender")
        d = _one(everyone, defender, "defender")
    lines: list[str] = []
    passes = _passes_turn(ghost, everyone, c, maneuver, attack)
    start_rolls: tuple[str, ...] = ()
    if passes:
        now, _ = turn_advance(ghost, everyone, lines)
        if now.pk != c.pk:
            raise ServiceError(
                TURN_SKIPS_THE_ORDER.format(next=now.name, name=c.name),
                field="combatant",
                code="not_its_turn",
            )
        turn_start_effects(ghost, c, lines)
        start_rolls = turn_start_rolls_needed(c)
        lines += [START_ROLL_ASSUMED.format(roll=roll) for roll in start_rolls]
        c.stunned = False  # the preview supposes each roll passes
        c.acting = True
    elif maneuver is None and attack is None:
        raise ServiceError(NOTHING_TO_DO.format(name=c.name), field="maneuver")
    declared, changes = _rehearse_maneuver(ghost, c, maneuver, everyone, passes)
    preview = None
    if attack is not None:
        planned = attack_plan(
            ghost, c, d, attack, defence_choice or DefenceSpec(), everyone=everyone, preview=True
        )
        preview = _attack_preview(planned, declared)
    return TurnPreview(
        combatant=c,
        passes_turn=passes,
        round=ghost.round,
        start_rolls=start_rolls,
        maneuver=declared,
        changes=changes,
        attack=preview,
        lines=tuple(lines + (declared.lines if declared else [])),
    )


def _rehearse_maneuver(
    combat, c: Combatant, maneuver: ManeuverSpec | None, everyone, passes: bool
) -> tuple[DeclaredManeuver | None, bool]:
    """The maneuver set on ``c`` in memory: (what it is, whether it changes one declared this
    turn — refused once a die was rolled after it)."""
    if maneuver is None:
        return None, False
    earlier = None if passes else maneuver_of_this_turn(combat, c)
    if earlier is not None:
        why = maneuver_locked(combat, earlier)
        if why:
            raise ServiceError(why, field="maneuver", code="maneuver_locked")
        for name, value in earlier.data["before"].items():
            setattr(c, name, copy.deepcopy(value))
    return maneuver_apply(combat, c, maneuver, everyone=everyone), earlier is not None


def _attack_preview(planned: AttackPlan, declared: DeclaredManeuver | None) -> AttackPreview:
    a, d, inputs = planned.attacker, planned.defender, planned.inputs
    numbers = inputs.defender_numbers
    options = defence_options(
        d,
        numbers,
        attack_kind=planned.blow.line.attack_kind,
        parry_weapon=inputs.choice.parry_weapon,
    )
    notes = [CRITICAL_NO_DEFENCE]
    if inputs.waits:
        notes.append(AWAITS_THE_PLAYER.format(name=d.name))
    if declared is not None and declared.feint_against is not None:
        notes.append(FEINT_STILL_TO_ROLL.format(name=a.name, target=declared.feint_against.name))
    read = planned.blow.read
    return AttackPreview(
        attacker=a,
        defender=d,
        weapon=planned.blow.line.name,
        skill=planned.blow.line.skill,
        effective_level=planned.level.level,
        rollable=checks.is_rollable(planned.level.level, checks.RollKind.SKILL),
        modifiers=tuple(
            ModifierLine(m.reason, m.value, m.section) for m in planned.level.modifiers
        ),
        damage=str(read.expression),
        damage_type=read.damage_type.value,
        location=planned.level.location.value,
        passive_defense=numbers.passive_defense,
        defences=options,
        rolled=tuple((choice.defence, choice.level) for choice in inputs.defence.choices),
        defence_lines=tuple(inputs.defence_lines),
        feint_penalty=inputs.feint_penalty,
        notes=tuple(notes),
    )


# --- the real call -----------------------------------------------------------------------------


def _run(
    combat: Combat,
    user,
    rehearsal: TurnPreview,
    maneuver: ManeuverSpec | None,
    attack: AttackSpec | None,
    defender: Combatant | None,
    defence_choice: DefenceSpec | None,
    request_key: str,
) -> TurnOutcome:
    """The rehearsed turn, for real, in the transaction of ``combat_act``: each action writes
    its own event, all marked with this call's ``act``; the first carries the key and what
    the call meant to do."""
    act = str(uuid.uuid4())
    plan = {"maneuver": maneuver is not None, "attack": attack is not None}
    events: list[CombatEvent] = []

    def marks() -> dict:
        first = not events
        return {
            "request_key": request_key if first else "",
            "data": {"act": act, **({"act_plan": plan} if first else {})},
        }

    c = Combatant.objects.select_related("character").get(pk=rehearsal.combatant.pk)
    if rehearsal.passes_turn:
        events.append(turn_pass(combat, user, **marks()))
        c.refresh_from_db()
        stopped = events[-1].data["why_not"] if maneuver or attack else ""
        if stopped:
            return _outcome(combat, c, events, stopped)
    if maneuver is not None:
        write = maneuver_replace if rehearsal.changes else maneuver_run
        events.append(write(combat, user, c, maneuver, **marks()))
    if attack is not None:
        d = Combatant.objects.select_related("character").get(pk=defender.pk, combat=combat)
        done = attack_run(combat, user, c, d, attack, defence_choice or DefenceSpec(), **marks())
        events.append(done.event)
    return _outcome(combat, c, events, "")


def _outcome(combat, c, events, stopped: str, replayed: bool = False) -> TurnOutcome:
    codes = [str(e.code) for e in events]
    rolls = Roll.objects.filter(scene_id=combat.scene_id, details__event__in=codes)
    attack = next((e for e in events if e.kind == CombatEvent.Kind.ATTACK), None)
    summary = None
    if attack is not None:
        summary = AttackSummary(
            event=attack,
            hit=attack.data["hit"],
            hp_lost=attack.data["hp_lost"],
            hp_after=attack.data["hp_after"],
            effective_level=attack.data["effective_level"],
        )
    return TurnOutcome(
        combat=combat,
        combatant=c,
        events=tuple(events),
        rolls=tuple(rolls.order_by("sequence")),
        attack=summary,
        stopped=stopped,
        replayed=replayed,
    )


def _replayed(combat: Combat, first: CombatEvent) -> TurnOutcome:
    """What the call that took this key did; a key another action took is a conflict."""
    act = first.data.get("act")
    if not act or "act_plan" not in first.data:
        raise ServiceError(
            ACT_KEY_OF_ANOTHER_REQUEST, field="request_key", code="idempotency_conflict"
        )
    events = list(combat.events.filter(data__act=act).order_by("pk"))
    plan = first.data["act_plan"]
    did_more = any(e.kind != CombatEvent.Kind.TURN for e in events)
    stopped = first.data.get("why_not", "") if (plan["maneuver"] or plan["attack"]) else ""
    who = first.data.get("combatant") or first.data.get("attacker")
    c = Combatant.objects.get(combat=combat, code=who)
    return _outcome(combat, c, events, "" if did_more else stopped, replayed=True)
