"""The exploration tracker: a descent run by the dungeon loop of the Mestre's session procedure
(``sessao-do-mestre.txt``, written for another game; its tables are in
``procedure.tables``).

The turn loop of the procedure: 1. the Mestre checks for a random encounter, at the cadence the
danger level sets (Tabela A: Inseguro every 3 turns, Arriscado every 2, Mortal every turn; total
darkness always makes it Mortal); 2. the players act; 3. the monsters move; 4. end of the turn:
timers run down (light, spells), the hour without rest is counted, and if an encounter was rolled
the monsters arrive (1d6: 1–3 the room, 4–6 an adjacent one). Surprise (2:6 for each side; both
surprised → nobody), sleep (Tabela B: Percalços da Dungeon and Tabela C: 3:6 every 4/2/1 hours),
the marching order and the closing tally of the descent are here too. The hexcrawl half (days
of six rounds of travel, weather, activities) is ``sessions.exploration.journey``.

Every die is rolled by the procedure's API (``sessions.procedure.services``): server dice, one chained
``Roll`` of the scene each; the ``ExplorationEvent`` of the action names its rolls. Each action
runs in one transaction under the campaign's lock (the chain's): nothing half-saved. The same
``request_key`` twice is one action. Only the Mestre or the Árbitro run it.

What the procedure says for another game is recorded as it says it (the exhaustion point); its
consequence in the campaign's system is the Mestre's choice (GURPS: e.g. fatigue, canon §6),
recorded with it; the words that name the system are its ruleset's (``ProcedurePart.texts``).
The procedure's numbers and chances are the engine's (``procedure/``). The floor's
danger level is the Mestre's declaration: the canon has no floor → danger mapping.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.utils import timezone

from campaigns.errors import ServiceError
from campaigns.models import Campaign
from procedure import clock as procedure_clock
from procedure import dungeon as procedure_dungeon
from procedure import exhaustion as procedure_exhaustion
from procedure import tables as procedure_tables
from procedure.pendencies import (
    P_DUNGEON_MISHAPS,
    P_DUNGEON_SLEEP,
    P_EXHAUSTION,
    P_EXHAUSTION_EFFECTS,
    P_RECOVERY,
    P_REST_CON,
    P_REST_INTERRUPTED,
    P_SURPRISE,
)
from sessions import entries
from sessions.exploration import activities, native, supplies
from sessions.exploration.journey import (
    SURPRISE_OFFERED,
    JourneyView,
    charge_running_out,
    journey_view,
    tests_write,
)
from sessions.exploration.steps import (
    DARKNESS_LIFTED,
    Pendency,
    action_begin,
    action_event,
    darkness_held,
    dice,
    pendencies,
    pendency_data,
    procedure_part,
    roll_ref,
    timers_tick,
)
from sessions.exploration.steps import (
    EXPLORATION_ENDED as EXPLORATION_ENDED,  # the views and tests read it here
)
from sessions.models import (
    Combatant,
    Exploration,
    ExplorationEvent,
    ExplorationTest,
    ExplorationTimer,
    Roll,
    Scene,
)
from sessions.procedure import services as procedure_services

Danger = Exploration.Danger

CADENCE_UNREADABLE = (
    "A linha «{row}» da {name} não diz de quanto em quanto se testa («a cada N turnos», "
    "«todo turno»): o Árbitro precisa corrigir a linha."
)


def cadence(exploration: Exploration, key: str) -> tuple[int, int]:
    """(N of "N:6", every how many turns or hours) for the exploration's danger level, read
    from the campaign's own copy of the table the Árbitro maintains: "danger_levels" (Tabela
    A, exploration turns) or "dungeon_rest" (Tabela C, hours of sleep)."""
    table = procedure_services.procedure_table(key, exploration.scene.week.campaign)
    label = exploration.effective_danger_label
    row = next((r for r in table.rows.all() if r.label == label), None)
    cell = row.cells[0] if row else ""
    chance, every = procedure_tables.chance_threshold(cell), procedure_tables.chance_every(cell)
    if chance is None or every is None:
        raise ServiceError(CADENCE_UNREADABLE.format(row=label, name=table.name), field="danger")
    return chance, every


MAX_SLEEP_HOURS = 12
MAX_TIMER_TURNS = 10_000
MAX_MARCHING = 20

# Messages are constants so tests import them instead of repeating them.
EXPLORATION_ACTIVE_EXISTS = "Já há uma exploração em andamento nesta cena: encerre-a antes."
DANGER_UNKNOWN = "Nível de perigo é Inseguro, Arriscado ou Mortal (Tabela A)."
TURN_ALREADY_STARTED = "O turno {turn} já começou: encerre-o (Fim do Turno) antes do próximo."
TURN_NOT_STARTED = "Nenhum turno em curso: comece o turno (teste de encontro) primeiro."
FINISH_THE_TURN = "Encerre o turno {turn} (Fim do Turno) antes de dormir ou viajar."
MARCHING_EMPTY = "Diga a ordem de marcha: um nome por linha, de quem vai à frente ao último."
MARCHING_DUPLICATE = "«{name}» aparece duas vezes na ordem de marcha."
MARCHING_TOO_LONG = f"No máximo {MAX_MARCHING} nomes na ordem de marcha."
TIMER_NAME_EMPTY = "Dê um nome ao marcador (ex.: tocha de Jurado, Luz contínua)."
TIMER_TURNS_BAD = (
    f"A duração é em turnos de exploração (10 min), de 1 a {MAX_TIMER_TURNS}: "
    "duração informada pelo Mestre (o cânone não dá nenhuma)."
)
TIMER_KIND_UNKNOWN = "Tipo de marcador desconhecido: fonte de luz, magia ou outro."
SLEEP_HOURS_BAD = f"Horas de sono: de 1 a {MAX_SLEEP_HOURS}."
NO_EXHAUSTION_PENDING = "Nenhum ponto de exaustão espera consequência."
LOOT_KIND_EMPTY = "Diga o tipo (ex.: moedas de prata, poção, corda)."
LOOT_CATEGORY_UNKNOWN = "Achado é tesouro ou item."
LOOT_QUANTITY_BAD = "Quantidade de 1 a 100000."

EXHAUSTION_PENDENCY = P_EXHAUSTION
SURPRISE_PENDENCY = P_SURPRISE
LOOT_CATEGORIES = {"treasure": "Tesouro", "item": "Item"}


# --- helpers ------------------------------------------------------------------------------------


def exploration_current(scene: Scene) -> Exploration | None:
    """The scene's descent: the one going on, else the last one."""
    return Exploration.objects.filter(scene=scene).select_related("scene__week__campaign").first()


