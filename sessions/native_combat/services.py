"""The writes of a fight its ruleset plays whole (``rulesets.base``'s combat part with
``native = True``: the sistema001's), and the read.

The plumbing only: who asks, the campaign's lock, the replay by ``request_key``, the scene that
still takes entries (``sessions.tracker``); the fight's state handed to the ruleset as plain JSON
and its answer stored — the PV on each ``Combatant`` (``hp``, ``hp_before``, ``hp_lost``), the
Mestre's numbers in ``Combatant.data``, the rest (the initiative, the order, the timed effects and
conditions, the objects) in ``Combat.data`` — and every die it rolled a ``Roll`` of the scene,
appended to the campaign's chain in the order rolled. Nothing is computed here: what a die means,
who acts, what a condition does and when it ends are the ruleset's (docs/DESIGN.md, invariant 15
(One place for every rule)). A refusal of the rules becomes a ``ServiceError`` naming the field,
in Portuguese; nothing half-saved.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from campaigns.errors import ServiceError
from campaigns.models import Campaign
from canon.services import house_decisions_in_order
from rulesets.base import RandomSource
from rulesets.registry import rule_errors, ruleset_for
from sessions import entries
from sessions.log import chain
from sessions.models import Combat, Combatant, CombatEvent, Scene
from sessions.tracker import tracker_begin, tracker_event
from sheets.models import Character
from sheets.reads import homologated_version
from sheets.ruleset_data import data_state, data_state_write

FIGHT_ENDED = "O combate já terminou."
FIGHT_ACTIVE_EXISTS = "Já há um combate em andamento nesta cena: termine-o antes de começar outro."
NOT_NATIVE = (
    "O sistema de regras desta campanha ({label}) não conduz o combate por estas ferramentas: "
    "use as de combate (combat_*)."
)
NOT_NATIVE_HERE = (
    "O combate desta campanha ({label}) é conduzido pelo próprio sistema: use as ferramentas "
    "fight_* (API /api/v1/fights)."
)
FIGHT_NOT_COMBAT = (
    "Este combate é do {label}, conduzido pelo próprio sistema: use fight_read / "
    "/api/v1/fights/{code} (e as demais ferramentas fight_*)."
)
NOT_A_NATIVE_FIGHT = "Este combate não é de um sistema conduzido por estas ferramentas."
NO_COMBATANTS = "Um combate começa com ao menos dois combatentes."
NAME_EMPTY = "Todo combatente precisa de um nome."
NAME_TAKEN = "Já há um combatente com este nome no combate."
COMBATANT_NOT_FOUND = "Este combatente não está neste combate."
CHARACTER_NOT_IN_SCENE = "Esta personagem não está na cena."
TOO_MANY = "No máximo {limit} combatentes num combate."
MAX_COMBATANTS = 30
TIE_ORDER_RANGE = "tie_order: posições dos combatentes na lista, de 0 a {count} menos 1."
# A refusal the ruleset gives until the Árbitro decides a pendência (its error has ``reading``).
AWAITS_ARBITRO = "awaits_arbitro"


def _part(campaign_ruleset: str):
    """The ruleset's combat part, if it plays a fight whole; ServiceError otherwise."""
    ruleset = ruleset_for(campaign_ruleset)
    part = ruleset.combat
    if part is None or not getattr(part, "native", False):
        raise ServiceError(NOT_NATIVE.format(label=ruleset.label), code="wrong_ruleset")
    return part


def plays_whole(ruleset_key: str) -> bool:
    """Whether the ruleset's combat part plays a fight whole (its fights are this module's)."""
    part = ruleset_for(ruleset_key).combat
    return part is not None and bool(getattr(part, "native", False))


def ruleset_label(ruleset_key: str) -> str:
    return ruleset_for(ruleset_key).label


