"""The defender chooses (canon §4.1, §4.6; docs/DESIGN.md, invariant 11 (The defender chooses)).

A defender's active defence is his, chosen when the attack comes: an attack on a jogador's
character that hits stops before the defence roll and waits for his answer
(``waits_for_the_player``; ``sessions.combat.pending``). He may instead opt in to a standing
choice («decidir por mim»): a first choice and a fallback (and whether he retreats), which then
stands at once; and when the Mestre's time for the answer runs out, that choice or the best
total his maneuver and the round still leave stands for him (``gurps.defence.best_defence``),
and the log says so. A creature's defence is the Mestre's, in the attack he announces. No active defence only where a rule takes it away — the maneuver
(§4.3 Ataque Total), not knowing of the attack (§4.6, §5e), a critical hit (§4.8, in the
engine's sequence) — and the log names the rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from campaigns.errors import ServiceError
from gurps import combat as engine
from gurps import defence
from gurps.errors import InvalidValue
from sessions import entries
from sessions.combat.messages import COMBAT_ENDED, DEFENCE_NAMES
from sessions.combat.numbers import CombatantNumbers, round_defences
from sessions.combat.specs import DefenceSpec
from sessions.combat.state import weapon_problem
from sessions.models import Combat, Combatant, CombatEvent
from sessions.tracker import tracker_begin, tracker_event

DEFENCE_IS_THE_PLAYERS = (
    "A defesa de {name} é do jogador (§4.1, §4.6): ele a escolhe quando o ataque vem (ou deixa "
    "uma escolha com «decidir por mim»). O Mestre não escolhe por ele."
)
ONLY_OWNER_OR_TABLE = "Só o jogador da personagem (ou o Mestre, para um bicho) escolhe a defesa."
FIRST_NEEDED = "Diga a defesa que {name} usa primeiro (Esquiva, Bloquear ou Aparar)."
SAME_TWICE = "A alternativa é outra defesa, não a mesma."
UNKNOWN_DEFENCE = "Defesa desconhecida: use dodge (Esquiva), block (Bloquear) ou parry (Aparar)."
NO_ACTIVE_DEFENCE = "{name}: sem defesa ativa — {why}; só a Defesa Passiva vale (§4.6)."
DEFAULT_USED = (
    "{name} não escolheu defesa: vale a de maior total que a manobra deixa, {defence} "
    "(total {total}) — a escolha padrão (§4.6)."
)
# «Decidir por mim: a de maior total» — the standing choice that names no defence.
BEST = "best"
BEST_STANDING = (
    "{name} deixou «decidir por mim»: vale a de maior total que a manobra deixa, {defence} "
    "(total {total}) (§4.6)."
)
STANDING_CLEARED = "{name} escolhe a defesa na hora de cada ataque (§4.6)."
STANDING_USED = "{name} defende com {defence} (total {total}): a escolha do jogador."
FALLBACK_USED = (
    "{name}: {first} não dá agora ({why}); vale a alternativa, {defence} (total {total})."
)
NEITHER_USED = (
    "{name}: nem {first} nem {then} dão agora; vale a de maior total, {defence} (total {total})."
)


@dataclass(frozen=True)
class DefenceOption:
    """One active defence of the defender now: ``level`` the active defence (levels), ``total``
    with his PD (§4.6); ``why_not`` what keeps it from being used against this attack, or ""."""

    defence: str
    name: str
    level: int
    total: int
    parry_line: int | None = None
    why_not: str = ""

    @property
    def usable(self) -> bool:
        return not self.why_not


def _parry_line(d: Combatant, numbers: CombatantNumbers, wanted: int | None) -> int | None:
    lines = d.weapon_lines()
    order = [wanted] if wanted is not None else range(len(lines))
    for index in order:
        if 0 <= index < len(lines) and lines[index].parries and weapon_problem(d, index) is None:
            if numbers.parry_of(lines[index]) is not None:
                return index
    return None


def _why_not(d: Combatant, kind: str, left, available, rounds) -> str:
    """Why defence ``kind`` cannot be rolled now, in the canon's words, or ""."""
    if kind not in {k.value for k in left.allowed}:
        return f"a manobra {engine.maneuver_row(d.maneuver or 'move').name} não a deixa (§4.3)"
    if kind not in {k.value for k in available}:
        return "não vale contra este ataque (§4.7)"
    try:
        rounds.defend(kind)
    except InvalidValue as error:
        return error.message
    return ""


