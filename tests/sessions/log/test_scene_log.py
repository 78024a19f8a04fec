"""The log region alone, for polling (sessions.log.views.scene_log): 204 when nothing is new."""

from __future__ import annotations

from django.urls import reverse

from sessions.log import services as log_services
from tests.sheets.pages import content


def _url(scene, n) -> str:
    return reverse("scene-log", kwargs={"code": scene.code}) + f"?n={n}"


def _declare(scene, rastreador, rastreadora, text="Subo pela parede da galeria."):
    return log_services.declaration_create(
        scene=scene, character=rastreador, user=rastreadora, text=text
    )


def test_it_works(client_for, rastreadora, scene, rastreador):
    _declare(scene, rastreador, rastreadora)
    response = client_for(rastreadora).get(_url(scene, 0))
    assert response.status_code == 200
    html = content(response)
    assert "<html" not in html
    assert html.lstrip().startswith('<section id="log"')
    assert "Subo pela parede da galeria." in html
    # The next poll asks with the new count.
    assert "?n=1" in html


def test_it_requires_login(client, scene):
    response = client.get(_url(scene, 0))
    assert response.status_code == 302
    assert response.url.startswith("/entrar/")


def test_it_checks_membership(client_for, outsider, scene):
    assert client_for(outsider).get(_url(scene, 0)).status_code == 404


def test_it_answers_204_when_the_client_has_every_entry(client_for, mestre, scene):
    client = client_for(mestre)
    assert client.get(_url(scene, 0)).status_code == 204
    log_services.roll_create(
        scene=scene, user=mestre, label="Percepção", base_level=10, kind="attribute"
    )
    assert client.get(_url(scene, 1)).status_code == 204


def test_it_answers_200_with_the_new_entry(client_for, mestre, rastreadora, scene, rastreador):
    client = client_for(mestre)
    _declare(scene, rastreador, rastreadora)
    assert client.get(_url(scene, 1)).status_code == 204

    log_services.roll_create(
        scene=scene,
        user=mestre,
        skill="Escalada",
        character=rastreador,
    )
    response = client.get(_url(scene, 1))
    assert response.status_code == 200
    assert 'data-testid="roll-1"' in content(response)
    assert "?n=2" in content(response)


def test_it_answers_200_without_a_count(client_for, mestre, scene):
    assert (
        client_for(mestre).get(reverse("scene-log", kwargs={"code": scene.code})).status_code == 200
    )