def refuse_gurps_tools(combat: Combat) -> None:
    """A fight its ruleset plays whole asked for by the GURPS tracker's API or tools: refused
    naming the fight's own (``wrong_ruleset``, field ``combat``) rather than read through a
    GURPS column it lacks."""
    if plays_whole(combat.ruleset):
        raise ServiceError(
            FIGHT_NOT_COMBAT.format(label=ruleset_label(combat.ruleset), code=combat.code),
            code="wrong_ruleset",
            field="combat",
        )


def fight_part(combat: Combat):
    """The combat part that plays ``combat`` (its stored ruleset, invariant 14)."""
    try:
        return _part(combat.ruleset)
    except ServiceError:
        raise ServiceError(NOT_A_NATIVE_FIGHT, code="wrong_ruleset") from None


def _refused(error: Exception, prefix: str = "") -> ServiceError:
    """A refusal of the rules as the service's: its Portuguese message, its field (under
    ``prefix``), ``awaits_arbitro`` for a rule waiting on a pendência."""
    field = getattr(error, "field", "") or ""
    if prefix:
        field = f"{prefix}.{field}" if field else prefix
    code = AWAITS_ARBITRO if getattr(error, "reading", "") else "invalid"
    return ServiceError(getattr(error, "message", str(error)), field=field, code=code)


def _rules(call, *args, prefix: str = "", **kwargs):
    """``call`` of the ruleset's part, its refusals made ``ServiceError``s."""
    try:
        return call(*args, **kwargs)
    except rule_errors() as error:
        raise _refused(error, prefix) from None


# --- the state handed to the ruleset -----------------------------------------------------------


def _key(c: Combatant) -> str:
    return str(c.code)


def house_answers(campaign: Campaign) -> list[dict[str, str]]:
    """The campaign's decisions that name a house setting, oldest first (``{"key",
    "decision"}``): the Árbitro's answers the ruleset reads for the rules that wait on him (the
    sistema001's: the newest decision among a question's options is in force)."""
    return [{"key": d.house_key, "decision": d.label} for d in house_decisions_in_order(campaign)]


def fight_state(combat: Combat) -> dict[str, Any]:
    """The fight as the ruleset reads it: ``Combat.data`` with the round, the turn, the
    fighters (key → name, the Mestre's numbers, PV now, out of the fight or not) and the
    campaign's house decisions (``house``, read fresh on every call, never kept)."""
    fighters = {
        _key(c): {
            "name": c.name,
            "numbers": c.data,
            "pv": c.hp_now,
            "out": c.status != Combatant.Status.FIGHTING,
        }
        for c in combat.combatants.order_by("declared")
    }
    return {
        **combat.data,
        "round": combat.round,
        "turn": combat.turn,
        "fighters": fighters,
        "house": house_answers(combat.scene.week.campaign),
    }


def _store(combat: Combat, state: Mapping[str, Any]) -> None:
    """Keep the ruleset's answer: PV and who is out on each combatant, the rest on the fight."""
    rows = {_key(c): c for c in combat.combatants.all()}
    for key, fighter in state["fighters"].items():
        row = rows[key]
        lost = max(0, (row.hp_before or 0) - fighter["pv"])
        status = Combatant.Status.OUT if fighter.get("out") else Combatant.Status.FIGHTING
        if (row.hp_lost, row.status) != (lost, status):
            row.hp_lost, row.status = lost, status
            row.save(update_fields=["hp_lost", "status"])
    combat.round = state["round"]
    combat.turn = state["turn"]
    combat.data = {
        k: v for k, v in state.items() if k not in ("fighters", "round", "turn", "house")
    }


