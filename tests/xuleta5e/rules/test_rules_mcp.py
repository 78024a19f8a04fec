"""rules_lookup speaks the Xuleta (issue 22, item 7): odds with bonus, dc, edge and roll, derived
with a character; each missing argument named; GURPS's calls unchanged."""

from __future__ import annotations

import pytest

from tests.mcp.conftest import anyio_backend, connect, data, error_text, tokens  # noqa: F401

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.anyio]

CHARACTER = {
    "abilities": {"str": 15, "dex": 12, "con": 14, "int": 8, "wis": 13, "cha": 10},
    "level": 3,
    "proficiencies": {"skills": ["Percepció", "Atletisme"], "saves": ["str", "con"]},
    "exhaustion": 1,
    "conditions": ["poisoned"],
}


async def test_rules_lookup_answers_the_xuletas_odds_and_derived(tokens):  # noqa: F811
    async with connect(tokens["jogador"]) as client:
        odds = data(
            await client.call_tool(
                "rules_lookup",
                {
                    "topic": "odds",
                    "ruleset": "xuleta5e",
                    "bonus": 5,
                    "dc": 15,
                    "edge": "advantage",
                    "roll": "attack",
                },
            )
        )
        derived = data(
            await client.call_tool(
                "rules_lookup", {"topic": "derived", "ruleset": "xuleta5e", "character": CHARACTER}
            )
        )
        missing = await client.call_tool(
            "rules_lookup", {"topic": "odds", "ruleset": "xuleta5e", "bonus": 5}
        )
        gurps = data(await client.call_tool("rules_lookup", {"topic": "odds", "level": 10}))
        bad_edge = await client.call_tool(
            "rules_lookup",
            {"topic": "odds", "ruleset": "xuleta5e", "bonus": 5, "dc": 10, "edge": "both"},
        )
    assert (odds["success_exact"], odds["critical_exact"]) == ("319/400", "39/400")
    assert derived["skills"]["Atletisme"] == 4
    # Poisoned and exhaustion 1: the checks at a disadvantage, the passive Perception − 5.
    assert derived["edges"]["check"] == "disadvantage"
    assert derived["edges"]["attack"] == "disadvantage"
    assert derived["passive_perception"] == 8
    assert error_text(missing) == "Para topic=odds com ruleset=xuleta5e, mande dc."
    assert gurps["success_exact"] == "108/216"
    assert bad_edge.is_error and "edge" in error_text(bad_edge)
