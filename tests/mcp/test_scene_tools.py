"""The scene as a whole through MCP: scene_close, narrate's state_changes, the running trackers
in campaign_overview, who plays each sheet and the readings in sheet_read."""

from __future__ import annotations

import pytest

from sessions.combat import services as combat_services
from sessions.log import scene_ops
from sessions.models import Scene
from sheets.models import Character
from sheets.reads import state_of
from tests.mcp.conftest import connect, data, error_text, orm

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.anyio]


@pytest.fixture
def scene(demo):
    return Scene.objects.get(title="A galeria do andar 3")


def _jurado_code() -> str:
    return str(Character.objects.get(name="Jurado de Gapheim").code)


def _hp_lost() -> int:
    return state_of(Character.objects.get(name="Jurado de Gapheim")).hp_lost


async def test_narrate_with_a_state_change_writes_both(tokens, scene):
    jurado = await orm(_jurado_code)()
    change = {"character": jurado, "hp": -1, "reason": "Pânico"}
    async with connect(tokens["mestre"]) as client:
        result = await client.call_tool(
            "narrate",
            {
                "scene": str(scene.code),
                "narration": {"text": "O Jurado treme."},
                "state_changes": [change],
                "idempotency_key": "n1",
            },
        )
        again = await client.call_tool(
            "narrate",
            {
                "scene": str(scene.code),
                "narration": {"text": "O Jurado treme."},
                "state_changes": [change],
                "idempotency_key": "n1",
            },
        )
    answer = data(result)
    assert answer["state_changes"][0]["text"] == "Jurado de Gapheim: −1 PV (Pânico)"
    assert data(again)["state_changes"][0]["id"] == answer["state_changes"][0]["id"]
    assert await orm(_hp_lost)() == 1


async def test_narrate_with_nothing_is_refused(tokens, scene):
    async with connect(tokens["mestre"]) as client:
        result = await client.call_tool("narrate", {"scene": str(scene.code)})
    assert result.is_error


async def test_a_jogador_may_not_change_the_state(tokens, scene):
    jurado = await orm(_jurado_code)()
    async with connect(tokens["jogador"]) as client:
        result = await client.call_tool(
            "narrate",
            {
                "scene": str(scene.code),
                "state_changes": [{"character": jurado, "hp": -1, "reason": "Pânico"}],
            },
        )
    assert "HTTP 403" in error_text(result)
    assert await orm(_hp_lost)() == 0


async def test_scene_close_is_refused_while_a_combat_runs_and_the_overview_lists_it(
    tokens, scene, mestre
):
    combat = await orm(lambda: str(combat_services.combat_start(scene=scene, user=mestre).code))()
    async with connect(tokens["mestre"]) as client:
        refused = await client.call_tool("scene_close", {"scene": str(scene.code)})
        overview = data(await client.call_tool("campaign_overview", {}))
    assert error_text(refused).startswith(scene_ops.COMBAT_RUNNING.format(round=0))
    (open_scene,) = overview["campaigns"][0]["open_scenes"]
    assert [(t["kind"], t["id"]) for t in open_scene["running"]] == [("combat", combat)]
    sheets = {s["name"]: s for s in overview["campaigns"][0]["sheets"]}
    assert sheets["Jurado de Gapheim"]["owner"] == "jogador"


async def test_scene_close_closes_the_scene(tokens, scene):
    async with connect(tokens["mestre"]) as client:
        result = await client.call_tool("scene_close", {"scene": str(scene.code)})
        jogador = await client.call_tool("sheet_read", {"character": await orm(_jurado_code)()})
    assert data(result)["status"] == "closed"
    assert data(jogador)["owner"] == "jogador" and "readings" in data(jogador)
    assert not await orm(lambda: Scene.objects.get(pk=scene.pk).is_open)()


async def test_a_jogador_may_not_close_the_scene(tokens, scene):
    async with connect(tokens["jogador"]) as client:
        result = await client.call_tool("scene_close", {"scene": str(scene.code)})
    assert "HTTP 403" in error_text(result)


