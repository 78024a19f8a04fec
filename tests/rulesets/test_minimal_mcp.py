"""Issue 21's proof through the MCP tools: the AI Mestre opens a scene of a campaign on the
minimal test ruleset, rolls for its character (openly and hidden) and the chain verifies."""

from __future__ import annotations

import pytest

from campaigns.auth import api_token_create
from sessions.log import chain
from sessions.models import Roll
from tests.mcp.conftest import connect, data, orm
from tests.rulesets.minimal import KEY

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.anyio]


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
def mestre_token(minimal_campaign, people):
    return api_token_create(user=people["mestre"])


async def test_the_mcp_tools_run_a_scene_and_its_rolls(
    mestre_token, minimal_campaign, minimal_week, heroine
):
    async with connect(mestre_token) as client:
        opened = await client.call_tool(
            "scene_open",
            {
                "campaign": minimal_campaign.slug,
                "week": minimal_week.number,
                "scene": {"title": "A torre", "characters": [str(heroine.code)]},
            },
        )
        scene = data(opened)["id"]
        rolled = await client.call_tool(
            "roll_check",
            {"scene": scene, "roll": {"character": str(heroine.code), "skill": "Furtividade"}},
        )
        hidden = await client.call_tool(
            "roll_check",
            {
                "scene": scene,
                "roll": {"character": str(heroine.code), "skill": "Luta", "hidden": True},
            },
        )
    answer = data(rolled)
    assert answer["kind"] == "check" and answer["level_text"] == "Furtividade +2 (ficha)"
    assert answer["outcome"] in ("success", "failure") and len(answer["dice"]) == 1
    assert data(hidden)["name"] == "semana-01-rolagem-01"

    def stored():
        rolls = list(Roll.objects.filter(campaign=minimal_campaign).order_by("sequence"))
        return [r.ruleset for r in rolls], chain.rolls_verify(minimal_campaign).ok

    rulesets, ok = await orm(stored)()
    assert rulesets == [KEY, KEY] and ok
