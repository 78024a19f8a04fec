"""The journey: the hexcrawl half of the Mestre's session procedure (``sessao-do-mestre.txt``)
in the exploration tracker.

«No início da sessão, role o clima inicial, dependendo da estação do ano» — the journey starts
with its season and rolls the weather on the season's table. Then each round of travel (4 h;
«1 dia tem 6 rodadas de viagem») runs, in the text's order: 1. the weather's 1d6 («1 – Diminua em
1 o clima, 2 – Aumente em 1 o clima»; faces 3–6 say nothing and the weather stays, as the
pendência holds); 2. the random encounter's 1d6, by «a região em que os personagens iniciam o
dia» (fixed on the day's first round); 3. the activity chosen for the party, or per character
(«um jogador pode escolher»), its steps in ``sessions.exploration.activities``. It counts the
consecutive Avançar rounds (beyond 2, Tabela B's test), the day's rest («Cada dia sem realizar
essa ação acarreta em 1 ponto de exaustão», counted at the end of the day's 6th round) and the
rounds of rest owed after a failed forced march.

The text's tests are of another game (CON, DES, DC): the tracker writes what the text asks and
the pendência that holds it; the Mestre rolls the test of the campaign's system its reading
(``rulesets.base.ProcedurePart``; or the Árbitro's
resolution) names, in the scene, and names that roll with ``exploration_journey_test``; the
tracker reads its outcome and applies what the text says follows.

For the Mestre's tools: ``exploration_journey_start(exploration=, user=, season=, region=)``
and ``exploration_travel(exploration=, user=, activity=, region=, mode=, per_character=)``,
plain keyword arguments with the keys of ``procedure.journey`` (SEASONS, REGIONS,
ACTIVITIES, MODES); ``exploration_journey_test(exploration=, user=, test=, roll=)``.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from fractions import Fraction

from django.db import transaction

from campaigns.errors import ServiceError
from procedure import asks as procedure_asks
from procedure import clock as procedure_clock
from procedure import exhaustion as procedure_exhaustion
from procedure import journey as procedure_journey
from procedure.errors import UnknownChoice
from procedure.journey import hexes_text
from procedure.pendencies import (
    P_FORCED_MARCH,
    P_FORCED_MARCH_COUNT,
    P_PER_PLAYER,
    P_UNDEFINED,
    P_WEATHER_EDGES,
    P_WEATHER_SILENT,
)
from procedure.rolling import signed as signed_text
from sessions.exploration import activities, native, supplies
from sessions.exploration.activities import Round
from sessions.exploration.steps import (
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
from sessions.models import Exploration, ExplorationEvent, ExplorationTest, RandomTable, Roll
from sessions.procedure import services as procedure_services

# Messages are constants so tests import them instead of repeating them.
SEASON_UNKNOWN = "Estação do ano: " + procedure_journey.labels(procedure_journey.SEASONS) + "."
JOURNEY_ALREADY = "A jornada já começou ({season}): o clima segue mudando a cada rodada."
JOURNEY_NOT_STARTED = (
    "Comece a jornada: diga a estação do ano (o clima inicial se rola no começo, «dependendo "
    "da estação do ano»)."
)
PARTY_EMPTY = (
    "A jornada segue cada personagem (descanso do dia, exaustão): declare a ordem de marcha antes."
)
FINISH_THE_TURN = "Encerre o turno {turn} (Fim do Turno) antes de viajar."
REGION_REQUIRED = (
    "Diga a região do hex em que o grupo está ("
    + procedure_journey.labels(procedure_journey.REGIONS)
    + "): a chance de encontro do dia e as Tabelas C, D, E e G dependem dela."
)
REGION_UNKNOWN = "Região desconhecida: " + procedure_journey.labels(procedure_journey.REGIONS) + "."
ACTIVITY_UNKNOWN = (
    "Atividade da rodada: " + procedure_journey.labels(procedure_journey.ACTIVITIES) + "."
)
MODE_REQUIRED = (
    "Diga como o grupo avança (Tabela A: "
    + procedure_journey.labels(procedure_journey.MODES)
    + ")."
)
MODE_UNKNOWN = "Modo de avançar: " + procedure_journey.labels(procedure_journey.MODES) + "."
NOT_IN_PARTY = "«{name}» não está na ordem de marcha da jornada."
PER_CHARACTER_BAD = "Atividade por personagem: um nome da ordem de marcha e uma atividade cada."
ADVANCE_TOGETHER = (
    "Avançar é do grupo inteiro (o site segue o grupo num hex): não se mistura com outra "
    "atividade na mesma rodada."
)
TEST_UNKNOWN = "Este teste não existe nesta jornada."
TEST_DONE = "O teste de {who} já foi registrado (rolagem #{roll})."
ROLL_BAD = "Dê o número da rolagem (no registro da cena, #N)."
ROLL_UNKNOWN = "A rolagem #{roll} não é desta cena."
ROLL_HIDDEN = (
    "A rolagem #{roll} é escondida: o registro da jornada diria o resultado antes da homologação."
)
ROLL_OTHER_CHARACTER = "A rolagem #{roll} é de {other}, não de {who}."
ROLL_TOO_EARLY = "A rolagem #{roll} foi feita antes de o texto pedir este teste."
ROLL_USED = "A rolagem #{roll} já resolveu outro teste."
ROLL_WITHOUT_MODIFIER = (
    "O texto pede {asks}: a rolagem #{roll} não traz o modificador {modifier} anunciado. "
    "Anuncie-o e role de novo (pendência: a leitura liga a DC a esse modificador)."
)
NO_REGIONAL_TABLE = (
    "{region} não tem Tabela de Encontros: o texto não a traz e o Árbitro ainda não a criou "
    "(Tabelas do procedimento). O encontro é do Mestre, dito na cena."
)
REGIONAL_TABLE_INCOMPLETE = (
    "A {name} ainda não cobre todas as faces do {die}: não se rola nela até o Árbitro "
    "completá-la. O encontro é do Mestre, dito na cena."
)
SURPRISE_OFFERED = (
    "«Quando aplicável, cada lado rola 1d6 para conferir se está surpreso»: a surpresa (2:6 "
    "cada lado) está na jornada."
)
# Tests that do not hold the next round: Criar's munição waits for its roll, the journey goes on.
NON_BLOCKING_TESTS = (ExplorationTest.Kind.CRAFT,)


def _choice(value, by_key: dict, message: str, field: str):
    try:
        return procedure_journey.choice(value, by_key, message)
    except UnknownChoice as unknown:
        raise ServiceError(str(unknown), field=field) from unknown


def _phase_free(exploration: Exploration) -> None:
    if exploration.phase == Exploration.Phase.IN_TURN:
        raise ServiceError(FINISH_THE_TURN.format(turn=exploration.turn), code="turn_started")


# --- the start ----------------------------------------------------------------------------------


@transaction.atomic
def exploration_journey_start(
    *, exploration: Exploration, user, season: str, region: str = "", request_key: str = ""
) -> ExplorationEvent:
    """Start the journey of a descent: its season, the initial weather rolled on the season's
    table (1d6), and the hex the party is in, if said. The party is the marching order."""
    kind = ExplorationEvent.Kind.JOURNEY
    exploration, earlier = action_begin(exploration, user, request_key, kind)
    if earlier is not None:
        return earlier
    chosen = _choice(season, procedure_journey.SEASON_BY_KEY, SEASON_UNKNOWN, "season")
    where = (
        _choice(region, procedure_journey.REGION_BY_KEY, REGION_UNKNOWN, "region")
        if region
        else None
    )
    if exploration.journey_started:
        label = procedure_journey.SEASON_BY_KEY[exploration.season].label
        raise ServiceError(JOURNEY_ALREADY.format(season=label), field="season")
    if not exploration.party_names:
        raise ServiceError(PARTY_EMPTY, field="marching_order")
    _phase_free(exploration)
    roll = procedure_services.procedure_roll(
        scene=exploration.scene, user=user, key=chosen.table, source=dice()
    )
    exploration.season = chosen.key
    exploration.weather = roll.total
    exploration.weather_text = roll.details["text"]
    exploration.party = {
        name: procedure_exhaustion.fresh_member() for name in exploration.party_names
    }
    lines = [
        f"Clima inicial ({chosen.label}, 1d6) {roll_ref(roll)}: "
        f"{roll.total}. {exploration.weather_text}."
    ]
    if where is not None:
        exploration.hex_region = where.key
        lines.append(f"O grupo está em {where.label}.")
    lines.append("Na jornada: " + activities.who(exploration.party_names) + ".")
    return action_event(
        exploration,
        user,
        kind,
        f"Começa a jornada ({chosen.label}).",
        lines=lines,
        data={"season": chosen.key, "weather": roll.total},
        rolls=[roll],
        request_key=request_key,
    )


# --- a round of travel: what it is asked ---------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """A round as asked, checked before any die: the hex, the way of advancing, and each
    character's activity."""

    region: procedure_journey.Region
    by_name: dict[str, str]

    def groups(self) -> list[tuple[str, list[str]]]:
        """Each activity of the round with who does it, in the text's order of activities."""
        found = []
        for choice in procedure_journey.ACTIVITIES:
            names = [n for n, a in self.by_name.items() if a == choice.key]
            if names:
                found.append((choice.key, names))
        return found

    @property
    def advancing(self) -> bool:
        return "advance" in self.by_name.values()


