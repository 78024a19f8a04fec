"""Picking up and dropping what a character has (sheets.views.possession_carry).

The seed leaves two companions' loot (5 kg and 6 kg) beside the Jurado, not carried. Picking
both up takes him from 23 kg to 34 kg: Carga Média (2), Move 4, Dodge 4 (canon case
jurado-carga: Dodge −1).
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from sheets.models import Possession
from tests.sheets.pages import content, row, stat

HTMX = {"HTTP_HX_REQUEST": "true"}


def _loot(character) -> list[Possession]:
    return list(Possession.objects.filter(character=character, item__isnull=True).order_by("pk"))


def _url(possession) -> str:
    return reverse(
        "possession-carry",
        kwargs={"code": possession.character.code, "possession_code": possession.code},
    )


def test_it_works(client_for, jogador, jurado):
    loot = _loot(jurado)[0]
    response = client_for(jogador).post(_url(loot), {"carried": "1"})
    assert response.status_code == 302
    assert response.url == reverse("sheet", kwargs={"code": jurado.code})
    loot.refresh_from_db()
    assert loot.carried


def test_it_requires_login(client, jurado):
    loot = _loot(jurado)[0]
    response = client.post(_url(loot), {"carried": "1"})
    assert response.status_code == 302
    assert response.url.startswith("/entrar/")
    loot.refresh_from_db()
    assert not loot.carried


def test_it_checks_ownership(client_for, jogadora, jurado):
    loot = _loot(jurado)[0]
    assert client_for(jogadora).post(_url(loot), {"carried": "1"}).status_code == 403
    loot.refresh_from_db()
    assert not loot.carried


def test_it_checks_membership(client_for, outsider, jurado):
    loot = _loot(jurado)[0]
    assert client_for(outsider).post(_url(loot), {"carried": "1"}).status_code == 404
    loot.refresh_from_db()
    assert not loot.carried


def test_it_refuses_get(client_for, jogador, jurado):
    assert client_for(jogador).get(_url(_loot(jurado)[0])).status_code == 405


def test_it_answers_404_for_a_possession_of_another_character(client_for, mestre, jurado, hoplita):
    other = Possession.objects.filter(character=hoplita).first()
    url = reverse("possession-carry", kwargs={"code": jurado.code, "possession_code": other.code})
    assert client_for(mestre).post(url, {"carried": "0"}).status_code == 404
    other.refresh_from_db()
    assert other.carried


def test_picking_up_both_loots_takes_the_jurado_to_carga_media(client_for, jogador, jurado):
    client = client_for(jogador)
    first, second = _loot(jurado)
    client.post(_url(first), {"carried": "1"}, **HTMX)
    response = client.post(_url(second), {"carried": "1"}, **HTMX)

    assert response.status_code == 200
    html = content(response)
    # Only the #play region, for htmx to swap in.
    assert "<html" not in html
    assert html.lstrip().startswith('<section id="play"')
    assert stat(html, "carried-kg") == "34 kg"  # 23 + 5 + 6
    assert stat(html, "encumbrance") == "Média (2)"
    assert stat(html, "move") == "4"
    assert stat(html, "dodge") == "4"
    assert row(html, "Esquiva")[:2] == ["Esquiva", "4"]


def test_dropping_the_loot_again_gives_back_carga_leve(client_for, jogador, jurado):
    client = client_for(jogador)
    for loot in _loot(jurado):
        client.post(_url(loot), {"carried": "1"})
    for loot in _loot(jurado):
        response = client.post(_url(loot), {"carried": "0"}, **HTMX)
    html = content(response)
    assert stat(html, "encumbrance") == "Leve (1)"
    assert stat(html, "dodge") == "5"


def test_without_htmx_it_redirects_to_the_sheet_which_shows_the_new_carga(
    client_for, jogador, jurado
):
    client = client_for(jogador)
    for loot in _loot(jurado):
        response = client.post(_url(loot), {"carried": "1"})
        assert response.status_code == 302
    html = content(client.get(response.url))
    assert "<html" in html
    assert stat(html, "encumbrance") == "Média (2)"
    assert stat(html, "dodge") == "4"


@pytest.mark.parametrize("username", ["mestre", "arbitro"])
def test_the_table_may_toggle_any_characters_items(client_for, django_user_model, jurado, username):
    user = django_user_model.objects.get(username=username)
    loot = _loot(jurado)[0]
    assert client_for(user).post(_url(loot), {"carried": "1"}, **HTMX).status_code == 200
    loot.refresh_from_db()
    assert loot.carried


def test_dropping_the_shield_takes_away_block_and_its_pd(client_for, jogador, jurado):
    shield = Possession.objects.get(character=jurado, item__name="Escudo médio")
    html = content(client_for(jogador).post(_url(shield), {"carried": "0"}, **HTMX))
    assert '<strong data-testid="pd">3</strong>' in html  # the mail alone
    with pytest.raises(AssertionError):
        row(html, "Bloquear")
