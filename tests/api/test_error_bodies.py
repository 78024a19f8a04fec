"""Every refusal under /api/ is the site's JSON error body, in Portuguese, naming the field:
pydantic's messages said once in Portuguese at the edge; a body that is not JSON, a route that
does not exist, an id that is not a UUID (under DEBUG too), a wrong method."""

from __future__ import annotations

import pytest
from django.test import override_settings

from campaigns.api_errors import STATUS_MESSAGES, VALIDATION_MESSAGES
from tests.api.conftest import post_json

pytestmark = pytest.mark.django_db

ENGLISH = (
    "Field required",
    "Input should",
    "Extra inputs",
    "Cannot parse",
    "not allowed",
    "Not Found",
    "Method Not Allowed",
    "Page not found",
    "value is not",
)


def _is_the_error_body(response) -> dict:
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    body = response.json()
    assert set(body) >= {"code", "detail", "field"}, body
    text = str(body["detail"])
    assert not any(word in text for word in ENGLISH), text
    return body


def test_schema_errors_are_said_in_portuguese_naming_each_field(client, bearer, mestre, scene):
    url = f"/api/v1/scenes/{scene.code}/rolls"
    answer = post_json(client, url, {"base_level": "doze", "extra": 1}, **bearer(mestre))
    assert answer.status_code == 422
    body = _is_the_error_body(answer)
    said = {line["field"]: line["message"] for line in body["detail"]}
    assert said["base_level"] == VALIDATION_MESSAGES["int_parsing"]
    assert said["extra"] == VALIDATION_MESSAGES["extra_forbidden"]
    assert body["field"] in said


def test_a_limit_is_said_with_its_number(client, bearer, mestre, scene):
    url = f"/api/v1/scenes/{scene.code}/rolls"
    body = {
        "label": "Observação",
        "base_level": 13,
        "kind": "skill",
        "modifiers": [{"label": "x", "value": 99}],
    }
    answer = post_json(client, url, body, **bearer(mestre))
    detail = _is_the_error_body(answer)["detail"]
    assert any("50" in line["message"] for line in detail)


def test_a_body_that_is_not_json_is_a_400_in_the_error_body(client, bearer, mestre, scene):
    url = f"/api/v1/scenes/{scene.code}/rolls"
    answer = client.post(url, "{label: x", content_type="application/json", **bearer(mestre))
    assert answer.status_code == 400
    body = _is_the_error_body(answer)
    assert body["code"] == "invalid_json" and body["field"] == "body"
    assert "linha 1" in body["detail"]


@pytest.mark.parametrize("debug", [False, True])
def test_unknown_routes_and_bad_ids_are_the_json_404(client, bearer, mestre, debug):
    with override_settings(DEBUG=debug):
        for url in ("/api/v1/nada", "/api/v1/scenes/nao-e-uuid/rolls", "/api/v1/combats/1"):
            answer = client.get(url, **bearer(mestre))
            assert answer.status_code == 404, url
            assert _is_the_error_body(answer)["detail"] == STATUS_MESSAGES[404]


def test_a_wrong_method_is_a_json_405_that_says_which(client, bearer, mestre):
    answer = client.get("/api/v1/combats", **bearer(mestre))
    assert answer.status_code == 405
    body = _is_the_error_body(answer)
    assert body["code"] == "method_not_allowed" and "POST" in body["detail"]


def test_no_token_is_a_json_401(client):
    answer = client.get("/api/v1/sheets")
    assert answer.status_code == 401
    _is_the_error_body(answer)
