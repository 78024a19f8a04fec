"""The AI Mestre and the jogador through MCP (§4.6): combat_read shows the attack waiting for
the jogador's defence, «aguardando a defesa de …»; combat_act's defence_answer is the
jogador's — the Mestre's token is refused, the closed set of answers is an enum."""

from __future__ import annotations

import pytest

from sessions.combat import attack as combat_attack
from sessions.combat import maneuvers as combat_maneuvers
from sessions.combat import services as combat_services
from sessions.combat import specs as combat_specs
from sessions.combat import state as combat_state
from sessions.combat import turns as combat_turns
from sessions.models import Combatant, Scene
from sheets.models import Character
from tests.gurps.helpers import ScriptedSource
from tests.mcp.conftest import connect, data, error_text, orm
from tests.sessions.combat.helpers import cavador

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.anyio]


@orm
def _a_bite_that_waits(mestre):
    from sessions import entries

    scene = Scene.objects.get(title="A galeria do andar 3")
    rastreador = Character.objects.get(name="Rastreador de Uruk-Kalam")
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[rastreador])
    combat_services.combatant_add(combat=combat, user=mestre, creature=cavador("Murador"))
    for _ in range(3):
        combat_turns.combat_next_turn(combat=combat, user=mestre)
        combat.refresh_from_db()
        if combat_state.current(combat).name == "Murador":
            break
    murador = Combatant.objects.get(combat=combat, name="Murador")
    combat_maneuvers.maneuver_declare(
        combat=combat, combatant=murador, user=mestre, maneuver="move_and_attack"
    )
    real, source = entries.dice_source, ScriptedSource([3, 3, 4])
    entries.dice_source = lambda: source
    try:
        combat_attack.attack_resolve(
            combat=combat,
            attacker=murador,
            defender=Combatant.objects.get(combat=combat, character=rastreador),
            user=mestre,
            attack=combat_specs.AttackSpec(weapon=0),
        )
    finally:
        entries.dice_source = real
    me = Combatant.objects.get(combat=combat, character=rastreador)
    return str(combat.code), str(me.code)


async def test_the_mestre_reads_the_waiting_defence_and_may_not_answer_it(tokens, mestre):
    combat, me = await _a_bite_that_waits(mestre)
    async with connect(tokens["mestre"]) as client:
        read = await client.call_tool("combat_read", {"combat": combat})
        answer = {"act": "defence_answer", "combatant": me, "answer": {"answer": "none"}}
        refused = await client.call_tool("combat_act", {"combat": combat, "act": answer})
    (waiting,) = data(read)["pending_defences"]
    assert waiting["text"] == "Aguardando a defesa de Rastreador de Uruk-Kalam."
    assert "HTTP 403" in error_text(refused)


async def test_the_jogador_answers_through_mcp_and_a_made_up_answer_is_refused(tokens, mestre):
    combat, me = await _a_bite_that_waits(mestre)
    async with connect(tokens["rastreadora"]) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        made_up = {"act": "defence_answer", "combatant": me, "answer": {"answer": "fugir"}}
        bad = await client.call_tool("combat_act", {"combat": combat, "act": made_up})
        none = {"act": "defence_answer", "combatant": me, "answer": {"answer": "none"}}
        done = await client.call_tool(
            "combat_act", {"combat": combat, "act": none, "idempotency_key": "resposta-1"}
        )
    schema = str(tools["combat_act"].input_schema)
    assert "defence_answer" in schema and "'none'" in schema
    assert bad.is_error
    assert not done.is_error, done
    assert data(done)["combat"]["pending_defences"] == []