def _write_steps(
    combat: Combat, user, event_code, steps: Sequence, round_: int, turn: int
) -> list[str]:
    """A ``Roll`` of the scene for every step that rolled, in order (``details`` naming the
    fight, the round and turn the call acted in, and the event); the log's lines of every
    step."""
    rows = {_key(c): c for c in combat.combatants.select_related("character")}
    lines = []
    for number, step in enumerate(steps, start=1):
        lines.append(step.text)
        if step.roll is None:
            continue
        who = rows.get(step.who)
        roll = step.roll
        label = roll["label"]
        if who is not None and who.character_id is None and who.name not in label:
            label = f"{who.name}: {label}"
        made = chain.append_roll(
            campaign=combat.scene.week.campaign,
            request_key="",
            scene=combat.scene,
            character=who.character if who is not None else None,
            label=label[:200],
            rolled_by=user,
            kind=roll["kind"],
            modifiers=list(roll.get("modifiers", [])),
            dice=list(roll["dice"]),
            total=roll["total"],
            details={
                "combat": str(combat.code),
                "event": str(event_code),
                "round": round_,
                "turn": turn,
                "step": number,
                "text": step.text,
                **roll.get("details", {}),
            },
        )
        if combat.first_roll_id is None:
            combat.first_roll = made
    return lines


def _event(combat: Combat, user, kind: str, played, *, request_key: str, data=None):
    """Write ``played``'s rolls and then its event (one code, which the rolls name), both
    with the round and turn the call acted in: the stored ones before it (a turn's event is its
    round's, not the next one's it may pass to), or after it for the start (the Iniciativa is
    rolled for round 1, turn 1)."""
    code = uuid.uuid4()
    acted_round = combat.round or played.state.get("round", 0)
    acted_turn = combat.turn or played.state.get("turn", 0)
    lines = _write_steps(combat, user, code, played.steps, acted_round, acted_turn)
    before = fight_state(combat)
    _store(combat, played.state)
    _write_back(combat, fight_part(combat), before, played.state)
    return tracker_event(
        combat,
        user=user,
        kind=kind,
        text=played.text,
        lines=lines,
        data=data or {},
        request_key=request_key,
        code=code,
        update_fields=["round", "turn", "data", "first_roll", "status", "ended_at"],
        round=acted_round,
        turn=acted_turn,
    )


def _begin(combat: Combat, user, request_key: str, kind: str | None):
    fresh, earlier = tracker_begin(
        combat,
        user=user,
        request_key=request_key,
        kind=kind,
        ended=FIGHT_ENDED,
        code="combat_ended",
        related=("first_roll",),
    )
    return fresh, earlier


def _source(source: RandomSource | None) -> RandomSource:
    return source if source is not None else entries.dice_source()


# --- combatants ---------------------------------------------------------------------------------


def _row(part, combat: Combat, spec: Mapping[str, Any], declared: int, prefix: str) -> Combatant:
    """A combatant as the Mestre gives it: ``name``, an optional ``character`` of the scene, and
    its numbers (the ruleset's model validates them; its refusal names the field)."""
    name = " ".join(str(spec.get("name") or "").split())
    if not name:
        raise ServiceError(NAME_EMPTY, field=f"{prefix}.name")
    character = spec.get("character")
    if character is not None and not combat.scene.characters.filter(pk=character.pk).exists():
        raise ServiceError(CHARACTER_NOT_IN_SCENE, field=f"{prefix}.character")
    if character is not None and _dead(character):
        raise ServiceError(CHARACTER_DEAD.format(name=character.name), field=f"{prefix}.character")
    given = spec.get("numbers") or {}
    if not given and character is not None and hasattr(part, "numbers_from_sheet"):
        given = _sheet_numbers(part, character, f"{prefix}.character")
    numbers = _rules(part.fighter_numbers, given, prefix=prefix)
    pv_max, pv = part.fighter_pv(numbers)
    kind = Combatant.Kind.PLAYER_CHARACTER if character is not None else Combatant.Kind.CREATURE
    return Combatant(
        combat=combat,
        character=character,
        name=name[:200],
        kind=kind,
        data=numbers,
        declared=declared,
        hp=pv_max,
        hp_before=pv,
        demo_note=str(spec.get("note") or "")[:1000],
    )


