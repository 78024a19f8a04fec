"""The attacker's findings on POST /api/v1/explorations/{id}/rests (issue 22): JSON's true taken
as one hit die or one minute of strain, and a long rest said to end at any minute at all (10^18; now at most 30 days past the clock),
which then refused every later long rest for ever («Només un cada 24 hores»). Each is a 422 in
Portuguese naming the field, the state untouched; sent again corrected, it rests."""

from __future__ import annotations

import json

import pytest

from campaigns.auth import api_token_create
from sessions.exploration import native
from sessions.exploration import services as exploration_services
from sheets.ruleset_data import data_state, data_state_write

pytestmark = pytest.mark.django_db


@pytest.fixture
def exploration(scene, people):
    return exploration_services.exploration_start(scene=scene, user=people["mestre"], danger="")


def _rest(client, exploration, user, body):
    return client.post(
        f"/api/v1/explorations/{exploration.code}/rests",
        json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {api_token_create(user=user)}",
    )


@pytest.mark.parametrize(
    "body",
    [
        {"kind": "short", "hit_dice": True},
        {"kind": "long", "strenuous_minutes": True},
        {"kind": "long", "ends_at": True},
    ],
)
def test_true_is_not_a_number_of_a_rest(client, exploration, people, characters, body):
    data_state_write(character=characters["Aina"], data={"hp_lost": 4})
    before = data_state(characters["Aina"])
    answer = _rest(client, exploration, people["mestre"], {"character": "Aina", **body})
    assert answer.status_code == 422, answer.content
    assert answer.json()["field"] == next(k for k in body if k != "kind")
    assert data_state(characters["Aina"]) == before


def test_a_long_rest_cannot_end_past_30_days_of_the_clock(client, exploration, people, characters):
    latest = native.clock_minutes(exploration) + 30 * 24 * 60
    answer = _rest(
        client,
        exploration,
        people["mestre"],
        {"character": "Aina", "kind": "long", "ends_at": 10**18},
    )
    assert answer.status_code == 422, answer.content
    assert answer.json()["field"] == "ends_at"
    assert f"no minuto {latest}" in answer.json()["detail"]
    assert data_state(characters["Aina"])["last_long_rest"] == ""
    again = _rest(
        client,
        exploration,
        people["mestre"],
        {"character": "Aina", "kind": "long", "ends_at": latest},
    )
    assert again.status_code == 201, again.content


def test_look_alike_names_and_the_jogador_are_refused(client, exploration, people, characters):
    for name in ("A\u0456na", "aina", "Aina "):  # a Cyrillic і, the case, a space
        answer = _rest(client, exploration, people["mestre"], {"character": name, "kind": "short"})
        assert answer.status_code == 422 and answer.json()["field"] == "character"
    refused = _rest(client, exploration, people["jogador"], {"character": "Aina", "kind": "short"})
    assert refused.status_code == 403
