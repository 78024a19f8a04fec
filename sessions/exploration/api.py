"""The exploration tracker through the API, for the Mestre's AI client: start a descent, declare
the danger level, the marching order, a timer; start and end a turn, surprise, sleep; the
journey (its season, its rounds of travel, the GURPS roll that resolves a test the text asks);
the exhaustion's GURPS consequence, treasure found; end it; read the state. The same services
and refusals as the page; no body takes a die. ``Idempotency-Key`` makes the same request twice
one action. Every closed set is an enum, each value's Portuguese label in its description."""

from __future__ import annotations

from typing import Literal
from uuid import UUID

from django.http import Http404
from django.shortcuts import get_object_or_404
from ninja import Field, Header, Router, Schema, Status
from ninja.errors import HttpError
from pydantic import StrictBool, StrictInt

from campaigns.access import membership_for
from campaigns.api_errors import errors
from campaigns.auth import gated, runs_a_table
from campaigns.errors import ServiceError
from sessions.exploration import journey, rests, services, supplies
from sessions.exploration.schemas import (
    ACTIVITY_LABELS,
    DANGER_LABELS,
    MODE_LABELS,
    REGION_LABELS,
    SEASON_LABELS,
    SUPPLY_KIND_LABELS,
    TIMER_KIND_LABELS,
    Activity,
    Danger,
    ExplorationEventAnswerOut,
    ExplorationOut,
    Mode,
    Region,
    Season,
    SupplyKind,
    TimerAddedOut,
    TimerKind,
    exploration_data,
    pendencies_data,
)
from sessions.models import Exploration, Scene

# Permission first (issue 27): every write's access is checked in its authentication,
# before its body is validated or its Idempotency-Key replayed.
router = Router(auth=gated(lambda request, user: _table_first(request, user)))

ONLY_THE_TABLE_RUNS_IT = "Só o Mestre de Cena ou o Árbitro conduzem a exploração."
Key = Header("", alias="Idempotency-Key")
# What a write of the tracker may answer besides its success (campaigns.api_errors).
TABLE_WRITE = errors(401, 403, 404, 409, 422)
TABLE_WRITE_WITH_BODY = errors(400, 401, 403, 404, 409, 422)  # 400: a body that is not JSON
DANGER = "Nível de perigo (Tabela A), declarado pelo Mestre: " + DANGER_LABELS
PER_CHARACTER_TWICE = "«{name}» aparece duas vezes nas atividades por personagem."


class ExplorationStartIn(Schema, extra="forbid"):
    scene: UUID
    danger: Danger | None = Field(
        default=None,
        description=DANGER + ". Sem ele, só a jornada (a masmorra pede um antes do 1º turno).",
    )
    total_darkness: StrictBool = False
    region: str = Field(default="", max_length=200, description="Região, para o fechamento")
    marching_order: list[str] | None = Field(default=None, max_length=services.MAX_MARCHING)


class ExplorationDeclareIn(Schema, extra="forbid"):
    danger: Danger = Field(description=DANGER)
    total_darkness: StrictBool = False


class MarchingIn(Schema, extra="forbid"):
    marching_order: list[str] = Field(max_length=services.MAX_MARCHING)


class TimerIn(Schema, extra="forbid"):
    name: str = Field(min_length=1, max_length=100)
    kind: TimerKind = Field(default="light", description=TIMER_KIND_LABELS)
    turns: int = Field(ge=1, le=services.MAX_TIMER_TURNS)


class TurnEndIn(Schema, extra="forbid"):
    rested: StrictBool = False
    note: str = Field(default="", max_length=1000)


class SleepIn(Schema, extra="forbid"):
    hours: int = Field(default=8, ge=1, le=services.MAX_SLEEP_HOURS)


class JourneyIn(Schema, extra="forbid"):
    season: Season = Field(description="Estação do ano (o clima inicial): " + SEASON_LABELS)
    region: Region | None = Field(
        default=None, description="O hex em que o grupo está: " + REGION_LABELS
    )


class CharacterActivityIn(Schema, extra="forbid"):
    character: str = Field(min_length=1, max_length=100, description="Um nome da ordem de marcha")
    activity: Activity = Field(description=ACTIVITY_LABELS)


class TravelIn(Schema, extra="forbid"):
    activity: Activity = Field(description="A atividade do grupo na rodada: " + ACTIVITY_LABELS)
    region: Region | None = Field(
        default=None,
        description="O hex em que o grupo está (sem ele, o da rodada anterior): " + REGION_LABELS,
    )
    mode: Mode | None = Field(
        default=None, description="Como o grupo avança (Tabela A; fica): " + MODE_LABELS
    )
    per_character: list[CharacterActivityIn] = Field(
        default=[],
        max_length=services.MAX_MARCHING,
        description="«Um jogador pode escolher»: a atividade de quem não faz a do grupo",
    )


