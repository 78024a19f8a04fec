"""The MCP tools of a fight its ruleset plays whole (the sistema001's, the Xuleta's): start it with everyone's
numbers, a late entrant, one combatant's whole turn, a condition, an object, the state, the end.
Each is one operation of sessions/native_combat/api.py, called in-process with the caller's
token (campaigns.mcp_api); the arguments are the API's schemas, so their enums (conditions,
maneuvers, situations, damage types, attack kinds, turn plans…) are published here too."""

from typing import Annotated, Any
from uuid import UUID

from mcp.server.mcpserver import Context
from pydantic import Field

from campaigns.mcp_api import IdempotencyKey, api_call, payload, tool
from sessions.native_combat.api import (
    FightConditionIn,
    FighterIn,
    FightObjectIn,
    TurnActionIn,
    TurnPlanKey,
)

FightId = Annotated[UUID, Field(description="O combate (o id de fight_start)")]


@tool()
async def fight_start(
    ctx: Context,
    scene: Annotated[UUID, Field(description="A cena do combate")],
    combatants: Annotated[
        list[FighterIn],
        Field(
            min_length=2,
            max_length=30,
            description="Cada combatente com os números que o Mestre dá — Sistema 001: os seis "
            "atributos, o tamanho do dado de cada um, PV, lado, resistências, armas; Xuleta: as "
            "seis característiques, CA, PC, ataques, resistências, grupo, surpresa (uma "
            "personagem da cena sem números vem da ficha homologada)",
        ),
    ],
    tie_order: Annotated[
        list[int],
        Field(
            max_length=30,
            description="Xuleta: a ordem do Mestre para empates de iniciativa (posições em "
            "combatants, 0 primeiro); vazio: os empatados rolam de novo",
        ),
    ] = [],  # noqa: B006 - copied
    idempotency_key: IdempotencyKey = "",
) -> dict[str, Any]:
    """Sistema 001 (capítulo de combate): começa um combate numa cena. O servidor rola a
    Iniciativa de todos (Dado de Mobilidade + Mobilidade + modificador; empates pela maior
    Mobilidade, depois nova rolagem só entre os empatados) e abre o turno do primeiro.
    Xuleta (§2.1 Iniciativa): uma prova de Destresa de cada um, uma só por grupo de monstros
    iguais (group), da maior para a menor; empates pela ordem do Mestre (tie_order) ou nova
    rolagem; quem está surpreso perde o primeiro turno. Devolve a ordem com cada Iniciativa, PV
    e condições, e o id de cada combatente."""
    body = {"scene": str(scene), "combatants": [payload(c) for c in combatants]}
    if tie_order:
        body["tie_order"] = list(tie_order)
    return await api_call(ctx, "POST", "/fights", body=body, key=idempotency_key)


@tool()
async def fight_join(
    ctx: Context, fight: FightId, combatant: FighterIn, idempotency_key: IdempotencyKey = ""
) -> dict[str, Any]:
    """Um combatente entra no combate já começado e rola a Iniciativa agora. Sistema 001
    (Entrada Tardia): só age a partir da rodada seguinte. Xuleta: toma o seu lugar na ordem e
    age ainda nesta rodada se esse lugar não passou (senão, a partir da seguinte); o texto do
    evento diz qual. Devolve o id dele e o estado do combate."""
    return await api_call(
        ctx, "POST", f"/fights/{fight}/combatants", body=payload(combatant), key=idempotency_key
    )


