"""Issue 23's proof through the MCP tools alone: an AI Mestre runs a sistema001 fight of four
rounds — a graze, a critical on the highest face, a resisted damage type, a maneuver, two
conditions ending on time, a late entrant tied on Iniciativa, an object broken — every die
rolled by the server (scripted here) and in the campaign's chain."""

from __future__ import annotations

import pytest

from campaigns.auth import api_token_create
from sessions.log import chain
from sessions.models import Roll
from tests.mcp.conftest import connect, data, error_text, orm
from tests.sessions.native_combat.conftest import numbers

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.anyio]

CLUB = {"name": "Clava", "kind": "corpo_a_corpo", "damage_types": ["contusao"]}
SWORD = {"name": "Espada", "kind": "corpo_a_corpo", "damage_increase": 1, "damage_types": ["corte"]}
TORCH = {"name": "Tocha", "kind": "corpo_a_corpo", "damage_types": ["fogo"]}
BITE = {"name": "Mordida", "kind": "corpo_a_corpo", "damage_types": ["perfuracao"]}

ARIA = {
    "name": "Aria",
    "numbers": numbers(mobilidade=6, pv=12, side="jogadores", weapons=[SWORD, TORCH]),
}
OGRO = {
    "name": "Ogro",
    "numbers": numbers(
        mobilidade=4, forca=10, resistencia=2, pv=20, resistances=["fogo"], weapons=[CLUB]
    ),
}
LOBO = {"name": "Lobo", "numbers": numbers(mobilidade=5, pv=8, weapons=[BITE])}


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
def tokens(campaign, people):
    return {name: api_token_create(user=user) for name, user in people.items()}


def ids(fight: dict) -> dict[str, str]:
    return {row["name"]: row["id"] for row in fight["order"]}


def row(fight: dict, name: str) -> dict:
    return next(r for r in fight["order"] if r["name"] == name)