class JourneyTestIn(Schema, extra="forbid"):
    test: UUID = Field(description="O teste pedido pelo texto (journey.tests[].id)")
    roll: StrictInt = Field(
        ge=1, le=2_147_483_647, description="O número da rolagem GURPS do Mestre nesta cena"
    )


class SupplyIn(Schema, extra="forbid"):
    character: str = Field(
        default="", max_length=100, description="Um nome da ordem de marcha; vazio: o estoque comum"
    )
    kind: SupplyKind = Field(description=SUPPLY_KIND_LABELS)
    delta: int = Field(
        ge=-supplies.MAX_ADJUST,
        le=supplies.MAX_ADJUST,
        description="Quanto muda: negativo sai, positivo entra (não 0)",
    )
    reason: str = Field(min_length=1, max_length=300, description="Por que muda")


class ConsequenceIn(Schema, extra="forbid"):
    text: str = Field(min_length=1, max_length=1000)


class LootIn(Schema, extra="forbid"):
    category: Literal["treasure", "item"]
    kind: str = Field(min_length=1, max_length=100)
    quantity: int = Field(default=1, ge=1, le=100_000)


def _table_first(request, user) -> None:
    """The tracker's writes are the table's (a defence is also its defender's owner's); the
    start names its scene in the body: who runs no table anywhere is refused before it."""
    code = request.resolver_match.kwargs.get("code")
    if code is None:
        if not runs_a_table(user):
            raise HttpError(403, ONLY_THE_TABLE_RUNS_IT)
        return
    _exploration(request, code, table=not request.path.endswith("/defence"))


def _exploration(request, code: UUID, *, table: bool = True) -> Exploration:
    exploration = get_object_or_404(
        Exploration.objects.select_related("scene__week__campaign"), code=code
    )
    membership = membership_for(request.user, exploration.scene.week.campaign)
    if membership is None:
        raise Http404  # as for an id that does not exist: it confirms nothing
    if table and not membership.runs_the_table:
        raise HttpError(403, ONLY_THE_TABLE_RUNS_IT)
    return exploration


def _state(exploration: Exploration) -> dict:
    fresh = Exploration.objects.select_related("scene").get(pk=exploration.pk)
    return exploration_data(services.exploration_view(fresh))


def _event_out(event, exploration: Exploration) -> dict:
    return {
        "event": event.code,
        "text": event.text,
        "lines": event.lines,
        "rolls": sorted(r.sequence for r in event.rolls.all()),
        "pendencies": pendencies_data(event),
        "exploration": _state(exploration),
    }


def _per_character(payload: TravelIn) -> dict[str, str]:
    found: dict[str, str] = {}
    for item in payload.per_character:
        if item.character in found:
            raise ServiceError(
                PER_CHARACTER_TWICE.format(name=item.character), field="per_character"
            )
        found[item.character] = item.activity
    return found


@router.post(
    "",
    response={201: ExplorationOut, **errors(400, 401, 403, 404, 422)},
    summary="Começa uma exploração numa cena",
)
def exploration_start(request, payload: ExplorationStartIn, idempotency_key: str = Key):
    scene = get_object_or_404(Scene.objects.select_related("week__campaign"), code=payload.scene)
    if membership_for(request.user, scene.week.campaign) is None:
        raise Http404  # as for an id that does not exist: it confirms nothing
    exploration = services.exploration_start(
        scene=scene,
        user=request.user,
        danger=payload.danger or "",
        total_darkness=payload.total_darkness,
        region=payload.region,
        marching_order=payload.marching_order,
        request_key=idempotency_key,
    )
    return Status(201, _state(exploration))


@router.get(
    "/{uuid:code}",
    response={200: ExplorationOut, **errors(401, 404)},
    summary="O estado da exploração",
)
def exploration_read(request, code: UUID):
    return _state(_exploration(request, code, table=False))


@router.post(
    "/{uuid:code}/danger",
    response={200: ExplorationOut, **TABLE_WRITE_WITH_BODY},
    summary="Declara o nível de perigo",
)
def exploration_declare(
    request, code: UUID, payload: ExplorationDeclareIn, idempotency_key: str = Key
):
    exploration = _exploration(request, code)
    services.exploration_declare(
        exploration=exploration,
        user=request.user,
        danger=payload.danger,
        total_darkness=payload.total_darkness,
        request_key=idempotency_key,
    )
    return _state(exploration)


