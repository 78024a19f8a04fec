"""``manage.py api_token USERNAME`` and campaigns.auth.api_token_create."""

from __future__ import annotations

import hashlib
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from campaigns.models import ApiToken


def _api_token(username: str) -> str:
    out = StringIO()
    call_command("api_token", username, stdout=out)
    return out.getvalue().strip()


def test_it_prints_a_token_that_opens_the_api(client, mestre):
    token = _api_token("mestre")
    response = client.get("/api/v1/sheets", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200
    assert len(response.json()) == 3


def test_it_stores_only_the_sha256_of_the_token(mestre):
    token = _api_token("mestre")
    stored = ApiToken.objects.get(user=mestre)
    assert stored.key_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in {getattr(stored, f.attname) for f in ApiToken._meta.concrete_fields}
    assert stored.prefix == token[:8]
    assert len(token) >= 32


def test_each_call_makes_a_new_token(mestre):
    assert _api_token("mestre") != _api_token("mestre")
    assert ApiToken.objects.filter(user=mestre).count() == 2


def test_it_refuses_an_unknown_user(demo):
    with pytest.raises(CommandError):
        _api_token("ninguem")
    assert not ApiToken.objects.exists()


def test_the_mestres_token_asks_the_server_to_roll(client, mestre, scene):
    token = _api_token("mestre")
    response = client.post(
        f"/api/v1/scenes/{scene.code}/rolls",
        {"label": "Percepção", "base_level": 10, "kind": "attribute"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert response.status_code == 201
    assert response.json()["rolled_by"] == "mestre"


def test_revoke_shuts_every_token_of_the_user(client, mestre):
    first, second = _api_token("mestre"), _api_token("mestre")
    out = StringIO()
    call_command("api_token", "mestre", "--revoke", stdout=out)
    assert "2" in out.getvalue()
    for token in (first, second):
        response = client.get("/api/v1/sheets", HTTP_AUTHORIZATION=f"Bearer {token}")
        assert response.status_code == 401
    assert not ApiToken.objects.filter(user=mestre, revoked_at__isnull=True).exists()


def test_revoke_leaves_other_users_tokens_alone(client, mestre, arbitro):
    token = _api_token("arbitro")
    _api_token("mestre")
    call_command("api_token", "mestre", "--revoke", stdout=StringIO())
    response = client.get("/api/v1/sheets", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200