CHARACTER_DEAD = "{name} está morto (estado da ficha: dead): não entra num combate."


def _dead(character) -> bool:
    """Whether ``character``'s sheet state (a ruleset that keeps one as data) says dead."""
    if ruleset_for(character.campaign.ruleset).sheets is None:
        return False
    try:
        return bool(data_state(character).get("dead"))
    except ServiceError:  # GURPS keeps its state in columns
        return False


NO_HOMOLOGATED_SHEET = (
    "{name} não tem ficha homologada: dê os números dela (numbers) ou peça a homologação ao "
    "Árbitro."
)


def _sheet_numbers(part, character, field: str) -> dict:
    """A character's numbers from its newest homologated sheet and its state, through the
    ruleset's sheets part (``check_data``, the Xuleta's) and the combat part
    (``numbers_from_sheet``); ServiceError naming ``field`` when it has none."""
    sheets = ruleset_for(character.campaign.ruleset).sheets
    version = homologated_version(character)
    if sheets is None or not hasattr(sheets, "check_data") or version is None:
        raise ServiceError(NO_HOMOLOGATED_SHEET.format(name=character.name), field=field)
    sheet = _rules(sheets.check_data, version.data, data_state(character), prefix=field)
    return part.numbers_from_sheet(sheet)


def _write_back(combat: Combat, part, before: Mapping[str, Any], state: Mapping[str, Any]) -> None:
    """What a call changed in the characters' state (``character_states`` of the fight
    ``before`` the call and after it: the Xuleta's PC lost, exhaustion, conditions, death
    saves…) laid on their sheets' state as stored now (``part.state_merged``), when the ruleset
    keeps one. One truth, ``CharacterState.data``: the fight's copy, taken at its start, never
    overwrites what a journey or a rest wrote meanwhile."""
    if not hasattr(part, "character_states"):
        return
    if ruleset_for(combat.ruleset).sheets is None:
        return
    rows = {_key(c): c for c in combat.combatants.select_related("character__campaign")}
    earlier = part.character_states(before)
    for key, written in part.character_states(state).items():
        row = rows.get(key)
        if row is None or row.character is None:
            continue
        was = earlier.get(key, written)
        if was == written:
            continue
        stored = data_state(row.character)
        merged = part.state_merged(stored, was, written, row.data.get("max_hp", 0))
        data_state_write(character=row.character, data=merged)


def _combatant(combat: Combat, code, field: str) -> Combatant:
    found = Combatant.objects.filter(combat=combat, code=code).first() if code else None
    if found is None:
        raise ServiceError(COMBATANT_NOT_FOUND, field=field)
    return found


def combatant_of(combat: Combat, code, field: str) -> Combatant:
    """The fight's combatant with ``code``; ServiceError naming ``field`` otherwise."""
    return _combatant(combat, code, field)


# --- the writes ---------------------------------------------------------------------------------


