"""The attacker on the Xuleta's sheet page and the odds (issue 22): another campaign's sheet
and the outsider get a 404, not the numbers; the odds refuse every out-of-range, float, bool-ish
and unknown value with a 422 in Portuguese naming the field and the allowed values."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

ODDS = "/api/v1/rules/odds"


def test_another_campaigns_sheet_page_is_not_found(aina, ona, outsider, client, client_of):
    assert client_of("jogador").get(reverse("sheet", args=[ona.code])).status_code == 404
    client.force_login(outsider)
    assert client.get(reverse("sheet", args=[aina.code])).status_code == 404
    assert client.get(reverse("draft", args=[aina.code])).status_code in (403, 404)


@pytest.mark.parametrize(
    ("query", "field", "said"),
    [
        ({"bonus": 10**9, "dc": 10}, "bonus", "60"),
        ({"bonus": -(10**9), "dc": 10}, "bonus", "-30"),
        ({"bonus": 1.5, "dc": 10}, "bonus", "inteiro"),
        ({"bonus": "true", "dc": 10}, "bonus", "inteiro"),
        ({"bonus": 0, "dc": "nan"}, "dc", "inteiro"),
        ({"bonus": 0, "dc": 10**30}, "dc", "60"),
        ({"bonus": 0, "dc": 10, "edge": "Avantatge"}, "edge", "'advantage'"),
        ({"bonus": 0, "dc": 10, "edge": "\uff41dvantage"}, "edge", "'advantage'"),
        ({"bonus": 0, "dc": 10, "roll": "prova"}, "roll", "'check'"),
        ({"dc": 10}, "bonus", "bonus"),
    ],
)
def test_the_odds_refuse_naming_the_field(client, query, field, said):
    answer = client.get(ODDS, {"ruleset": "xuleta5e", **query})
    assert answer.status_code == 422, answer.content
    assert answer.json()["field"] == field
    assert said in answer.content.decode("unicode_escape")


def test_a_dc_below_one_is_a_sure_success_not_an_error(client):
    answer = client.get(ODDS, {"ruleset": "xuleta5e", "bonus": 0, "dc": -5})
    assert answer.status_code == 200 and answer.json()["success_exact"] == "1/1"
    attack = client.get(ODDS, {"ruleset": "xuleta5e", "bonus": 0, "dc": -5, "roll": "attack"})
    assert attack.json()["success_exact"] == "19/20"  # a natural 1 still misses
