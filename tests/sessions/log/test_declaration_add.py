"""A jogador declares what a character does (sessions.log.views.declaration_add and
sessions.log.services.declaration_create). Only for own characters; never for the Mestre."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from campaigns.errors import ServiceError
from sessions.entries import SCENE_CLOSED
from sessions.log import services as log_services
from sessions.log.services import CHARACTER_NOT_IN_SCENE, DECLARATION_EMPTY, NOT_YOUR_CHARACTER
from sessions.models import Declaration, Scene
from sheets.models import Character
from tests.sheets.pages import content

HTMX = {"HTTP_HX_REQUEST": "true"}
TEXT = "Examino o chão da galeria à procura de rastros, com a tocha baixa."


def _url(scene) -> str:
    return reverse("declaration-add", kwargs={"code": scene.code})


def test_it_works(client_for, rastreadora, scene, rastreador):
    client = client_for(rastreadora)
    response = client.post(_url(scene), {"character": str(rastreador.code), "text": TEXT})
    assert response.status_code == 302
    declaration = Declaration.objects.get()
    assert (declaration.character, declaration.author, declaration.text) == (
        rastreador,
        rastreadora,
        TEXT,
    )
    assert TEXT in content(client.get(response.url))


def test_it_requires_login(client, scene, rastreador):
    response = client.post(_url(scene), {"character": str(rastreador.code), "text": TEXT})
    assert response.url.startswith("/entrar/")
    assert not Declaration.objects.exists()


def test_it_checks_ownership(client_for, rastreadora, scene, jurado):
    response = client_for(rastreadora).post(
        _url(scene), {"character": str(jurado.code), "text": TEXT}
    )
    assert response.status_code == 422
    assert not Declaration.objects.exists()


@pytest.mark.parametrize("username", ["mestre", "arbitro"])
def test_the_table_does_not_declare(client_for, django_user_model, scene, rastreador, username):
    user = django_user_model.objects.get(username=username)
    data = {"character": str(rastreador.code), "text": TEXT}
    assert client_for(user).post(_url(scene), data).status_code == 403
    assert not Declaration.objects.exists()


def test_it_checks_membership(client_for, outsider, scene, rastreador):
    data = {"character": str(rastreador.code), "text": TEXT}
    assert client_for(outsider).post(_url(scene), data).status_code == 404
    assert not Declaration.objects.exists()


def test_with_htmx_it_renders_the_workspace_and_asks_the_log_to_refresh(
    client_for, rastreadora, scene, rastreador
):
    data = {"character": str(rastreador.code), "text": TEXT}
    response = client_for(rastreadora).post(_url(scene), data, **HTMX)
    assert response.status_code == 200
    assert content(response).lstrip().startswith('<div id="workspace">')
    assert "log-changed" in response["HX-Trigger"]


@pytest.mark.parametrize("text", ["", "   "])
def test_it_refuses_an_empty_declaration_next_to_the_field(
    client_for, rastreadora, scene, rastreador, text
):
    data = {"character": str(rastreador.code), "text": text}
    response = client_for(rastreadora).post(_url(scene), data)
    assert response.status_code == 422
    assert f'<span class="error">{escape(DECLARATION_EMPTY)}</span>' in content(response)
    assert not Declaration.objects.exists()


def test_the_same_form_posted_twice_records_once(client_for, rastreadora, scene, rastreador):
    client = client_for(rastreadora)
    data = {"character": str(rastreador.code), "text": TEXT, "request_key": "9" * 32}
    client.post(_url(scene), data)
    client.post(_url(scene), data)
    assert Declaration.objects.count() == 1


# --- the service ------------------------------------------------------------------------------


def test_the_service_refuses_someone_elses_character(scene, rastreadora, jurado):
    with pytest.raises(ServiceError) as refused:
        log_services.declaration_create(scene=scene, character=jurado, user=rastreadora, text=TEXT)
    assert (refused.value.message, refused.value.code) == (NOT_YOUR_CHARACTER, "forbidden")
    assert not Declaration.objects.exists()


def test_the_service_refuses_a_character_not_in_the_scene(demo, scene, rastreadora):
    other = Character.objects.create(campaign=demo, owner=rastreadora, name="Segunda")
    with pytest.raises(ServiceError) as refused:
        log_services.declaration_create(scene=scene, character=other, user=rastreadora, text=TEXT)
    assert refused.value.message == CHARACTER_NOT_IN_SCENE


def test_the_service_refuses_a_closed_scene(scene, rastreadora, rastreador):
    Scene.objects.filter(pk=scene.pk).update(status=Scene.Status.CLOSED)
    scene.refresh_from_db()
    with pytest.raises(ServiceError) as refused:
        log_services.declaration_create(
            scene=scene, character=rastreador, user=rastreadora, text=TEXT
        )
    assert refused.value.message == SCENE_CLOSED