def _scene_writes(scene_pk) -> tuple[int, int, int]:
    from sessions.models import Combat, Narration, StateChange

    return (
        Narration.objects.filter(scene_id=scene_pk).count(),
        StateChange.objects.filter(scene_id=scene_pk).count(),
        Combat.objects.filter(scene_id=scene_pk, ended_at__isnull=True).count(),
    )


async def test_a_refused_change_leaves_nothing_of_the_narration_behind(tokens, scene):
    """The second change recovers PV the Jurado never lost: the whole call is refused, the
    narration and the first change are not written, and the key is free for the corrected call."""
    jurado = await orm(_jurado_code)()
    before = await orm(_scene_writes)(scene.pk)
    call = {
        "scene": str(scene.code),
        "narration": {"text": "A rocha cede."},
        "state_changes": [
            {"character": jurado, "hp": -1, "reason": "Pânico"},
            {"character": jurado, "hp": 5, "reason": "Cura"},
        ],
        "idempotency_key": "n-refused",
    }
    async with connect(tokens["mestre"]) as client:
        refused = await client.call_tool("narrate", call)
        assert "recupera" in error_text(refused).lower() or "perdeu" in error_text(refused)
        assert await orm(_scene_writes)(scene.pk) == before
        assert await orm(_hp_lost)() == 0
        corrected = await client.call_tool(
            "narrate", {**call, "state_changes": call["state_changes"][:1]}
        )
    assert data(corrected)["state_changes"][0]["text"] == "Jurado de Gapheim: −1 PV (Pânico)"
    assert await orm(_hp_lost)() == 1


async def test_a_refused_creature_leaves_no_running_combat(tokens, scene):
    """A weapon without its kind of damage is refused after the combat began: the combat this
    call began is ended before any die, so the scene is free for the corrected call."""
    creature = {
        "name": "Rato gigante",
        "kind": "creature",
        "st": 6, "dx": 12, "iq": 3, "ht": 12, "hp": 6, "move": 6, "dodge": 6,
        "passive_defense": 0, "damage_resistance": 0,
        "weapons": [{"name": "Mordida", "skill": 10, "damage": "1d-2", "weapon_class": "bite"}],
    }  # fmt: skip
    async with connect(tokens["mestre"]) as client:
        refused = await client.call_tool(
            "combat_start",
            {"scene": str(scene.code), "creatures": [creature], "idempotency_key": "c-refused"},
        )
        assert "encerrado antes de qualquer dado" in error_text(refused)
        assert (await orm(_scene_writes)(scene.pk))[2] == 0
        fixed = {**creature, "weapons": [{**creature["weapons"][0], "damage": "1d-2 cort"}]}
        started = await client.call_tool(
            "combat_start",
            {"scene": str(scene.code), "creatures": [fixed], "idempotency_key": "c-fixed"},
        )
    assert "Rato gigante" in {c["name"] for c in data(started)["combatants"]}


async def test_a_refused_state_change_is_named_by_number_and_reason(tokens, scene, outsider):
    """Issue 27: of two changes, the second (a character not in the scene) is refused, and the
    refusal says which; nothing of the first is written."""
    from sessions.log.tools import STATE_CHANGE_REFUSED

    jurado = await orm(_jurado_code)()
    stranger = "00000000-0000-4000-8000-000000000000"
    changes = [
        {"character": jurado, "hp": -1, "reason": "Pânico"},
        {"character": stranger, "fatigue": -1, "reason": "marcha"},
    ]
    async with connect(tokens["mestre"]) as client:
        result = await client.call_tool(
            "narrate", {"scene": str(scene.code), "state_changes": changes}
        )
    assert error_text(result).startswith(STATE_CHANGE_REFUSED.format(number=2, reason="marcha"))
    assert await orm(_hp_lost)() == 0