def _per_character(exploration: Exploration, activity: str, per_character) -> dict[str, str]:
    party = exploration.party_names
    by_name = {name: activity for name in party}
    if not per_character:
        return by_name
    if not isinstance(per_character, dict):
        raise ServiceError(PER_CHARACTER_BAD, field="per_character")
    for name, chosen in per_character.items():
        if name not in party:
            raise ServiceError(NOT_IN_PARTY.format(name=name), field="per_character")
        _choice(chosen, procedure_journey.ACTIVITY_BY_KEY, ACTIVITY_UNKNOWN, "per_character")
        by_name[name] = chosen
    return by_name


def _plan(exploration: Exploration, *, activity, region, mode, per_character) -> Plan:
    if not exploration.journey_started:
        raise ServiceError(JOURNEY_NOT_STARTED, field="season", code="journey_not_started")
    _choice(activity, procedure_journey.ACTIVITY_BY_KEY, ACTIVITY_UNKNOWN, "activity")
    if region:
        where = _choice(region, procedure_journey.REGION_BY_KEY, REGION_UNKNOWN, "region")
    elif exploration.hex_region:
        where = procedure_journey.REGION_BY_KEY[exploration.hex_region]
    else:
        raise ServiceError(REGION_REQUIRED, field="region")
    if mode:
        _choice(mode, procedure_journey.MODE_BY_KEY, MODE_UNKNOWN, "mode")
    by_name = _per_character(exploration, activity, per_character)
    plan = Plan(region=where, by_name=by_name)
    if plan.advancing and set(by_name.values()) != {"advance"}:
        raise ServiceError(ADVANCE_TOGETHER, field="per_character" if per_character else "activity")
    if plan.advancing and not (mode or exploration.travel_mode):
        raise ServiceError(MODE_REQUIRED, field="mode")
    _phase_free(exploration)
    waiting = (
        exploration.tests.filter(roll__isnull=True).exclude(kind__in=NON_BLOCKING_TESTS).first()
    )
    if waiting is not None:
        texts = procedure_part(exploration.scene.week.campaign).texts
        raise ServiceError(
            texts.tests_pending.format(asks=waiting.asks, who=waiting.character),
            code="tests_pending",
        )
    return plan