@transaction.atomic
def fight_start(
    *,
    scene: Scene,
    user,
    combatants: Sequence[Mapping[str, Any]],
    request_key: str = "",
    source: RandomSource | None = None,
    tie_order: Sequence[int] = (),
) -> Combat:
    """Start a fight in ``scene`` with ``combatants`` (each ``{"name", "character"?, "numbers",
    "initiative_modifier"?}``, the Mestre's numbers) and roll everyone's initiative; the first
    in the order acts. The same ``request_key`` twice starts one."""
    request_key = (request_key or "")[:64]
    campaign = scene.week.campaign
    entries.require_table(user, campaign, what=entries.RUNS_COMBAT)
    part = _part(campaign.ruleset)
    if request_key:
        existing = Combat.objects.filter(scene=scene, request_key=request_key).first()
        if existing is not None:
            return existing
    entries.ensure_scene_accepts_entries(scene)
    Campaign.objects.select_for_update().get(pk=campaign.pk)
    if Combat.objects.filter(scene=scene, status=Combat.Status.ACTIVE).exists():
        raise ServiceError(FIGHT_ACTIVE_EXISTS, code="combat_active")
    if len(combatants) < 2:
        raise ServiceError(NO_COMBATANTS, field="combatants")
    if len(combatants) > MAX_COMBATANTS:
        raise ServiceError(TOO_MANY.format(limit=MAX_COMBATANTS), field="combatants")
    try:
        with transaction.atomic():
            combat = Combat.objects.create(scene=scene, started_by=user, request_key=request_key)
    except IntegrityError:
        raise ServiceError(FIGHT_ACTIVE_EXISTS, code="combat_active") from None
    rows, modifiers = [], {}
    for index, spec in enumerate(combatants):
        row = _row(part, combat, spec, index + 1, f"combatants.{index}")
        if any(r.name == row.name for r in rows):
            raise ServiceError(NAME_TAKEN, field=f"combatants.{index}.name")
        rows.append(row)
    for row, spec in zip(rows, combatants, strict=True):
        row.save()
        modifiers[_key(row)] = int(spec.get("initiative_modifier") or 0)
    options = {}
    if tie_order:
        # The Mestre's order for ties (the Xuleta's «ho decideix el DM»): positions in the list.
        if any(not 0 <= i < len(rows) for i in tie_order):
            raise ServiceError(TIE_ORDER_RANGE.format(count=len(rows)), field="tie_order")
        options["tie_order"] = [_key(rows[i]) for i in tie_order]
    played = _rules(part.begin, fight_state(combat), _source(source), modifiers, **options)
    _event(combat, user, CombatEvent.Kind.START, played, request_key="")
    return combat


@transaction.atomic
def fight_join(
    *,
    combat: Combat,
    user,
    combatant: Mapping[str, Any],
    request_key: str = "",
    source: RandomSource | None = None,
) -> Combatant:
    """A late entrant: rolls initiative now; when it acts is the ruleset's (the Sistema 001's
    Entrada Tardia: from the next round; the Xuleta: this round if its place is still ahead)."""
    combat, replay = _begin(combat, user, request_key, CombatEvent.Kind.COMBATANT)
    if replay is not None:
        return Combatant.objects.get(code=replay.data["combatant"])
    part = fight_part(combat)
    if combat.combatants.count() >= MAX_COMBATANTS:
        raise ServiceError(TOO_MANY.format(limit=MAX_COMBATANTS), field="combatant")
    last = combat.combatants.aggregate(top=Max("declared"))["top"] or 0
    row = _row(part, combat, combatant, last + 1, "combatant")
    if combat.combatants.filter(name=row.name).exists():
        raise ServiceError(NAME_TAKEN, field="combatant.name")
    row.save()
    modifier = int(combatant.get("initiative_modifier") or 0)
    played = _rules(part.join, fight_state(combat), _key(row), _source(source), modifier)
    _event(
        combat,
        user,
        CombatEvent.Kind.COMBATANT,
        played,
        request_key=request_key,
        data={"combatant": _key(row)},
    )
    return row


@transaction.atomic
def fight_turn(
    *,
    combat: Combat,
    user,
    combatant: Combatant,
    plan: str | None,
    actions: Sequence[Mapping[str, Any]],
    request_key: str = "",
    source: RandomSource | None = None,
) -> CombatEvent:
    """The whole turn of ``combatant`` in one call: its plan (which actions it takes), each
    action resolved with the server's dice (an attack's defence rolled by the server, the damage
    with its types on the PV, a maneuver's condition, an object struck), then the next turn's
    start (what ends before it, what burns or bleeds at it). Targets and objects are named by
    their keys (a combatant's id, an object's key)."""
    combat, replay = _begin(combat, user, request_key, CombatEvent.Kind.TURN)
    if replay is not None:
        return replay
    part = fight_part(combat)
    played = _rules(
        part.turn, fight_state(combat), _key(combatant), plan, list(actions), _source(source)
    )
    return _event(
        combat,
        user,
        CombatEvent.Kind.TURN,
        played,
        request_key=request_key,
        data={"combatant": _key(combatant)},
    )


