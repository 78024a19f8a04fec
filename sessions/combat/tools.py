"""The combat's MCP tools: start a fight with everyone in it, add a combatant, act (a turn, a
maneuver, an attack, a defence, an adjustment), read the tracker, end the fight. Each is one or
a few operations of sessions/combat/api.py, called in-process with the caller's token
(campaigns.mcp_api)."""

from typing import Annotated, Any, Literal
from uuid import UUID

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, ConfigDict, Field

from campaigns.mcp_api import IdempotencyKey, api_call, payload, step_key, tool
from sessions.combat.api import (
    AdjustIn,
    AttackIn,
    CombatantIn,
    CombatDeclareIn,
    DefenceAnswerIn,
    DefenceChoiceIn,
    DefenceWaitIn,
    EndIn,
    ManeuverIn,
    TerrainKey,
    TurnIn,
)

CombatId = Annotated[UUID, Field(description="O combate (o id de combat_start)")]


@tool()
async def combat_start(
    ctx: Context,
    scene: Annotated[UUID, Field(description="A cena do combate")],
    characters: Annotated[
        list[UUID] | None,
        Field(
            max_length=50,
            description="As personagens da cena que lutam (sem a lista: todas as da cena)",
        ),
    ] = None,
    creatures: Annotated[
        list[CombatantIn],
        Field(max_length=30, description="Criaturas e PdMs, cada um com seus números e armas"),
    ] = [],  # noqa: B006 - pydantic copies a default; the tool never mutates it
    terrain: Annotated[
        list[TerrainKey] | None, Field(max_length=5, description="O terreno (§4.12)")
    ] = None,
    boss: Annotated[
        int | None,
        Field(ge=0, le=29, description="Qual das criaturas (índice em creatures) é o chefe"),
    ] = None,
    idempotency_key: IdempotencyKey = "",
) -> dict[str, Any]:
    """Começa um combate numa cena com todos nele: as personagens (com os números da ficha
    homologada e do estado em jogo), as criaturas e PdMs, o terreno e o chefe. O servidor rola a
    ordem dos turnos. Devolve o estado do combate com o seu id e o de cada combatente."""
    combat = await api_call(
        ctx,
        "POST",
        "/combats",
        body={"scene": str(scene), "characters": characters and [str(c) for c in characters]},
        key=step_key(idempotency_key, "combate"),
    )
    try:
        added = []
        for index, creature in enumerate(creatures):
            answer = await api_call(
                ctx,
                "POST",
                f"/combats/{combat['id']}/combatants",
                body=payload(creature),
                key=step_key(idempotency_key, f"criatura-{index}"),
            )
            added.append(answer["id"])
            combat = answer["combat"]
        if terrain is not None or boss is not None:
            declared = {"terrain": terrain}
            if boss is not None and boss < len(added):
                declared["boss"] = added[boss]
            combat = await api_call(
                ctx,
                "POST",
                f"/combats/{combat['id']}/declarations",
                body=declared,
                key=step_key(idempotency_key, "declaracao"),
            )
    except ToolError as refusal:
        # Nothing is rolled before the first turn: the combat this call began ends at once,
        # so a refused creature leaves no half-made fight holding the scene.
        await api_call(
            ctx,
            "POST",
            f"/combats/{combat['id']}/end",
            body={"spoils": ""},
            key=step_key(idempotency_key, "desfeito"),
        )
        raise ToolError(f"{refusal} {UNDONE}") from None
    return combat


@tool()
async def combat_add(
    ctx: Context, combat: CombatId, combatant: CombatantIn, idempotency_key: IdempotencyKey = ""
) -> dict[str, Any]:
    """Põe um combatente num combate em andamento: uma personagem da cena (só o id) ou uma
    criatura ou PdM com seus números. Devolve o id do combatente e o estado do combate."""
    return await api_call(
        ctx,
        "POST",
        f"/combats/{combat}/combatants",
        body=payload(combatant),
        key=idempotency_key,
    )


