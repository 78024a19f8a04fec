"""The week's MCP tools: open the next week, open a scene, read and resolve the week's world
actions, read, draft and send the weekly report, and the Árbitro's part (homologate or return
the report, publish the Boletim). Each is one or
two operations of sessions/weeks/api.py, called in-process with the caller's token
(campaigns.mcp_api)."""

from typing import Annotated, Any, Literal
from uuid import UUID

from mcp.server.mcpserver import Context
from pydantic import Field

from campaigns.mcp_api import IdempotencyKey, api_call, payload, tool
from sessions.weeks.api import SceneIn

Campaign = Annotated[str, Field(min_length=1, max_length=100, description="O slug da campanha")]
WeekNumber = Annotated[int, Field(ge=1, le=100_000, description="O número da semana")]


@tool()
async def week_open(
    ctx: Context,
    campaign: Campaign,
    number: Annotated[
        int | None,
        Field(
            ge=1, le=100_000, description="A semana que se quer abrir (pedida duas vezes, abre uma)"
        ),
    ] = None,
) -> dict[str, Any]:
    """Abre a próxima semana da campanha (só depois do Boletim da anterior; Mestre ou Árbitro)."""
    return await api_call(ctx, "POST", f"/weeks/{campaign}", query={"number": number})


@tool()
async def scene_open(
    ctx: Context,
    campaign: Campaign,
    week: WeekNumber,
    scene: SceneIn,
    idempotency_key: IdempotencyKey = "",
) -> dict[str, Any]:
    """Abre uma cena na semana, com as personagens que estão nela (ids de campaign_overview),
    o andar, o terreno e o chefe. Devolve a cena com o seu id."""
    return await api_call(
        ctx,
        "POST",
        f"/weeks/{campaign}/{week}/scenes",
        body=payload(scene),
        key=idempotency_key,
    )


@tool()
async def week_report_write(
    ctx: Context,
    campaign: Campaign,
    week: WeekNumber,
    text: Annotated[str, Field(min_length=1, max_length=50_000, description="O relatório inteiro")],
    submit: Annotated[
        bool, Field(description="Depois de escrever, envia ao Árbitro (não se desfaz)")
    ] = False,
) -> dict[str, Any]:
    """O Mestre escreve (ou reescreve) o relatório da semana e, com submit=true, o envia ao
    Árbitro. Recusado enquanto um combate ou exploração da semana está em andamento.
    Devolve a semana com o estado do relatório."""
    answer = await api_call(ctx, "PUT", f"/weeks/{campaign}/{week}/report", body={"text": text})
    if submit:
        answer = await api_call(ctx, "POST", f"/weeks/{campaign}/{week}/report/submit")
    return answer


@tool(destructive=True)
async def week_review(
    ctx: Context,
    campaign: Campaign,
    week: WeekNumber,
    decision: Annotated[
        Literal["homologate", "return", "bulletin"],
        Field(
            description=(
                "homologate: homologa o relatório enviado (as rolagens escondidas da semana "
                "aparecem); return: devolve-o ao Mestre com o motivo; bulletin: publica o "
                "Boletim (depois da homologação; só então a próxima semana abre)"
            )
        ),
    ],
    text: Annotated[
        str,
        Field(max_length=50_000, description="O motivo (return) ou o Boletim (bulletin)"),
    ] = "",
) -> dict[str, Any]:
    """O Árbitro fecha a semana: homologa ou devolve o relatório do Mestre, e publica o
    Boletim. Nada disso se desfaz (uma correção depois é uma nova entrada)."""
    base = f"/weeks/{campaign}/{week}"
    if decision == "homologate":
        return await api_call(ctx, "POST", f"{base}/report/homologate")
    if decision == "return":
        return await api_call(ctx, "POST", f"{base}/report/return", body={"reason": text})
    return await api_call(ctx, "POST", f"{base}/bulletin", body={"text": text})


@tool(read_only=True)
async def world_actions_read(ctx: Context, campaign: Campaign, week: WeekNumber) -> dict[str, Any]:
    """Lê as ações de mundo da semana (três por personagem, §8: não acumulam): de quem, o que o
    jogador escreveu e o que veio de cada uma (`resolution`, vazio enquanto a mesa não
    resolveu). O id de cada uma vai em world_action_resolve."""
    actions = await api_call(ctx, "GET", f"/weeks/{campaign}/{week}/world-actions")
    return {"world_actions": actions}


@tool()
async def world_action_resolve(
    ctx: Context,
    campaign: Campaign,
    week: WeekNumber,
    action: Annotated[UUID, Field(description="A ação de mundo (o id de world_actions_read)")],
    resolution: Annotated[
        str, Field(min_length=1, max_length=4000, description="O que veio da ação")
    ],
) -> dict[str, Any]:
    """O Mestre (ou o Árbitro) diz o que veio de uma ação de mundo, uma vez: a mesma
    resolução de novo não muda nada; outra é recusada (uma resolução não se reescreve). Recusado
    depois que o relatório da semana foi ao Árbitro. Devolve a ação com a resolução."""
    return await api_call(
        ctx,
        "POST",
        f"/weeks/{campaign}/{week}/world-actions/{action}/resolve",
        body={"resolution": resolution},
    )


@tool(read_only=True)
async def week_report_read(ctx: Context, campaign: Campaign, week: WeekNumber) -> dict[str, Any]:
    """Lê o relatório da semana: o estado (rascunho, enviado, devolvido, homologado), o texto
    (para a mesa: Mestre e Árbitro; o jogador o vê depois da homologação) e as correções. `null`
    enquanto ninguém o escreveu."""
    detail = await api_call(ctx, "GET", f"/weeks/{campaign}/{week}")
    return {key: detail[key] for key in ("campaign", "week", "state", "report")}


@tool()
async def week_report_draft(
    ctx: Context,
    campaign: Campaign,
    week: WeekNumber,
    text: Annotated[str, Field(min_length=1, max_length=50_000, description="O relatório inteiro")],
) -> dict[str, Any]:
    """O Mestre escreve (ou reescreve) o rascunho do relatório da semana, sem enviá-lo;
    reescrever substitui o texto. Recusado depois de enviado (até o Árbitro devolvê-lo)."""
    return await api_call(ctx, "PUT", f"/weeks/{campaign}/{week}/report", body={"text": text})


@tool(destructive=True)
async def week_report_send(ctx: Context, campaign: Campaign, week: WeekNumber) -> dict[str, Any]:
    """O Mestre envia ao Árbitro o relatório escrito (não se desfaz: depois dele a semana não
    aceita entradas). Recusado enquanto um combate ou exploração da semana está em andamento, ou
    sem relatório escrito."""
    return await api_call(ctx, "POST", f"/weeks/{campaign}/{week}/report/submit")


TOOLS = [
    week_open,
    scene_open,
    world_actions_read,
    world_action_resolve,
    week_report_read,
    week_report_draft,
    week_report_send,
    week_report_write,
    week_review,
]
