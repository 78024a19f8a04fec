"""The scene log's MCP tools: read the log, declare, announce modifiers, roll (success, damage,
table, contest) and narrate. Each is one operation of sessions/log/api.py, called in-process
with the caller's token (campaigns.mcp_api); the docstrings are the tools' descriptions,
in Portuguese, for the AI Mestre."""

from typing import Annotated, Any
from uuid import UUID

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from campaigns.mcp_api import IdempotencyKey, api_call, payload, step_key, tool
from sessions.log.api import (
    AnnouncementIn,
    ContestIn,
    DamageRollIn,
    DeclarationIn,
    NarrationIn,
    RollIn,
    TableRollIn,
)
from sessions.log.scene_api import StateChangeIn

STATE_CHANGE_REFUSED = "state_changes nº {number} («{reason}») recusada, e nada foi escrito:"
NOTHING_TO_NARRATE = "Mande a narração, uma mudança de estado (state_changes), ou as duas."

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


GROUP_TAKES = ("skill", "ability", "roll", "dc", "edge", "light", "hidden")
GROUP_REFUSES = "Num teste de grupo (group), roll.{field} não vale: cada um rola {why}."
GROUP_WHY = {
    "character": "(as personagens estão em group)",
    "declaration": "sem declaração",
    "base_level": "com o bônus da sua ficha",
    "modifiers": "com a vantagem ou desvantagem (edge), sem modificadores",
    "attribute": "a característica em ability",
    "kind": "um teste (roll: check)",
    "difficulty": "com o bônus da sua ficha",
    "new_skill": "com o bônus da sua ficha",
    "label": "com o nome da perícia ou característica",
}


@tool()
async def roll_check(
    ctx: Context,
    scene: SceneId,
    roll: RollIn,
    group: Annotated[
        list[UUID] | None,
        Field(
            min_length=2,
            max_length=12,
            description="Xuleta, teste de grupo («Proves de grup»): as personagens da cena que "
            "fazem todas o mesmo; cada uma rola o teste de roll (skill ou ability, dc, edge, "
            "hidden) com o bônus da sua ficha, e o grupo consegue se ao menos metade consegue",
        ),
    ] = None,
    idempotency_key: IdempotencyKey = "",
) -> dict[str, Any]:
    """O servidor rola 3d6 (§1.1–1.2): sucesso, falha, crítico e margem. Para uma personagem
    com ficha, diga a perícia (`skill`, pelo nome) ou o atributo (`attribute`: st, dx, iq, ht,
    will) e o servidor lê o NH da ficha homologada e do estado (fadiga baixa a ST, §6.2), ou o
    melhor pré-definido (§3.3) se ela não tem a perícia; não mande `base_level` (se vier e não
    conferir, é recusado). Um nome que nem a ficha nem o catálogo do Árbitro conhecem é
    recusado sem rolar, com os nomes mais próximos («você quis dizer Rastreamento (ficha, 13)?»);
    só com `new_skill=true` (uma perícia nova mesmo), `attribute` e `difficulty` dão o
    pré-definido pela regra geral. `base_level` só para criatura ou NPC sem ficha. `level_text` diz de
    onde veio o nível («Escalada 9 por pré-definido DX−5»). `hidden=true` para uma rolagem que
    só o Mestre e o Árbitro veem até a homologação do relatório (uma Observação escondida).
    Devolve a rolagem com dados, NH efetivo e seu elo na cadeia. Numa campanha da Xuleta
    (`ruleset` xuleta5e de campaign_overview): o servidor rola d20 contra `dc` (obrigatória: a
    CD, ou a CA do alvo num ataque); `roll` check (com `skill` ou `ability`), save (com
    `ability`) ou attack (`skill` = o nome do ataque da ficha); `edge` a vantagem ou
    desvantagem que o Mestre dá; os estados e o esgotamento da personagem dão a sua, e o
    motivo de cada uma fica em `details.level.reasons`; `light` a luz de um teste pela vista
    (dim: desvantagem em Percepció; darkness: falha sem rolar, salvo visão no escuro da
    ficha); `attribute` e `kind` são do GURPS.
    Teste de grupo da Xuleta: `group` com as personagens (e `roll` sem `character`); cada uma
    rola na cadeia e o resultado do grupo entra no registro como uma rolagem `group` (`total`
    = quantos conseguiram); devolve `result` e `members`."""
    if group is not None:
        sent = roll.model_dump(exclude_unset=True)
        for field in sent:
            if field not in GROUP_TAKES:
                raise ToolError(GROUP_REFUSES.format(field=field, why=GROUP_WHY.get(field, "")))
        body = {key: value for key, value in payload(roll).items() if key in GROUP_TAKES}
        body["characters"] = [str(member) for member in group]
        return await api_call(
            ctx, "POST", f"/scenes/{scene}/group-checks", body=body, key=idempotency_key
        )
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
    """O servidor rola numa tabela do motor (erro crítico, golpe fulminante, pânico…). Cada
    opção está no esquema (`options`), com a tabela que a usa; uma opção que a tabela não usa é
    recusada, nomeada, antes de qualquer dado. Uma tabela que segue uma rolagem leva o id dela
    em `follows`: a tabela fica com o número e a personagem dela e, na Verificação de Pânico
    (fright_check, §5b), soma a margem pela qual ela falhou (não mande margin_of_failure; depois
    de uma Verificação que passou, não se rola)."""
    return await api_call(
        ctx, "POST", f"/scenes/{scene}/table-rolls", body=payload(table), key=idempotency_key
    )