# --- a round of travel: its steps ---------------------------------------------------------------


def _day_open(r: Round) -> None:
    """A new day on the first round, and after the 6th: its region is the hex it begins in."""
    e = r.exploration
    if procedure_journey.day_opens(e.day, e.day_round):
        e.day += 1
        e.day_round = 0
        e.day_region = r.region.key
        for name in e.party_names:
            r.member(name)["rested_today"] = False
        r.say(
            f"Dia {e.day} começa em {r.region.label}: os encontros do dia são os da linha "
            f"«{r.region.encounter}»."
        )
    elif r.region.key != e.hex_region:
        day = procedure_journey.REGION_BY_KEY[e.day_region]
        r.say(
            f"O grupo está em {r.region.label}; os encontros seguem os da região em que o dia "
            f"começou ({day.label})."
        )
    e.day_round += 1
    e.hex_region = r.region.key


def _weather(r: Round) -> None:
    """1. Clima: 1d6 a round, on the drift table; the weather moves a row of the season's."""
    e = r.exploration
    roll = r.roll("weather_drift")
    cell = roll.details["text"]
    step = procedure_journey.weather_step(cell)
    rows = r.table(e.weather_table).rows.all()
    after, held = procedure_journey.weather_after(e.weather, step, rows=len(rows))
    head = f"Clima (1d6) {roll_ref(roll)}: «{cell}»"
    if step is None:
        r.say(f"{head} — fica {e.weather}. {e.weather_text}.")
        r.hold(P_WEATHER_SILENT)
        return
    r.hold(P_WEATHER_EDGES)
    if held:
        r.say(f"{head} — já na ponta da tabela: fica {e.weather}. {e.weather_text}.")
        return
    e.weather = after
    e.weather_text = next(row.cells[0] for row in rows if row.label == str(after))
    r.say(f"{head} → {after}. {e.weather_text}.")