def defence_options(
    d: Combatant,
    numbers: CombatantNumbers,
    *,
    attack_kind: str = "hand_weapon",
    parry_weapon: int | None = None,
) -> tuple[DefenceOption, ...]:
    """Each active defence ``d`` has, with its level and total now, and why not when it cannot
    be used against an attack of ``attack_kind`` (§4.3, §4.7, the round's limits)."""
    maneuver = d.maneuver or engine.Maneuver.MOVE
    reloading = d.reloading and maneuver == engine.Maneuver.READY
    left = engine.defences_left(maneuver, reloading_missile_weapon=reloading)
    parry_index = _parry_line(d, numbers, parry_weapon)
    available = defence.available_defences(
        attack_kind, shield_ready=numbers.block is not None, weapon_ready=parry_index is not None
    )
    rounds, pd, found = round_defences(d), numbers.passive_defense, []
    levels = {"dodge": numbers.dodge, "block": numbers.block}
    if parry_index is not None:
        levels["parry"] = numbers.parry_of(d.weapon_lines()[parry_index])
    for kind, level in levels.items():
        if level is None:
            continue
        name = DEFENCE_NAMES[kind]
        if kind == "parry":
            name = f"{name} ({d.weapon_lines()[parry_index].name})"
        why = _why_not(d, kind, left, available, rounds)
        found.append(DefenceOption(kind, name, level, level + pd, parry_index, why))
    return tuple(found)


def _no_active_defence(d: Combatant, aware: bool) -> str:
    """The rule that takes every active defence away now, or ""."""
    if not aware:
        if d.status == Combatant.Status.UNCONSCIOUS:
            return "inconsciente, não sabe do ataque (§4.6)"
        return "surpresa total: parado, sem defesa ativa (§5e)"
    maneuver = d.maneuver or engine.Maneuver.MOVE
    if not engine.defences_left(maneuver, reloading_missile_weapon=False).allowed:
        return f"escolheu {engine.maneuver_row(maneuver).name}, que não deixa nenhuma (§4.3)"
    return ""


def _picks(
    d: Combatant, options: dict[str, DefenceOption], rolls: int, bonus: int = 0
) -> tuple[tuple, str]:
    """The defences ``d`` rolls (``rolls`` of them: 2 in Defesa Total) and the log's line: his
    own first choice, else his fallback, else the best total (``gurps.defence.best_defence``).
    ``bonus``: the retreat's +3 when he retreats, in the total the line says (the one rolled
    against)."""
    chosen = d.standing_defence or {}
    first, then = chosen.get("first", ""), chosen.get("then", "")
    if first == BEST:
        first = then = ""
    usable = {k: o for k, o in options.items() if o.usable}
    own = [k for k in (first, then) if k and k in usable]
    rest = [(k, o.level) for k, o in usable.items() if k not in own]
    picks = own + [k.value for k in defence.best_defence(rest, how_many=rolls)]
    picks = tuple(picks[:rolls])
    if not picks:
        return (), ""
    top = usable[picks[0]]
    total = f"{top.total + bonus}, recuando {bonus:+d}" if bonus else top.total
    if first and picks[0] == first:
        return picks, STANDING_USED.format(name=d.name, defence=top.name, total=total)
    if first and picks[0] == then:
        why = options[first].why_not if first in options else "não a tem"
        line = FALLBACK_USED.format(
            name=d.name, first=DEFENCE_NAMES[first], why=why, defence=top.name, total=total
        )
        return picks, line
    if first:
        line = NEITHER_USED.format(
            name=d.name,
            first=DEFENCE_NAMES[first],
            then=DEFENCE_NAMES.get(then, "a alternativa"),
            defence=top.name,
            total=total,
        )
        return picks, line
    said = BEST_STANDING if chosen.get("first") == BEST else DEFAULT_USED
    return picks, said.format(name=d.name, defence=top.name, total=total)


def has_a_player(d: Combatant) -> bool:
    """Whether ``d`` is a jogador's character: his defence is his (§4.1, §4.6)."""
    return d.character_id is not None and d.character.owner_id is not None


def waits_for_the_player(
    d: Combatant, numbers: CombatantNumbers, *, attack_kind: str, aware: bool
) -> bool:
    """Whether an attack on ``d`` that hits stops for his jogador's answer (§4.1, §4.6): a
    jogador's character without a standing choice («decidir por mim»), who knows of the
    attack and has an active defence left to choose. Otherwise it goes on at once."""
    if not has_a_player(d) or (d.standing_defence or {}).get("first"):
        return False
    if _no_active_defence(d, aware):
        return False
    return any(o.usable for o in defence_options(d, numbers, attack_kind=attack_kind))


def defence_for_attack(
    d: Combatant, numbers: CombatantNumbers, spec: DefenceSpec, *, attack_kind: str, aware: bool
) -> tuple[DefenceSpec, list[str]]:
    """What ``d`` rolls against this attack, and the lines that say why (§4.1, §4.6): the
    Mestre's choice for a creature or NPC without a player; the jogador's own choice; or the
    best total. Raises ServiceError when the Mestre names a defence for a jogador's character —
    the defence is the defender's."""
    if spec.defences and has_a_player(d):
        raise ServiceError(DEFENCE_IS_THE_PLAYERS.format(name=d.name), field="defences")
    if spec.defences:
        return spec, []
    rule = _no_active_defence(d, aware)
    if rule:
        return spec, [NO_ACTIVE_DEFENCE.format(name=d.name, why=rule)]
    chosen = d.standing_defence or {}
    found = defence_options(
        d, numbers, attack_kind=attack_kind, parry_weapon=chosen.get("parry_weapon")
    )
    options = {o.defence: o for o in found}
    rolls = 2 if d.maneuver == engine.Maneuver.ALL_OUT_DEFENSE else 1
    retreat = (
        bool(chosen.get("retreat"))
        and not d.retreated
        and defence.can_retreat(
            sitting=d.posture == Combatant.Posture.SITTING,
            kneeling=d.posture == Combatant.Posture.KNEELING,
            stunned=d.stunned,
        )
    )
    picks, line = _picks(d, options, rolls, defence.retreat_bonus() if retreat else 0)
    if not picks:
        why = "; ".join(f"{o.name}: {o.why_not}" for o in found) or "não tem nenhuma"
        return spec, [NO_ACTIVE_DEFENCE.format(name=d.name, why=why)]
    parry = options["parry"].parry_line if "parry" in picks else None
    return DefenceSpec(defences=picks, parry_weapon=parry, retreat=retreat), [line]


