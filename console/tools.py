"""The registers' MCP tools: list, read and open pendências (open one for the Árbitro where the
canon has no number) and decisions (the rules' own, rules_lookup, is in rules.tools). Each calls the API in-process (campaigns.mcp_api)."""

from typing import Annotated, Any, Literal
from uuid import UUID

from mcp.server.mcpserver import Context
from pydantic import Field

from campaigns.mcp_api import IdempotencyKey, api_call, payload, tool
from console.api import DecisionIn, DivergenceIn


@tool()
async def divergence_open(
    ctx: Context, divergence: DivergenceIn, idempotency_key: IdempotencyKey = ""
) -> dict[str, Any]:
    """Abre uma pendência para o Árbitro: onde o cânone não tem número, ou duas leituras
    disputam (a seção, a página, os dois lados e a leitura proposta). O Árbitro decide."""
    return await api_call(
        ctx, "POST", "/console/divergences", body=payload(divergence), key=idempotency_key
    )


@tool(read_only=True)
async def divergence_list(
    ctx: Context,
    status: Annotated[
        Literal["open", "resolved"] | None,
        Field(description="open: as abertas; resolved: as resolvidas; omita: todas"),
    ] = None,
) -> dict[str, Any]:
    """Lista as pendências das suas campanhas (abertas e resolvidas), da mais nova: título,
    seção, os dois lados, a leitura proposta e, se resolvida, a resolução e a decisão."""
    found = await api_call(ctx, "GET", "/console/divergences", query={"status": status})
    return {"divergences": found}


@tool(read_only=True)
async def divergence_read(
    ctx: Context,
    divergence: Annotated[UUID, Field(description="A pendência (o id de divergence_list)")],
) -> dict[str, Any]:
    """Lê uma pendência inteira: onde foi achada, os dois lados, a leitura, quem abriu e quando,
    e o que o Árbitro resolveu."""
    return await api_call(ctx, "GET", f"/console/divergences/{divergence}")


@tool(read_only=True)
async def decision_list(ctx: Context) -> dict[str, Any]:
    """Lista as decisões do Árbitro das suas campanhas (numeradas e datadas): o que fixaram, a
    seção, a regra da casa que mudaram, qual substituem."""
    return {"decisions": await api_call(ctx, "GET", "/console/decisions")}


@tool(read_only=True)
async def decision_read(
    ctx: Context,
    decision: Annotated[UUID, Field(description="A decisão (o id de decision_list)")],
) -> dict[str, Any]:
    """Lê uma decisão do Árbitro inteira: o texto, a data, o que fixou e as pendências que
    resolveu."""
    return await api_call(ctx, "GET", f"/console/decisions/{decision}")


@tool()
async def decision_open(
    ctx: Context, decision: DecisionIn, idempotency_key: IdempotencyKey = ""
) -> dict[str, Any]:
    """Registra uma decisão (só o Árbitro): título, texto, seção, o que fixa, as pendências que
    resolve (`resolves`) e a decisão que substitui. Uma decisão não se edita: uma correção depois
    é uma nova entrada."""
    return await api_call(
        ctx, "POST", "/console/decisions", body=payload(decision), key=idempotency_key
    )


TOOLS = [
    divergence_open,
    divergence_list,
    divergence_read,
    decision_list,
    decision_read,
    decision_open,
]
