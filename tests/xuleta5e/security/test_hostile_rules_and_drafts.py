"""The attacker's findings on the rules API and the sheet's JSON draft (issue 22): JSON's
true/false taken as the numbers 1 and 0 (a score of 1, a level 1, an AC 1, a spell slot), and a
weapon's range with the normal past the long. Each is refused with a 422 in Portuguese naming
the field, and nothing is saved."""

from __future__ import annotations

import copy
import json

import pytest

from sheets.models import SheetVersion

pytestmark = pytest.mark.django_db

DERIVED = "/api/v1/rules/derived"
BODY = {
    "ruleset": "xuleta5e",
    "abilities": {"str": 15, "dex": 12, "con": 14, "int": 8, "wis": 13, "cha": 10},
    "level": 3,
    "proficiencies": {"skills": ["Percepció", "Atletisme"], "saves": ["str", "con"]},
    "exhaustion": 0,
    "conditions": [],
}


def _post(client, url, body, **headers):
    return client.post(url, json.dumps(body), content_type="application/json", **headers)


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        (("abilities", "str"), True, "abilities.str"),
        (("abilities", "cha"), False, "abilities.cha"),
        (("level",), True, "level"),
        (("exhaustion",), True, "exhaustion"),
        (("speed_m",), True, "speed_m"),
    ],
)
def test_derived_refuses_true_and_false_as_numbers(client, path, value, field):
    body = copy.deepcopy(BODY)
    target = body
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    answer = _post(client, DERIVED, body)
    assert answer.status_code == 422, answer.content
    assert answer.json()["field"] == field
    assert "Use um número" in answer.json()["detail"][0]["message"]


def test_derived_still_takes_the_issues_example_and_a_whole_speed(client):
    assert _post(client, DERIVED, BODY).status_code == 200
    assert _post(client, DERIVED, {**BODY, "speed_m": 9}).json()["speed"] == 9


def _draft(aina):
    return SheetVersion.objects.filter(character=aina, status=SheetVersion.Status.DRAFT)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"level": True}, "data.level"),
        ({"ac": True}, "data.ac"),
        ({"max_hp": True}, "data.max_hp"),
        ({"hit_die": True}, "data.hit_die"),
        ({"speed_m": True}, "data.speed_m"),
        ({"darkvision_m": False}, "data.darkvision_m"),
        (
            {"abilities": {"str": 15, "dex": 12, "con": True, "int": 8, "wis": 13, "cha": 10}},
            "data.abilities.con",
        ),
        ({"spellcasting": {"class": "mag", "slots": {"1": True}}}, "data.spellcasting.slots.1"),
    ],
)
def test_a_draft_refuses_true_and_false_as_numbers(aina, client, bearer, sheet_data, change, field):
    answer = _post(
        client,
        f"/api/v1/sheets/{aina.code}/draft",
        {"data": {**sheet_data, **change}},
        **bearer("jogador"),
    )
    assert answer.status_code == 422, answer.content
    assert answer.json()["field"] == field
    assert "verdadeiro/falso" in answer.json()["detail"]
    assert not _draft(aina).exists()  # nothing half-saved


def test_a_weapons_normal_range_is_not_past_its_long(aina, client, bearer, sheet_data):
    url = f"/api/v1/sheets/{aina.code}/draft"
    sheet_data["attacks"][1]["range_m"] = [96, 24]
    answer = _post(client, url, {"data": sheet_data}, **bearer("jogador"))
    assert answer.status_code == 422, answer.content
    assert answer.json()["field"] == "data.attacks.1.range_m"
    assert "[normal, longo]" in answer.json()["detail"]
    assert not _draft(aina).exists()
    sheet_data["attacks"][1]["range_m"] = [24, 96]  # sent again, corrected
    again = _post(client, url, {"data": sheet_data}, **bearer("jogador"))
    assert again.status_code == 200 and again.json()["version"] == 2


def test_the_same_draft_twice_is_one_draft_and_a_second_submit_is_refused(
    aina, client, bearer, sheet_data
):
    url = f"/api/v1/sheets/{aina.code}/draft"
    for _ in range(2):
        assert _post(client, url, {"data": sheet_data}, **bearer("jogador")).json()["version"] == 2
    assert client.post(url + "/submit", **bearer("jogador")).status_code == 200
    again = client.post(url + "/submit", **bearer("jogador"))
    assert again.status_code == 422 and again.json()["code"] == "not_a_draft"
    written = _post(client, url, {"data": sheet_data}, **bearer("jogador"))
    assert written.status_code == 409 or written.json()["code"] == "draft_exists"
    assert SheetVersion.objects.filter(character=aina).count() == 2


@pytest.mark.parametrize("who", ["outro", "mestre"])
def test_only_the_owner_or_the_arbitro_writes_a_draft(aina, client, bearer, sheet_data, who):
    url = f"/api/v1/sheets/{aina.code}/draft"
    assert _post(client, url, {"data": sheet_data}, **bearer(who)).status_code == 403
    assert client.post(url + "/submit", **bearer(who)).status_code == 403
    assert not _draft(aina).exists()


def test_another_campaigns_character_and_the_outsider_are_not_found(
    aina, ona, outsider, client, bearer, sheet_data
):
    for url, who in (
        (f"/api/v1/sheets/{ona.code}/draft", "arbitro"),
        (f"/api/v1/sheets/{aina.code}/draft", outsider),
    ):
        assert _post(client, url, {"data": sheet_data}, **bearer(who)).status_code == 404
        assert client.post(url + "/submit", **bearer(who)).status_code == 404


def test_a_xuleta_body_to_a_gurps_sheet_is_refused(gurps_character, client, bearer, sheet_data):
    url = f"/api/v1/sheets/{gurps_character.code}/draft"
    answer = _post(client, url, {"data": sheet_data}, **bearer("jogador"))
    assert answer.status_code == 422 and answer.json()["field"] == "data"
    assert client.post(url + "/submit", **bearer("jogador")).status_code == 422
