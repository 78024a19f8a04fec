"""The scene log's MCP tools: read the log, declare, announce modifiers, roll (success, damage,
table, contest) and narrate. Each is one operation of sessions/log/api.py, called in-process
with the caller's token (garganta_site.mcp_api); the docstrings are the tools' descriptions,
in Portuguese, for the AI Mestre."""

from typing import Annotated, Any
from uuid import UUID

from mcp.server.mcpserver import Context
from pydantic import Field

from garganta_site.mcp_api import IdempotencyKey, api_call, payload, tool
from sessions.log.api import (
    AnnouncementIn,
    ContestIn,
    DamageRollIn,
    DeclarationIn,
    NarrationIn,
    RollIn,
    TableRollIn,
)

SceneId = Annotated[UUID, Field(description="A cena (o id de campaign_overview ou scene_open)")]


@tool(read_only=True)
async def scene_log_read(
    ctx: Context,
    scene: SceneId,
    after: Annotated[
        str | None,
        Field(
            description="Cursor: só as entradas depois dele (o next_cursor da leitura anterior)",
            max_length=100,
        ),
    ] = None,
    before: Annotated[
        str | None,
        Field(
            description="Cursor: as entradas logo antes dele (o before_cursor de uma leitura)",
            max_length=100,
        ),
    ] = None,
    newest: Annotated[
        bool, Field(description="As últimas entradas (o fim do registro), sem cursor")
    ] = False,
    limit: Annotated[int, Field(ge=1, le=200, description="Quantas entradas, no máximo")] = 50,
) -> dict[str, Any]:
    """Lê a linha do tempo da cena, em ordem: declarações dos jogadores, modificadores anunciados,
    rolagens (com dados, NH efetivo, margem; uma rolagem escondida aparece como escondida para
    quem não pode vê-la) e narração. Sem cursor, do começo (`newest=true`: o fim). Devolve
    `entries`, `next_cursor` (passe-o em `after` para ler só o que veio depois, inclusive o que
    ainda vai acontecer), `has_more` (se já há mais depois dele) e `before_cursor` (passe-o em
    `before` para as anteriores; null quando não há)."""
    return await api_call(
        ctx,
        "GET",
        f"/scenes/{scene}/log",
        query={
            "after": after,
            "before": before,
            "newest": "true" if newest else None,
            "limit": limit,
        },
    )


@tool()
async def declaration_write(
    ctx: Context, scene: SceneId, declaration: DeclarationIn, idempotency_key: IdempotencyKey = ""
) -> dict[str, Any]:
    """O jogador declara o que a sua personagem faz, e com quê (só o dono da personagem).
    Devolve o id da declaração, que o Mestre usa em modifiers_announce e nas rolagens."""
    return await api_call(
        ctx, "POST", f"/scenes/{scene}/declarations", body=payload(declaration), key=idempotency_key
    )


@tool()
async def modifiers_announce(
    ctx: Context,
    scene: SceneId,
    announcement: AnnouncementIn,
    idempotency_key: IdempotencyKey = "",
) -> dict[str, Any]:
    """O Mestre anuncia os modificadores de uma declaração, antes dos dados (rótulo e valor de
    cada um, e uma nota). A rolagem que responde à declaração os aplica."""
    return await api_call(
        ctx,
        "POST",
        f"/scenes/{scene}/announcements",
        body=payload(announcement),
        key=idempotency_key,
    )


@tool()
async def roll_check(
    ctx: Context, scene: SceneId, roll: RollIn, idempotency_key: IdempotencyKey = ""
) -> dict[str, Any]:
    """O servidor rola 3d6 contra um nível (§1.1–1.2): sucesso, falha, crítico e margem.
    `hidden=true` para uma rolagem que só o Mestre e o Árbitro veem até a homologação do
    relatório (uma Observação escondida). Devolve a rolagem com dados, NH efetivo e seu elo na
    cadeia."""
    return await api_call(
        ctx, "POST", f"/scenes/{scene}/rolls", body=payload(roll), key=idempotency_key
    )


@tool()
async def roll_damage(
    ctx: Context, scene: SceneId, damage: DamageRollIn, idempotency_key: IdempotencyKey = ""
) -> dict[str, Any]:
    """O servidor rola uma expressão de dano (2d+1, 1d−1…; §4.9). Num combate, use combat_act:
    o ataque rola o dano e o aplica."""
    return await api_call(
        ctx, "POST", f"/scenes/{scene}/damage-rolls", body=payload(damage), key=idempotency_key
    )


@tool()
async def roll_table(
    ctx: Context, scene: SceneId, table: TableRollIn, idempotency_key: IdempotencyKey = ""
) -> dict[str, Any]:
    """O servidor rola numa tabela do motor (erro crítico, golpe fulminante, pânico…). As
    tabelas, seus dados e suas opções estão em rules_lookup (topic=vocabularies); uma tabela que
    não existe é recusada antes de qualquer dado."""
    return await api_call(
        ctx, "POST", f"/scenes/{scene}/table-rolls", body=payload(table), key=idempotency_key
    )


@tool()
async def roll_contest(
    ctx: Context, scene: SceneId, contest: ContestIn, idempotency_key: IdempotencyKey = ""
) -> dict[str, Any]:
    """O servidor rola uma Disputa Rápida (§1.3) entre dois lados: cada um rola contra o seu
    nível, e vence quem tiver sucesso pela maior margem."""
    return await api_call(
        ctx, "POST", f"/scenes/{scene}/contests", body=payload(contest), key=idempotency_key
    )


@tool()
async def narrate(
    ctx: Context, scene: SceneId, narration: NarrationIn, idempotency_key: IdempotencyKey = ""
) -> dict[str, Any]:
    """O Mestre narra: o texto entra na linha do tempo da cena, visível a todos da mesa."""
    return await api_call(
        ctx, "POST", f"/scenes/{scene}/narrations", body=payload(narration), key=idempotency_key
    )


TOOLS = [
    scene_log_read,
    declaration_write,
    modifiers_announce,
    roll_check,
    roll_damage,
    roll_table,
    roll_contest,
    narrate,
]
