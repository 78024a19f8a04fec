"""Removing loot added in play (sheets.views.loot_remove); sheet items are only dropped."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sheets.models import Possession
from sheets.possessions import LOOT_ONLY
from tests.sheets.pages import content, stat

HTMX = {"HTTP_HX_REQUEST": "true"}


def _url(possession) -> str:
    return reverse(
        "loot-remove",
        kwargs={"code": possession.character.code, "possession_code": possession.code},
    )


@pytest.fixture
def loot(jurado) -> Possession:
    return Possession.objects.filter(character=jurado, item__isnull=True).order_by("pk").first()


def test_it_works(client_for, jogador, jurado, loot):
    response = client_for(jogador).post(_url(loot))
    assert response.status_code == 302
    assert response.url == reverse("sheet", kwargs={"code": jurado.code})
    assert not Possession.objects.filter(pk=loot.pk).exists()


def test_it_requires_login(client, loot):
    assert client.post(_url(loot)).url.startswith("/entrar/")
    assert Possession.objects.filter(pk=loot.pk).exists()


def test_it_checks_ownership(client_for, jogadora, loot):
    assert client_for(jogadora).post(_url(loot)).status_code == 403
    assert Possession.objects.filter(pk=loot.pk).exists()


def test_it_checks_membership(client_for, outsider, loot):
    assert client_for(outsider).post(_url(loot)).status_code == 404
    assert Possession.objects.filter(pk=loot.pk).exists()


def test_the_mestre_may_remove_loot(client_for, mestre, loot):
    assert client_for(mestre).post(_url(loot), **HTMX).status_code == 200
    assert not Possession.objects.filter(pk=loot.pk).exists()


def test_with_htmx_it_renders_the_new_weight(client_for, jogador, jurado, loot):
    client = client_for(jogador)
    client.post(
        reverse("possession-carry", kwargs={"code": jurado.code, "possession_code": loot.code}),
        {"carried": "1"},
    )
    html = content(client.post(_url(loot), **HTMX))
    assert "<html" not in html
    assert stat(html, "carried-kg") == "23 kg"


def test_it_refuses_a_sheet_item_and_says_why(client_for, jogador, jurado):
    mail = Possession.objects.get(character=jurado, item__name="Cota de malha")
    response = client_for(jogador).post(_url(mail), **HTMX)
    assert LOOT_ONLY in content(response)
    assert Possession.objects.filter(pk=mail.pk).exists()