def _encounter(r: Round) -> None:
    """2. Encontros Aleatórios: 1d6 a round, by the region the day began in."""
    day = procedure_journey.REGION_BY_KEY[r.exploration.day_region]
    roll, met = r.chance("encounter_by_region", day.encounter)
    r.encounter = met
    head = f"Encontros Aleatórios ({day.label}: «{day.encounter}», {roll.details['text']})"
    if not met:
        r.say(f"{head} {roll_ref(roll)}: nada.")
        return
    r.say(
        f"{head} {roll_ref(roll)}: ENCONTRO — «No momento do encontro role na Tabela de "
        f"Encontros da Região atual» ({r.region.label})."
    )
    r.hold(P_UNDEFINED)
    table = regional_table(r.exploration, r.region.key)
    if table is None:
        r.say(NO_REGIONAL_TABLE.format(region=r.region.label))
    elif not procedure_services.table_complete(table):
        r.say(REGIONAL_TABLE_INCOMPLETE.format(name=table.name, die=table.die))
    else:
        met_roll = r.roll(table.key)
        r.regional = table.key
        r.say(
            f"{table.name} ({met_roll.details['die']}) {roll_ref(met_roll)}: "
            f"{met_roll.details['text']}"
        )
    r.say(SURPRISE_OFFERED)


def regional_table(exploration: Exploration, region: str) -> RandomTable | None:
    """The Árbitro's Tabela de Encontros of ``region`` in this campaign, if he made one."""
    return (
        RandomTable.objects.filter(campaign=exploration.scene.week.campaign, region=region)
        .prefetch_related("rows")
        .first()
    )


def _rest_owed(r: Round, plan: Plan) -> None:
    """After a failed forced march: a round of Descansar pays one of the 2 owed; anything else
    first is the point of exhaustion instead."""
    for name, activity in plan.by_name.items():
        member = r.member(name)
        if not member["rest_owed"]:
            continue
        if activity == "rest":
            member["rest_owed"] -= 1
            left = member["rest_owed"]
            r.say(
                f"{name} descansa uma das 2 rodadas devidas depois de falhar ao forçar o avanço"
                + (f" (falta {left})." if left else ": cumpriu as duas.")
            )
        else:
            member["rest_owed"] = 0
            r.exhaust(
                name, "não descansou as 2 rodadas devidas depois de falhar ao forçar o avanço."
            )
        r.hold(P_FORCED_MARCH_COUNT)


def _day_close(r: Round) -> None:
    """The end of the day's 6th round: a point for each one who did not Descansar that day
    (who did stays marked until the next day opens)."""
    e = r.exploration
    if not procedure_journey.day_closes(e.day_round):
        return
    for name in e.party_names:
        if not r.member(name)["rested_today"]:
            r.exhaust(name, "«Cada dia sem realizar essa ação acarreta em 1 ponto de exaustão.»")
    r.say(f"Fim do dia {e.day}.")


