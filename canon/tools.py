"""The rules' MCP tools: look a rule up (every closed vocabulary, the odds of a level, basic
damage by ST, the derived numbers of a set of attributes); the registers: list, read and open
pendências (open one for the Árbitro where the canon has no number) and decisions. Each calls the API in-process (campaigns.mcp_api)."""

from typing import Annotated, Any, Literal
from uuid import UUID

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from campaigns.mcp_api import IdempotencyKey, api_call, payload, tool
from console.api import DecisionIn, DivergenceIn
from rules.api import DerivedIn, RulesetKey
from rulesets.registry import GURPS3E

TOPIC_NEEDS = {
    "odds": "level",
    "damage": "st",
    "derived": "attributes",
}
MISSING_ARGUMENT = "Para topic={topic}, mande {argument}."


@tool(read_only=True)
async def rules_lookup(
    ctx: Context,
    topic: Annotated[
        Literal["vocabularies", "odds", "damage", "derived"],
        Field(
            description=(
                "vocabularies: todo vocabulário fechado (manobras e as defesas que cada uma "
                "deixa, opções de Ataque Total, terrenos, locais de acerto com a penalidade, "
                "tabelas com dados e opções, tipos de teste); odds: a chance de um NH (§1.1); "
                "damage: o dano básico por ST (§4.9); derived: os derivados de um conjunto de "
                "atributos (§2, §4.6–4.7)"
            )
        ),
    ],
    level: Annotated[int | None, Field(ge=-100, le=100, description="Para odds: o NH")] = None,
    st: Annotated[int | None, Field(ge=1, le=1000, description="Para damage: a ST")] = None,
    attributes: Annotated[
        DerivedIn | None, Field(description="Para derived: atributos, carga, armadura…")
    ] = None,
    ruleset: Annotated[
        RulesetKey,
        Field(description="O sistema de regras da campanha (`ruleset` de campaign_overview)"),
    ] = GURPS3E,
) -> Any:
    """Consulta as regras do motor, sem rolar nada: os vocabulários que as ferramentas aceitam,
    a chance de sucesso de um NH, o dano básico de uma ST, ou os derivados de uma ficha
    hipotética. Cada resposta cita a seção do cânone. `ruleset`: o sistema da campanha."""
    needed = TOPIC_NEEDS.get(topic)
    if needed and {"level": level, "st": st, "attributes": attributes}[needed] is None:
        raise ToolError(MISSING_ARGUMENT.format(topic=topic, argument=needed))
    if topic == "vocabularies":
        found = await api_call(ctx, "GET", "/rules/vocabularies", query={"ruleset": ruleset})
        return {"vocabularies": found}
    if topic == "odds":
        return await api_call(ctx, "GET", "/rules/odds", query={"level": level, "ruleset": ruleset})
    if topic == "damage":
        return await api_call(ctx, "GET", "/rules/damage", query={"st": st, "ruleset": ruleset})
    return await api_call(
        ctx, "POST", "/rules/derived", body=payload(attributes), query={"ruleset": ruleset}
    )


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
    rules_lookup,
    divergence_open,
    divergence_list,
    divergence_read,
    decision_list,
    decision_read,
    decision_open,
]
