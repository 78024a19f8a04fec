"""Loot picked up in play (sheets.views.loot_add and sheets.possessions.loot_add).

Bad input gets its message next to the field and stores nothing (docs/DESIGN.md,
invariant 9 (Bad input loses nothing)).
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils.html import escape

from campaigns.errors import ServiceError
from sheets.computed import sheet_view
from sheets.forms import LootForm
from sheets.models import Possession
from sheets.possessions import (
    LOOT_NEEDS_NAME,
    QUANTITY_AT_LEAST_1,
    QUANTITY_TOO_LARGE,
    WEIGHT_NOT_NEGATIVE,
    WEIGHT_TOO_LARGE,
    loot_add,
)
from tests.sheets.pages import content, stat

HTMX = {"HTTP_HX_REQUEST": "true"}
WEIGHT_NOT_A_NUMBER = LootForm.base_fields["weight_kg"].error_messages["invalid"]


def _url(character) -> str:
    return reverse("loot-add", kwargs={"code": character.code})


def _loot_names(character) -> list[str]:
    return list(
        Possession.objects.filter(character=character, item__isnull=True)
        .order_by("pk")
        .values_list("loot_name", flat=True)
    )


def _error_next_to(html: str, field: str, message: str) -> bool:
    """The message sits in the same <label> as the input named ``field``."""
    for label in html.split("<label>")[1:]:
        label = label.split("</label>")[0]
        if f'name="{field}"' in label:
            return f'<span class="error">{escape(message)}</span>' in label
    raise AssertionError(f"no field {field!r} on the page")


def test_it_works(client_for, jogador, jurado):
    response = client_for(jogador).post(
        _url(jurado), {"name": "Presas de boca-de-poço", "weight_kg": "2.5", "quantity": "2"}
    )
    assert response.status_code == 302
    loot = Possession.objects.get(character=jurado, loot_name="Presas de boca-de-poço")
    assert (loot.loot_weight_kg, loot.quantity, loot.carried) == (Decimal("2.5"), 2, True)
    assert loot.added_by.username == "jogador"


def test_it_requires_login(client, jurado):
    response = client.post(_url(jurado), {"name": "Presa", "weight_kg": "1", "quantity": "1"})
    assert response.status_code == 302
    assert response.url.startswith("/entrar/")
    assert "Presa" not in _loot_names(jurado)


def test_it_checks_ownership(client_for, rastreadora, jurado):
    response = client_for(rastreadora).post(
        _url(jurado), {"name": "Presa", "weight_kg": "1", "quantity": "1"}
    )
    assert response.status_code == 403
    assert "Presa" not in _loot_names(jurado)


def test_it_checks_membership(client_for, outsider, jurado):
    response = client_for(outsider).post(
        _url(jurado), {"name": "Presa", "weight_kg": "1", "quantity": "1"}
    )
    assert response.status_code == 404
    assert "Presa" not in _loot_names(jurado)


def test_the_mestre_may_add_loot_to_any_character(client_for, mestre, jurado):
    response = client_for(mestre).post(
        _url(jurado), {"name": "Presa", "weight_kg": "1", "quantity": "1"}, **HTMX
    )
    assert response.status_code == 200
    assert "Presa" in _loot_names(jurado)


def test_with_htmx_it_renders_the_play_region_with_the_new_weight(client_for, jogador, jurado):
    response = client_for(jogador).post(
        _url(jurado), {"name": "Elmo achado", "weight_kg": "4", "quantity": "1"}, **HTMX
    )
    html = content(response)
    assert response.status_code == 200
    assert "<html" not in html
    assert stat(html, "carried-kg") == "27 kg"  # 23 + 4
    assert "Elmo achado" in html


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"name": "", "weight_kg": "1", "quantity": "1"}, "name", LOOT_NEEDS_NAME),
        ({"name": "   ", "weight_kg": "1", "quantity": "1"}, "name", LOOT_NEEDS_NAME),
        ({"name": "Pedra", "weight_kg": "-1", "quantity": "1"}, "weight_kg", WEIGHT_NOT_NEGATIVE),
        ({"name": "Pedra", "weight_kg": "10001", "quantity": "1"}, "weight_kg", WEIGHT_TOO_LARGE),
        ({"name": "Pedra", "weight_kg": "abc", "quantity": "1"}, "weight_kg", WEIGHT_NOT_A_NUMBER),
        ({"name": "Pedra", "weight_kg": "1", "quantity": "0"}, "quantity", QUANTITY_AT_LEAST_1),
        ({"name": "Pedra", "weight_kg": "1", "quantity": "-3"}, "quantity", QUANTITY_AT_LEAST_1),
        ({"name": "Pedra", "weight_kg": "1", "quantity": "10001"}, "quantity", QUANTITY_TOO_LARGE),
    ],
)
def test_it_refuses_bad_input_next_to_the_field_and_stores_nothing(
    client_for, jogador, jurado, data, field, message
):
    before = _loot_names(jurado)
    client = client_for(jogador)

    response = client.post(_url(jurado), data)
    assert response.status_code == 422
    assert "<html" in content(response)
    assert _error_next_to(content(response), field, message)

    response = client.post(_url(jurado), data, **HTMX)
    assert response.status_code == 200  # htmx swaps only 2xx
    assert "<html" not in content(response)
    assert _error_next_to(content(response), field, message)

    assert _loot_names(jurado) == before


def test_it_keeps_what_was_typed_when_it_refuses(client_for, jogador, jurado):
    html = content(
        client_for(jogador).post(
            _url(jurado), {"name": "Pedra", "weight_kg": "-1", "quantity": "2"}
        )
    )
    assert 'name="name" value="Pedra"' in html
    assert 'name="weight_kg" inputmode="decimal" value="-1"' in html


def test_it_accepts_a_decimal_comma(client_for, jogador, jurado):
    response = client_for(jogador).post(
        _url(jurado), {"name": "Pedra", "weight_kg": "2,5", "quantity": "1"}
    )
    assert response.status_code == 302
    assert Possession.objects.get(character=jurado, loot_name="Pedra").loot_weight_kg == Decimal(
        "2.5"
    )


# --- the service, for callers other than the form -------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        ({"name": " ", "weight_kg": "1"}, "name", LOOT_NEEDS_NAME),
        ({"name": "Pedra", "weight_kg": "-0.001"}, "weight_kg", WEIGHT_NOT_NEGATIVE),
        ({"name": "Pedra", "weight_kg": "10000.001"}, "weight_kg", WEIGHT_TOO_LARGE),
        ({"name": "Pedra", "weight_kg": "1", "quantity": 0}, "quantity", QUANTITY_AT_LEAST_1),
        ({"name": "Pedra", "weight_kg": "1", "quantity": 10001}, "quantity", QUANTITY_TOO_LARGE),
    ],
)
def test_the_service_refuses_bad_loot_and_stores_nothing(jogador, jurado, kwargs, field, message):
    before = _loot_names(jurado)
    with pytest.raises(ServiceError) as refused:
        loot_add(character=jurado, user=jogador, **kwargs)
    assert (refused.value.field, refused.value.message) == (field, message)
    assert _loot_names(jurado) == before


@pytest.mark.parametrize("weight", ["abc", "NaN", "Infinity", None])
def test_the_service_refuses_a_weight_that_is_not_a_number(jogador, jurado, weight):
    with pytest.raises(ServiceError) as refused:
        loot_add(character=jurado, user=jogador, name="Pedra", weight_kg=weight)
    assert refused.value.field == "weight_kg"
    assert "Pedra" not in _loot_names(jurado)


def test_the_service_accepts_the_bounds(jogador, jurado, hoplita):
    loot_add(character=jurado, user=jogador, name="Pena", weight_kg="0")
    assert _loot_names(jurado)[-1] == "Pena"
    # 10.000 kg is a weight the form takes; no one lifts it (15 × ST, §2.2): test_lifting.py.
    Possession.objects.filter(character=hoplita).update(carried=False)
    with pytest.raises(ServiceError) as refused:
        loot_add(character=hoplita, user=jogador, name="Rocha", weight_kg="10000")
    assert refused.value.code == "cannot_lift"


def test_the_same_loot_form_posted_twice_adds_the_loot_once(client_for, jogador, jurado):
    client = client_for(jogador)
    page = client.get(reverse("sheet", kwargs={"code": jurado.code})).content.decode()
    key = page.split('name="request_key" value="')[1].split('"')[0]
    before = sheet_view(jurado).carried_kg
    body = {"name": "presas", "weight_kg": "2,5", "quantity": "1", "request_key": key}
    client.post(_url(jurado), body, **HTMX)
    again = client.post(_url(jurado), body, **HTMX)
    assert again.status_code == 200
    assert _loot_names(jurado).count("presas") == 1
    assert sheet_view(jurado).carried_kg == before + Decimal("2.5")
    # The page after the add carries a new key, so the next loot is added.
    fresh = again.content.decode().split('name="request_key" value="')[1].split('"')[0]
    assert fresh != key


def test_above_15_times_st_the_table_marks_that_row_and_only_it(client_for, jogador, jurado):
    # Picking it up is refused (test_lifting.py); the state still gets there when a correction
    # lowers ST under what is carried.
    Possession.objects.create(
        character=jurado, loot_name="a grade", loot_weight_kg=Decimal("10000"), carried=True
    )
    html = content(client_for(jogador).get(reverse("sheet", kwargs={"code": jurado.code})))
    rows = [row for row in html.split("<tr") if 'class="current"' in row.split(">")[0]]
    assert len(rows) == 1
    assert "Acima de 15×ST — não se ergue" in rows[0]
