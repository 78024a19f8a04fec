"""Through MCP alone: the fight_turn tool's schema says what an Ataque Interno needs (the ND,
the attribute the target resists with, the effect) and what an Ataque em Área needs (its
attribute); the AI Mestre's sneak attack is refused until the Árbitro decides whether a tie
passes, the refusal naming the decision to record; the Árbitro records it with decision_open;
then the internal attack runs, the fight's read saying which answer is in force."""

from __future__ import annotations

import pytest

from campaigns.auth import api_token_create
from sessions.models import Roll
from tests.mcp.conftest import connect, data, error_text, orm
from tests.sessions.native_combat.conftest import numbers

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.anyio]

ARIA = {"name": "Aria", "numbers": numbers(mobilidade=6, side="jogadores")}
OGRO = {"name": "Ogro", "numbers": numbers(mobilidade=4, pv=20)}
IGUALA = "sistema001_teste_iguala_nd"


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
def tokens(campaign, people):
    return {name: api_token_create(user=user) for name, user in people.items()}


async def test_the_fight_turn_schema_says_what_the_internal_and_area_attacks_need(tokens):
    async with connect(tokens["mestre"]) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    schema = str(tools["fight_turn"].input_schema)
    for name in ("'nd'", "'resisted_with'", "'attribute'", "'condition'", "'damage'"):
        assert name in schema
    assert "['resistencia', 'espirito']" in schema
    assert "awaits_arbitro" in tools["fight_turn"].description
    assert "arbitro" in tools["fight_read"].description
    assert "house_key" in str(tools["decision_open"].input_schema)


async def test_the_ai_mestre_waits_on_the_arbitro_then_runs_the_internal_attack(
    tokens, scene, server_dice
):
    """«Ataque Interno: O alvo faz um teste de resistência, com ND e efeito de acordo com a
    descrição da vantagem ou magia.» — a tie (Espírito 5 + 3 = 8 against ND 8) passes once the
    Árbitro decides «iguala»."""
    server_dice(3, 7, 5)  # Aria 3 + 6, Ogro 7 + 4; then Aria's Espírito test
    async with connect(tokens["mestre"]) as client:

        async def call(tool: str, **arguments):
            return await client.call_tool(tool, arguments)

        fight = data(await call("fight_start", scene=str(scene.code), combatants=[ARIA, OGRO]))
        who = {r["name"]: r["id"] for r in fight["order"]}
        sneak = {"kind": "ataque", "target": who["Aria"], "situations": ["ataque_furtivo"]}
        refused = await call(
            "fight_turn",
            fight=fight["id"],
            combatant=who["Ogro"],
            plan="movimento_execucao",
            actions=[sneak],
        )
        text = error_text(refused)
        assert "awaits_arbitro" in text or "Árbitro" in text
        assert IGUALA in text
        (pending,) = data(await call("fight_read", fight=fight["id"]))["arbitro"]
        assert pending["awaits_arbitro"]
    assert await orm(lambda: Roll.objects.filter(scene=scene).count())() == 2

    async with connect(tokens["arbitro"]) as client:
        decided = await client.call_tool(
            "decision_open",
            {
                "decision": {
                    "title": "Empate com o ND",
                    "text": "Empatar passa.",
                    "house_key": IGUALA,
                }
            },
        )
        assert not decided.is_error, decided

    async with connect(tokens["mestre"]) as client:
        internal = {
            "kind": "ataque",
            "target": who["Aria"],
            "attack_kind": "interno",
            "resisted_with": "espirito",
            "nd": 8,
            "condition": "amedrontado",
            "text": "Olhar do medo",
        }
        turn = data(
            await client.call_tool(
                "fight_turn",
                {
                    "fight": fight["id"],
                    "combatant": who["Ogro"],
                    "plan": "movimento_execucao",
                    "actions": [internal],
                },
            )
        )
    assert any("resiste: sem efeito" in line for line in turn["lines"])
    (shown,) = turn["fight"]["arbitro"]
    assert (shown["house_key"], shown["answer"]) == (IGUALA, "maior_ou_igual")