def _danger(value: str) -> str:
    try:
        return Danger(value).value
    except ValueError:
        raise ServiceError(DANGER_UNKNOWN, field="danger") from None


def _clean_marching(names) -> list[str]:
    cleaned = [" ".join(str(n).split())[:100] for n in names or () if str(n).strip()]
    if not cleaned:
        raise ServiceError(MARCHING_EMPTY, field="marching_order")
    if len(cleaned) > MAX_MARCHING:
        raise ServiceError(MARCHING_TOO_LONG, field="marching_order")
    seen = set()
    for name in cleaned:
        if name.casefold() in seen:
            raise ServiceError(MARCHING_DUPLICATE.format(name=name), field="marching_order")
        seen.add(name.casefold())
    return cleaned


def marching_text(order: list[str]) -> str:
    """The marching order as a line: who goes in front meets the trap and the encounter
    ahead; the last one, what comes from behind."""
    if not order:
        return "Ordem de marcha: não declarada."
    listed = " → ".join(order)
    if len(order) == 1:
        return f"Ordem de marcha: {listed}."
    return f"Ordem de marcha: {listed} (à frente: {order[0]}; na retaguarda: {order[-1]})."


def _chance(exploration, user, key: str, row_label: str, source) -> tuple[Roll, bool]:
    return procedure_services.procedure_chance(
        scene=exploration.scene, user=user, key=key, row_label=row_label, source=source
    )


# --- starting, declaring ------------------------------------------------------------------------


@transaction.atomic
def exploration_start(
    *,
    scene: Scene,
    user,
    danger: str,
    total_darkness: bool = False,
    region: str = "",
    marching_order: list[str] | None = None,
    request_key: str = "",
) -> Exploration:
    """Start a descent in ``scene``. The danger level is the Mestre's declaration for the floor
    (the canon has none; "" for a journey, which needs none until the dungeon's first turn or
    sleep); total darkness makes it Mortal. The marching order defaults to the
    scene's characters. The same ``request_key`` twice starts one."""
    request_key = (request_key or "")[:64]
    campaign = scene.week.campaign
    entries.require_table(user, campaign, what=entries.RUNS_EXPLORATION)
    if request_key:
        existing = Exploration.objects.filter(scene=scene, request_key=request_key).first()
        if existing is not None:
            return existing
    entries.ensure_scene_accepts_entries(scene)
    Campaign.objects.select_for_update().get(pk=campaign.pk)
    danger = _danger(danger) if danger else ""
    if marching_order is None:
        marching_order = [c.name for c in scene.characters.all()]
    order = _clean_marching(marching_order) if marching_order else []
    if Exploration.objects.filter(scene=scene, status=Exploration.Status.ACTIVE).exists():
        raise ServiceError(EXPLORATION_ACTIVE_EXISTS, code="exploration_active")
    try:
        with transaction.atomic():
            exploration = Exploration.objects.create(
                scene=scene,
                danger=danger,
                total_darkness=bool(total_darkness),
                region=(region or "").strip()[:200],
                marching_order=order,
                started_by=user,
                request_key=request_key,
            )
    except IntegrityError:
        raise ServiceError(EXPLORATION_ACTIVE_EXISTS, code="exploration_active") from None
    floor = f"andar {scene.floor}" if scene.floor is not None else "andar não declarado"
    declared = (
        f"Nível de perigo declarado pelo Mestre: {Danger(danger).label}"
        if danger
        else "Sem nível de perigo (a jornada não precisa; a masmorra pede um antes do 1º turno)"
    )
    lines = [
        declared + (" — total escuridão: Mortal." if total_darkness else "."),
        marching_text(order),
    ]
    action_event(
        exploration, user, ExplorationEvent.Kind.START, f"Começa a descida ({floor}).", lines=lines
    )
    return exploration


