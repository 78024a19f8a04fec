"""Pendências: the list, the page, opening one (Mestre or Árbitro), resolving one (Árbitro).
A resolved divergence keeps its text; the same form posted twice opens one."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.confirm import CONFIRMED
from campaigns.errors import ServiceError
from canon import services
from canon.models import Divergence
from tests.sheets.pages import content, text

NEW = "/console/pendencias/nova/"


def _divergence(demo, key="canon:9.3") -> Divergence:
    return Divergence.objects.get(campaign=demo, source_key=key)


def _form(**extra) -> dict:
    return {
        "request_key": "k-1",
        "campaign": "a-garganta",
        "title": "ST 23 não está na tabela de dano",
        "description": "A tabela da §4.9 vai até ST 20; o jurado de ST 23 não tem dano.",
        "section": "4.9",
        **extra,
    }


# --- the list and the page ---------------------------------------------------------------------


def test_the_list_is_at_console_pendencias():
    assert reverse("divergences") == "/console/pendencias/"


def test_the_list_shows_the_open_ones_by_default(client_for, jogador, demo):
    response = client_for(jogador).get("/console/pendencias/")
    assert response.status_code == 200
    html = content(response)
    assert "A campanha nunca declarou um Nível Tecnológico" in html
    assert "A linha 4 da §4.10 ainda diz que o 3 faz dano máximo" in html
    assert "estava um degrau acima do livro" not in html  # §9 item 1 is resolved


def test_the_list_of_resolved_ones(client_for, jogador, demo):
    html = content(client_for(jogador).get("/console/pendencias/?estado=resolvidas"))
    assert "estava um degrau acima do livro" in html
    assert "A campanha nunca declarou um Nível Tecnológico" not in html


def test_the_list_requires_login(client, demo):
    assert client.get("/console/pendencias/").url.startswith("/entrar/")


def test_the_list_shows_only_the_users_campaigns(client_for, outsider, demo):
    html = content(client_for(outsider).get("/console/pendencias/"))
    # The outsider's own campaign has the canon's items too, but not the demo's rows.
    for divergence in Divergence.objects.filter(campaign=demo)[:5]:
        assert str(divergence.code) not in html


def test_the_page_shows_both_sides_and_the_reading(client_for, jogador, demo):
    divergence = _divergence(demo, "canon:9.5")
    html = text(content(client_for(jogador).get(reverse("divergence", args=[divergence.code]))))
    assert "Livro, texto (pág. 105)" in html
    assert "Só metade do Deslocamento." in html
    assert "Resposta que o site usa até o Árbitro decidir: O cânone segue o texto" in html
    assert "Resolver pendência" not in html


def test_the_page_of_a_resolved_one_says_how_and_when(client_for, jogador, demo):
    divergence = _divergence(demo, "canon:9.4")
    html = text(content(client_for(jogador).get(reverse("divergence", args=[divergence.code]))))
    assert "Resolvida em 13/09/2026" in html
    assert "pela Decisão sem número" in html


def test_the_page_checks_membership(client_for, outsider, demo):
    divergence = _divergence(demo)
    assert (
        client_for(outsider).get(reverse("divergence", args=[divergence.code])).status_code == 404
    )


# --- opening one ---------------------------------------------------------------------------------


def test_the_offer_fills_the_form_in(client_for, mestre, demo):
    response = client_for(mestre).get(NEW, {"secao": "4.9", "contexto": "ST 23 na ficha"})
    assert response.status_code == 200
    html = content(response)
    assert 'name="section" value="4.9"' in html
    assert "ST 23 na ficha</textarea>" in html


def test_the_mestre_opens_a_divergence(client_for, mestre, demo):
    response = client_for(mestre).post(NEW, _form())
    found = Divergence.objects.get(campaign=demo, request_key="k-1")
    assert response.status_code == 302
    assert response.url == reverse("divergence", args=[found.code])
    assert (found.section, found.opened_by, found.is_open) == ("4.9", mestre, True)


def test_the_same_form_posted_twice_opens_one(client_for, arbitro, demo):
    client = client_for(arbitro)
    first = client.post(NEW, _form())
    second = client.post(NEW, _form())
    assert first.url == second.url
    assert Divergence.objects.filter(campaign=demo, request_key="k-1").count() == 1


def test_a_jogador_cannot_open_one_and_is_told_who_can(client_for, jogador, demo):
    before = Divergence.objects.count()
    for response in (client_for(jogador).get(NEW), client_for(jogador).post(NEW, _form())):
        assert response.status_code == 403
        assert services.ONLY_TABLE_OPENS in content(response)
    assert Divergence.objects.count() == before


def test_an_empty_title_is_refused_next_to_the_field(client_for, mestre, demo):
    before = Divergence.objects.count()
    response = client_for(mestre).post(NEW, _form(title=""))
    assert response.status_code == 422
    html = content(response)
    assert services.TITLE_REQUIRED in html
    assert html.index('name="title"') < html.index(services.TITLE_REQUIRED)
    assert Divergence.objects.count() == before


def test_the_new_page_requires_login(client, demo):
    assert client.get(NEW).url.startswith("/entrar/")


# --- resolving one -------------------------------------------------------------------------------


def _resolve_url(divergence) -> str:
    return reverse("divergence-resolve", args=[divergence.code])


def test_the_arbitro_resolves_and_the_text_stays(client_for, arbitro, demo):
    divergence = _divergence(demo)
    text_before = (divergence.title, divergence.description, divergence.side_a, divergence.side_b)
    response = client_for(arbitro).post(
        _resolve_url(divergence), {"resolution": "NT 3.", **CONFIRMED}
    )
    assert response.status_code == 302
    divergence.refresh_from_db()
    assert divergence.status == "resolved"
    assert (divergence.resolution, divergence.resolved_by) == ("NT 3.", arbitro)
    assert divergence.resolved_on is not None
    assert (divergence.title, divergence.description, divergence.side_a, divergence.side_b) == (
        text_before
    )


def test_a_decision_may_resolve_it(client_for, arbitro, demo):
    divergence = _divergence(demo)
    decision = demo.decisions.get(source_key="canon:4.12")
    client_for(arbitro).post(
        _resolve_url(divergence),
        {"resolution": "Pela 27.", "decision": str(decision.code), **CONFIRMED},
    )
    divergence.refresh_from_db()
    assert divergence.decision == decision


@pytest.mark.parametrize("username", ["jogador", "mestre"])
def test_only_the_arbitro_resolves(client_for, django_user_model, demo, username):
    user = django_user_model.objects.get(username=username)
    divergence = _divergence(demo)
    response = client_for(user).post(_resolve_url(divergence), {"resolution": "NT 3.", **CONFIRMED})
    assert response.status_code == 403
    assert services.ONLY_ARBITRO in content(response)
    divergence.refresh_from_db()
    assert divergence.is_open


def test_an_empty_resolution_is_refused_next_to_the_field(client_for, arbitro, demo):
    divergence = _divergence(demo)
    response = client_for(arbitro).post(_resolve_url(divergence), {"resolution": " ", **CONFIRMED})
    assert response.status_code == 422
    assert services.RESOLUTION_REQUIRED in content(response)
    divergence.refresh_from_db()
    assert divergence.is_open


def test_a_resolution_is_written_once(arbitro, demo):
    divergence = _divergence(demo)
    services.divergence_resolve(divergence=divergence, user=arbitro, resolution="NT 3.")
    # The same again is not an error (a form posted twice) …
    services.divergence_resolve(divergence=divergence, user=arbitro, resolution="NT 3.")
    # … another one is.
    with pytest.raises(ServiceError) as refused:
        services.divergence_resolve(divergence=divergence, user=arbitro, resolution="NT 2.")
    assert refused.value.message == services.ALREADY_RESOLVED
    divergence.refresh_from_db()
    assert divergence.resolution == "NT 3."


def test_a_divergence_row_is_never_saved_again_nor_deleted(demo):
    divergence = _divergence(demo)
    divergence.title = "outra coisa"
    with pytest.raises(PermissionError):
        divergence.save()
    with pytest.raises(PermissionError):
        divergence.delete()


def test_a_place_is_a_section_sign_only_for_a_numbered_section():
    from canon.models import place

    assert (place("4.9"), place("5b"), place("Descansar"), place("")) == (
        "§4.9",
        "§5b",
        "Descansar",
        "",
    )
