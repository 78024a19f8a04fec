"""The demo week played through MCP alone (tests/mcp/week.py): every step answered, the rolls
numbered in order in the chain, the fight of up to seven rounds run turn by turn, the week
homologated and the next one open — and the chain intact at the end."""

from __future__ import annotations

import pytest

from campaigns.models import Campaign
from sessions.log import chain
from sessions.models import Roll, Week
from tests.mcp.conftest import orm
from tests.mcp.week import ROUNDS, McpTable, play_week

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.anyio]


@orm
def _after():
    campaign = Campaign.objects.get(slug="a-garganta")
    report = chain.rolls_verify(campaign)
    weeks = list(Week.objects.filter(campaign=campaign).order_by("number"))
    return report, weeks, Roll.objects.filter(campaign=campaign).count()


async def test_the_demo_week_through_mcp_alone(tokens):
    async with McpTable(tokens) as table:
        played = await play_week(table)
    report, weeks, count = await _after()
    assert report.ok and report.first_broken is None and report.count == count
    assert played["rolls"] == sorted(played["rolls"])  # numbered in the order they were asked
    assert played["fight"]["turns"] >= 2
    assert played["fight"]["round"] <= ROUNDS
    assert [w.number for w in weeks] == [1, 2]
    assert weeks[0].hidden_rolls_revealed
    assert played["next_week"]["week"] == 2 and played["next_week"]["state"] == "open"
    # One call per step: far fewer than the 236 HTTP calls an AI client needed before.
    assert table.counts.calls <= 118, table.counts.by_name
    # Issue 27: at most 70 requests for the week, none a guess (the fright check's margin comes
    # from its Will roll) and no phantom roll (every skill named is the sheet's or said new).
    assert table.counts.calls <= 70, table.counts.by_name
    print(f"demo week through MCP, by tool: {dict(sorted(table.counts.by_name.items()))}")
    print(f"demo week through MCP: {table.counts.calls} tool calls, {played['fight']}")