@transaction.atomic
def exploration_declare(
    *,
    exploration: Exploration,
    user,
    danger: str,
    total_darkness: bool,
    region: str | None = None,
    request_key: str = "",
) -> Exploration:
    """The Mestre declares the danger level (and whether the party is in total darkness, which
    makes it Mortal), e.g. when the last torch goes out or the party goes down a floor."""
    exploration, earlier = action_begin(
        exploration, user, request_key, ExplorationEvent.Kind.DANGER
    )
    if earlier is not None:
        return exploration
    exploration.danger = _danger(danger)
    exploration.total_darkness = bool(total_darkness)
    exploration.dark_from_lights = False  # the Mestre's declaration is his
    if region is not None:
        exploration.region = region.strip()[:200]
    text = f"Nível de perigo: {exploration.effective_danger_label}"
    if exploration.total_darkness:
        text += f" (total escuridão; declarado {Danger(exploration.danger).label})"
    action_event(
        exploration,
        user,
        ExplorationEvent.Kind.DANGER,
        text + ".",
        data={"danger": exploration.danger, "total_darkness": exploration.total_darkness},
        request_key=request_key,
    )
    return exploration


@transaction.atomic
def exploration_marching_order(
    *, exploration: Exploration, user, names: list[str], request_key: str = ""
) -> Exploration:
    """The party's marching order, from who goes in front to the last (the players decide it;
    it matters for traps and encounters)."""
    exploration, earlier = action_begin(
        exploration, user, request_key, ExplorationEvent.Kind.MARCHING
    )
    if earlier is not None:
        return exploration
    exploration.marching_order = _clean_marching(names)
    action_event(
        exploration,
        user,
        ExplorationEvent.Kind.MARCHING,
        marching_text(exploration.marching_order),
        data={"marching_order": exploration.marching_order},
        request_key=request_key,
    )
    return exploration


@transaction.atomic
def exploration_timer_add(
    *,
    exploration: Exploration,
    user,
    name: str,
    turns: int,
    kind: str = ExplorationTimer.Kind.LIGHT,
    request_key: str = "",
) -> ExplorationTimer:
    """A light source or a spell that runs down with the turns; its length in turns is the
    Mestre's (the canon gives none)."""
    exploration, earlier = action_begin(exploration, user, request_key, ExplorationEvent.Kind.TIMER)
    if earlier is not None:
        return ExplorationTimer.objects.get(code=earlier.data["timer"])
    name = " ".join((name or "").split())[:100]
    if not name:
        raise ServiceError(TIMER_NAME_EMPTY, field="name")
    if kind not in ExplorationTimer.Kind.values:
        raise ServiceError(TIMER_KIND_UNKNOWN, field="kind")
    if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= MAX_TIMER_TURNS:
        raise ServiceError(TIMER_TURNS_BAD, field="turns")
    lifted = kind == ExplorationTimer.Kind.LIGHT and exploration.dark_from_lights
    if lifted:
        exploration.total_darkness = exploration.dark_from_lights = False
    timer = ExplorationTimer.objects.create(
        exploration=exploration,
        name=name,
        kind=kind,
        duration_turns=turns,
        remaining_turns=turns,
        started_turn=exploration.turn,
    )
    action_event(
        exploration,
        user,
        ExplorationEvent.Kind.TIMER,
        f"{timer.get_kind_display()}: {name}, {turns} turno(s) (duração informada pelo Mestre).",
        lines=[DARKNESS_LIFTED] if lifted else [],
        data={"timer": str(timer.code), "turns": turns},
        request_key=request_key,
    )
    return timer


# --- the turn loop ------------------------------------------------------------------------------


def _exhaust_each(exploration: Exploration) -> list[str]:
    """The hour's point for each character of the marching order: one count per character,
    the journey's and the dungeon's alike (``party``). In a Xuleta campaign with the house
    setting on the Xuleta's exhaustion, a level written to each one's state."""
    if native.exhaustion_native(exploration.scene.week.campaign):
        why = "uma hora de exploração sem descanso"
        cache: dict = {}
        return [native.exhaust(exploration, n, 1, why, cache) for n in exploration.party_names]
    lines = []
    for name in exploration.party_names:
        member = exploration.party.setdefault(name, procedure_exhaustion.fresh_member())
        lines.append(f"{name}: exaustão {procedure_exhaustion.gain(member)}.")
    return lines


