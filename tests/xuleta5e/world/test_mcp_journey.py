"""Issue 22's «Done when», the journey half, through the MCP tools alone: an AI Mestre runs a
Xuleta journey day of six rounds with a forced march — the site rolls each character's
Constitution saves from his sheet, writes the exhaustion to his state, the rest is the
Xuleta's long rest — and the chain verifies."""

from __future__ import annotations

import pytest

from campaigns.auth import api_token_create
from sessions.log import chain
from sessions.models import ExplorationTest, Roll
from sheets.ruleset_data import data_state
from tests.mcp.conftest import connect, data, orm

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.anyio]

NOTHING, STAY, SAFE = 6, 3, 5


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
def tokens(campaign, people):
    return {name: api_token_create(user=user) for name, user in people.items()}


async def test_a_journey_day_with_a_forced_march_through_mcp(
    tokens, scene, characters, server_dice, quote
):
    quote(
        "Marxa forçada: per cada hora de més, salvació de Constitució CD 10 + 1 per hora extra. "
        "Si falles, un nivell d'esgotament."
    )
    quote("En acabar un descans llarg baixes un nivell, si has menjat i begut.")
    server_dice(
        4,  # the initial weather
        *(STAY, NOTHING, NOTHING, 5),  # round 1: Avançar
        *(STAY, NOTHING, NOTHING, 5),  # round 2: Avançar
        # round 3: Avançar, hours 9–12: CON DC 11, 12, 13, 14 of Aina (+4), Bru (+1), Carme (+4)
        *(STAY, NOTHING),
        *(10, 10, 10, 10),
        *(10, 5, 15, 2),
        *(20, 20, 20, 20),
        *(NOTHING, 5),
        *(STAY, NOTHING, SAFE),  # round 4: Levantar Acampamento, safe
        *(STAY, NOTHING),  # round 5: Descansar (safe: no Tabela H, no encounter)
        *(STAY, NOTHING, 5),  # round 6: Explorar (1d8)
    )
    async with connect(tokens["mestre"]) as client:

        async def call(tool: str, **arguments) -> dict:
            result = await client.call_tool(tool, arguments)
            assert not result.is_error, result.content[0].text
            return data(result)

        state = await call(
            "exploration_start",
            exploration={"scene": str(scene.code)},
            journey={"season": "summer", "region": "plains"},
        )
        code = state["id"]

        async def round_of(activity: str, **more) -> dict:
            return await call(
                "exploration_turn",
                exploration=code,
                step="travel",
                travel={"activity": activity, **more},
            )

        await round_of("advance", mode="walking")
        await round_of("advance")
        forced = await round_of("advance")
        lines = "\n".join(forced["lines"])
        assert "Marxa forçada (§8.1), horas 9–12" in lines
        assert "Bru: esgotamento 0 → 2" in lines
        await round_of("make_camp")
        for kind in ("food", "water"):
            await call(
                "exploration_act",
                exploration=code,
                act={
                    "act": "supply",
                    "supply": {"character": "Bru", "kind": kind, "delta": 1, "reason": "odre"},
                },
            )
        rested = await round_of("rest")
        assert any("Bru: descanso longo (§6.2)" in line for line in rested["lines"])
        await round_of("explore")
        read = await call("exploration_read", exploration=code)
        assert read["journey"]["day"] == 1

    @orm
    def check():
        exhaustion = {name: data_state(c)["exhaustion"] for name, c in characters.items()}
        assert exhaustion == {"Aina": 0, "Bru": 1, "Carme": 0}
        saves = Roll.objects.filter(scene=scene, kind="save")
        assert saves.count() == 12
        assert saves.filter(outcome=Roll.Outcome.FAILURE).count() == 2
        assert not ExplorationTest.objects.filter(roll__isnull=True).exists()
        assert chain.rolls_verify(scene.week.campaign).ok

    await check()
