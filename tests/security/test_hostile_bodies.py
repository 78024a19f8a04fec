"""What an attacker with a player's token tried (issue 27): a 10 MB body, JSON nested 5,000
deep, a 5,000-character Idempotency-Key, guessed bearer tokens. Each gets a clear 4xx in
Portuguese, never a 500, and nothing is written."""

from __future__ import annotations

import pytest
from django.conf import settings

from campaigns.auth import IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_TOO_LONG, api_token_create
from garganta_site.api import BODY_TOO_DEEP, BODY_TOO_LARGE
from sessions.models import Narration, Roll, Scene

pytestmark = pytest.mark.django_db


@pytest.fixture
def bearer():
    def header(user) -> dict[str, str]:
        return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user)}"}

    return header


@pytest.fixture
def scene(demo):
    return Scene.objects.get(title="A galeria do andar 3")


def _post(client, url, raw: bytes, **headers):
    return client.generic("POST", url, raw, content_type="application/json", **headers)


def test_a_10_mb_body_is_a_413_that_says_the_limit(client, bearer, mestre, jogador, scene):
    """The Mestre's is a 413 with the limit; a jogador's is a 403 before the body is read."""
    user = mestre
    text = "x" * (10 * 1024 * 1024)
    raw = ('{"text": "' + text + '"}').encode()
    response = _post(client, f"/api/v1/scenes/{scene.code}/narrations", raw, **bearer(user))
    assert response.status_code == 413
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    assert response.json()["detail"] == BODY_TOO_LARGE.format(
        limit=limit, megabytes=f"{limit / 1_048_576:.1f}"
    )
    assert not Narration.objects.filter(scene=scene, text__startswith="xxx").exists()
    url = f"/api/v1/scenes/{scene.code}/narrations"
    assert _post(client, url, raw, **bearer(jogador)).status_code == 403


def test_json_nested_5000_deep_is_a_400_not_a_500(client, bearer, mestre, scene):
    raw = b"[" * 5000 + b"]" * 5000
    body = b'{"text": ' + raw + b"}"
    response = _post(
        client,
        f"/api/v1/scenes/{scene.code}/narrations",
        body,
        **bearer(mestre),
        HTTP_IDEMPOTENCY_KEY="deep-1",
    )
    assert response.status_code == 400
    assert response.json()["detail"] == BODY_TOO_DEEP


def test_an_idempotency_key_past_the_limit_is_refused_saying_it(client, bearer, mestre, scene):
    key = "k" * 5000
    response = _post(
        client,
        f"/api/v1/scenes/{scene.code}/rolls",
        b'{"label": "Observa\\u00e7\\u00e3o", "base_level": 12, "kind": "skill"}',
        **bearer(mestre),
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert response.status_code == 422
    assert response.json()["field"] == "Idempotency-Key"
    assert response.json()["detail"] == IDEMPOTENCY_KEY_TOO_LONG.format(
        length=5000, limit=IDEMPOTENCY_KEY_MAX
    )
    assert not Roll.objects.exists()


def test_guessed_bearer_tokens_are_throttled_per_address(client, bearer, mestre):
    """20 failures in 10 minutes from one address; the 21st request from it is a 429 with
    Retry-After — even with a right token, so guessing right is no faster. Another address is
    not slowed."""
    from campaigns.auth import TOO_MANY_BAD_TOKENS, BearerFailures

    limit = BearerFailures()
    for attempt in range(limit.num_requests):
        response = client.get(
            "/api/v1/me", HTTP_AUTHORIZATION=f"Bearer palpite-{attempt}", REMOTE_ADDR="10.9.9.9"
        )
        assert response.status_code == 401
    right = bearer(mestre)
    throttled = client.get("/api/v1/me", REMOTE_ADDR="10.9.9.9", **right)
    assert throttled.status_code == 429
    assert throttled.json()["code"] == "too_many_requests"
    assert int(throttled["Retry-After"]) >= 1
    assert throttled.json()["detail"].startswith(TOO_MANY_BAD_TOKENS.split("{count}")[0])
    assert client.get("/api/v1/me", REMOTE_ADDR="10.9.9.10", **right).status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/console/decisions",
        "/api/v1/console/corrections",
        "/api/v1/console/divergences",
        "/api/v1/combats",
        "/api/v1/explorations",
        "/api/v1/weeks/a-garganta/1/report",
    ],
)
def test_a_player_is_refused_before_the_body_is_read(client, bearer, jogador, path):
    """Issue 27: console writes by a player answered 422 (the body) before 403 (the role)."""
    method = "PUT" if path.endswith("/report") else "POST"
    response = client.generic(
        method, path, b'{"nada": 1}', content_type="application/json", **bearer(jogador)
    )
    assert (response.status_code, response.json()["code"]) == (403, "forbidden")


def test_a_replayed_combat_start_is_refused_to_a_player_before_the_replay(
    client, bearer, mestre, jogador, scene
):
    """combat_start answered a replayed request before it checked the role: the Mestre's
    start, replayed by a jogador with his own key and the same body, is refused."""
    import json

    body = json.dumps({"scene": str(scene.code)})
    url = "/api/v1/combats"
    started = client.post(
        url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="c-1", **bearer(mestre)
    )
    assert started.status_code == 201, started.json()
    replay = client.post(
        url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="c-1", **bearer(jogador)
    )
    assert (replay.status_code, replay.json()["code"]) == (403, "forbidden")
    assert "id" not in replay.json()
