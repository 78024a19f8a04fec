"""roll_check and roll_contest speak the Xuleta through MCP alone (issue 22, items 2 and 7)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from campaigns.auth import api_token_create
from campaigns.models import Membership
from garganta_site.founding import campaign_create
from sessions import entries
from sessions.log import services as log_services
from sessions.weeks import services as weeks_services
from sheets.models import Character
from tests.gurps.helpers import ScriptedSource
from tests.mcp.conftest import anyio_backend, connect, data, error_text, orm  # noqa: F401

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.anyio]


@orm
def _world() -> dict:
    mestre = get_user_model().objects.create_user(
        "xu-mcp",
        password="senha-xuleta-mcp",  # pragma: allowlist secret
    )  # pragma: allowlist secret
    campaign = campaign_create(slug="xuleta-mcp", name="Xuleta", ruleset="xuleta5e")
    Membership.objects.create(user=mestre, campaign=campaign, role=Membership.Role.MESTRE)
    guard = Character.objects.create(campaign=campaign, name="Guàrdia")
    week = weeks_services.week_open(campaign=campaign, user=mestre)
    scene = log_services.scene_create(week=week, user=mestre, title="La porta", characters=[guard])
    return {
        "token": api_token_create(user=mestre),
        "scene": str(scene.code),
        "guard": str(guard.code),
    }


async def test_a_save_and_a_contest_through_the_tools(monkeypatch):
    world = await _world()
    source = ScriptedSource([8, 15, 11, 9])
    monkeypatch.setattr(entries, "dice_source", lambda: source)
    async with connect(world["token"]) as client:
        save = data(
            await client.call_tool(
                "roll_check",
                {
                    "scene": world["scene"],
                    "roll": {
                        "character": world["guard"],
                        "roll": "save",
                        "ability": "wis",
                        "base_level": 1,
                        "dc": 13,
                        "edge": "advantage",
                    },
                },
            )
        )
        missing = await client.call_tool(
            "roll_check",
            {"scene": world["scene"], "roll": {"character": world["guard"], "base_level": 1}},
        )
        contest = data(
            await client.call_tool(
                "roll_contest",
                {
                    "scene": world["scene"],
                    "contest": {
                        "a": {"character": world["guard"], "base_level": 2, "label": "Atletisme"},
                        "b": {"name": "Lladre", "base_level": 4, "label": "Acrobàcies"},
                    },
                },
            )
        )
    # Advantage: 8 and 15, the higher kept; 15 + 1 = 16 against 13.
    assert (save["kind"], save["dice"], save["total"], save["outcome"]) == (
        "save",
        [8, 15],
        16,
        "success",
    )
    assert "dc" in error_text(missing) and "CD" in error_text(missing)
    # 11 + 2 = 13 against 9 + 4 = 13: a tie, nobody wins.
    assert contest["details"]["winner"] is None
    assert source.values == []
