"""The Xuleta's bodies sent to a sistema001 fight (issue 22): a Xuleta action, Xuleta numbers
and a Xuleta condition are refused naming the field, in Portuguese, nothing played or started;
a sistema001 body with a bad value names the sistema001's own field."""

from __future__ import annotations

import json

import pytest

from campaigns.auth import api_token_create
from sessions.models import Combat
from tests.sessions.native_combat.conftest import numbers
from tests.xuleta5e.combat.conftest import numbers as xuleta_numbers

pytestmark = pytest.mark.django_db

ARIA = {"name": "Aria", "numbers": numbers(mobilidade=6, side="jogadores")}
OGRO = {"name": "Ogro", "numbers": numbers(mobilidade=4, pv=20)}


def _post(client, url, body, user):
    token = api_token_create(user=user)
    return client.post(
        url, json.dumps(body), content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )


@pytest.fixture
def fight(client, scene, people, server_dice):
    server_dice(3, 7)
    answer = _post(
        client,
        "/api/v1/fights",
        {"scene": str(scene.code), "combatants": [ARIA, OGRO]},
        people["mestre"],
    )
    assert answer.status_code == 201, answer.content
    view = answer.json()
    turn = view["turn"]["fighter"]
    other = next(r["id"] for r in view["order"] if r["id"] != turn)
    return view["id"], turn, other


def test_a_xuleta_action_in_a_sistema001_fight_is_refused(client, people, fight):
    code, turn, other = fight
    body = {"combatant": turn, "actions": [{"kind": "attack", "target": other}]}
    answer = _post(client, f"/api/v1/fights/{code}/turns", body, people["mestre"])
    assert answer.status_code == 422, answer.content
    assert answer.json()["field"] == "actions.0.kind"
    assert "outro sistema" in answer.json()["detail"]
    assert Combat.objects.get(code=code).round == 1


def test_a_bad_sistema001_action_names_its_own_field(client, people, fight):
    code, turn, other = fight
    body = {"combatant": turn, "actions": [{"kind": "ataque", "target": other, "modifiers": 99}]}
    answer = _post(client, f"/api/v1/fights/{code}/turns", body, people["mestre"])
    assert answer.status_code == 422, answer.content
    assert answer.json()["field"] == "actions.0.modifiers"
    assert "function-wrap" not in answer.content.decode()


def test_xuleta_numbers_in_a_sistema001_campaign_are_refused(client, scene, people):
    goblin = {"name": "Goblin", "numbers": xuleta_numbers()}
    answer = _post(
        client,
        "/api/v1/fights",
        {"scene": str(scene.code), "combatants": [ARIA, goblin]},
        people["mestre"],
    )
    assert answer.status_code in (400, 422), answer.content
    assert answer.json()["field"].startswith("combatants.1")
    assert not Combat.objects.exists()


def test_a_xuleta_condition_in_a_sistema001_fight_is_refused(client, people, fight):
    code, _, other = fight
    body = {"target": other, "condition": "paralyzed"}
    answer = _post(client, f"/api/v1/fights/{code}/conditions", body, people["mestre"])
    assert answer.status_code in (400, 422), answer.content
    assert answer.json()["field"] == "condition"