def check_due(exploration: Exploration, every: int | None = None) -> bool:
    """Whether the turn about to start checks for an encounter (Tabela A's cadence, counted
    from the last check; a change of level counts from there too)."""
    if every is None:
        _, every = cadence(exploration, "danger_levels")
    return procedure_dungeon.check_due(exploration.turns_since_check, every)


@transaction.atomic
def exploration_turn_start(
    *, exploration: Exploration, user, request_key: str = ""
) -> ExplorationEvent:
    """1. Random encounters: a new exploration turn (10 minutes); on the cadence of the level
    (Tabela A) the Mestre's 1:6 check, rolled by the server. An encounter rolled happens at the
    end of the turn."""
    kind = ExplorationEvent.Kind.TURN_START
    exploration, earlier = action_begin(exploration, user, request_key, kind)
    if earlier is not None:
        return earlier
    if exploration.phase == Exploration.Phase.IN_TURN:
        raise ServiceError(TURN_ALREADY_STARTED.format(turn=exploration.turn), code="turn_started")
    _require_dungeon(exploration)
    level = exploration.effective_danger_label
    chance, every = cadence(exploration, "danger_levels")
    due = check_due(exploration)
    exploration.turn += 1
    exploration.phase = Exploration.Phase.IN_TURN
    lines, rolls, data = [], [], {"check": due, "danger": exploration.effective_danger}
    if due:
        roll, happened = _chance(exploration, user, "danger_levels", level, dice())
        rolls.append(roll)
        exploration.turns_since_check = 0
        data["encounter"] = happened
        if happened:
            exploration.encounter_pending = True
            lines.append(
                f"Teste de encontro ({level}, {chance}:6) {roll_ref(roll)}: ENCONTRO — os monstros "
                "surgem no Fim do Turno."
            )
            lines.append(marching_text(exploration.marching_order))
        else:
            lines.append(f"Teste de encontro ({level}, {chance}:6) {roll_ref(roll)}: nada.")
    else:
        exploration.turns_since_check += 1
        lines.append(f"Sem teste de encontro neste turno ({level}: a cada {every} turnos).")
    if procedure_dungeon.rest_due(exploration.turns_since_rest):
        lines.append(
            "Uma hora de exploração sem descanso: este turno é de descanso, ou 1 ponto de exaustão."
        )
    return action_event(
        exploration,
        user,
        kind,
        f"Turno {exploration.turn} começa.",
        lines=lines,
        data=data,
        rolls=rolls,
        request_key=request_key,
    )


@transaction.atomic
def exploration_turn_end(
    *, exploration: Exploration, user, rested: bool = False, note: str = "", request_key: str = ""
) -> ExplorationEvent:
    """4. End of the turn: the timers run down a turn and say when they go out; the hour
    without rest is counted (a rest turn resets it; a seventh turn without one costs the
    procedure's exhaustion point); if an encounter was rolled, the monsters arrive (1d6: 1–3
    the room, 4–6 an adjacent one)."""
    kind = ExplorationEvent.Kind.TURN_END
    exploration, earlier = action_begin(exploration, user, request_key, kind)
    if earlier is not None:
        return earlier
    if exploration.phase != Exploration.Phase.IN_TURN:
        raise ServiceError(TURN_NOT_STARTED, code="turn_not_started")
    note = (note or "").strip()[:1000]
    lines = [f"O grupo: {note}"] if note else []
    data: dict = {"rested": bool(rested)}
    rolls = []
    held: list[str] = []
    ticked = timers_tick(exploration, 1)
    lines += ticked
    held += darkness_held(ticked)
    hour = procedure_dungeon.turn_ended(exploration.turns_since_rest, bool(rested))
    exploration.turns_since_rest = hour.turns_since_rest
    if rested:
        lines.append("Turno de descanso: a conta da hora recomeça.")
    elif hour.exhausted:
        if not native.exhaustion_native(exploration.scene.week.campaign):
            exploration.exhaustion_points += 1
        data["exhaustion"] = True
        held.append(EXHAUSTION_PENDENCY)
        lines.append(procedure_part(exploration.scene.week.campaign).texts.exhaustion)
        lines += _exhaust_each(exploration)
    elif hour.rest_next:
        lines.append("Uma hora de exploração: o próximo turno é de descanso.")
    if exploration.encounter_pending:
        roll = procedure_services.procedure_roll(
            scene=exploration.scene, user=user, key="monster_arrival", source=dice()
        )
        rolls.append(roll)
        where = procedure_dungeon.arrival(roll.total)
        data["arrival"] = where
        exploration.encounter_pending = False
        place = (
            "na sala onde o grupo está"
            if where == procedure_dungeon.ARRIVAL_ROOM
            else "numa sala adjacente"
        )
        lines.append(f"Os monstros chegam {place} {roll_ref(roll)}.")
        lines.append(marching_text(exploration.marching_order))
    exploration.phase = Exploration.Phase.BETWEEN
    if held:
        data["pendencies"] = pendency_data(exploration.scene.week.campaign, held)
    return action_event(
        exploration,
        user,
        kind,
        f"Fim do turno {exploration.turn}" + (" (descanso)." if rested else "."),
        lines=lines,
        data=data,
        rolls=rolls,
        request_key=request_key,
    )


