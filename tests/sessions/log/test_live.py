"""The scene's doorbell (sessions.log.live, campaigns.doorbell): each viewer's change token
counts only what he may see, and the stream says which part of the page moved."""

from __future__ import annotations

import asyncio

import pytest
from django.test import AsyncClient

from garganta_site.demo import DEMO_PASSWORD
from sessions.log import live, services
from sessions.models import Scene
from tests.mcp.conftest import orm


@pytest.fixture
def scene(demo):
    return Scene.objects.get(title="A galeria do andar 3")


def _tokens(scene, membership_user_pairs):
    return {
        name: live.scene_changes(scene.pk, runs_the_table=runs, user_id=user.pk)
        for name, (runs, user) in membership_user_pairs.items()
    }


@pytest.mark.django_db
def test_a_hidden_roll_moves_the_tables_token_and_its_players_not_anothers(
    scene, mestre, jogador, jogadora
):
    viewers = {"mestre": (True, mestre), "jogador": (False, jogador), "jogadora": (False, jogadora)}
    before = _tokens(scene, viewers)
    hoplita = scene.characters.get(owner=jogadora)
    services.roll_create(
        scene=scene,
        user=mestre,
        label="Observação",
        attribute="iq",
        modifiers=[],
        character=hoplita,
        hidden=True,
    )
    after = _tokens(scene, viewers)
    assert after["mestre"]["log"] != before["mestre"]["log"]
    assert after["jogadora"]["log"] != before["jogadora"]["log"]  # her roll: she sees it masked
    assert after["jogador"] == before["jogador"]  # nothing of it reaches another jogador
    services.narration_create(scene=scene, user=mestre, text="A tocha tremula.")
    assert _tokens(scene, viewers)["jogador"]["log"] != after["jogador"]["log"]
    assert _tokens(scene, viewers)["jogador"]["combat"] == before["jogador"]["combat"]


async def _next_event(stream, timeout=5.0) -> str:
    """The next event of an SSE stream that is not a heartbeat or the retry line."""
    while True:
        chunk = await asyncio.wait_for(stream.__anext__(), timeout)
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        if text.startswith("event:"):
            return text


@pytest.mark.django_db(transaction=True)
@pytest.mark.anyio
async def test_the_stream_rings_when_the_mestre_narrates(scene, mestre, jogador):
    client = AsyncClient()
    await orm(client.force_login)(jogador)
    response = await client.get(f"/cenas/{scene.code}/eventos/")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    stream = response.streaming_content.__aiter__()
    assert (await asyncio.wait_for(stream.__anext__(), 5)).decode().startswith("retry:")
    # No pause before writing: the stream took its token before it answered, and the doorbell
    # looks once more after its LISTEN (campaigns.doorbell.watch).
    waiting = asyncio.ensure_future(_next_event(stream))
    await orm(services.narration_create)(scene=scene, user=mestre, text="Um estalo.")
    event = await waiting
    assert event.startswith("event: log\ndata: ")
    await stream.aclose()


@pytest.mark.django_db(transaction=True)  # the stream reads in a thread of its own
def test_the_stream_is_only_for_the_campaigns_members(client, scene, outsider):
    client.force_login(outsider)
    assert client.get(f"/cenas/{scene.code}/eventos/").status_code == 404
    client.logout()
    assert client.get(f"/cenas/{scene.code}/eventos/").status_code == 404
    assert DEMO_PASSWORD  # the demo's people log in with it on the pages