async def test_an_ai_mestre_runs_four_rounds_through_mcp(tokens, scene, server_dice):
    """«A rodada começa com o personagem que possui a maior Iniciativa.» «Ataque igual à Defesa:
    o ataque acerta de raspão e causa apenas o dano mínimo 1.» «Maior valor do dado: Dobra o
    atributo (mínimo 5) e o dano.» «Resistência ao tipo de dano: Reduz o dano pela metade,
    arredondado para baixo, e cancela o dano mínimo.» «Derrubar - … Se acertar, o alvo fica
    Caído.» «O efeito dura até o início do próximo turno do alvo.» «Quando um efeito possui
    duração, ele começa no turno em que é aplicado e termina imediatamente antes do turno que
    possui a mesma Iniciativa, após transcorrer a quantidade indicada de rodadas.» «Incendiado:
    … sofrendo 2 PV de dano de fogo no início de cada um de seus turnos.» «Entrada Tardia - …
    Rola Iniciativa normalmente, mas só passa a agir a partir da rodada seguinte.» «Empates de
    Iniciativa: 1. Age primeiro quem tiver maior Mobilidade.» «ND Estrutural = (Tamanho +
    Estrutura) × Dureza.» «Se o dano atingir ou superar esse mínimo, o ND Estrutural é reduzido
    pelo valor do dano causado.» «O resultado final é o ND que precisa ser superado em um Teste
    de Força»."""
    # Initiative in the order rolled: Aria 5 + 6 = 11, Ogro 9 + 4 = 13.
    # R1 Ogro: attack 4 + 4 = 8 against Aria's 2 + 6 = 8 (a graze).
    # R1 Aria: Derrubar, 7 + 6 = 13 against 3 + 4 = 7. Lobo joins: 8 + 5 = 13 (ties the Ogro).
    # R2 Ogro: 10 (the highest face) → Mobilidade 4 doubled to 8: 18 against Aria's 5 + 6 = 11.
    # R2 Aria: the torch, 6 + 6 = 12 against 1 + 4 = 5. R3 Lobo: 2 + 5 = 7 against 9 + 6 = 15.
    # R4 Ogro: Força test 6 + 10 = 16. R4 Aria: 4 + 6 + 2 = 12 against the Lobo's 4 + 5 = 9.
    server_dice(5, 9, 4, 2, 7, 3, 8, 10, 5, 6, 1, 2, 9, 6, 4, 4)
    async with connect(tokens["mestre"]) as client:

        async def call(tool: str, **arguments) -> dict:
            return data(await client.call_tool(tool, arguments))

        fight = await call(
            "fight_start", scene=str(scene.code), combatants=[ARIA, OGRO], idempotency_key="f1"
        )
        code = fight["id"]
        who = ids(fight)
        assert [(r["name"], r["initiative"]) for r in fight["order"]] == [
            ("Ogro", 13),
            ("Aria", 11),
        ]
        assert fight["turn"]["name"] == "Ogro" and fight["round"] == 1

        # Round 1: the Ogro's club grazes Aria; Aria knocks him down (a maneuver).
        turn = await call(
            "fight_turn",
            fight=code,
            combatant=who["Ogro"],
            plan="movimento_execucao",
            actions=[{"kind": "ataque", "target": who["Aria"], "weapon": "Clava"}],
        )
        assert any("raspão" in line for line in turn["lines"])
        assert row(turn["fight"], "Aria")["pv"] == 11
        turn = await call(
            "fight_turn",
            fight=code,
            combatant=who["Aria"],
            plan="movimento_execucao",
            actions=[
                {"kind": "movimento", "text": "avança"},
                {"kind": "ataque", "target": who["Ogro"], "maneuver": "derrubar"},
            ],
        )
        assert (
            "Ogro fica Caído (Derrubar): até o início do turno de Ogro na rodada 2."
            in turn["lines"]
        )
        assert row(turn["fight"], "Ogro")["pv"] == 20  # «o dano é substituído pelo efeito»
        fight = turn["fight"]
        assert fight["round"] == 2 and fight["turn"]["name"] == "Ogro"
        # Caído ended at the start of the Ogro's next turn, before he acted.
        assert row(fight, "Ogro")["conditions"] == []
        assert any("Termina: Caído" in line for line in turn["lines"])

        # A late entrant rolls now, ties the Ogro's 13 and goes first by Mobilidade — from round 3.
        joined = await call("fight_join", fight=code, combatant=LOBO)
        fight = joined["fight"]
        assert [(r["name"], r["initiative"], r["from_round"]) for r in fight["order"]] == [
            ("Lobo", 13, 3),
            ("Ogro", 13, 1),
            ("Aria", 11, 1),
        ]
        who = ids(fight)
        placed = await call(
            "fight_object",
            fight=code,
            object={
                "name": "Caixote",
                "size": "pequeno",
                "structure": "simples",
                "hardness": "madeira_leve",
            },
        )
        crate = placed["fight"]["objects"][0]
        assert (crate["key"], crate["nd"], crate["minimum"]) == ("objeto-1", 15, 3)

        # Round 2: the Ogro's critical (the die's highest face) doubles his Mobilidade and the
        # damage: (1 + Bônus de Força 2) × 2 = 6.
        turn = await call(
            "fight_turn",
            fight=code,
            combatant=who["Ogro"],
            plan="movimento_execucao",
            actions=[{"kind": "ataque", "target": who["Aria"], "weapon": "Clava"}],
        )
        assert row(turn["fight"], "Aria")["pv"] == 5
        assert any("Maior valor do dado" in line for line in turn["lines"])
        # During Aria's turn the Mestre sets the Ogro on fire for 1 round.
        burning = await call(
            "fight_condition",
            fight=code,
            condition={"target": who["Ogro"], "condition": "incendiado", "rounds": 1},
        )
        ends = row(burning["fight"], "Ogro")["conditions"][0]["ends"]
        assert ends == "termina imediatamente antes do turno de Iniciativa 11 da rodada 3"
        # Aria's torch: 2 de fogo against a fire-resistant Ogro → 1 (no minimum 1).
        turn = await call(
            "fight_turn",
            fight=code,
            combatant=who["Aria"],
            plan="movimento_execucao",
            actions=[{"kind": "ataque", "target": who["Ogro"], "weapon": "Tocha"}],
        )
        assert row(turn["fight"], "Ogro")["pv"] == 19
        assert any("Resistência a fogo: 2 → 1" in line for line in turn["lines"])

        # Round 3: the Lobo acts first; the fire burns the Ogro (2 → 1, resisted) at his turn's
        # start; the Ogro strikes the crate (3 ≥ the minimum 3: ND 15 → 12); the fire ends
        # right before Aria's turn (the same Iniciativa, 11, one round later).
        turn = await call(
            "fight_turn",
            fight=code,
            combatant=who["Lobo"],
            plan="movimento_execucao",
            actions=[{"kind": "ataque", "target": who["Aria"], "weapon": "Mordida"}],
        )
        assert row(turn["fight"], "Aria")["pv"] == 5
        assert row(turn["fight"], "Ogro")["pv"] == 18
        turn = await call(
            "fight_turn",
            fight=code,
            combatant=who["Ogro"],
            plan="movimento_execucao",
            actions=[{"kind": "quebrar", "object": "objeto-1", "weapon": "Clava"}],
        )
        assert turn["fight"]["objects"][0]["nd"] == 12
        assert row(turn["fight"], "Ogro")["conditions"] == []
        assert any("Termina: Incendiado em Ogro" in line for line in turn["lines"])
        turn = await call(
            "fight_turn",
            fight=code,
            combatant=who["Aria"],
            plan="dois_movimentos",
            actions=[{"kind": "movimento"}, {"kind": "movimento", "text": "recua"}],
        )
        assert turn["fight"]["round"] == 4

        # Round 4: the Lobo passes; the Ogro's Força test breaks the crate; Aria, flanking,
        # cuts the Lobo.
        await call("fight_turn", fight=code, combatant=who["Lobo"])
        turn = await call(
            "fight_turn",
            fight=code,
            combatant=who["Ogro"],
            plan="movimento_execucao",
            actions=[{"kind": "teste_de_forca", "object": "objeto-1"}],
        )
        assert turn["fight"]["objects"][0]["broken"] is True
        turn = await call(
            "fight_turn",
            fight=code,
            combatant=who["Aria"],
            plan="movimento_execucao",
            actions=[
                {
                    "kind": "ataque",
                    "target": who["Lobo"],
                    "weapon": "Espada",
                    "situations": ["flanqueando"],
                }
            ],
        )
        assert row(turn["fight"], "Lobo")["pv"] == 5
        ended = await call("fight_end", fight=code)
    assert ended["status"] == "ended"
    assert all(r["conditions"] == [] for r in ended["order"])
    assert ended["readings"]  # the readings the numbers used, with their answers

    def stored():
        rolls = list(Roll.objects.filter(campaign=scene.week.campaign).order_by("sequence"))
        return [(r.kind, r.ruleset) for r in rolls], chain.rolls_verify(scene.week.campaign).ok

    rolls, ok = await orm(stored)()
    assert ok and len(rolls) == 16 and {ruleset for _, ruleset in rolls} == {"sistema001"}
    assert [kind for kind, _ in rolls].count("iniciativa") == 3


async def test_a_jogador_is_refused_and_bad_input_is_said_in_portuguese(tokens, scene, server_dice):
    server_dice(5, 9)
    async with connect(tokens["mestre"]) as mestre:
        fight = data(
            await mestre.call_tool(
                "fight_start", {"scene": str(scene.code), "combatants": [ARIA, OGRO]}
            )
        )
        who = ids(fight)
        wrong = await mestre.call_tool(
            "fight_condition",
            {"fight": fight["id"], "condition": {"target": who["Ogro"], "condition": "pegando"}},
        )
        assert "condition" in error_text(wrong) and "[código: invalid]" in error_text(wrong)
        not_his = await mestre.call_tool(
            "fight_turn", {"fight": fight["id"], "combatant": who["Aria"], "plan": "completa"}
        )
        assert "Não é o turno de Aria: é o de Ogro." in error_text(not_his)
    async with connect(tokens["jogador"]) as jogador:
        refused = await jogador.call_tool(
            "fight_turn", {"fight": fight["id"], "combatant": who["Ogro"]}
        )
    assert "Só o Mestre de Cena ou o Árbitro conduzem o combate." in error_text(refused)
    assert "HTTP 403" in error_text(refused)