SURPRISE_TEXTS = {
    "nobody": "Os dois lados surpresos: ninguém tem turno de surpresa.",
    "party": "O grupo está surpreso.",
    "monsters": "Os monstros estão surpresos.",
    "none": "Ninguém está surpreso.",
}


@transaction.atomic
def exploration_surprise(
    *, exploration: Exploration, user, request_key: str = ""
) -> ExplorationEvent:
    """Each side rolls 1d6 (2:6 surprised); both surprised, nobody has a surprise turn. How a
    surprised side plays in the campaign's system (GURPS: partial or total, §5e) is the Mestre's
    call."""
    kind = ExplorationEvent.Kind.SURPRISE
    exploration, earlier = action_begin(exploration, user, request_key, kind)
    if earlier is not None:
        return earlier
    source = dice()
    party_roll, party = _chance(exploration, user, "surprise", "Cada lado", source)
    monsters_roll, monsters = _chance(exploration, user, "surprise", "Cada lado", source)
    result = procedure_dungeon.surprise(party, monsters)
    text = SURPRISE_TEXTS[result]
    lines = [
        f"Grupo {roll_ref(party_roll)}: {'surpreso' if party else 'atento'}.",
        f"Monstros {roll_ref(monsters_roll)}: {'surpresos' if monsters else 'atentos'}.",
        marching_text(exploration.marching_order),
    ]
    data = {"party": party, "monsters": monsters, "result": result}
    if result in ("party", "monsters"):
        lines.append(procedure_part(exploration.scene.week.campaign).texts.surprise)
        data["pendencies"] = pendency_data(exploration.scene.week.campaign, [SURPRISE_PENDENCY])
    return action_event(
        exploration,
        user,
        kind,
        text,
        lines=lines,
        data=data,
        rolls=[party_roll, monsters_roll],
        request_key=request_key,
    )


NO_DANGER_FOR_THE_DUNGEON = (
    "Declare o nível de perigo (Tabela A) antes: os turnos e o sono da masmorra dependem dele; "
    "a jornada não precisa."
)


def _require_dungeon(exploration: Exploration) -> None:
    if not exploration.in_dungeon:
        raise ServiceError(NO_DANGER_FOR_THE_DUNGEON, field="danger", code="no_danger")


def _sleep_encounters(exploration, user, r: activities.Round, hours: int) -> list[bool]:
    level = exploration.effective_danger_label
    chance, every = cadence(exploration, "dungeon_rest")
    encounters = []
    for at in procedure_dungeon.sleep_checks(hours, every):
        roll, happened = r.chance("dungeon_rest", level)
        encounters.append(happened)
        r.say(
            f"{at}ª hora ({level}, {chance}:6) {roll_ref(roll)}: {'ENCONTRO' if happened else 'nada'}."
        )
    if not encounters:
        r.say(f"Sono curto demais para o teste de encontro ({level}: a cada {every} h).")
    return encounters


def _sleep_rest(r: activities.Round, mishap_row: str, interruptions: int, hours: int) -> None:
    """«Siga o procedimento de Descansar do Hexcrawl»: food and water, the tests the mishap row
    and each interruption ask, the recovery when nothing stands in its way."""
    names = r.exploration.party_names
    if not names:
        r.say("Sem ordem de marcha: o Descansar de cada um não se conta.")
        return
    if not procedure_dungeon.sleep_is_rest(hours):
        r.say(
            f"Sono de {hours} h: não é o Descansar («Dormir por 8 horas»); não há consumo nem "
            "recuperação."
        )
        r.hold(P_DUNGEON_SLEEP)
        return
    activities.consume(r, names)
    for name in names:
        r.member(name)["rested_today"] = True
    asked = False
    if mishap_row in procedure_dungeon.MISHAP_TEST_ROWS:
        asks = procedure_dungeon.MISHAP_ASKS
        r.say(f"Percalço {mishap_row}: «{asks}» — de outro jogo, para cada um.")
        r.ask_rest(names, ExplorationTest.Kind.DUNGEON_REST, asks, P_DUNGEON_MISHAPS)
        r.hold(P_DUNGEON_MISHAPS)
        asked = True
    for n in range(1, interruptions + 1):
        r.say(
            f"Interrupção {n} do sono: «Cada interrupção do descanso necessita um teste de CON "
            "DC 12 ou o personagem não recebe os benefícios.»"
        )
        r.ask_rest(names, ExplorationTest.Kind.REST, activities.REST_ASKS, P_REST_CON)
        r.hold(P_REST_CON, P_REST_INTERRUPTED)
        asked = True
    if r.native:
        activities.rest_native(r, names, hours_slept=hours)
        return
    if asked:
        r.say("A recuperação (1 de exaustão) de cada um espera os seus testes.")
        return
    recovered = "; ".join(activities.recover(r, name) for name in names)
    r.say(f"Descansar — 4. Recupera 1 de exaustão: {recovered}.")
    r.hold(P_RECOVERY)


