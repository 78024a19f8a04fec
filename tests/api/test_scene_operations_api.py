"""A scene as a whole through the API (sessions.log.scene_api): its combats and descents,
closing it, and PV and fatigue changed outside a fight."""

from __future__ import annotations

import pytest

from sessions import entries
from sessions.log import scene_api, scene_ops
from sessions.models import Scene, StateChange
from sheets.reads import state_of
from tests.api.conftest import post_json


@pytest.fixture
def table(client, bearer, mestre):
    return client, bearer(mestre)


def _start_combat(client, headers, scene):
    response = post_json(client, "/api/v1/combats", {"scene": str(scene.code)}, **headers)
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def _start_exploration(client, headers, scene):
    body = {"scene": str(scene.code), "danger": "risky"}
    response = post_json(client, "/api/v1/explorations", body, **headers)
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def _change(client, headers, scene, key="", **body):
    if key:
        headers = {**headers, "HTTP_IDEMPOTENCY_KEY": key}
    return post_json(client, f"/api/v1/scenes/{scene.code}/state-changes", body, **headers)


# --- the combats and descents of a scene -------------------------------------------------------


def test_the_trackers_list_the_scenes_combat_and_descent_with_their_state(table, scene, jogador):
    client, headers = table
    combat = _start_combat(client, headers, scene)
    exploration = _start_exploration(client, headers, scene)
    post_json(client, f"/api/v1/explorations/{exploration}/end", {}, **headers)

    rows = client.get(f"/api/v1/scenes/{scene.code}/trackers", **headers).json()
    assert [(r["kind"], r["id"], r["state"]) for r in rows] == [
        ("combat", combat, "running"),
        ("exploration", exploration, "ended"),
    ]
    assert rows[0]["round"] == 0 and rows[0]["turn"] is None and rows[0]["ended_at"] is None
    assert rows[1]["round"] is None and rows[1]["turn"] == 0 and rows[1]["ended_at"]


def test_a_jogador_reads_the_trackers_too(client, bearer, jogador, scene):
    response = client.get(f"/api/v1/scenes/{scene.code}/trackers", **bearer(jogador))
    assert response.status_code == 200 and response.json() == []


def test_an_outsider_gets_404_for_the_trackers(client, bearer, outsider, scene):
    response = client.get(f"/api/v1/scenes/{scene.code}/trackers", **bearer(outsider))
    assert response.status_code == 404


# --- closing a scene ---------------------------------------------------------------------------


def test_closing_is_refused_while_a_combat_runs_and_names_it(table, scene):
    client, headers = table
    _start_combat(client, headers, scene)
    response = post_json(client, f"/api/v1/scenes/{scene.code}/close", {}, **headers)
    assert response.status_code == 422
    assert response.json()["detail"] == scene_ops.COMBAT_RUNNING.format(round=0)
    assert Scene.objects.get(pk=scene.pk).is_open


def test_closing_is_refused_while_a_descent_runs(table, scene):
    client, headers = table
    _start_exploration(client, headers, scene)
    response = post_json(client, f"/api/v1/scenes/{scene.code}/close", {}, **headers)
    assert response.status_code == 422
    assert response.json()["detail"] == scene_ops.EXPLORATION_RUNNING.format(turn=0)


def test_a_closed_scene_refuses_narration_rolls_and_declarations(
    client, bearer, mestre, jogador, scene, jurado
):
    headers = bearer(mestre)
    closed = post_json(client, f"/api/v1/scenes/{scene.code}/close", {}, **headers)
    assert closed.status_code == 200 and closed.json()["status"] == "closed"
    again = post_json(client, f"/api/v1/scenes/{scene.code}/close", {}, **headers)
    assert again.status_code == 200  # closing a closed scene changes nothing
    narration = post_json(
        client, f"/api/v1/scenes/{scene.code}/narrations", {"text": "E então…"}, **headers
    )
    roll = post_json(
        client,
        f"/api/v1/scenes/{scene.code}/rolls",
        {"label": "Observação", "base_level": 12, "kind": "attribute"},
        **headers,
    )
    declaration = post_json(
        client,
        f"/api/v1/scenes/{scene.code}/declarations",
        {"character": str(jurado.code), "text": "Olho."},
        **bearer(jogador),
    )
    change = _change(client, headers, scene, character=str(jurado.code), hp=-1, reason="Pânico")
    for refused in (narration, roll, declaration, change):
        assert refused.status_code == 422
        assert refused.json()["detail"] == entries.SCENE_CLOSED