@transaction.atomic
def exploration_travel(
    *,
    exploration: Exploration,
    user,
    activity: str,
    region: str = "",
    mode: str = "",
    per_character: dict[str, str] | None = None,
    request_key: str = "",
) -> ExplorationEvent:
    """One round of travel (4 h): the weather's 1d6, the encounter's 1d6, then the steps of
    ``activity`` (a key of ``procedure_journey.ACTIVITIES``) for the party, or of
    ``per_character``'s (name → activity) for those it names. ``region``: the hex the party is
    in (a key of REGIONS; "" keeps the last); ``mode``: Tabela A's way of advancing (kept).
    Everything is checked before the first die; the timers run down 24 turns."""
    kind = ExplorationEvent.Kind.TRAVEL
    exploration, earlier = action_begin(exploration, user, request_key, kind)
    if earlier is not None:
        return earlier
    plan = _plan(
        exploration, activity=activity, region=region, mode=mode, per_character=per_character
    )
    if mode:
        exploration.travel_mode = mode
    r = Round(
        exploration=exploration,
        user=user,
        source=dice(),
        region=plan.region,
        books=supplies.ledger(exploration),
    )
    _day_open(r)
    _weather(r)
    _encounter(r)
    _rest_owed(r, plan)
    if len(plan.groups()) > 1:
        r.hold(P_PER_PLAYER)
    for chosen, names in plan.groups():
        activities.run(r, chosen, names)
    if not plan.advancing:
        exploration.advance_streak = 0
    _day_close(r)
    charge_running_out(r)
    ticked = timers_tick(exploration, procedure_clock.TRAVEL_ROUND_TURNS)
    r.lines += ticked
    r.hold(*darkness_held(ticked))
    exploration.travel_rounds += 1
    return _round_event(r, plan, request_key)


def _round_event(r: Round, plan: Plan, request_key: str) -> ExplorationEvent:
    e = r.exploration
    number = e.day_round if e.day_round else procedure_clock.ROUNDS_PER_DAY
    label = " / ".join(
        procedure_journey.ACTIVITY_BY_KEY[a].label
        + ("" if len(plan.groups()) == 1 else f" ({', '.join(n)})")
        for a, n in plan.groups()
    )
    event = action_event(
        e,
        r.user,
        ExplorationEvent.Kind.TRAVEL,
        f"Dia {e.day}, rodada {number} de {procedure_clock.ROUNDS_PER_DAY} ({procedure_clock.ROUND_HOURS} h): {label}.",
        lines=r.lines,
        data={
            "day": e.day,
            "round": number,
            "region": plan.region.key,
            "day_region": e.day_region,
            "activities": plan.by_name,
            "encounter": r.encounter,
            "regional_table": r.regional,
            "lost": r.lost,
            "weather": e.weather,
            "pendencies": pendency_data(e.scene.week.campaign, r.held),
        },
        rolls=r.rolls,
        request_key=request_key,
    )
    tests_write(r, event)
    r.books.write(e, event, r.user)
    return event


def tests_write(r: Round, event: ExplorationEvent) -> None:
    """The tests the text asked in this step, now that its event exists."""
    ExplorationTest.objects.bulk_create(
        ExplorationTest(
            exploration=r.exploration,
            asked_in=event,
            kind=ask.kind,
            character=ask.character,
            asks=ask.asks,
            pendency=ask.pendency,
            modifier=ask.modifier,
            roll=ask.roll,
            passed=ask.passed,
            resolved_in=event if ask.roll is not None else None,
        )
        for ask in r.asked
    )


def charge_running_out(r: Round) -> None:
    """The canon's cost of running out (§6.1, pendência procedure:running-out), written into
    each character's state where he has a sheet in the scene; else the log says what the
    Mestre must charge. Before the round's event, which says it."""
    from sessions.log.scene_ops import state_change_create  # the log's service, not the tracker's

    if not r.state:
        return
    e = r.exploration
    characters = {c.name: c for c in e.scene.characters.all()}
    for name, hp, fatigue, why in r.state:
        character = characters.get(name)
        if character is None:
            r.say(f"{name}: {why} — sem ficha na cena: o Mestre cobra.")
            continue
        try:
            state_change_create(
                scene=e.scene, user=r.user, character=character, hp=hp, fatigue=fatigue, reason=why
            )
        except ServiceError as refused:
            r.say(f"{name}: {why} — o estado não mudou ({refused.message}): o Mestre cobra.")
        else:
            r.say(f"{name}: {why} — escrito no estado.")


# --- the text's tests, resolved by the Mestre's roll in the campaign's system -------------------


