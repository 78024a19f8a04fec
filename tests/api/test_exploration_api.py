"""The exploration tracker through the API: a turn on a deadly floor, a torch, sleep; the same
refusals as the page; no die from the client."""

from __future__ import annotations

import pytest

from sessions import entries
from sessions.exploration import services as exploration_services
from sessions.log import chain
from sessions.models import Roll
from tests.api.conftest import post_json
from tests.gurps.helpers import ScriptedSource

BASE = "/api/v1/explorations"


@pytest.fixture
def server_dice(monkeypatch):
    def script(*faces: int) -> None:
        source = ScriptedSource(faces)
        monkeypatch.setattr(entries, "dice_source", lambda: source)

    return script


@pytest.fixture
def started(client, bearer, mestre, scene):
    headers = bearer(mestre)
    response = post_json(
        client, BASE, {"scene": str(scene.code), "danger": "deadly", "region": "Andar 3"}, **headers
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"], headers


def test_a_turn_with_a_torch_an_encounter_and_its_arrival(client, started, server_dice, scene):
    code, headers = started
    server_dice(1, 4)
    torch = post_json(client, f"{BASE}/{code}/timers", {"name": "Tocha", "turns": 3}, **headers)
    assert torch.status_code == 201
    begun = client.post(f"{BASE}/{code}/turns", **headers).json()
    assert begun["exploration"]["encounter_pending"] is True and len(begun["rolls"]) == 1
    ended = post_json(client, f"{BASE}/{code}/turn-end", {"note": "escutam"}, **headers)
    assert ended.status_code == 201
    state = ended.json()["exploration"]
    assert state["timers"][0]["remaining_turns"] == 2 and not state["encounter_pending"]
    assert any("sala adjacente" in line for line in ended.json()["lines"])
    assert Roll.objects.filter(scene=scene).count() == 2
    assert chain.rolls_verify(scene.week.campaign).ok


def test_the_same_request_twice_is_one_action(client, started, server_dice):
    code, headers = started
    server_dice(6)
    a = client.post(f"{BASE}/{code}/turns", HTTP_IDEMPOTENCY_KEY="k", **headers).json()
    b = client.post(f"{BASE}/{code}/turns", HTTP_IDEMPOTENCY_KEY="k", **headers).json()
    assert a["event"] == b["event"] and b["exploration"]["turn"] == 1


def test_no_body_takes_a_die(client, started):
    code, headers = started
    response = post_json(client, f"{BASE}/{code}/sleep", {"hours": 8, "dice": [10]}, **headers)
    assert response.status_code == 422


def test_bad_input_names_the_field(client, started):
    code, headers = started
    response = post_json(client, f"{BASE}/{code}/timers", {"name": "Tocha", "turns": 0}, **headers)
    assert response.status_code == 422
    assert response.json()["code"] == "invalid" and response.json()["field"] == "turns"


def test_a_service_refusal_is_a_4xx_with_code_and_field(client, started, server_dice):
    code, headers = started
    body = {"marching_order": ["Hoplita", "hoplita"]}
    response = post_json(client, f"{BASE}/{code}/marching-order", body, **headers)
    assert response.status_code == 422
    assert response.json() == {
        "code": "invalid",
        "detail": exploration_services.MARCHING_DUPLICATE.format(name="hoplita"),
        "field": "marching_order",
    }
    server_dice(6)
    client.post(f"{BASE}/{code}/turns", **headers)
    again = client.post(f"{BASE}/{code}/turns", **headers)
    assert again.status_code == 422 and again.json()["code"] == "turn_started"


def test_a_jogador_reads_but_does_not_run_it(client, started, bearer, jogador):
    code, _ = started
    headers = bearer(jogador)
    assert client.get(f"{BASE}/{code}", **headers).status_code == 200
    response = client.post(f"{BASE}/{code}/turns", **headers)
    assert response.status_code == 403 and response.json()["code"] == "forbidden"


def test_an_outsider_gets_404(client, started, bearer, outsider):
    code, _ = started
    assert client.get(f"{BASE}/{code}", **bearer(outsider)).status_code == 404