@transaction.atomic
def exploration_sleep(
    *, exploration: Exploration, user, hours: int = 8, request_key: str = ""
) -> ExplorationEvent:
    """Sleeping in the dungeon: Tabela B (Percalços da Dungeon, 1d10), then the encounter
    chance of Tabela C (3:6) every 4/2/1 hours by the level; then, for a sleep of 8 hours or
    more, the Descansar of the journey (pendência procedure:dungeon-sleep-rest): each member's
    food and water, the «Teste de CON DC 12» of rows 6, 7 and 9 and of each interruption (an
    encounter of Tabela C, row 8) asked of each, and the recovery of 1 exhaustion when none
    is asked. The timers run down the hours."""
    kind = ExplorationEvent.Kind.SLEEP
    exploration, earlier = action_begin(exploration, user, request_key, kind)
    if earlier is not None:
        return earlier
    if exploration.phase == Exploration.Phase.IN_TURN:
        raise ServiceError(FINISH_THE_TURN.format(turn=exploration.turn), code="turn_started")
    _require_dungeon(exploration)
    if isinstance(hours, bool) or not isinstance(hours, int) or not 1 <= hours <= MAX_SLEEP_HOURS:
        raise ServiceError(SLEEP_HOURS_BAD, field="hours")
    cadence(exploration, "dungeon_rest")  # an unreadable row refuses before the first die
    r = activities.Round(
        exploration=exploration, user=user, source=dice(), books=supplies.ledger(exploration)
    )
    mishap = r.roll("dungeon_mishaps")
    row = mishap.details.get("row", "")
    r.say(f"Percalço {roll_ref(mishap)}: {mishap.details.get('text', '')}".rstrip(": "))
    r.mentions(mishap.details.get("text", ""))
    encounters = _sleep_encounters(exploration, user, r, hours)
    interruptions = sum(encounters) + (1 if row == procedure_dungeon.MISHAP_ENCOUNTER_ROW else 0)
    if interruptions:
        r.say(marching_text(exploration.marching_order))
        r.say(SURPRISE_OFFERED)
    _sleep_rest(r, row, interruptions, hours)
    charge_running_out(r)
    ticked = timers_tick(exploration, hours * procedure_clock.TURNS_PER_HOUR)
    r.lines += ticked
    r.hold(*darkness_held(ticked))
    exploration.hours_slept += hours
    exploration.turns_since_rest = 0
    event = action_event(
        exploration,
        user,
        kind,
        f"O grupo dorme {hours} h.",
        lines=r.lines,
        data={
            "hours": hours,
            "encounters": encounters,
            "mishap_row": row,
            "interruptions": interruptions,
            "pendencies": pendency_data(exploration.scene.week.campaign, r.held),
        },
        rolls=r.rolls,
        request_key=request_key,
    )
    tests_write(r, event)
    r.books.write(exploration, event, user)
    return event


@transaction.atomic
def exploration_consequence(
    *, exploration: Exploration, user, text: str, request_key: str = ""
) -> ExplorationEvent:
    """The consequence in the campaign's system (GURPS: e.g. fatigue) the Mestre chooses for a
    point of the procedure's exhaustion."""
    kind = ExplorationEvent.Kind.CONSEQUENCE
    exploration, earlier = action_begin(exploration, user, request_key, kind)
    if earlier is not None:
        return earlier
    text = (text or "").strip()[:1000]
    texts = procedure_part(exploration.scene.week.campaign).texts
    if not text:
        raise ServiceError(texts.consequence_empty, field="text")
    if exploration.exhaustion_undecided <= 0:
        raise ServiceError(NO_EXHAUSTION_PENDING, field="text")
    exploration.consequences_decided += 1
    return action_event(
        exploration,
        user,
        kind,
        texts.consequence.format(text=text),
        data={"text": text},
        request_key=request_key,
    )


@transaction.atomic
def exploration_loot(
    *,
    exploration: Exploration,
    user,
    category: str,
    kind: str,
    quantity: int,
    request_key: str = "",
) -> ExplorationEvent:
    """Treasure or an item found, for the closing tally."""
    event_kind = ExplorationEvent.Kind.LOOT
    exploration, earlier = action_begin(exploration, user, request_key, event_kind)
    if earlier is not None:
        return earlier
    if category not in LOOT_CATEGORIES:
        raise ServiceError(LOOT_CATEGORY_UNKNOWN, field="category")
    kind = " ".join((kind or "").split())[:100]
    if not kind:
        raise ServiceError(LOOT_KIND_EMPTY, field="kind")
    if isinstance(quantity, bool) or not isinstance(quantity, int) or not 1 <= quantity <= 100_000:
        raise ServiceError(LOOT_QUANTITY_BAD, field="quantity")
    return action_event(
        exploration,
        user,
        event_kind,
        f"{LOOT_CATEGORIES[category]}: {quantity} × {kind}.",
        data={"category": category, "kind": kind, "quantity": quantity},
        request_key=request_key,
    )