def _open_test(exploration: Exploration, test) -> ExplorationTest:
    try:
        code = uuid.UUID(str(test))
    except ValueError:
        raise ServiceError(TEST_UNKNOWN, field="test") from None
    found = exploration.tests.select_related("roll", "asked_in").filter(code=code).first()
    if found is None:
        raise ServiceError(TEST_UNKNOWN, field="test")
    if not found.is_open:
        raise ServiceError(
            TEST_DONE.format(who=found.character, roll=found.roll.sequence), field="test"
        )
    return found


def _test_roll(exploration: Exploration, test: ExplorationTest, number) -> Roll:
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise ServiceError(ROLL_BAD, field="roll")
    campaign = exploration.scene.week.campaign
    roll = (
        Roll.objects.filter(campaign=campaign, sequence=number, scene=exploration.scene)
        .select_related("character")
        .first()
    )
    if roll is None:
        raise ServiceError(ROLL_UNKNOWN.format(roll=number), field="roll")
    if not roll.is_test:
        texts = procedure_part(campaign).texts
        raise ServiceError(texts.roll_not_a_test.format(roll=number), field="roll")
    if roll.hidden:
        raise ServiceError(ROLL_HIDDEN.format(roll=number), field="roll")
    if roll.character is not None and roll.character.name != test.character:
        raise ServiceError(
            ROLL_OTHER_CHARACTER.format(roll=number, other=roll.character.name, who=test.character),
            field="roll",
        )
    if test.modifier and not any(m.get("value") == test.modifier for m in roll.modifiers or ()):
        raise ServiceError(
            ROLL_WITHOUT_MODIFIER.format(
                asks=test.asks, roll=number, modifier=signed_text(test.modifier)
            ),
            field="roll",
        )
    if roll.created_at < test.asked_in.created_at:
        raise ServiceError(ROLL_TOO_EARLY.format(roll=number), field="roll")
    if ExplorationTest.objects.filter(roll=roll).exists():
        raise ServiceError(ROLL_USED.format(roll=number), field="roll")
    return roll


def _craft_made(books, test: ExplorationTest, passed: bool, made: Roll, rules) -> list[str]:
    """«O personagem cria munição igual ao resultado do teste»: as the campaign's system reads
    it (GURPS: the margin of success, at least 1; a failure makes none — pendência
    procedure:craft-ammunition-des)."""
    if not passed:
        return [f"{test.character} não cria munição (o teste falhou)."]
    count = rules.crafted(passed, made.margin)
    books.change(
        test.character, supplies.Kind.AMMUNITION, count, f"Criar: margem de sucesso {made.margin}"
    )
    have = books.have(test.character, supplies.Kind.AMMUNITION)
    return [f"{test.character} cria {count} munição(ões) (margem {made.margin}); tem {have}."]


def _apply(
    exploration: Exploration, test: ExplorationTest, passed: bool, made: Roll, books
) -> list[str]:
    """What the text says follows the test."""
    member = exploration.party.setdefault(test.character, procedure_exhaustion.fresh_member())
    name = test.character
    if test.kind == ExplorationTest.Kind.FORCED_MARCH:
        if passed:
            return [f"{name} segue sem penalidade."]
        campaign = exploration.scene.week.campaign
        if native.is_native(campaign):
            if native.house_answers(campaign)[native.FORCED_MARCH].value == native.XULETA:
                # «Si falles, un nivell d'esgotament.» (Xuleta §8.1)
                return [native.exhaust(exploration, name, 1, "marxa forçada")]
        member["rest_owed"] = procedure_journey.FORCED_MARCH_REST_ROUNDS
        return [
            f"{name} deve descansar por 2 rodadas antes de realizar qualquer outra atividade ou "
            "receber 1 ponto de exaustão."
        ]
    if test.kind == ExplorationTest.Kind.CRAFT:
        rules = procedure_part(exploration.scene.week.campaign)
        return _craft_made(books, test, passed, made, rules)
    if not passed:
        return [f"{name} não recebe os benefícios do descanso."]
    # A rest may ask several tests of one character (a mishap row, each interruption): the
    # benefits come with the last, when every one passed.
    others = exploration.tests.filter(asked_in=test.asked_in, character=name).exclude(pk=test.pk)
    if others.filter(roll__isnull=True).exists():
        return [f"{name} passou; os benefícios esperam os outros testes deste descanso."]
    if others.filter(passed=False).exists():
        return [f"{name} passou, mas falhou outro teste deste descanso: sem os benefícios."]
    before, after = procedure_exhaustion.recover(member)
    return [
        f"{name} recebe os benefícios: recupera 1 de exaustão ({before} → {after}); dano de "
        "atributo e sanidade são de outro jogo."
    ]


