"""The MCP tools issue 27 found missing: the week's world actions (read, resolve), the
pendências and decisions (list, read, open) and the week's report (read, draft, send) — each
the API's own operation, with the pages' permissions."""

from __future__ import annotations

import pytest

from canon.models import Decision
from canon.services import ONLY_ARBITRO
from sessions.entries import ONLY_THE_TABLE, RESOLVES_WORLD_ACTIONS, WRITES_REPORT
from sessions.models import Week, WorldAction
from sessions.weeks.services import (
    REPORT_WITH_ARBITRO,
    WORLD_ACTION_RESOLVED_OTHERWISE,
    world_action_create,
)
from sheets.models import Character
from tests.mcp.conftest import connect, data, error_text, orm

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.anyio]

WEEK = {"campaign": "a-garganta", "week": 1}


@pytest.fixture
def spent(demo, jogador):
    """A world action the demo's jogador spent in week 1 (the Jurado sells the spoils)."""
    week = Week.objects.get(campaign=demo, number=1)
    jurado = Character.objects.get(campaign=demo, owner=jogador)
    return world_action_create(week=week, character=jurado, user=jogador, text="Vender o espólio.")


async def _action():
    return await orm(lambda: WorldAction.objects.select_related("character").get())()


async def test_the_mestre_reads_the_weeks_world_actions_and_resolves_one(tokens, spent):
    action = await _action()
    async with connect(tokens["mestre"]) as client:
        read = data(await client.call_tool("world_actions_read", WEEK))
        (seen,) = read["world_actions"]
        assert (seen["id"], seen["text"], seen["resolution"]) == (str(action.code), action.text, "")
        resolve = {**WEEK, "action": seen["id"], "resolution": "Vendeu por 40 moedas."}
        done = await client.call_tool("world_action_resolve", resolve)
        assert not done.is_error, done
        assert (data(done)["resolution"], data(done)["resolved_by"]) == (
            "Vendeu por 40 moedas.",
            "mestre",
        )
        again = await client.call_tool("world_action_resolve", resolve)
        assert not again.is_error  # the same resolution twice changes nothing
        other = await client.call_tool("world_action_resolve", {**resolve, "resolution": "Outra."})
    assert error_text(other).startswith(WORLD_ACTION_RESOLVED_OTHERWISE.split("(")[0])
    assert "HTTP 409" in error_text(other)
    stored = await _action()
    assert stored.resolution == "Vendeu por 40 moedas."


async def test_a_jogador_reads_world_actions_but_may_not_resolve_them(tokens, spent):
    action = await _action()
    async with connect(tokens["jogador"]) as client:
        read = await client.call_tool("world_actions_read", WEEK)
        assert not read.is_error
        refused = await client.call_tool(
            "world_action_resolve", {**WEEK, "action": str(action.code), "resolution": "Eu decido."}
        )
    assert error_text(refused).startswith(
        ONLY_THE_TABLE.format(what=RESOLVES_WORLD_ACTIONS)
    ) and "HTTP 403" in error_text(refused)
    assert (await _action()).resolution == ""


async def test_the_report_is_read_drafted_and_sent(tokens, demo):
    async with connect(tokens["jogador"]) as client:
        refused = await client.call_tool("week_report_draft", {**WEEK, "text": "Meu relatório."})
    assert error_text(refused).startswith(ONLY_THE_TABLE.format(what=WRITES_REPORT))
    async with connect(tokens["mestre"]) as client:
        drafted = await client.call_tool("week_report_draft", {**WEEK, "text": "Semana 1: ..."})
        assert not drafted.is_error, drafted
        read = data(await client.call_tool("week_report_read", WEEK))
        assert (read["report"]["status"], read["report"]["text"]) == ("draft", "Semana 1: ...")
        sent = data(await client.call_tool("week_report_send", WEEK))
        assert sent["report"]["status"] == "submitted"
        late = await client.call_tool("week_report_draft", {**WEEK, "text": "Outro texto."})
    assert error_text(late).startswith(REPORT_WITH_ARBITRO)


async def test_pendencias_and_decisions_are_listed_and_read(tokens, demo):
    async with connect(tokens["jogador"]) as client:
        pendencias = data(await client.call_tool("divergence_list", {"status": "open"}))
        assert pendencias["divergences"]
        assert {d["status"] for d in pendencias["divergences"]} == {"open"}
        first = pendencias["divergences"][0]
        one = data(await client.call_tool("divergence_read", {"divergence": first["id"]}))
        assert one["title"] == first["title"]
        decisions = data(await client.call_tool("decision_list", {}))["decisions"]
        if decisions:
            read = await client.call_tool("decision_read", {"decision": decisions[0]["id"]})
            assert data(read)["title"] == decisions[0]["title"]
        bad = await client.call_tool("divergence_list", {"status": "aberta-ou-nao"})
    assert bad.is_error


async def test_only_the_arbitro_opens_a_decision(tokens, demo):
    decision = {"campaign": "a-garganta", "title": "Uma decisão", "text": "Decidido."}
    async with connect(tokens["mestre"]) as client:
        refused = await client.call_tool("decision_open", {"decision": decision})
    assert error_text(refused).startswith(ONLY_ARBITRO) and "HTTP 403" in error_text(refused)
    before = await orm(Decision.objects.count)()
    async with connect(tokens["arbitro"]) as client:
        made = await client.call_tool(
            "decision_open", {"decision": decision, "idempotency_key": "d-1"}
        )
        again = await client.call_tool(
            "decision_open", {"decision": decision, "idempotency_key": "d-1"}
        )
    assert data(made)["id"] == data(again)["id"]
    assert await orm(Decision.objects.count)() == before + 1