@transaction.atomic
def exploration_end(*, exploration: Exploration, user, request_key: str = "") -> Exploration:
    """End the descent; its tally, as it stands, goes into the last event."""
    kind = ExplorationEvent.Kind.END
    exploration, earlier = action_begin(exploration, user, request_key, kind)
    if earlier is not None:
        return exploration
    exploration.status = Exploration.Status.ENDED
    exploration.phase = Exploration.Phase.BETWEEN
    exploration.ended_at = timezone.now()
    tally = exploration_tally(exploration)
    action_event(
        exploration,
        user,
        kind,
        "Fim da descida.",
        lines=tally.lines(),
        data={"tally": tally.data()},
        request_key=request_key,
    )
    return exploration


# --- the closing tally --------------------------------------------------------------------------

_DIE = re.compile(r"d(\d+)")
_TRAILING_MARK = re.compile(r"\s+(?:[A-Z]|\d+)$")


def _faces(value) -> list[int]:
    if isinstance(value, list):
        return [face for item in value for face in _faces(item)]
    return [value] if isinstance(value, int) else []


def _die_of(roll: Roll) -> str:
    found = _DIE.search(str((roll.details or {}).get("die", "")))
    return f"d{found.group(1)}" if found else "d6"  # GURPS rolls d6 only (§1.1)


@dataclass
class Tally:
    """The form at the end of the procedure: region, creatures defeated, treasure, items,
    dice used."""

    region: str
    creatures: list[tuple[str, int]] = field(default_factory=list)
    treasure: list[tuple[str, int]] = field(default_factory=list)
    items: list[tuple[str, int]] = field(default_factory=list)
    dice: list[tuple[str, int]] = field(default_factory=list)
    spoils: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        def joined(pairs):
            return "; ".join(f"{name}: {count}" for name, count in pairs) or "nenhum"

        return [
            f"Região: {self.region or 'não declarada'}",
            f"Criaturas derrotadas: {joined(self.creatures)}",
            f"Tesouro: {joined(self.treasure)}",
            f"Itens: {joined(self.items)}",
            f"Dados usados: {joined(self.dice)}",
        ] + [f"Espólio de carcaça: {s}" for s in self.spoils]

    def data(self) -> dict:
        return {
            "region": self.region,
            "creatures": [{"kind": k, "count": n} for k, n in self.creatures],
            "treasure": [{"kind": k, "quantity": n} for k, n in self.treasure],
            "items": [{"kind": k, "quantity": n} for k, n in self.items],
            "dice": [{"die": k, "count": n} for k, n in self.dice],
            "spoils": self.spoils,
        }


def exploration_tally(exploration: Exploration) -> Tally:
    """The descent's tally, filled from the log: the dice of the descent's own rolls, the ones
    its events name — not every roll of the scene while it was open (3 queries: rolls,
    defeated combatants, loot events); the creatures the
    combats of that time left dead, fled or unconscious (grouped by name without a trailing
    letter or number: «Cavador A» and «Cavador B» are two cavadores); the treasure and items the
    Mestre entered; the carcass spoils noted at the end of each fight."""
    since = exploration.created_at
    rolls = Roll.objects.filter(exploration_events__exploration=exploration).distinct()
    counted: Counter = Counter()
    for roll in rolls.only("dice", "details"):
        counted[_die_of(roll)] += len(_faces(roll.dice))
    combatants = (
        Combatant.objects.filter(
            combat__scene=exploration.scene,
            combat__created_at__gte=since,
            status__in=(Combatant.Status.DEAD, Combatant.Status.FLED, Combatant.Status.UNCONSCIOUS),
        )
        .exclude(kind=Combatant.Kind.PLAYER_CHARACTER)
        .select_related("combat")
    )
    creatures: Counter = Counter()
    spoils = []
    for c in combatants.order_by("combat__created_at", "declared"):
        creatures[_TRAILING_MARK.sub("", c.name)] += 1
        if c.combat.spoils and c.combat.spoils not in spoils:
            spoils.append(c.combat.spoils)
    treasure: Counter = Counter()
    items: Counter = Counter()
    for event in exploration.events.filter(kind=ExplorationEvent.Kind.LOOT).order_by("pk"):
        target = treasure if event.data["category"] == "treasure" else items
        target[event.data["kind"]] += event.data["quantity"]
    return Tally(
        region=exploration.region,
        creatures=list(creatures.items()),
        treasure=list(treasure.items()),
        items=list(items.items()),
        dice=sorted(counted.items(), key=lambda pair: int(pair[0][1:])),
        spoils=spoils,
    )


# --- what the page and the API show -------------------------------------------------------------