@tool()
async def fight_turn(
    ctx: Context,
    fight: FightId,
    combatant: Annotated[UUID, Field(description="Quem age: o combatente da vez")],
    plan: TurnPlanKey = "",
    actions: Annotated[list[TurnActionIn], Field(max_length=12)] = [],  # noqa: B006 - copied
    idempotency_key: IdempotencyKey = "",
) -> dict[str, Any]:
    """O turno inteiro de um combatente numa chamada: o plano (1 Movimento + 1 Execução, 2
    Movimentos ou 1 Completa; vazio passa o turno) e as ações. Num ataque o servidor rola a
    camuflagem, o teste de furtividade, o ataque e a defesa do alvo, compara (acerto, raspão,
    falha), aplica o crítico, as resistências, vulnerabilidades e imunidades por tipo de dano
    e tira os PV; uma manobra substitui o dano pelo seu efeito (a condição dura até o início do
    próximo turno do alvo). quebrar golpeia um objeto (ND Estrutural, dano mínimo, desgaste),
    teste_de_forca tenta superar o ND. Ataque Interno (attack_kind=interno, com nd,
    resisted_with e o efeito em damage/condition): o alvo faz o teste de resistência, sem ataque
    nem Defesa. O teste do Ataque Furtivo e o do Ataque Interno aguardam a decisão do Árbitro
    sobre empatar com o ND (veja arbitro em fight_read): sem ela, recusa (awaits_arbitro) sem
    rolar. Depois, o início do turno seguinte: o que termina antes dele e o dano de Sangrando e
    Incendiado.

    Xuleta (§2 El teu torn, §3 Accions en combat), as partes do turno na ordem: move (metros;
    leaves_reach_of: quem pode dar o atac d'oportunitat com a reação), uma ação (attack — um
    item por ataque, até attacks_per_action; grapple/shove substituem um; cast_spell com
    save/dc/damage/half_on_save/condition/concentration ou spell_attack; dash, disengage, dodge,
    help, hide, ready, search, use_object, stabilize, escape_grapple), offhand_attack ou
    bonus_action (com source) como ação adicional, interact (a interação livre), stand_up,
    drop_prone, reaction (by: quem reage no turno deste, com o que preparou ou uma magia de
    reação; uma por rodada). O servidor rola o ataque contra a CA (com cobertura, vantagem/desvantagem dos
    estados, 20 e 1 naturais, crítico a 1,5 m de Paralitzat/Inconscient), o dano (crítico: o
    dobro de dados), resistência, vulnerabilidade e imunidade, PC temporários, 0 PC, morte
    instantânea, a salvação de concentração; no início de cada turno a 0 PC, a salvação contra
    a morte. Devolve cada linha do registro e o estado."""
    body = {
        "combatant": str(combatant),
        "plan": plan,
        "actions": [payload(action) for action in actions],
    }
    return await api_call(ctx, "POST", f"/fights/{fight}/turns", body=body, key=idempotency_key)


@tool()
async def fight_condition(
    ctx: Context, fight: FightId, condition: FightConditionIn, idempotency_key: IdempotencyKey = ""
) -> dict[str, Any]:
    """Aplica uma condição a um combatente (com a duração em rodadas que a origem diz; sem ela,
    até o início do segundo turno consecutivo do alvo) ou a remove (remove=true). A mesma
    condição não se acumula: só a duração se renova. Xuleta: os estados duram até algo os tirar
    (ou rounds: até o início do turno do alvo na rodada atual + rounds); exhaustion sobe level níveis (remove: desce)."""
    return await api_call(
        ctx, "POST", f"/fights/{fight}/conditions", body=payload(condition), key=idempotency_key
    )


@tool()
async def fight_object(
    ctx: Context, fight: FightId, object: FightObjectIn, idempotency_key: IdempotencyKey = ""
) -> dict[str, Any]:
    """Põe um objeto ou estrutura no combate: Tamanho, Estrutura e Dureza do material dão o ND
    Estrutural; devolve a chave do objeto, para quebrar e teste_de_forca em fight_turn."""
    return await api_call(
        ctx, "POST", f"/fights/{fight}/objects", body=payload(object), key=idempotency_key
    )


@tool(read_only=True)
async def fight_read(ctx: Context, fight: FightId) -> dict[str, Any]:
    """O estado do combate: rodada, de quem é a vez, a ordem com cada Iniciativa, PV, condições
    e quando cada uma termina, as defesas de cada um (defences: resistências, vulnerabilidades e
    imunidades a tipos de dano e a condições, imune a efeitos mundanos, redução de dano), os objetos com seu ND, as leituras em uso, as regras que dependem
    do Árbitro (arbitro: a resposta em vigor e a decisão que a fixou, ou que ainda aguarda) e o
    registro."""
    return await api_call(ctx, "GET", f"/fights/{fight}")


@tool(destructive=True)
async def fight_end(
    ctx: Context, fight: FightId, idempotency_key: IdempotencyKey = ""
) -> dict[str, Any]:
    """Encerra o combate (não se desfaz): toda condição termina com ele."""
    return await api_call(ctx, "POST", f"/fights/{fight}/end", key=idempotency_key)


TOOLS = [fight_start, fight_join, fight_turn, fight_condition, fight_object, fight_read, fight_end]