@router.post(
    "/{uuid:code}/marching-order",
    response={200: ExplorationOut, **TABLE_WRITE_WITH_BODY},
    summary="Ordem de marcha",
)
def exploration_marching(request, code: UUID, payload: MarchingIn, idempotency_key: str = Key):
    exploration = _exploration(request, code)
    services.exploration_marching_order(
        exploration=exploration,
        user=request.user,
        names=payload.marching_order,
        request_key=idempotency_key,
    )
    return _state(exploration)


@router.post(
    "/{uuid:code}/timers",
    response={201: TimerAddedOut, **TABLE_WRITE_WITH_BODY},
    summary="Luz ou magia",
)
def exploration_timer(request, code: UUID, payload: TimerIn, idempotency_key: str = Key):
    exploration = _exploration(request, code)
    timer = services.exploration_timer_add(
        exploration=exploration,
        user=request.user,
        name=payload.name,
        kind=payload.kind,
        turns=payload.turns,
        request_key=idempotency_key,
    )
    return Status(201, {"id": timer.code, "exploration": _state(exploration)})


@router.post(
    "/{uuid:code}/turns",
    response={201: ExplorationEventAnswerOut, **TABLE_WRITE},
    summary="Começa um turno: o teste de encontro, se devido (o servidor rola)",
)
def exploration_turn_start(request, code: UUID, idempotency_key: str = Key):
    exploration = _exploration(request, code)
    event = services.exploration_turn_start(
        exploration=exploration, user=request.user, request_key=idempotency_key
    )
    return Status(201, _event_out(event, exploration))


@router.post(
    "/{uuid:code}/turn-end",
    response={201: ExplorationEventAnswerOut, **TABLE_WRITE_WITH_BODY},
    summary="Fim do turno: marcadores, descanso, chegada dos monstros",
)
def exploration_turn_end(request, code: UUID, payload: TurnEndIn, idempotency_key: str = Key):
    exploration = _exploration(request, code)
    event = services.exploration_turn_end(
        exploration=exploration,
        user=request.user,
        rested=payload.rested,
        note=payload.note,
        request_key=idempotency_key,
    )
    return Status(201, _event_out(event, exploration))


@router.post(
    "/{uuid:code}/surprise",
    response={201: ExplorationEventAnswerOut, **TABLE_WRITE},
    summary="Surpresa (2:6)",
)
def exploration_surprise(request, code: UUID, idempotency_key: str = Key):
    exploration = _exploration(request, code)
    event = services.exploration_surprise(
        exploration=exploration, user=request.user, request_key=idempotency_key
    )
    return Status(201, _event_out(event, exploration))


@router.post(
    "/{uuid:code}/sleep",
    response={201: ExplorationEventAnswerOut, **TABLE_WRITE_WITH_BODY},
    summary="Dormir na masmorra",
)
def exploration_sleep(request, code: UUID, payload: SleepIn, idempotency_key: str = Key):
    exploration = _exploration(request, code)
    event = services.exploration_sleep(
        exploration=exploration, user=request.user, hours=payload.hours, request_key=idempotency_key
    )
    return Status(201, _event_out(event, exploration))


@router.post(
    "/{uuid:code}/journey",
    response={201: ExplorationEventAnswerOut, **TABLE_WRITE_WITH_BODY},
    summary="Começa a jornada: a estação e o clima inicial (o servidor rola)",
)
def exploration_journey(request, code: UUID, payload: JourneyIn, idempotency_key: str = Key):
    exploration = _exploration(request, code)
    event = journey.exploration_journey_start(
        exploration=exploration,
        user=request.user,
        season=payload.season,
        region=payload.region or "",
        request_key=idempotency_key,
    )
    return Status(201, _event_out(event, exploration))


@router.post(
    "/{uuid:code}/travel",
    response={201: ExplorationEventAnswerOut, **TABLE_WRITE_WITH_BODY},
    summary="Rodada de viagem (4 h): clima, encontro e a atividade (o servidor rola)",
)
def exploration_travel(request, code: UUID, payload: TravelIn, idempotency_key: str = Key):
    exploration = _exploration(request, code)
    event = journey.exploration_travel(
        exploration=exploration,
        user=request.user,
        activity=payload.activity,
        region=payload.region or "",
        mode=payload.mode or "",
        per_character=_per_character(payload),
        request_key=idempotency_key,
    )
    return Status(201, _event_out(event, exploration))


@router.post(
    "/{uuid:code}/journey/tests",
    response={201: ExplorationEventAnswerOut, **TABLE_WRITE_WITH_BODY},
    summary="Resolve um teste que o texto pede com a rolagem GURPS do Mestre",
)
def exploration_journey_test(
    request, code: UUID, payload: JourneyTestIn, idempotency_key: str = Key
):
    exploration = _exploration(request, code)
    event = journey.exploration_journey_test(
        exploration=exploration,
        user=request.user,
        test=payload.test,
        roll=payload.roll,
        request_key=idempotency_key,
    )
    return Status(201, _event_out(event, exploration))