def test_a_jogador_may_not_close_the_scene(client, bearer, jogador, scene):
    response = post_json(client, f"/api/v1/scenes/{scene.code}/close", {}, **bearer(jogador))
    assert response.status_code == 403
    assert response.json()["detail"] == scene_api.ONLY_THE_TABLE_CLOSES
    assert Scene.objects.get(pk=scene.pk).is_open


# --- PV and fatigue outside a fight -------------------------------------------------------------


def test_the_panics_hp_goes_into_the_state_the_sheet_and_the_log(table, scene, jurado):
    client, headers = table
    response = _change(client, headers, scene, character=str(jurado.code), hp=-1, reason="Pânico")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["text"] == "Jurado de Gapheim: −1 PV (Pânico)"
    assert body["state"]["hp_lost"] == state_of(jurado).hp_lost == 1
    sheet = client.get(f"/api/v1/sheets/{jurado.code}", **headers).json()
    assert sheet["hp_lost"] == 1
    assert sheet["derived"]["hp_remaining"] == sheet["derived"]["hp"] - 1
    log = client.get(f"/api/v1/scenes/{scene.code}/log", **headers).json()["entries"]
    (entry,) = [e for e in log if e["type"] == "state_change"]
    assert (entry["hp"], entry["fatigue"], entry["reason"]) == (-1, 0, "Pânico")


def test_fatigue_is_spent_and_recovered_through_the_engine(table, scene, jurado):
    client, headers = table
    st = jurado.versions.get(status="homologated").st
    spent = _change(client, headers, scene, character=str(jurado.code), fatigue=-3, reason="Marcha")
    assert spent.status_code == 201 and state_of(jurado).fatigue_lost == 3
    assert spent.json()["text"] == "Jurado de Gapheim: −3 PF (Marcha)"
    # no negative fatigue (§6.2): far more than ST leaves ST 0
    _change(client, headers, scene, character=str(jurado.code), fatigue=-50, reason="Noite")
    assert state_of(jurado).fatigue_lost == st
    rested = _change(
        client, headers, scene, character=str(jurado.code), fatigue=2, reason="Descanso"
    )
    assert rested.status_code == 201 and state_of(jurado).fatigue_lost == st - 2


def test_a_recovery_of_more_than_was_lost_is_refused(table, scene, jurado):
    client, headers = table
    _change(client, headers, scene, character=str(jurado.code), hp=-1, reason="Pânico")
    response = _change(client, headers, scene, character=str(jurado.code), hp=3, reason="Atadura")
    assert response.status_code == 422
    assert response.json()["field"] == "hp"
    assert response.json()["detail"] == scene_ops.HP_RECOVERY_TOO_MUCH.format(
        name=jurado.name, lost=1, asked=3
    )
    assert state_of(jurado).hp_lost == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"hp": 0, "fatigue": 0, "reason": "Nada"}, "hp"),
        ({"hp": 1.5, "reason": "Meio"}, "hp"),
        ({"hp": "2", "reason": "Texto"}, "hp"),
        ({"hp": True, "reason": "Sim"}, "hp"),
        ({"hp": -1, "reason": ""}, "reason"),
        ({"hp": -1}, "reason"),
        ({"hp": -101, "reason": "Demais"}, "hp"),
    ],
)
def test_impossible_changes_are_refused_in_portuguese(table, scene, jurado, body, field):
    client, headers = table
    response = _change(client, headers, scene, character=str(jurado.code), **body)
    assert response.status_code == 422
    assert response.json()["field"] == field
    detail = response.json()["detail"]
    text = detail if isinstance(detail, str) else detail[0]["message"]
    assert not any(word in text for word in ("Input", "should", "Field required")), text
    assert not StateChange.objects.exists()