class _Act(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TurnAct(_Act):
    act: Literal["turn"]
    turn: TurnIn


class FledAct(_Act):
    act: Literal["fled"]
    combatant: UUID = Field(description="O combatente que fugiu")


class ChangeManeuverAct(_Act):
    act: Literal["change_maneuver"]
    maneuver: ManeuverIn


class NextTurnAct(_Act):
    act: Literal["next_turn"]


class ManeuverAct(_Act):
    act: Literal["maneuver"]
    maneuver: ManeuverIn


class AttackAct(_Act):
    act: Literal["attack"]
    attack: AttackIn


class DefenceAct(_Act):
    act: Literal["defence"]
    combatant: UUID = Field(description="A sua personagem no combate (o id do combatente)")
    defence: DefenceChoiceIn


class DefenceAnswerAct(_Act):
    act: Literal["defence_answer"]
    combatant: UUID = Field(description="A sua personagem atacada (o id do combatente)")
    answer: DefenceAnswerIn


class DefenceWaitAct(_Act):
    act: Literal["defence_wait"]
    wait: DefenceWaitIn


class AdjustAct(_Act):
    act: Literal["adjust"]
    adjustment: AdjustIn


class DeclareAct(_Act):
    act: Literal["declare"]
    declaration: CombatDeclareIn


CombatAct = Annotated[
    TurnAct
    | ChangeManeuverAct
    | FledAct
    | NextTurnAct
    | ManeuverAct
    | AttackAct
    | DefenceAct
    | DefenceAnswerAct
    | DefenceWaitAct
    | AdjustAct
    | DeclareAct,
    Field(discriminator="act"),
]

# Each act: its method and path under the combat, and the field of the act that is the body.
UNDONE = (
    "O combate que esta chamada começou foi encerrado antes de qualquer dado; corrija e chame "
    "combat_start de novo com outra idempotency_key."
)

ACTS = {
    "turn": ("POST", "/act", "turn"),
    "change_maneuver": ("PUT", "/maneuvers", "maneuver"),
    "next_turn": ("POST", "/turns", None),
    "maneuver": ("POST", "/maneuvers", "maneuver"),
    "attack": ("POST", "/attacks", "attack"),
    "adjust": ("POST", "/adjustments", "adjustment"),
    "declare": ("POST", "/declarations", "declaration"),
    "defence_wait": ("PUT", "/defence-wait", "wait"),
}


def _act_request(combat: UUID, act) -> tuple[str, str, Any]:
    base = f"/combats/{combat}"
    if act.act == "defence":
        return "POST", f"{base}/combatants/{act.combatant}/defence", payload(act.defence)
    if act.act == "defence_answer":
        path = f"{base}/combatants/{act.combatant}/defence/answer"
        return "POST", path, payload(act.answer)
    if act.act == "fled":
        return "POST", f"{base}/combatants/{act.combatant}/fled", None
    method, path, field = ACTS[act.act]
    return method, base + path, payload(getattr(act, field)) if field else None


@tool()
async def combat_act(
    ctx: Context, combat: CombatId, act: CombatAct, idempotency_key: IdempotencyKey = ""
) -> dict[str, Any]:
    """Um ato do combate (`act` diz qual). O principal é turn: o turno inteiro de um
    combatente numa chamada — passa-lhe o turno (na ordem), a manobra com suas opções e o
    ataque (o servidor rola ataque, defesa, dano e os testes de atordoamento e de 0 PV, e aplica
    os PV; contra a personagem de um jogador, o ataque que acerta para antes da defesa e
    aguarda a resposta dele: attack.awaits_defence); com turn.dry_run=true, só a prévia: o NH efetivo com cada modificador e sua §, e as
    defesas do alvo, sem rolar nada. Os outros: change_maneuver (corrige a manobra antes do
    primeiro dado), fled (o combatente fugiu: sai da ordem, guarda o estado), next_turn,
    maneuver e attack (os passos do turno um a um), defence (o jogador deixa uma escolha
    «decidir por mim»), defence_answer (o jogador responde ao ataque que espera a defesa da
    sua personagem: dodge, parry, block ou none), defence_wait (o prazo do Mestre para essa
    resposta), adjust (PV que o motor não rola, com o motivo), declare (terreno e chefe). A
    resposta lista cada dado rolado, em ordem, e o estado do combate."""
    method, path, body = _act_request(combat, act)
    return await api_call(ctx, method, path, body=body, key=idempotency_key)


@tool(read_only=True)
async def combat_read(ctx: Context, combat: CombatId) -> dict[str, Any]:
    """O estado do combate: rodada, de quem é a vez, cada combatente com PV, defesas, manobra,
    efeitos e condições, os eventos em ordem, e pending_defences: cada ataque que acertou e
    aguarda a defesa de um jogador (§4.6), com as respostas dele, total e chance."""
    return await api_call(ctx, "GET", f"/combats/{combat}")


@tool(destructive=True)
async def combat_end(
    ctx: Context, combat: CombatId, end: EndIn, idempotency_key: IdempotencyKey = ""
) -> dict[str, Any]:
    """Encerra o combate (não se desfaz): o estado de cada personagem fica na ficha, e os
    despojos, no registro."""
    return await api_call(
        ctx, "POST", f"/combats/{combat}/end", body=payload(end), key=idempotency_key
    )


TOOLS = [combat_start, combat_add, combat_act, combat_read, combat_end]