@tool()
async def roll_contest(
    ctx: Context, scene: SceneId, contest: ContestIn, idempotency_key: IdempotencyKey = ""
) -> dict[str, Any]:
    """O servidor rola uma Disputa Rápida (§1.5) entre dois lados: cada um rola contra o seu
    nível; passa um e falha o outro, vence quem passou; senão a maior margem; empate, ninguém.
    Cada lado é uma personagem da cena (`character` e `skill` ou `attribute`: o nível vem da
    ficha) ou uma criatura/NPC sem ficha (`name`, `label` e `base_level` do Mestre).
    Modificadores anunciados: com `declaration`, o lado A é a personagem que declarou e rola com
    os modificadores anunciados para a declaração (modifiers_announce), e só com eles (os
    `modifiers` do lado A são recusados; os do lado B valem); a resposta diz em
    `details.announced_side` ("a") e em `announcement`. Uma declaração se responde uma vez: outra
    disputa para ela é recusada (HTTP 409); repetir o mesmo pedido com a mesma
    `idempotency_key` devolve a mesma disputa, sem rolar. Na Xuleta: cada lado rola d20 + o
    bônus (`skill` ou `ability`, `edge`), vence o total mais alto e o empate deixa tudo como
    estava."""
    return await api_call(
        ctx, "POST", f"/scenes/{scene}/contests", body=payload(contest), key=idempotency_key
    )


@tool()
async def narrate(
    ctx: Context,
    scene: SceneId,
    narration: NarrationIn | None = None,
    state_changes: Annotated[
        list[StateChangeIn],
        Field(
            max_length=10,
            description="PV e fadiga que personagens da cena perdem ou recuperam fora de combate "
            "(o −1 PV do Pânico, a fadiga de uma marcha): negativo perdido, positivo "
            "recuperado, com o motivo; entram no estado e no registro da cena",
        ),
    ] = [],  # noqa: B006 (pydantic copies the default)
    idempotency_key: IdempotencyKey = "",
) -> dict[str, Any]:
    """O Mestre narra: o texto entra na linha do tempo da cena, visível a todos da mesa. Com
    `state_changes`, o que a cena fez aos PV e à fadiga fora de combate entra no estado das
    personagens na hora (a ficha já mostra) e no registro («Jurado: −1 PV (Pânico)»); num
    combate em andamento, use o ajuste de combat_act. Na Xuleta são PC, sem fadiga (o
    esgotamento é um estado); um sistema sem fichas (o Sistema 001) recusa a mudança: os PV
    dele mudam no combate. Uma mudança recusada recusa o pedido inteiro: nada dele fica
    escrito. Devolve a narração e cada mudança."""
    if narration is None and not state_changes:
        raise ToolError(NOTHING_TO_NARRATE)
    # Each change tried first, keeping nothing: a refused one leaves no narration or change
    # of the others behind (and every key free for the corrected call).
    for number, change in enumerate(state_changes, 1):
        try:
            await api_call(
                ctx, "POST", f"/scenes/{scene}/state-changes", body=payload(change), dry_run=True
            )
        except ToolError as refused:
            said = STATE_CHANGE_REFUSED.format(number=number, reason=change.reason)
            raise ToolError(f"{said} {refused}") from refused
    answer: dict[str, Any] = {}
    if narration is not None:
        answer["narration"] = await api_call(
            ctx, "POST", f"/scenes/{scene}/narrations", body=payload(narration), key=idempotency_key
        )
    answer["state_changes"] = [
        await api_call(
            ctx,
            "POST",
            f"/scenes/{scene}/state-changes",
            body=payload(change),
            key=step_key(idempotency_key, f"estado-{i}"),
        )
        for i, change in enumerate(state_changes, 1)
    ]
    return answer


@tool(destructive=True)
async def scene_close(ctx: Context, scene: SceneId) -> dict[str, Any]:
    """Encerra a cena (só Mestre ou Árbitro): nada mais entra no registro dela — declarações,
    modificadores, rolagens, narração. Recusado enquanto um combate ou uma exploração da cena
    estiver em andamento (a recusa diz qual). Encerrar de novo não muda nada."""
    return await api_call(ctx, "POST", f"/scenes/{scene}/close")


TOOLS = [
    scene_log_read,
    declaration_write,
    modifiers_announce,
    roll_check,
    roll_damage,
    roll_table,
    roll_contest,
    narrate,
    scene_close,
]
