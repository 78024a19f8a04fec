"""The rules' MCP tool: look a rule up (every closed vocabulary, the odds of a level, basic
damage by ST, the derived numbers of a set of attributes), for the campaign's ruleset: GURPS
(the default) or the Xuleta (``ruleset="xuleta5e"``: the odds of a d20 + bonus against a DC or
an AC with an edge; the derived numbers of six abilities, a level and proficiencies). It calls
the API in-process (campaigns.mcp_api). Moved from console.tools (now console.tools)."""

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from campaigns.mcp_api import api_call, payload, tool
from rules.api import DerivedIn, RulesetKey, XuletaEdgeIn, XuletaRollIn, XuletaRulesDerivedIn
from rulesets.registry import GURPS3E, XULETA5E

TOPIC_NEEDS = {
    "odds": ("level",),
    "damage": ("st",),
    "derived": ("attributes",),
}
# The Xuleta's topics need its own arguments.
XULETA_TOPIC_NEEDS = {
    "odds": ("bonus", "dc"),
    "derived": ("character",),
}
MISSING_ARGUMENT = "Para topic={topic}, mande {argument}."
MISSING_FOR_RULESET = "Para topic={topic} com ruleset={ruleset}, mande {argument}."


@tool(read_only=True)
async def rules_lookup(
    ctx: Context,
    topic: Annotated[
        Literal["vocabularies", "odds", "damage", "derived"],
        Field(
            description=(
                "vocabularies: todo vocabulário fechado (manobras e as defesas que cada uma "
                "deixa, opções de Ataque Total, terrenos, locais de acerto com a penalidade, "
                "tabelas com dados e opções, tipos de teste); odds: a chance de um NH (§1.1), "
                "ou na Xuleta a de d20 + bonus contra dc (edge, roll); damage: o dano básico "
                "por ST (§4.9); derived: os derivados de um conjunto de atributos (§2, "
                "§4.6–4.7), ou na Xuleta os de character"
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
    bonus: Annotated[
        int | None, Field(ge=-30, le=60, description="Xuleta, odds: o bônus somado ao d20")
    ] = None,
    dc: Annotated[
        int | None, Field(ge=-30, le=60, description="Xuleta, odds: a CD, ou a CA num ataque")
    ] = None,
    edge: Annotated[
        XuletaEdgeIn, Field(description="Xuleta, odds: vantagem, desvantagem ou nenhuma")
    ] = "none",
    roll: Annotated[
        XuletaRollIn,
        Field(description="Xuleta, odds: check, save ou attack (só o ataque conta o 20 e o 1)"),
    ] = "check",
    character: Annotated[
        XuletaRulesDerivedIn | None,
        Field(
            description="Xuleta, derived: abilities (as seis), level, proficiencies "
            "{skills, saves}, exhaustion, conditions"
        ),
    ] = None,
) -> Any:
    """Consulta as regras do motor, sem rolar nada: os vocabulários que as ferramentas aceitam,
    a chance de sucesso de um NH, o dano básico de uma ST, ou os derivados de uma ficha
    hipotética. Cada resposta cita a seção do cânone. `ruleset`: o sistema da campanha. Na
    Xuleta (`ruleset="xuleta5e"`): odds com bonus, dc, edge e roll (a chance exata em
    `success_exact`, o 20 natural de um ataque em `critical_exact`); derived com character."""
    given = {
        "level": level,
        "st": st,
        "attributes": attributes,
        "bonus": bonus,
        "dc": dc,
        "character": character,
    }
    xuleta = ruleset == XULETA5E
    for argument in (XULETA_TOPIC_NEEDS if xuleta else TOPIC_NEEDS).get(topic, ()):
        if given[argument] is None:
            if xuleta:
                message = MISSING_FOR_RULESET.format(
                    topic=topic, ruleset=ruleset, argument=argument
                )
            else:
                message = MISSING_ARGUMENT.format(topic=topic, argument=argument)
            raise ToolError(message)
    if topic == "vocabularies":
        found = await api_call(ctx, "GET", "/rules/vocabularies", query={"ruleset": ruleset})
        return {"vocabularies": found}
    if topic == "odds":
        if xuleta:
            query = {"ruleset": ruleset, "bonus": bonus, "dc": dc, "edge": edge, "roll": roll}
            return await api_call(ctx, "GET", "/rules/odds", query=query)
        return await api_call(ctx, "GET", "/rules/odds", query={"level": level, "ruleset": ruleset})
    if topic == "damage":
        return await api_call(ctx, "GET", "/rules/damage", query={"st": st, "ruleset": ruleset})
    if xuleta:
        body = {**payload(character), "ruleset": XULETA5E}
        return await api_call(ctx, "POST", "/rules/derived", body=body)
    return await api_call(
        ctx, "POST", "/rules/derived", body=payload(attributes), query={"ruleset": ruleset}
    )


TOOLS = [rules_lookup]
