"""One input mapper for the combat tracker (issue 21, items 7 and 8): a creature given without
Move or Dodge gets the canon's (§2.1: Move from Basic Speed and Carga, Dodge = Move) and a
weapon without its NH attacks at the creature's DX, through the API as through the page."""

from __future__ import annotations

from django.urls import reverse

from sessions.combat.numbers import combatant_numbers
from sessions.models import Combatant
from tests.api.conftest import post_json

BASE = "/api/v1/combats"


def _fight(client, headers, scene):
    response = post_json(client, BASE, {"scene": str(scene.code), "characters": []}, **headers)
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def test_a_creature_without_move_or_dodge_gets_the_canons(client, bearer, mestre, scene):
    headers = bearer(mestre)
    code = _fight(client, headers, scene)
    body = {
        "name": "Lobo",
        "dx": 14,
        "ht": 12,
        "weapons": [{"name": "Mordida", "damage": "1d-1 cort"}],
    }
    added = post_json(client, f"{BASE}/{code}/combatants", body, **headers)
    assert added.status_code == 201, added.json()
    card = next(c for c in added.json()["combat"]["combatants"] if c["name"] == "Lobo")
    # Basic Speed (14 + 12) / 4 = 6.5: Move 6, Dodge = Move (§2.1), not a fixed 5.
    assert (card["move"], card["dodge"]) == (6, 6)
    assert card["weapons"][0]["skill"] == 14  # no NH given: the DX
    stored = Combatant.objects.get(name="Lobo")
    assert (stored.move, stored.dodge) == (None, None)  # inputs only: derived when read


def test_given_numbers_are_kept(client, bearer, mestre, scene):
    headers = bearer(mestre)
    code = _fight(client, headers, scene)
    body = {
        "name": "Cão",
        "dx": 14,
        "ht": 12,
        "move": 8,
        "dodge": 7,
        "weapons": [{"name": "Mordida", "skill": 11, "damage": "1d-1 cort"}],
    }
    added = post_json(client, f"{BASE}/{code}/combatants", body, **headers)
    card = next(c for c in added.json()["combat"]["combatants"] if c["name"] == "Cão")
    assert (card["move"], card["dodge"], card["weapons"][0]["skill"]) == (8, 7, 11)


def test_the_page_leaves_move_dodge_and_nh_to_the_same_rule(
    client, bearer, mestre, scene, client_for
):
    _fight(client, bearer(mestre), scene)
    form = {
        "name": "Lobo",
        "kind": "creature",
        "st": "10",
        "dx": "14",
        "iq": "4",
        "ht": "12",
        "weapon_name": "Mordida",
        "weapon_damage": "1d-1 cort",
        "request_key": "lobo-1",
    }
    url = reverse("combatant-add", kwargs={"code": scene.code})
    response = client_for(mestre).post(url, form)
    assert response.status_code in (200, 302), response.status_code
    lobo = Combatant.objects.get(name="Lobo")
    numbers = combatant_numbers(lobo)
    assert (numbers.move, numbers.dodge, lobo.weapon_lines()[0].skill) == (6, 6, 14)
