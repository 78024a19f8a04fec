"""The scene page's forms for the scene as a whole (sessions.log.scene_views): closing it, with
a confirmation step that works without JavaScript, and PV and fatigue outside a fight; and what
they leave in the exports."""

from __future__ import annotations

import json

from django.urls import reverse

from campaigns.confirm import CONFIRMED
from sessions.combat import services as combat_services
from sessions.log import scene_ops
from sessions.models import Scene
from sheets.reads import state_of
from tests.sheets.pages import content


def _close(client, scene, **data):
    return client.post(reverse("scene-close", args=[scene.code]), data)


def _state(client, scene, character, **data):
    # Confirmed: the step before a state change is tests/test_confirmations.py's.
    fields = {"state-character": str(character.code), **{f"state-{k}": v for k, v in data.items()}}
    fields |= CONFIRMED
    return client.post(reverse("state-change-add", args=[scene.code]), fields)


# --- closing -----------------------------------------------------------------------------------


def test_the_scene_page_offers_the_close_button_with_hx_confirm(client_for, mestre, scene):
    page = content(client_for(mestre).get(scene.get_absolute_url()))
    assert "Encerrar a cena" in page and 'hx-confirm="Encerrar a cena?' in page


def test_the_jogador_sees_no_close_button(client_for, jogador, scene):
    assert "Encerrar a cena" not in content(client_for(jogador).get(scene.get_absolute_url()))


def test_without_javascript_the_button_asks_first_and_closes_nothing(client_for, mestre, scene):
    response = _close(client_for(mestre), scene)
    assert response.status_code == 200
    assert "Sim, encerrar a cena" in content(response)
    assert Scene.objects.get(pk=scene.pk).is_open


def test_the_confirmation_closes_the_scene(client_for, mestre, scene):
    client = client_for(mestre)
    response = _close(client, scene, confirmar="1")
    assert response.status_code == 302 and response["Location"] == scene.get_absolute_url()
    assert not Scene.objects.get(pk=scene.pk).is_open
    page = content(client.get(scene.get_absolute_url()))
    assert "A cena está encerrada." in page and "Encerrar a cena" not in page


def test_with_htmx_the_page_reloads_after_closing(client_for, mestre, scene):
    response = client_for(mestre).post(
        reverse("scene-close", args=[scene.code]), {"confirmar": "1"}, HTTP_HX_REQUEST="true"
    )
    assert response["HX-Redirect"] == scene.get_absolute_url()


def test_a_running_combat_keeps_the_scene_open_and_says_so(client_for, mestre, scene):
    combat_services.combat_start(scene=scene, user=mestre)
    response = _close(client_for(mestre), scene, confirmar="1")
    assert response.status_code == 422
    assert scene_ops.COMBAT_RUNNING.format(round=0) in content(response)
    assert Scene.objects.get(pk=scene.pk).is_open


def test_a_jogador_may_not_close(client_for, jogador, scene):
    assert _close(client_for(jogador), scene, confirmar="1").status_code == 403
    assert Scene.objects.get(pk=scene.pk).is_open


# --- PV and fatigue outside a fight -------------------------------------------------------------


def test_the_state_form_changes_the_sheet_at_once(client_for, mestre, scene, jurado):
    client = client_for(mestre)
    response = _state(client, scene, jurado, hp=-1, fatigue=0, reason="Pânico")
    assert response.status_code == 302
    assert state_of(jurado).hp_lost == 1
    log = content(client.get(scene.get_absolute_url()))
    assert "−1 PV" in log and "(Pânico)" in log
    sheet = content(client.get(reverse("sheet", args=[jurado.code])))
    hp = jurado.versions.get(status="homologated").ht  # the Jurado's PV are his HT (§2.1)
    assert f"{hp - 1}/{hp}" in sheet


def test_the_state_form_says_what_is_wrong_in_portuguese(client_for, mestre, scene, jurado):
    response = _state(client_for(mestre), scene, jurado, hp=0, fatigue=0, reason="Nada")
    assert response.status_code == 422
    assert scene_ops.CHANGE_NOTHING in content(response)
    assert state_of(jurado).hp_lost == 0


def test_the_state_form_refuses_a_jogador(client_for, jogador, scene, jurado):
    assert _state(client_for(jogador), scene, jurado, hp=-1, reason="x").status_code == 403


# --- the exports -------------------------------------------------------------------------------


def test_the_markdown_export_has_the_state_change_and_the_combats_events(
    client_for, mestre, jogador, scene, jurado
):
    _state(client_for(mestre), scene, jurado, hp=-1, fatigue=0, reason="Pânico")
    combat_services.combat_start(scene=scene, user=mestre)
    text = content(client_for(jogador).get(reverse("scene-export-md", args=[scene.code])))
    assert "Jurado de Gapheim: −1 PV (Pânico)" in text
    assert "## Combate (em andamento, rodada 0)" in text and "Início" in text


def test_the_week_export_has_the_combats_events(client_for, mestre, jogador, scene):
    combat_services.combat_start(scene=scene, user=mestre)
    week = scene.week
    url = reverse("week-export-json", args=[week.campaign.slug, week.number])
    data = json.loads(client_for(jogador).get(url).content)
    (exported,) = data["scenes"][0]["combats"]
    assert exported["state"] == "running" and exported["events"][0]["kind"] == "start"


def test_state_changes_cost_the_scene_page_no_query_each(
    client_for, mestre, scene, jurado, django_assert_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = client_for(mestre)
    scene_ops.state_change_create(scene=scene, user=mestre, character=jurado, hp=-1, reason="Um")
    with CaptureQueriesContext(connection) as before:
        client.get(scene.get_absolute_url())
    for n in range(5):
        scene_ops.state_change_create(
            scene=scene, user=mestre, character=jurado, fatigue=-1, reason=f"Marcha {n}"
        )
    with django_assert_num_queries(len(before.captured_queries)):
        page = content(client.get(scene.get_absolute_url()))
    assert "(Marcha 4)" in page
