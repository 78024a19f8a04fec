"""The exploration's MCP tools: start a descent (and its journey), run a turn of the dungeon, a
round of travel, the tracker's other acts, read it. Each is one or two operations of
sessions/exploration/api.py, called in-process with the caller's token
(campaigns.mcp_api)."""

from typing import Annotated, Any, Literal
from uuid import UUID

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, ConfigDict, Field

from campaigns.mcp_api import IdempotencyKey, api_call, payload, step_key, tool
from sessions.exploration.api import (
    ConsequenceIn,
    ExplorationDeclareIn,
    ExplorationStartIn,
    JourneyIn,
    JourneyTestIn,
    LootIn,
    MarchingIn,
    RestIn,
    SleepIn,
    SupplyIn,
    TimerIn,
    TravelIn,
    TurnEndIn,
)

TRAVEL_NEEDED = "Para step=travel, mande travel (ao menos a atividade do grupo)."

ExplorationId = Annotated[UUID, Field(description="A exploração (o id de exploration_start)")]


@tool()
async def exploration_start(
    ctx: Context,
    exploration: ExplorationStartIn,
    journey: Annotated[
        JourneyIn | None,
        Field(description="Para uma jornada (hexcrawl): a estação; o servidor rola o clima"),
    ] = None,
    idempotency_key: IdempotencyKey = "",
) -> dict[str, Any]:
    """Começa uma exploração numa cena: nível de perigo (Tabela A; sem ele, só a jornada),
    escuridão total, região e ordem de marcha; com `journey`, começa também a jornada (a estação e o clima inicial).
    Devolve o estado da exploração com o seu id."""
    state = await api_call(
        ctx,
        "POST",
        "/explorations",
        body=payload(exploration),
        key=step_key(idempotency_key, "exploracao"),
    )
    if journey is not None:
        answer = await api_call(
            ctx,
            "POST",
            f"/explorations/{state['id']}/journey",
            body=payload(journey),
            key=step_key(idempotency_key, "jornada"),
        )
        state = answer.get("exploration", answer)
    return state


@tool()
async def exploration_turn(
    ctx: Context,
    exploration: ExplorationId,
    step: Annotated[
        Literal["begin", "end", "travel"],
        Field(
            description=(
                "begin: começa um turno da masmorra (o servidor rola o teste de encontro, se "
                "devido); end: fecha o turno (marcadores, descanso, chegada dos monstros); "
                "travel: uma Rodada de Viagem (4 h) da jornada"
            )
        ),
    ],
    end: Annotated[
        TurnEndIn | None, Field(description="Para step=end: se o grupo descansou, e uma nota")
    ] = None,
    travel: Annotated[
        TravelIn | None,
        Field(description="Para step=travel: a atividade do grupo, o hex, o modo de avançar"),
    ] = None,
    idempotency_key: IdempotencyKey = "",
) -> dict[str, Any]:
    """Um turno da exploração. Na masmorra, comece-o (step=begin) e, depois do que o grupo
    fizer nele, feche-o (step=end). Na jornada, cada step=travel é uma Rodada de Viagem de 4 h:
    o servidor rola o clima e o encontro e resolve a atividade do grupo (e a de quem fizer
    outra); seis rodadas fazem um dia. A resposta traz o texto do procedimento, as rolagens
    (números da cadeia), as pendências e o estado."""
    if step == "travel" and travel is None:
        raise ToolError(TRAVEL_NEEDED)
    if step == "begin":
        return await api_call(
            ctx, "POST", f"/explorations/{exploration}/turns", key=idempotency_key
        )
    path, body = ("/travel", travel) if step == "travel" else ("/turn-end", end)
    return await api_call(
        ctx,
        "POST",
        f"/explorations/{exploration}{path}",
        body=payload(body) if body is not None else {},
        key=idempotency_key,
    )


class _Act(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DangerAct(_Act):
    act: Literal["danger"]
    danger: ExplorationDeclareIn


class MarchingAct(_Act):
    act: Literal["marching_order"]
    marching: MarchingIn


class TimerAct(_Act):
    act: Literal["timer"]
    timer: TimerIn


class SurpriseAct(_Act):
    act: Literal["surprise"]


class SleepAct(_Act):
    act: Literal["sleep"]
    sleep: SleepIn = Field(default_factory=SleepIn)


class JourneyTestAct(_Act):
    act: Literal["journey_test"]
    test: JourneyTestIn


class SupplyAct(_Act):
    act: Literal["supply"]
    supply: SupplyIn


class ConsequenceAct(_Act):
    act: Literal["consequence"]
    consequence: ConsequenceIn


class LootAct(_Act):
    act: Literal["loot"]
    loot: LootIn


class RestAct(_Act):
    act: Literal["rest"]
    rest: RestIn


class EndAct(_Act):
    act: Literal["end"]


ExplorationAct = Annotated[
    DangerAct
    | MarchingAct
    | TimerAct
    | SurpriseAct
    | SleepAct
    | JourneyTestAct
    | SupplyAct
    | ConsequenceAct
    | LootAct
    | RestAct
    | EndAct,
    Field(discriminator="act"),
]

# Each act: the API path under the exploration, and the field of the act that is the body.
ACTS = {
    "danger": ("/danger", "danger"),
    "marching_order": ("/marching-order", "marching"),
    "timer": ("/timers", "timer"),
    "surprise": ("/surprise", None),
    "sleep": ("/sleep", "sleep"),
    "journey_test": ("/journey/tests", "test"),
    "supply": ("/supplies", "supply"),
    "consequence": ("/consequences", "consequence"),
    "loot": ("/loot", "loot"),
    "rest": ("/rests", "rest"),
    "end": ("/end", None),
}


@tool()
async def exploration_act(
    ctx: Context,
    exploration: ExplorationId,
    act: ExplorationAct,
    idempotency_key: IdempotencyKey = "",
) -> dict[str, Any]:
    """Os outros atos da exploração, um por chamada (`act` diz qual): danger (declara o nível de
    perigo), marching_order, timer (luz ou magia), surprise (2:6), sleep (dormir na masmorra),
    journey_test (resolve um teste que o texto pede com a rolagem GURPS do Mestre; a rolagem
    traz o modificador que o teste pede, `modifier`), supply (acerta a comida, a água ou a
    munição de um personagem ou do estoque comum, com a razão),
    consequence (a consequência GURPS de um ponto de exaustão), loot (tesouro ou item achado),
    rest (numa campanha da Xuleta: o descanso curto, com os dados de vida rolados um a um, ou o
    longo, de um personagem),
    end (encerra a descida; não se desfaz)."""
    path, field = ACTS[act.act]
    body = payload(getattr(act, field)) if field else None
    return await api_call(
        ctx, "POST", f"/explorations/{exploration}{path}", body=body, key=idempotency_key
    )


@tool(read_only=True)
async def exploration_read(ctx: Context, exploration: ExplorationId) -> dict[str, Any]:
    """O estado da exploração: turno, marcadores, luzes, ordem de marcha, a jornada (dia,
    rodada, clima, região), os testes que o texto pede e as pendências abertas."""
    return await api_call(ctx, "GET", f"/explorations/{exploration}")


TOOLS = [exploration_start, exploration_turn, exploration_act, exploration_read]