@transaction.atomic
def fight_condition(
    *,
    combat: Combat,
    user,
    target: Combatant,
    condition: str,
    rounds: int | None = None,
    remove: bool = False,
    source_fighter: Combatant | None = None,
    turn_damage: tuple | None = None,
    level: int | None = None,
    request_key: str = "",
) -> CombatEvent:
    """The Mestre applies a condition (with its duration in rounds, or the chapter's default;
    ``turn_damage``: ``(PV, damage type)`` at the start of each of its turns when the origin
    says it — a poison's) or removes one (an action or effect that ends it)."""
    combat, replay = _begin(combat, user, request_key, CombatEvent.Kind.ADJUSTMENT)
    if replay is not None:
        return replay
    part = fight_part(combat)
    played = _rules(
        part.condition,
        fight_state(combat),
        _key(target),
        condition,
        rounds,
        remove,
        _key(source_fighter) if source_fighter is not None else "",
        turn_damage,
        **({"level": level} if level is not None else {}),
    )
    return _event(combat, user, CombatEvent.Kind.ADJUSTMENT, played, request_key=request_key)


@transaction.atomic
def fight_object(
    *, combat: Combat, user, spec: Mapping[str, Any], request_key: str = ""
) -> CombatEvent:
    """Put an object or structure in the fight (its size, structure and material: the ruleset
    works out its ND Estrutural), to be struck or broken by turns' actions."""
    combat, replay = _begin(combat, user, request_key, CombatEvent.Kind.ADJUSTMENT)
    if replay is not None:
        return replay
    part = fight_part(combat)
    played = _rules(part.object_add, fight_state(combat), dict(spec), prefix="object")
    return _event(combat, user, CombatEvent.Kind.ADJUSTMENT, played, request_key=request_key)


@transaction.atomic
def fight_end(*, combat: Combat, user, request_key: str = "") -> Combat:
    """End the fight: every condition ends with it (unless its origin says otherwise)."""
    combat, replay = _begin(combat, user, request_key, CombatEvent.Kind.END)
    if replay is not None:
        return combat
    part = fight_part(combat)
    played = _rules(part.end, fight_state(combat))
    combat.status = Combat.Status.ENDED
    combat.ended_at = timezone.now()
    _event(combat, user, CombatEvent.Kind.END, played, request_key=request_key)
    return combat


# --- the read -----------------------------------------------------------------------------------


def fight_view(combat: Combat) -> dict[str, Any]:
    """What the page, the API and the MCP show: the ruleset's view of the state (the order with
    each initiative, PV, conditions and when each ends, the objects), with each combatant's id,
    and the log (the events, newest last)."""
    part = fight_part(combat)
    view = part.view(fight_state(combat))
    events = [
        {
            "kind": e.kind,
            "round": e.round,
            "text": e.text,
            "lines": list(e.lines),
            "at": e.created_at.isoformat(),
        }
        for e in combat.events.order_by("created_at", "pk")
    ]
    return {
        "id": str(combat.code),
        "scene": str(combat.scene.code),
        "ruleset": combat.ruleset,
        "status": combat.status,
        "round": combat.round,
        **view,
        "log": events,
    }


def fight_current(scene: Scene) -> Combat | None:
    """The scene's fight of a native ruleset: the one going on, else the last one."""
    return (
        Combat.objects.filter(scene=scene)
        .select_related("scene__week__campaign")
        .order_by("-created_at", "-pk")
        .first()
    )


def characters_by_code(scene: Scene) -> dict:
    """The scene's characters by code (the API names them by id)."""
    return {c.code: c for c in Character.objects.filter(scenes=scene)}
