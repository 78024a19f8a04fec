"""A group check through MCP alone (issue 22, items 2 and 7): ``roll_check`` with ``group``,
the characters who all do the same; each rolls from his sheet, the group passes if at least
half of them do."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from campaigns.auth import api_token_create
from campaigns.models import Membership
from garganta_site.founding import campaign_create
from sessions import entries
from sessions.log import levels
from sessions.log import services as log_services
from sessions.weeks import services as weeks_services
from sheets.models import Character
from tests.gurps.helpers import ScriptedSource
from tests.mcp.conftest import anyio_backend, connect, data, error_text, orm  # noqa: F401
from tests.xuleta5e.checks.sheet import check_data

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.anyio]


@orm
def _world() -> dict:
    mestre = get_user_model().objects.create_user(
        "grup-mcp",
        password="senha-grup-mcp",  # pragma: allowlist secret
    )  # pragma: allowlist secret
    campaign = campaign_create(slug="grup-mcp", name="Xuleta", ruleset="xuleta5e")
    Membership.objects.create(user=mestre, campaign=campaign, role=Membership.Role.MESTRE)
    aina = Character.objects.create(campaign=campaign, name="Aina")
    bru = Character.objects.create(campaign=campaign, name="Bru")
    week = weeks_services.week_open(campaign=campaign, user=mestre)
    scene = log_services.scene_create(
        week=week, user=mestre, title="L'aiguamoll", characters=[aina, bru]
    )
    return {
        "token": api_token_create(user=mestre),
        "scene": str(scene.code),
        "group": [str(aina.code), str(bru.code)],
    }


async def test_roll_check_with_group_rolls_each_and_logs_the_group(monkeypatch, quote):
    quote("si almenys la meitat ho aconsegueix, ho aconsegueix el grup")
    world = await _world()
    monkeypatch.setattr(levels, "sheet_levels", lambda character, **kw: check_data(character.name))
    source = ScriptedSource([14, 2])
    monkeypatch.setattr(entries, "dice_source", lambda: source)
    async with connect(world["token"]) as client:
        made = data(
            await client.call_tool(
                "roll_check",
                {
                    "scene": world["scene"],
                    "roll": {"skill": "Sigil", "dc": 12},
                    "group": world["group"],
                },
            )
        )
        refused = await client.call_tool(
            "roll_check",
            {
                "scene": world["scene"],
                "roll": {"skill": "Sigil", "dc": 12, "base_level": 3},
                "group": world["group"],
            },
        )
    # One of two (14 + 1 passes, 2 + 1 fails): half, so the group passes.
    assert [m["total"] for m in made["members"]] == [15, 3]
    assert (made["result"]["kind"], made["result"]["total"]) == ("group", 1)
    assert made["result"]["outcome"] == "success"
    assert "base_level" in error_text(refused)
    assert source.values == []
