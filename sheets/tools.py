"""The sheets' MCP tools: the campaign at a glance, and one homologated sheet with its state in
play. Each calls the API in-process with the caller's token (campaigns.mcp_api)."""

from typing import Annotated, Any
from uuid import UUID

from mcp.server.mcpserver import Context
from pydantic import Field

from campaigns.mcp_api import api_call, tool

# How many of a campaign's weeks the overview lists (the newest); the rest are in the weeks API.
OVERVIEW_WEEKS = 3


async def _running(ctx: Context, scene: str) -> list[dict[str, Any]]:
    """The scene's combats and descents still running (/scenes/{id}/trackers)."""
    trackers = await api_call(ctx, "GET", f"/scenes/{scene}/trackers")
    return [t for t in trackers if t["state"] == "running"]


@tool(read_only=True)
async def campaign_overview(ctx: Context) -> dict[str, Any]:
    """O ponto de partida: quem é você (papel em cada campanha: jogador, mestre ou arbitro, e as
    personagens que joga), as fichas de cada campanha (ids para sheet_read e para as cenas; quem
    joga cada uma, `owner`, e o tipo: personagem de jogador, NPC nomeado, bicho), as semanas
    mais recentes com seu estado, as cenas abertas com as personagens de cada uma e os combates
    e explorações em andamento delas (`running`: o `kind` diz a ferramenta do id — combat:
    combat_read (GURPS); fight, um combate que o sistema de regras da campanha conduz inteiro —
    o `ruleset`/`ruleset_label` dela: a Xuleta (xuleta5e), o Sistema 001 (sistema001) —:
    fight_read; exploration: exploration_read) e a cadeia de rolagens recalculada (íntegra, ou
    o primeiro elo quebrado)."""
    me = await api_call(ctx, "GET", "/me")
    weeks = await api_call(ctx, "GET", "/weeks")
    scenes = await api_call(ctx, "GET", "/scenes")
    sheets = await api_call(ctx, "GET", "/sheets")
    campaigns = []
    for membership in me["memberships"]:
        slug = membership["campaign"]
        own_weeks = [w for w in weeks if w["campaign"] == slug]
        campaigns.append(
            {
                **membership,
                "weeks": own_weeks[-OVERVIEW_WEEKS:],
                "open_scenes": [
                    {**s, "running": await _running(ctx, s["id"])}
                    for s in scenes
                    if s["status"] == "open" and s["campaign"] == slug
                ],
                "sheets": [s for s in sheets if s["campaign"] == slug],
                "roll_chain": await api_call(ctx, "GET", "/rolls/verify", query={"campaign": slug}),
            }
        )
    return {"username": me["username"], "name": me["name"], "campaigns": campaigns}


@tool(read_only=True)
async def sheet_read(
    ctx: Context,
    character: Annotated[UUID, Field(description="A personagem (id de campaign_overview)")],
) -> dict[str, Any]:
    """A ficha homologada e o estado em jogo: quem a joga (`owner`) e o tipo da personagem,
    atributos, vantagens, perícias com NH e chance de sucesso, itens, PV e PF perdidos,
    condições (cambaleando, atordoado, inconsciente, morto) e os derivados (Deslocamento,
    Esquiva, Aparar, Bloquear, PD, RD, Carga), cada um pelo cânone; em `readings`, os números
    que dependem de uma leitura provisória, com a pendência do Árbitro que a guarda.

    Numa campanha da Xuleta (`ruleset: xuleta5e`): `data` (as entradas da ficha: abilities
    str/dex/con/int/wis/cha 1–30, level, proficiencies, ac, max_hp, hit_die, attacks,
    spellcasting…), `state` (hp_lost, temp_hp, exhaustion 0–6, conditions, death_saves…),
    `sheet` (o que testes e combate leem: modifiers, skills, saves, passive_perception,
    attacks com bonus e damage…) e `numbers` (cada número com a conta e a seção do texto)."""
    return await api_call(ctx, "GET", f"/sheets/{character}")


TOOLS = [campaign_overview, sheet_read]