@dataclass(frozen=True)
class ExhaustionLevel:
    """A character's exhaustion (one count, the journey's and the dungeon's) and Tabela I's
    effect for that level, as the campaign's table writes it ("" at 0; past the last row the
    text says nothing)."""

    name: str
    level: int
    effect: str


EXHAUSTION_PAST_TABLE = "além da Tabela I: o texto não diz"


def exhaustion_levels(exploration: Exploration) -> list[ExhaustionLevel]:
    """Each character of the marching order with his level and Tabela I's row (2 queries, none
    while every level is 0)."""
    levels = {
        name: exploration.party.get(name, procedure_exhaustion.fresh_member())["exhaustion"]
        for name in exploration.party_names
    }
    if native.exhaustion_native(exploration.scene.week.campaign):
        # A Xuleta level lives on the sheet's state (one truth): the journey shows it.
        for name in levels:
            sheet = native.sheet_of(exploration, name)
            if sheet is not None:
                levels[name] = int(sheet.state.get("exhaustion", 0))
    rows = []
    xuleta_levels = None
    if any(levels.values()):
        campaign = exploration.scene.week.campaign
        if native.exhaustion_native(campaign):
            # The ruleset's own levels (Xuleta §1.16), cumulative, as the log writes them.
            xuleta_levels = native.part(campaign).exhaustion_levels
        else:
            rows = list(procedure_services.procedure_table("exhaustion", campaign).rows.all())
    found = []
    for name, level in levels.items():
        if xuleta_levels is not None:
            effect = "; ".join(xuleta_levels[n] for n in range(1, level + 1) if n in xuleta_levels)
        else:
            row = next((r for r in rows if r.covers(level)), None)
            effect = row.cells[0] if row else (EXHAUSTION_PAST_TABLE if level else "")
        found.append(ExhaustionLevel(name=name, level=level, effect=effect))
    return found


@dataclass
class ExplorationView:
    exploration: Exploration
    timers: list[ExplorationTimer]
    events: list[ExplorationEvent]
    tally: Tally
    check_every: int
    check_due: bool
    rest_due: bool
    journey: JourneyView | None = None
    exhaustion: list[ExhaustionLevel] = field(default_factory=list)
    exhaustion_reading: Pendency | None = None
    dungeon_tests: list = field(default_factory=list)  # (test, pendência), without a journey
    # The campaign's ruleset plays the procedure itself (``native.is_native``): the page
    # speaks its words, never GURPS's; ``exhaustion_native``: its exhaustion levels count.
    native: bool = False
    exhaustion_native: bool = False

    @property
    def exhaustion_any(self) -> bool:
        return any(x.level for x in self.exhaustion)

    @property
    def open_tests(self) -> list:
        """The tests the text asks and the Mestre has not resolved, with their pendência."""
        return self.journey.open_tests if self.journey else self.dungeon_tests

    @property
    def elapsed(self) -> str:
        e = self.exploration
        played = e.turn - (1 if e.phase == Exploration.Phase.IN_TURN else 0)
        minutes = procedure_clock.elapsed_minutes(played, e.travel_rounds, e.hours_slept)
        return procedure_clock.elapsed_text(minutes)

    @property
    def turns_to_rest(self) -> int:
        return procedure_dungeon.turns_to_rest(self.exploration.turns_since_rest)


def exploration_view(exploration: Exploration) -> ExplorationView:
    every = cadence(exploration, "danger_levels")[1] if exploration.in_dungeon else 0
    timers = list(exploration.timers.all())
    events = list(
        exploration.events.select_related("author").prefetch_related("rolls").order_by("-pk")
    )
    levels = exhaustion_levels(exploration)
    campaign = exploration.scene.week.campaign
    is_native = native.is_native(campaign)
    key = P_EXHAUSTION_EFFECTS
    # The pendência reads Tabela I in GURPS: a native campaign has no GURPS reading to show.
    reading = (
        pendencies(campaign, [key])[key]
        if any(x.level for x in levels) and not is_native
        else Pendency(key=key)
    )
    journey = journey_view(exploration, events=events)
    dungeon_tests = []
    if journey is None:  # a sleep's tests (Tabela B 6, 7, 9; an interruption), without a journey
        waiting = list(exploration.tests.filter(roll__isnull=True).order_by("created_at", "pk"))
        held = pendencies(exploration.scene.week.campaign, [t.pendency for t in waiting])
        dungeon_tests = [(t, held[t.pendency]) for t in waiting]
    return ExplorationView(
        exploration=exploration,
        timers=timers,
        events=events,
        tally=exploration_tally(exploration),
        check_every=every,
        check_due=check_due(exploration, every) if every else False,
        rest_due=procedure_dungeon.rest_due(exploration.turns_since_rest),
        journey=journey,
        exhaustion=levels,
        exhaustion_reading=reading,
        dungeon_tests=dungeon_tests,
        native=is_native,
        exhaustion_native=is_native and native.exhaustion_native(campaign),
    )
