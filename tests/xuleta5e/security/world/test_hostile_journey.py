"""The attacker on the Xuleta journey's native saves (issue 22): a test the site already rolled
from the sheet is not answered again with a Mestre's roll, true is not a roll's number, an
unknown test and the jogador are refused, and the Xuleta's activities are the published keys."""

from __future__ import annotations

import json

import pytest

from campaigns.auth import api_token_create
from sessions.models import ExplorationTest, Roll
from tests.xuleta5e.world.test_native_journey import advance, begin

pytestmark = pytest.mark.django_db


def _post(client, url, body, user):
    token = api_token_create(user=user)
    return client.post(
        url, json.dumps(body), content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )


def test_the_native_saves_are_not_answered_again(client, scene, people, characters, server_dice):
    mestre = people["mestre"]
    exploration = begin(scene, mestre, server_dice)
    advance(exploration, mestre, server_dice)
    advance(exploration, mestre, server_dice)
    advance(exploration, mestre, server_dice, 10, 10, 10, 10, 10, 5, 15, 2, 20, 20, 20, 20)
    rolled = ExplorationTest.objects.filter(exploration=exploration).first()
    before = (rolled.roll_id, rolled.passed)
    last = Roll.objects.filter(scene=scene).order_by("-sequence").first()
    url = f"/api/v1/explorations/{exploration.code}/journey/tests"
    again = _post(client, url, {"test": str(rolled.code), "roll": last.sequence}, mestre)
    assert again.status_code == 422 and again.json()["field"] == "test"
    assert "já foi registrado" in again.json()["detail"]
    true = _post(client, url, {"test": str(rolled.code), "roll": True}, mestre)
    assert true.status_code == 422 and true.json()["field"] == "roll"
    unknown = _post(
        client, url, {"test": "00000000-0000-0000-0000-000000000000", "roll": 1}, mestre
    )
    assert unknown.status_code == 422 and unknown.json()["field"] == "test"
    jogador = _post(client, url, {"test": str(rolled.code), "roll": 1}, people["jogador"])
    assert jogador.status_code == 403
    rolled.refresh_from_db()
    assert (rolled.roll_id, rolled.passed) == before
    catalan = _post(
        client, f"/api/v1/explorations/{exploration.code}/travel", {"activity": "marxa"}, mestre
    )
    assert catalan.status_code == 422 and catalan.json()["field"] == "activity"
    assert "'advance'" in catalan.json()["detail"][0]["message"]
