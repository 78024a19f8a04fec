"""An Idempotency-Key is its asker's own and names one request (garganta_site.api
claim_idempotency_key): the same request again is answered with what the first made; the
same key with another request — another scene, other levels, another body — is refused with
409 and rolls nothing, instead of handing back the first roll as if it answered the second."""

from __future__ import annotations

import pytest

from sessions.log.services import scene_create
from sessions.models import Roll, Scene
from tests.api.conftest import post_json

pytestmark = pytest.mark.django_db


def _roll(client, scene, headers, key, **changes):
    body = {"label": "Observação", "base_level": 12, "kind": "skill", "modifiers": []}
    body.update(changes)
    return post_json(
        client, f"/api/v1/scenes/{scene.code}/rolls", body, HTTP_IDEMPOTENCY_KEY=key, **headers
    )


def test_the_same_request_twice_rolls_once(client, bearer, mestre, scene):
    headers = bearer(mestre)
    first = _roll(client, scene, headers, "k-1")
    again = _roll(client, scene, headers, "k-1")
    assert first.status_code == 201 and again.status_code == 201
    assert first.json()["id"] == again.json()["id"]
    assert Roll.objects.filter(request_key="k-1").count() == 1


@pytest.mark.parametrize(
    "changes", [{"base_level": 18}, {"modifiers": [{"label": "x", "value": 5}]}, {"label": "Outra"}]
)
def test_the_same_key_with_another_body_is_refused(client, bearer, mestre, scene, changes):
    headers = bearer(mestre)
    assert _roll(client, scene, headers, "k-2").status_code == 201
    count = Roll.objects.count()
    response = _roll(client, scene, headers, "k-2", **changes)
    assert response.status_code == 409
    assert response.json()["code"] == "idempotency_conflict"
    assert Roll.objects.count() == count


def test_the_same_key_in_another_scene_is_refused(client, bearer, mestre, scene):
    headers = bearer(mestre)
    other = scene_create(week=scene.week, user=mestre, title="Outra cena", floor=3)
    assert isinstance(other, Scene)
    assert _roll(client, scene, headers, "k-3").status_code == 201
    response = _roll(client, other, headers, "k-3")
    assert response.status_code == 409
    assert not Roll.objects.filter(scene=other).exists()


def test_a_key_is_its_askers_own(client, bearer, mestre, arbitro, scene):
    """The Árbitro using the Mestre's key makes his own roll; nothing of the Mestre's leaks."""
    first = _roll(client, scene, bearer(mestre), "k-4")
    second = _roll(client, scene, bearer(arbitro), "k-4", base_level=9)
    assert first.status_code == 201
    assert second.status_code in (201, 409)
    if second.status_code == 201:
        assert second.json()["id"] != first.json()["id"]


def test_json_written_another_way_is_the_same_request(client, bearer, mestre, scene):
    headers = bearer(mestre)
    url = f"/api/v1/scenes/{scene.code}/rolls"
    a = '{"label": "Observação", "base_level": 12, "kind": "skill", "modifiers": []}'
    b = '{"modifiers":[],"kind":"skill","base_level":12,"label":"Observação"}'
    first = client.post(
        url, a, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k-5", **headers
    )
    second = client.post(
        url, b, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k-5", **headers
    )
    assert first.status_code == second.status_code == 201
    assert first.json()["id"] == second.json()["id"]


def test_a_refused_request_leaves_its_key_free(client, bearer, mestre, scene):
    """A 422 spends nothing: the corrected request with the same key rolls (not a 409)."""
    headers = bearer(mestre)
    refused = _roll(client, scene, headers, "k-6", base_level=2)  # §1.1: not at 3 or less
    assert refused.status_code == 422
    corrected = _roll(client, scene, headers, "k-6")
    assert corrected.status_code == 201, corrected.json()
    again = _roll(client, scene, headers, "k-6")
    assert again.json()["id"] == corrected.json()["id"]
    assert _roll(client, scene, headers, "k-6", base_level=14).status_code == 409


def test_a_dry_run_answers_as_the_request_would_and_keeps_nothing(client, bearer, mestre, scene):
    """X-Dry-Run: 1 (campaigns.http.dry_run_requests): the same answer, no roll stored, no
    die in the chain, and the key still free for the real request."""
    headers = bearer(mestre)
    count = Roll.objects.count()
    trial = _roll(client, scene, {**headers, "HTTP_X_DRY_RUN": "1"}, "k-dry")
    assert trial.status_code == 201, trial.content
    assert trial["X-Dry-Run"] == "1"
    assert trial.json()["effective_level"] == 12
    assert Roll.objects.count() == count
    real = _roll(client, scene, headers, "k-dry")
    assert real.status_code == 201 and Roll.objects.count() == count + 1
    assert real.json()["sequence"] == trial.json()["sequence"]
    refused = _roll(client, scene, {**headers, "HTTP_X_DRY_RUN": "1"}, "k-dry-2", base_level=2)
    assert refused.status_code == 422 and Roll.objects.count() == count + 1