@transaction.atomic
def exploration_journey_test(
    *, exploration: Exploration, user, test, roll: int, request_key: str = ""
) -> ExplorationEvent:
    """Resolve a test the text asked (``test``: its id) with the Mestre's roll in this
    scene (``roll``: its number in the chain), made after the test was asked, for the same
    character if it names one, not hidden and not used for another test. Its outcome decides;
    the tracker applies what the text says follows."""
    kind = ExplorationEvent.Kind.JOURNEY_TEST
    exploration, earlier = action_begin(exploration, user, request_key, kind)
    if earlier is not None:
        return earlier
    pending = _open_test(exploration, test)
    made = _test_roll(exploration, pending, roll)
    passed = made.outcome in (Roll.Outcome.SUCCESS, Roll.Outcome.CRITICAL_SUCCESS)
    texts = procedure_part(exploration.scene.week.campaign).texts
    lines = [
        texts.roll_decides.format(
            asks=pending.asks,
            ref=roll_ref(made),
            label=made.label,
            outcome=made.get_outcome_display().lower(),
        )
    ]
    books = supplies.ledger(exploration)
    lines += _apply(exploration, pending, passed, made, books)
    event = action_event(
        exploration,
        user,
        kind,
        f"{pending.character}: {pending.get_kind_display().lower()} — "
        + ("passou." if passed else "falhou."),
        lines=lines,
        data={
            "test": str(pending.code),
            "passed": passed,
            "pendencies": pendency_data(exploration.scene.week.campaign, [pending.pendency]),
        },
        rolls=[made],
        request_key=request_key,
    )
    books.write(exploration, event, user)
    pending.roll, pending.passed, pending.resolved_in = made, passed, event
    pending.save(update_fields=["roll", "passed", "resolved_in"])
    return event


# --- what the page and the API show ------------------------------------------------------------


@dataclass
class JourneyView:
    """The journey as the tracker shows it: where the day and the weather stand, each
    character's rest and exhaustion, the tests the text asked (open ones with the pendência
    that holds them) and what the next Avançar would ask."""

    exploration: Exploration
    tests: list[ExplorationTest]
    pendencies: dict[str, Pendency]
    next_advance_dc: int | None
    supplies: dict[str, dict[str, int]] | None = None
    encounter_now: bool = False  # the last round met an encounter: the surprise is offered
    # In a native campaign, what the next forced Avançar rolls from each sheet, in the
    # ruleset's words («salvació de Constitució CD 11, 12, 13, 14 (§8.1)»); "" otherwise.
    next_advance_native: str = ""

    @property
    def next_advance_modifier(self) -> int | None:
        """The modifier the campaign's system gives the next Avançar's DC (GURPS, as the
        pendência reads it: HT −1 for DC 15)."""
        if self.next_advance_dc is None or self.next_advance_native:
            return None
        ask = procedure_asks.Ask(
            procedure_asks.SAVE,
            pendency=P_FORCED_MARCH,
            ability=procedure_asks.FORCED_MARCH_ABILITY,
            dc=self.next_advance_dc,
        )
        return procedure_part(self.exploration.scene.week.campaign).resolve_ask(ask).modifier

    @property
    def common_stock(self) -> dict[str, int]:
        return (self.supplies or {}).get(supplies.COMMON, {k.value: 0 for k in supplies.KINDS})

    @property
    def member_supplies(self) -> list[tuple[str, dict[str, int]]]:
        counts = self.supplies or {}
        zero = {k.value: 0 for k in supplies.KINDS}
        return [(n, counts.get(n, zero)) for n in self.exploration.party_names]

    @property
    def season_label(self) -> str:
        return procedure_journey.SEASON_BY_KEY[self.exploration.season].label

    @property
    def day_region_label(self) -> str:
        found = procedure_journey.REGION_BY_KEY.get(self.exploration.day_region)
        return found.label if found else ""

    @property
    def hex_region_label(self) -> str:
        found = procedure_journey.REGION_BY_KEY.get(self.exploration.hex_region)
        return found.label if found else ""

    @property
    def mode_label(self) -> str:
        found = procedure_journey.MODE_BY_KEY.get(self.exploration.travel_mode)
        return found.label if found else ""

    @property
    def hexes_text(self) -> str:
        return hexes_text(Fraction(self.exploration.hexes))

    @property
    def next_round(self) -> tuple[int, int]:
        """(day, round of the day) of the next round of travel."""
        return procedure_journey.day_turns(self.exploration.day, self.exploration.day_round)

    @property
    def members(self) -> list[tuple[str, dict]]:
        party = self.exploration.party
        return [
            (n, party.get(n, procedure_exhaustion.fresh_member()))
            for n in self.exploration.party_names
        ]

    @property
    def open_tests(self) -> list[tuple[ExplorationTest, Pendency]]:
        return [(t, self.pendencies[t.pendency]) for t in self.tests if t.is_open]

    @property
    def next_advance_forced(self) -> bool:
        return procedure_journey.advance_forced(self.exploration.advance_streak + 1)


