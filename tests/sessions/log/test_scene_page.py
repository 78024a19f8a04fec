"""The scene page (sessions.log.views.scene_detail): the log, the jogador's declaration form and
the Mestre's roll form."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sessions.log import services as log_services
from tests.sheets.pages import content


def _url(scene) -> str:
    return reverse("scene", kwargs={"code": scene.code})


def test_it_works(client_for, mestre, scene):
    response = client_for(mestre).get(_url(scene))
    assert response.status_code == 200
    assert "A galeria do andar 3" in content(response)


def test_it_requires_login(client, scene):
    response = client.get(_url(scene))
    assert response.status_code == 302
    assert response.url.startswith("/entrar/")


def test_it_checks_membership(client_for, outsider, scene):
    assert client_for(outsider).get(_url(scene)).status_code == 404


def test_a_jogador_gets_the_declaration_form_for_own_characters_only(
    client_for, rastreadora, scene, rastreador, jurado
):
    html = content(client_for(rastreadora).get(_url(scene)))
    assert reverse("declaration-add", kwargs={"code": scene.code}) in html
    assert f'<option value="{rastreador.code}"' in html
    assert f'<option value="{jurado.code}"' not in html
    assert reverse("roll-add", kwargs={"code": scene.code}) not in html


def test_the_mestre_gets_the_roll_form_and_no_declaration_form(client_for, mestre, scene):
    html = content(client_for(mestre).get(_url(scene)))
    assert reverse("roll-add", kwargs={"code": scene.code}) in html
    assert reverse("declaration-add", kwargs={"code": scene.code}) not in html
    # The targets come from the homologated sheets: Observação 13 of the rastreador.
    assert "Observação 13 · 83%" in html
    assert "Bloquear (com PD) 12 · 74%" in html  # the jurado's Block with PD


def test_its_query_count_is_pinned_for_the_mestre(
    client_for, mestre, scene, django_assert_max_num_queries
):
    client = client_for(mestre)
    # 29 today: session, user, scene (+week, its report, campaign), the scene's characters
    # (prefetched once), membership, the log (declarations, announcements, rolls,
    # narrations), for each of the 3 characters the sheet behind its roll targets (version,
    # traits, skills, items, state, possessions), and for the forms' lists the announcements
    # and the last declarations. Headroom for the layout.
    with django_assert_max_num_queries(32):
        assert client.get(_url(scene)).status_code == 200


def test_its_query_count_is_pinned_for_a_jogador(
    client_for, rastreadora, scene, django_assert_max_num_queries
):
    client = client_for(rastreadora)
    # 9 today: session, user, scene (+week, its report, campaign), the scene's characters
    # (prefetched once), membership, the log (declarations, announcements, rolls,
    # narrations). Headroom for the layout.
    with django_assert_max_num_queries(10):
        assert client.get(_url(scene)).status_code == 200


@pytest.mark.parametrize("username", ["mestre", "rastreadora"])
def test_its_query_count_does_not_grow_with_the_log(
    client_for,
    django_user_model,
    scene,
    mestre,
    rastreador,
    rastreadora,
    username,
    django_assert_num_queries,
):
    client = client_for(django_user_model.objects.get(username=username))
    with CaptureQueriesContext(connection) as before:
        client.get(_url(scene))
    for n in range(10):
        declaration = log_services.declaration_create(
            scene=scene, character=rastreador, user=rastreadora, text=f"Procuro rastros ({n})."
        )
        log_services.roll_create(
            scene=scene,
            user=mestre,
            label="Rastreamento",
            base_level=13,
            kind="skill",
            character=rastreador,
            declaration=declaration,
            hidden=n % 2 == 0,
        )
    with django_assert_num_queries(len(before.captured_queries)):
        response = client.get(_url(scene))
    assert "Procuro rastros (9)." in content(response)