@router.post(
    "/{uuid:code}/supplies",
    response={201: ExplorationEventAnswerOut, **TABLE_WRITE_WITH_BODY},
    summary="Acerta a comida, a água ou a munição de um personagem ou do estoque comum",
)
def exploration_supply(request, code: UUID, payload: SupplyIn, idempotency_key: str = Key):
    exploration = _exploration(request, code)
    event = supplies.exploration_supply_adjust(
        exploration=exploration,
        user=request.user,
        holder=payload.character,
        kind=payload.kind,
        delta=payload.delta,
        reason=payload.reason,
        request_key=idempotency_key,
    )
    return Status(201, _event_out(event, exploration))


class RestIn(Schema, extra="forbid"):
    character: str = Field(
        min_length=1, max_length=100, description="Um personagem da cena com ficha da Xuleta"
    )
    kind: Literal["short", "long"] = Field(
        description="short: Descans curt (dados de vida); long: Descans llarg (§6.2)"
    )
    hit_dice: StrictInt = Field(
        default=1,
        ge=1,
        le=rests.MAX_HIT_DICE,
        description="Descans curt: quantos dados de vida gastar, rolados um de cada vez",
    )
    strenuous_minutes: StrictInt = Field(
        default=0,
        ge=0,
        le=24 * 60,
        description="Descans llarg: minutos de luta, caminhada ou magia no meio (60+ anula)",
    )
    ends_at: StrictInt | None = Field(
        default=None,
        ge=0,
        description="Descans llarg: o minuto do relógio da campanha em que acaba (sem ele, o "
        "relógio da exploração + 8 h)",
    )
    ate_and_drank: StrictBool | None = Field(
        default=None,
        description="Descans llarg: se comeu e bebeu (baixa 1 nível de esgotamento); sem ele, "
        "o que o estado diz",
    )


class RestRollOut(Schema):
    sequence: int
    dice: list[int]
    total: int


class RestOut(Schema):
    character: str
    kind: str
    lines: list[str]
    rolls: list[RestRollOut]
    state: dict


@router.post(
    "/{uuid:code}/rests",
    response={201: RestOut, **TABLE_WRITE_WITH_BODY},
    summary="Descanso curto ou longo de um personagem da Xuleta (§6 Descansar)",
)
def exploration_rest(request, code: UUID, payload: RestIn, idempotency_key: str = Key):
    exploration = _exploration(request, code)
    done = rests.exploration_rest(
        exploration=exploration,
        user=request.user,
        character=payload.character,
        kind=payload.kind,
        hit_dice=payload.hit_dice,
        strenuous_minutes=payload.strenuous_minutes,
        ends_at=payload.ends_at,
        ate_and_drank=payload.ate_and_drank,
        request_key=idempotency_key,
    )
    return Status(
        201,
        {
            "character": done.character,
            "kind": done.kind,
            "lines": done.lines,
            "rolls": [
                {"sequence": r.sequence, "dice": r.dice, "total": r.total} for r in done.rolls
            ],
            "state": done.state,
        },
    )


@router.post(
    "/{uuid:code}/consequences",
    response={201: ExplorationEventAnswerOut, **TABLE_WRITE_WITH_BODY},
    summary="A consequência GURPS de um ponto de exaustão do procedimento",
)
def exploration_consequence(
    request, code: UUID, payload: ConsequenceIn, idempotency_key: str = Key
):
    exploration = _exploration(request, code)
    event = services.exploration_consequence(
        exploration=exploration, user=request.user, text=payload.text, request_key=idempotency_key
    )
    return Status(201, _event_out(event, exploration))


@router.post(
    "/{uuid:code}/loot",
    response={201: ExplorationEventAnswerOut, **TABLE_WRITE_WITH_BODY},
    summary="Tesouro ou item achado",
)
def exploration_loot(request, code: UUID, payload: LootIn, idempotency_key: str = Key):
    exploration = _exploration(request, code)
    event = services.exploration_loot(
        exploration=exploration,
        user=request.user,
        category=payload.category,
        kind=payload.kind,
        quantity=payload.quantity,
        request_key=idempotency_key,
    )
    return Status(201, _event_out(event, exploration))


@router.post(
    "/{uuid:code}/end", response={200: ExplorationOut, **TABLE_WRITE}, summary="Encerra a descida"
)
def exploration_end(request, code: UUID, idempotency_key: str = Key):
    exploration = _exploration(request, code)
    services.exploration_end(
        exploration=exploration, user=request.user, request_key=idempotency_key
    )
    return _state(exploration)