def journey_view(exploration: Exploration, events=None) -> JourneyView | None:
    """None before the journey starts (1 query for its tests; 2 more for the pendências of
    open tests, 2 for Tabela B when the next Avançar is forced; 1 for the supplies; 1 for the
    last round unless ``events``, newest first, are given)."""
    if not exploration.journey_started:
        return None
    tests = list(exploration.tests.select_related("roll").order_by("created_at", "pk"))
    keys = [t.pendency for t in tests if t.is_open]
    held = pendencies(exploration.scene.week.campaign, keys) if keys else {}
    dc = None
    if procedure_journey.advance_forced(exploration.advance_streak + 1):
        table = procedure_services.procedure_table("forced_march", exploration.scene.week.campaign)
        cells = {row.label: row.cells[0] for row in table.rows.all()}
        dc = procedure_journey.forced_march_dc(
            exploration.advance_streak + 1 - procedure_journey.FREE_ADVANCE_ROUNDS,
            cells.get(procedure_journey.FORCED_MARCH_FIRST, ""),
            cells.get(procedure_journey.FORCED_MARCH_STEP, ""),
        )
    native_advance = ""
    campaign = exploration.scene.week.campaign
    if procedure_journey.advance_forced(exploration.advance_streak + 1) and native.is_native(
        campaign
    ):
        native_advance = _native_advance(campaign, exploration.advance_streak + 1, dc)
    if events is None:  # the tracker's view passes the events it read, newest first
        events = exploration.events.order_by("-pk")
    last = next((ev for ev in events if ev.kind == ExplorationEvent.Kind.TRAVEL), None)
    return JourneyView(
        exploration=exploration,
        tests=tests,
        pendencies=held,
        next_advance_dc=dc,
        supplies=supplies.supply_counts(exploration),
        encounter_now=bool(last and last.data.get("encounter")),
        next_advance_native=native_advance,
    )


def _native_advance(campaign, streak: int, dc: int | None) -> str:
    """What the ``streak``-th Avançar in a row rolls in a native campaign, by the house
    setting ``forced_march``: the ruleset's saves per extra hour, or Tabela B's one DC as
    the ruleset's save (``resolve_ask``'s ``roll``)."""
    if native.house_answers(campaign)[native.FORCED_MARCH].value == native.XULETA:
        dcs = ", ".join(str(d) for _, d in native.forced_march_xuleta(campaign, streak))
        return f"salvació de Constitució CD {dcs}, de cada um (Marxa forçada, §8.1)"
    if dc is None:
        return ""
    ask = procedure_asks.Ask(
        procedure_asks.SAVE,
        pendency=P_FORCED_MARCH,
        ability=procedure_asks.FORCED_MARCH_ABILITY,
        dc=dc,
    )
    roll = procedure_part(campaign).resolve_ask(ask).roll or f"salvação de CON CD {dc}"
    return f"{roll}, de cada um (Tabela B do procedimento, regra da casa)"
