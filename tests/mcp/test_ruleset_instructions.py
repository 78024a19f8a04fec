"""The MCP server follows the campaign's ruleset (issue 21, items 2 and 5): the instructions
name the system of each of the caller's campaigns (the canon's text kept when all are GURPS),
campaign_overview says each campaign's ruleset, and rules_lookup takes ``ruleset``."""

from __future__ import annotations

import pytest

from garganta_site.mcp import INSTRUCTIONS, instructions_for
from rulesets.registry import GURPS3E
from tests.mcp.conftest import connect, data, error_text, orm
from tests.second_ruleset import D20, D20_LABEL, DICE_ONLY, campaign_on, register

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.anyio]

GURPS_LABEL = "GURPS Classic (Módulo Básico), com as regras da casa"


@pytest.fixture(autouse=True)
def _second_ruleset():
    yield from register()


@orm
def _d20_campaign(user) -> None:
    campaign_on(D20, slug="d20", user=user)


def test_the_instructions_keep_the_canons_text_for_gurps_campaigns():
    assert instructions_for([]) == INSTRUCTIONS
    said = instructions_for([("A Garganta", "a-garganta", GURPS3E, GURPS_LABEL)])
    assert said.startswith(INSTRUCTIONS + "\n")
    assert f"«A Garganta» (a-garganta): {GURPS_LABEL} [gurps3e]" in said


def test_the_instructions_name_no_system_when_the_campaigns_differ():
    said = instructions_for(
        [("A Garganta", "a-garganta", GURPS3E, GURPS_LABEL), ("Outra", "d20", D20, D20_LABEL)]
    )
    first = said.splitlines()[0]
    assert "GURPS" not in first and "cada campanha joga o seu sistema de regras" in first
    assert f"«Outra» (d20): {D20_LABEL} [{D20}]" in said
    assert "ruleset da campanha" in said


async def test_the_server_tells_each_caller_the_systems_of_their_campaigns(tokens, mestre):
    async with connect(tokens["jogador"]) as client:
        jogador_said = client.instructions
    await _d20_campaign(mestre)
    async with connect(tokens["mestre"]) as client:
        mestre_said = client.instructions
        overview = data(await client.call_tool("campaign_overview", {}))
        vocab = data(
            await client.call_tool("rules_lookup", {"topic": "vocabularies", "ruleset": D20})
        )
        lacking = await client.call_tool(
            "rules_lookup", {"topic": "vocabularies", "ruleset": DICE_ONLY}
        )
        odds = data(await client.call_tool("rules_lookup", {"topic": "odds", "level": 10}))
    assert jogador_said.startswith(INSTRUCTIONS) and "(a-garganta): GURPS Classic" in jogador_said
    assert D20_LABEL in mestre_said and "GURPS Classic" in mestre_said
    found = {c["campaign"]: c for c in overview["campaigns"]}
    assert (found["d20"]["ruleset"], found["d20"]["ruleset_label"]) == (D20, D20_LABEL)
    assert found["a-garganta"]["ruleset"] == GURPS3E
    assert [v["name"] for v in vocab["vocabularies"]] == ["action", "danger", "timer_kind"]
    assert "não tem páginas de regras" in error_text(lacking)
    assert odds["success_exact"] == "108/216"


def test_a_xuleta_campaign_is_told_how_its_d20_rolls_and_fights_go():
    said = instructions_for([("O Vau das Brumas", "vau-das-brumas", "xuleta5e", "Xuleta")])
    assert "«O Vau das Brumas» (vau-das-brumas): Xuleta [xuleta5e]" in said
    for word in ("roll_check", "dc", "advantage", "fight_turn", "act=rest"):
        assert word in said
