"""The API when the database does not answer (garganta_site.api.on_database_unavailable).

A PostgreSQL restart drops the connections under the requests in flight and refuses new ones
for a moment: the API answers a JSON 503 with Retry-After, not Django's HTML 500 page. Here
the failure is simulated where it happens in real life: in the token lookup (the first query
of a request) and in the roll's own transaction. tests/live/test_faults.py restarts a real
PostgreSQL under load.
"""

from __future__ import annotations

from unittest.mock import patch

import pytest
from django.db import InterfaceError, OperationalError

from campaigns.auth import TokenAuth
from garganta_site.api import DATABASE_UNAVAILABLE
from sessions.models import Roll
from tests.api.conftest import post_json


def _roll(client, scene, headers):
    body = {"label": "Observação", "base_level": 12, "kind": "skill"}
    return post_json(
        client,
        f"/api/v1/scenes/{scene.code}/rolls",
        body,
        HTTP_IDEMPOTENCY_KEY="db-down-1",
        **headers,
    )


def _assert_503(response):
    assert response.status_code == 503
    assert response["Content-Type"].startswith("application/json")
    assert response.json() == {
        "code": "database_unavailable",
        "detail": DATABASE_UNAVAILABLE,
        "field": None,
    }
    assert response["Retry-After"] == "2"


@pytest.mark.parametrize(
    "error",
    [
        OperationalError("server closed the connection unexpectedly"),
        InterfaceError("connection already closed"),
    ],
)
def test_roll_while_the_database_is_down_is_a_json_503(client, scene, mestre, bearer, error):
    headers = bearer(mestre)
    with patch("sessions.log.chain.append_roll", side_effect=error):
        response = _roll(client, scene, headers)
    _assert_503(response)
    assert not Roll.objects.filter(request_key="db-down-1").exists()
    # Sent again with the same key once the database is back: rolled once.
    again = _roll(client, scene, headers)
    assert again.status_code == 201
    assert Roll.objects.filter(request_key="db-down-1").count() == 1


def test_token_lookup_failing_is_a_json_503(client, scene, mestre, bearer):
    headers = bearer(mestre)
    refused = OperationalError('connection to server at "127.0.0.1" failed: Connection refused')
    with patch.object(TokenAuth, "authenticate", side_effect=refused):
        response = _roll(client, scene, headers)
    _assert_503(response)
    assert not Roll.objects.exists()


def test_a_page_says_to_try_again_without_needing_the_database(client, jogador, jurado):
    """The same outage on a page: a 503 page that reads nothing from the database (the site's
    layout reads the session and the user, which would fail again), not Django's 500."""
    from django.test import Client

    browser = Client(raise_request_exception=False)
    browser.force_login(jogador)
    with patch("sheets.services.sheet_versions", side_effect=OperationalError("gone")):
        response = browser.get(f"/fichas/{jurado.code}/")
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert "O banco de dados não respondeu" in response.content.decode()


def test_any_other_error_stays_a_500(client, jogador, jurado):
    from django.test import Client

    browser = Client(raise_request_exception=False)
    browser.force_login(jogador)
    with patch("sheets.services.sheet_versions", side_effect=RuntimeError("bug")):
        response = browser.get(f"/fichas/{jurado.code}/")
    assert response.status_code == 500
