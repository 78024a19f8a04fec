"""Scenes through the API (sessions.log.api.scene_list)."""

from __future__ import annotations


def test_it_works(client_for, jogador, scene, jurado, hoplita, rastreador):
    response = client_for(jogador).get("/api/v1/scenes")
    assert response.status_code == 200
    (body,) = response.json()
    assert set(body) == {"id", "title", "campaign", "week", "status", "characters"}
    assert (body["id"], body["title"], body["campaign"], body["week"], body["status"]) == (
        str(scene.code),
        "A galeria do andar 3",
        "a-garganta",
        1,
        "open",
    )
    assert sorted(body["characters"], key=lambda c: c["name"]) == [
        {"id": str(c.code), "name": c.name} for c in (hoplita, jurado, rastreador)
    ]


def test_it_requires_authentication(client, scene):
    assert client.get("/api/v1/scenes").status_code == 401


def test_it_takes_a_bearer_token(client, bearer, mestre, scene):
    assert len(client.get("/api/v1/scenes", **bearer(mestre)).json()) == 1


def test_it_checks_membership(client_for, outsider, scene):
    assert client_for(outsider).get("/api/v1/scenes").json() == []
