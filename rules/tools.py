"""The rules' MCP tool: look a rule up (every closed vocabulary, the odds of a level, basic
damage by ST, the derived numbers of a set of attributes). It calls the API in-process
(campaigns.mcp_api). Moved from console.tools (now console.tools)."""

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from campaigns.mcp_api import api_call, payload, tool
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


TOOLS = [rules_lookup]
