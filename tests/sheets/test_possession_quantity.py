"""How many of an item a character has (sheets.views.possession_quantity)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from sheets.models import Possession
from sheets.possessions import QUANTITY_AT_LEAST_1, QUANTITY_TOO_LARGE
from tests.sheets.pages import content, stat

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def arrows(rastreador):
    return Possession.objects.get(character=rastreador, item__name="Flechas")


def _url(possession) -> str:
    return reverse(
        "possession-quantity",
        kwargs={"code": possession.character.code, "possession_code": possession.code},
    )


def test_it_works(client_for, rastreadora, arrows):
    response = client_for(rastreadora).post(_url(arrows), {"quantity": "12"})
    assert response.status_code == 302
    arrows.refresh_from_db()
    assert arrows.quantity == 12


def test_it_requires_login(client, arrows):
    response = client.post(_url(arrows), {"quantity": "12"})
    assert response.status_code == 302
    assert response.url.startswith("/entrar/")
    arrows.refresh_from_db()
    assert arrows.quantity == 20


def test_it_checks_ownership(client_for, jogador, arrows):
    assert client_for(jogador).post(_url(arrows), {"quantity": "12"}).status_code == 403
    arrows.refresh_from_db()
    assert arrows.quantity == 20


def test_it_checks_membership(client_for, outsider, arrows):
    assert client_for(outsider).post(_url(arrows), {"quantity": "12"}).status_code == 404
    arrows.refresh_from_db()
    assert arrows.quantity == 20


def test_the_mestre_may_change_any_quantity(client_for, mestre, arrows):
    assert client_for(mestre).post(_url(arrows), {"quantity": "5"}, **HTMX).status_code == 200
    arrows.refresh_from_db()
    assert arrows.quantity == 5


def test_with_htmx_it_renders_the_new_weight(client_for, rastreadora, arrows):
    # The rastreador carries 1 + 20 × 0.05 + 0.5 + 3 + 1.5 = 7 kg; 40 arrows add 1 kg.
    html = content(client_for(rastreadora).post(_url(arrows), {"quantity": "40"}, **HTMX))
    assert "<html" not in html
    assert stat(html, "carried-kg") == "8 kg"


@pytest.mark.parametrize(
    ("quantity", "message"),
    [
        ("0", QUANTITY_AT_LEAST_1),
        ("-1", QUANTITY_AT_LEAST_1),
        ("", QUANTITY_AT_LEAST_1),
        ("abc", QUANTITY_AT_LEAST_1),
        ("10001", QUANTITY_TOO_LARGE),
    ],
)
def test_it_refuses_a_bad_quantity_and_stores_nothing(
    client_for, rastreadora, arrows, quantity, message
):
    client = client_for(rastreadora)

    response = client.post(_url(arrows), {"quantity": quantity})
    assert response.status_code == 422
    assert escape(message) in content(response)

    response = client.post(_url(arrows), {"quantity": quantity}, **HTMX)
    assert response.status_code == 200
    assert escape(message) in content(response)

    arrows.refresh_from_db()
    assert arrows.quantity == 20