def _authorize(combatant: Combatant):
    """A jogador's character: only its jogador (the defence is his, §4.1); else the table."""

    def check(user) -> None:
        character = combatant.character
        if character is not None and character.owner_id is not None:
            if not character.is_owned_by(user):
                raise ServiceError(ONLY_OWNER_OR_TABLE, code="forbidden")
            return
        entries.require_table(user, combatant.combat.scene.week.campaign, what=entries.RUNS_COMBAT)

    return check


@transaction.atomic
def defence_choose(
    *,
    combat: Combat,
    combatant: Combatant,
    user,
    first: str,
    then: str = "",
    retreat: bool = False,
    parry_weapon: int | None = None,
    request_key: str = "",
) -> CombatEvent:
    """The defender's own choice (§4.1, §4.6), kept until he changes it: ``first`` the active
    defence he uses ("dodge", "block", "parry"), ``then`` the one if the first cannot be used
    ("" for the best), ``first`` "best" for the best total every time («decidir por mim»),
    ``retreat`` +3 once a round when he can (§9.2), ``parry_weapon`` the
    weapon line that parries. A jogador sets his character's; the Mestre a creature's."""
    try:
        combat, replay = tracker_begin(
            combat,
            user=user,
            request_key=request_key,
            kind=CombatEvent.Kind.DEFENCE,
            ended=COMBAT_ENDED,
            code="combat_ended",
            authorize=_authorize(combatant),
        )
    except ServiceError as error:
        if error.code == "forbidden":
            raise ServiceError(ONLY_OWNER_OR_TABLE, code="forbidden") from None
        raise
    if replay is not None:
        return replay
    c = Combatant.objects.select_related("character").get(pk=combatant.pk, combat=combat)
    for field_name, value in (("first", first), ("then", then)):
        if value and value not in DEFENCE_NAMES and not (field_name == "first" and value == BEST):
            raise ServiceError(UNKNOWN_DEFENCE, field=field_name)
    if not first:
        raise ServiceError(FIRST_NEEDED.format(name=c.name), field="first")
    if then == first:
        raise ServiceError(SAME_TWICE, field="then")
    if parry_weapon is not None and not 0 <= parry_weapon < len(c.weapons):
        raise ServiceError(UNKNOWN_DEFENCE, field="parry_weapon")
    c.standing_defence = {
        "first": first,
        "then": then,
        "retreat": bool(retreat),
        "parry_weapon": parry_weapon,
    }
    c.save(update_fields=["standing_defence"])
    said = DEFENCE_NAMES.get(first, "a de maior total") + (
        f", senão {DEFENCE_NAMES[then]}" if then else ""
    )
    said += ", recuando" if retreat else ""
    return tracker_event(
        combat,
        user=user,
        kind=CombatEvent.Kind.DEFENCE,
        text=f"{c.name} escolhe a defesa: {said}.",
        data={"combatant": str(c.code), **c.standing_defence},
        request_key=request_key,
        update_fields=[],
        round=combat.round,
        turn=combat.turn,
    )


@transaction.atomic
def defence_standing_clear(
    *, combat: Combat, combatant: Combatant, user, request_key: str = ""
) -> CombatEvent:
    """The jogador takes back his standing choice (§4.6): from now on each attack that hits
    waits for his answer. Only his jogador (or the Mestre, for a creature)."""
    combat, replay = tracker_begin(
        combat,
        user=user,
        request_key=request_key,
        kind=CombatEvent.Kind.DEFENCE,
        ended=COMBAT_ENDED,
        code="combat_ended",
        authorize=_authorize(combatant),
    )
    if replay is not None:
        return replay
    c = Combatant.objects.get(pk=combatant.pk, combat=combat)
    c.standing_defence = {}
    c.save(update_fields=["standing_defence"])
    return tracker_event(
        combat,
        user=user,
        kind=CombatEvent.Kind.DEFENCE,
        text=STANDING_CLEARED.format(name=c.name),
        data={"combatant": str(c.code), "cleared": True},
        request_key=request_key,
        update_fields=[],
        round=combat.round,
        turn=combat.turn,
    )
