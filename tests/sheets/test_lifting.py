"""Nothing more than 15 × ST is carried: "15 × ST é o maior peso que se ergue, e não se anda
com ele" (canon §2.2, p. 76). Picking up, adding loot or raising a quantity past it is refused
with that message next to the field, and nothing is stored.

The Jurado of the demo: ST 13, so 15 × 13 = 195 kg is the most he lifts; he carries 23 kg,
and beside him lie two companions' loot, 5 kg and 6 kg, not carried.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from campaigns.errors import ServiceError
from sheets import services
from sheets.models import Possession
from tests.sheets.pages import content, stat

HTMX = {"HTTP_HX_REQUEST": "true"}


def _refusal(total: str) -> str:
    return services.CANNOT_LIFT.format(total=total, limit="195")


@pytest.fixture
def jurado(jurado):
    assert services.homologated_version(jurado).st == 13
    assert services.sheet_view(jurado).carried_kg == Decimal("23")
    return jurado


def _carry_url(possession) -> str:
    kwargs = {"code": possession.character.code, "possession_code": possession.code}
    return reverse("possession-carry", kwargs=kwargs)


def test_exactly_15_times_st_is_lifted(jogador, jurado):
    services.loot_add(character=jurado, user=jogador, name="a grade", weight_kg="172")
    assert services.sheet_view(jurado).carried_kg == Decimal("195")


def test_one_gram_more_is_refused_and_nothing_is_stored(jogador, jurado):
    with pytest.raises(ServiceError) as refused:
        services.loot_add(character=jurado, user=jogador, name="a grade", weight_kg="172.001")
    assert refused.value.field == "weight_kg"
    assert refused.value.message == _refusal("195,001")
    assert not Possession.objects.filter(loot_name="a grade").exists()


def test_the_quantity_counts(jogador, jurado):
    with pytest.raises(ServiceError) as refused:
        services.loot_add(
            character=jurado, user=jogador, name="lingote", weight_kg="35", quantity=5
        )
    assert refused.value.message == _refusal("198")  # 23 + 5 × 35
    assert not Possession.objects.filter(loot_name="lingote").exists()


def test_10000_kg_of_loot_is_refused_next_to_the_weight(client_for, jogador, jurado):
    url = reverse("loot-add", kwargs={"code": jurado.code})
    body = {"name": "a grade", "weight_kg": "10000", "quantity": "1", "request_key": "k"}
    html = content(client_for(jogador).post(url, body, **HTMX))
    assert _refusal("10.023") in html
    weight_field = html.split('name="weight_kg"')[1].split("</label>")[0]
    assert "Não se ergue" in weight_field
    assert stat(html, "carried-kg") == "23 kg"
    assert not Possession.objects.filter(loot_name="a grade").exists()


def test_without_javascript_the_refusal_is_the_page_again(client_for, jogador, jurado):
    url = reverse("loot-add", kwargs={"code": jurado.code})
    body = {"name": "a grade", "weight_kg": "10000", "quantity": "1", "request_key": "k"}
    response = client_for(jogador).post(url, body)
    assert response.status_code == 422
    assert _refusal("10.023") in content(response)


def _lying(jurado, kg: str) -> Possession:
    return Possession.objects.create(
        character=jurado, loot_name="o baú", loot_weight_kg=Decimal(kg), carried=False
    )


def test_pegar_past_15_times_st_is_refused_beside_the_button(client_for, jogador, jurado):
    chest = _lying(jurado, "173")
    html = content(client_for(jogador).post(_carry_url(chest), {"carried": "1"}, **HTMX))
    cell = html.split(f'<span class="sr-only"> {chest.name}</span>')[1].split("</td>")[0]
    assert _refusal("196") in cell  # 23 + 173
    chest.refresh_from_db()
    assert chest.carried is False
    assert stat(html, "carried-kg") == "23 kg"


def test_pegar_up_to_15_times_st_is_done(client_for, jogador, jurado):
    chest = _lying(jurado, "172")
    client_for(jogador).post(_carry_url(chest), {"carried": "1"}, **HTMX)
    chest.refresh_from_db()
    assert chest.carried is True


def test_putting_down_is_never_refused(client_for, jogador, jurado):
    # Over the limit already (a correction that lowered ST): he may still put things down.
    heavy = Possession.objects.create(
        character=jurado, loot_name="a grade", loot_weight_kg=Decimal("300"), carried=True
    )
    client_for(jogador).post(_carry_url(heavy), {"carried": "0"}, **HTMX)
    heavy.refresh_from_db()
    assert heavy.carried is False


def test_raising_a_carried_quantity_past_it_is_refused(client_for, jogador, jurado):
    rope = Possession.objects.create(
        character=jurado, loot_name="corda", loot_weight_kg=Decimal("43"), carried=True
    )
    url = reverse("possession-quantity", kwargs={"code": jurado.code, "possession_code": rope.code})
    html = content(client_for(jogador).post(url, {"quantity": "5"}, **HTMX))
    assert _refusal("238") in html  # 23 + 5 × 43
    rope.refresh_from_db()
    assert rope.quantity == 1
    client_for(jogador).post(url, {"quantity": "4"}, **HTMX)  # 23 + 172 = 195
    rope.refresh_from_db()
    assert rope.quantity == 4