def test_a_character_in_a_running_combat_is_refused(table, scene, jurado):
    client, headers = table
    combat = _start_combat(client, headers, scene)
    assert any(
        c["character"] == str(jurado.code)
        for c in client.get(f"/api/v1/combats/{combat}", **headers).json()["combatants"]
    )
    response = _change(client, headers, scene, character=str(jurado.code), hp=-1, reason="Pânico")
    assert response.status_code == 422
    assert response.json()["detail"] == scene_ops.CHARACTER_IN_COMBAT.format(name=jurado.name)


def test_a_jogador_may_not_change_the_state(client, bearer, jogador, scene, jurado):
    response = _change(
        client, bearer(jogador), scene, character=str(jurado.code), hp=-1, reason="Pânico"
    )
    assert response.status_code == 403
    assert state_of(jurado).hp_lost == 0 and not StateChange.objects.exists()


def test_the_same_key_changes_once_and_a_refused_one_stays_free(table, scene, jurado):
    client, headers = table
    refused = _change(
        client, headers, scene, key="k1", character=str(jurado.code), hp=0, reason="x"
    )
    assert refused.status_code == 422
    first = _change(
        client, headers, scene, key="k1", character=str(jurado.code), hp=-2, reason="Queda"
    )
    again = _change(
        client, headers, scene, key="k1", character=str(jurado.code), hp=-2, reason="Queda"
    )
    assert first.status_code == again.status_code == 201
    assert first.json()["id"] == again.json()["id"]
    assert state_of(jurado).hp_lost == 2
    other = _change(
        client, headers, scene, key="k1", character=str(jurado.code), hp=-5, reason="Queda"
    )
    assert other.status_code == 409


def test_a_change_names_the_roll_it_answers(table, scene, jurado):
    client, headers = table
    roll = post_json(
        client,
        f"/api/v1/scenes/{scene.code}/rolls",
        {"label": "Verificação de Pânico", "base_level": 11, "kind": "attribute"},
        **headers,
    ).json()
    response = _change(
        client, headers, scene, character=str(jurado.code), hp=-1, reason="Pânico", roll=roll["id"]
    )
    assert response.status_code == 201 and response.json()["answers_roll"] == roll["id"]


# --- the exports carry the trackers' events ----------------------------------------------------


def test_the_scene_export_has_the_combats_events(table, scene, jogador, bearer):
    client, headers = table
    combat = _start_combat(client, headers, scene)
    data = client.get(f"/api/v1/scenes/{scene.code}/export", **bearer(jogador)).json()
    (exported,) = data["combats"]
    assert exported["id"] == combat and exported["state"] == "running"
    assert exported["events"][0]["kind"] == "start" and exported["events"][0]["text"]
    assert data["explorations"] == []


def test_a_change_answering_a_hidden_roll_names_it_only_to_who_sees_the_roll(
    client, bearer, mestre, jogadora, scene, jurado
):
    headers = bearer(mestre)
    hidden = post_json(
        client,
        f"/api/v1/scenes/{scene.code}/rolls",
        {
            "label": "Verificação de Pânico",
            "attribute": "will",
            "kind": "attribute",
            "character": str(jurado.code),
            "hidden": True,
        },
        **headers,
    ).json()
    _change(
        client,
        headers,
        scene,
        character=str(jurado.code),
        hp=-1,
        reason="Pânico",
        roll=hidden["id"],
    )

    def answered(user_headers):
        log = client.get(f"/api/v1/scenes/{scene.code}/log", **user_headers).json()["entries"]
        (entry,) = [e for e in log if e["type"] == "state_change"]
        return entry["answers_roll"]

    assert answered(headers) == hidden["id"]
    assert answered(bearer(jogadora)) is None  # the Hoplita's player does not see that roll
