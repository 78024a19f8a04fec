"""The canon's rules as API operations (rules.api): odds, damage by ST, the derived block.
No login needed: these are the rules, not the campaign."""

from __future__ import annotations

from urllib.parse import parse_qs

import pytest

from gurps.errors import NEGATIVE_WEIGHT, ST_ABOVE_DAMAGE_TABLE
from tests.api.conftest import post_json

DERIVED_KEYS = {
    "hp",
    "fatigue",
    "basic_speed",
    "encumbrance",
    "move",
    "dodge",
    "block",
    "parries",
    "passive_defense",
    "dodge_total",
    "block_total",
    "parries_total",
    "hp_remaining",
    "staggered",
    "st_after_fatigue",
    "damage_resistance",
    "move_halved",
}
# The Jurado de Gapheim of the seed, as a body for POST /rules/derived.
JURADO = {
    "st": 13,
    "dx": 12,
    "iq": 10,
    "ht": 12,
    "carried_kg": 22.5,
    "armour_pd": 3,
    "shield": {"skill": 14, "pd": 2},
    "weapons": [{"name": "Gládio", "skill": 13, "parry": "normal"}],
}


# --- GET /rules/odds --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "exact"),
    [(9, "81/216"), (12, "160/216"), (14, "196/216"), (16, "212/216")],
)
def test_odds_are_exact_out_of_216(client, level, exact):
    response = client.get(f"/api/v1/rules/odds?level={level}")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {
        "level",
        "success",
        "critical_success",
        "critical_failure",
        "success_exact",
    }
    assert body["level"] == level
    assert body["success_exact"] == exact
    assert body["success"] == pytest.approx(int(exact.split("/")[0]) / 216)


def test_odds_give_the_criticals(client):
    body = client.get("/api/v1/rules/odds?level=16").json()
    # At 16: 3, 4, 5 and 6 are critical successes (1 + 3 + 6 + 10 = 20 of 216); 18 alone is a
    # critical failure (17 is a plain failure at 16 or more).
    assert body["critical_success"] == pytest.approx(20 / 216)
    assert body["critical_failure"] == pytest.approx(1 / 216)


@pytest.mark.parametrize("query", ["level=abc", "level=", "", "level=1.5"])
def test_odds_refuse_a_level_that_is_not_a_whole_number(client, query):
    response = client.get(f"/api/v1/rules/odds?{query}")
    assert response.status_code == 422
    assert response.json()["field"] == "level"


@pytest.mark.parametrize("level", [101, -101])
def test_odds_refuse_a_level_outside_the_bounds(client, level):
    response = client.get(f"/api/v1/rules/odds?level={level}")
    assert response.status_code == 422
    assert response.json()["field"] == "level"


# --- GET /rules/damage ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("st", "thrust", "swing"),
    [(12, "1d-1", "1d+2"), (13, "1d", "2d-1"), (4, "0", "0"), (20, "2d-1", "3d+2")],
)
def test_damage_by_st_with_ascii_minus(client, st, thrust, swing):
    response = client.get(f"/api/v1/rules/damage?st={st}")
    assert response.status_code == 200
    assert response.json() == {"st": st, "thrust": thrust, "swing": swing}


def test_damage_above_st_20_is_outside_the_canon(client):
    response = client.get("/api/v1/rules/damage?st=21")
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "outside_canon"
    assert body["detail"] == ST_ABOVE_DAMAGE_TABLE
    assert body["rule"] == "4.9"
    # The offer of a divergence, filled in with the section and the request that met it.
    form, query = body["divergence_form"].split("?")
    assert form == "/console/pendencias/nova/"
    assert parse_qs(query) == {"secao": ["4.9"], "contexto": ["GET /api/v1/rules/damage?st=21"]}


@pytest.mark.parametrize("st", ["0", "-1", "abc", "1001", ""])
def test_damage_refuses_an_st_below_1_above_the_bound_or_not_a_number(client, st):
    response = client.get(f"/api/v1/rules/damage?st={st}")
    assert response.status_code == 422
    assert response.json()["field"] == "st"


# --- POST /rules/derived ----------------------------------------------------------------------


def test_derived_gives_the_jurados_block(client):
    response = post_json(client, "/api/v1/rules/derived", JURADO)
    assert response.status_code == 200
    body = response.json()
    assert set(body) == DERIVED_KEYS | {"readings"}
    assert body["encumbrance"] == {"level": 1, "name": "Leve"}
    assert (body["move"], body["dodge"], body["block"]) == (5, 5, 7)
    assert (body["passive_defense"], body["block_total"]) == (5, 12)  # canon §4.6: 7 + 2 + 3
    assert body["dodge_total"] == 10
    assert (body["hp"], body["fatigue"], body["basic_speed"]) == (12, 13, 6.0)
    assert body["parries"] == [{"name": "Gládio", "value": 6}]
    assert body["parries_total"] == [{"name": "Gládio", "value": 11}]


def test_derived_with_two_companions_loot_is_carga_media(client):
    body = post_json(client, "/api/v1/rules/derived", {**JURADO, "carried_kg": 33.5}).json()
    assert body["encumbrance"] == {"level": 2, "name": "Média"}
    assert (body["move"], body["dodge"]) == (4, 4)


def test_derived_needs_only_the_attributes(client):
    body = post_json(
        client, "/api/v1/rules/derived", {"st": 10, "dx": 10, "iq": 10, "ht": 10}
    ).json()
    assert set(body) == DERIVED_KEYS | {"readings"}
    assert (body["block"], body["block_total"], body["parries"]) == (None, None, [])
    assert body["encumbrance"] == {"level": 0, "name": "Nenhuma"}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"carried_kg": -1}, "carried_kg"),
        ({"st": 0}, "st"),
        ({"dx": 0}, "dx"),
        ({"hp_lost": -1}, "hp_lost"),
        ({"armour_pd": -1}, "armour_pd"),
        ({"shield": {"skill": 14, "pd": -1}}, "shield.pd"),
        ({"weapons": [{"name": "Gládio", "skill": 13, "parry": "chicote"}]}, "weapons.0.parry"),
        ({"weapons": [{"name": "Gládio", "skill": 13, "dano": "Bal"}]}, "weapons.0.dano"),
        ({"shield": {"skill": 14, "pd": 2, "dr": 1}}, "shield.dr"),
        ({"strength": 13}, "strength"),
        ({"st": "treze"}, "st"),
    ],
)
def test_derived_refuses_bad_input_naming_the_field(client, change, field):
    response = post_json(client, "/api/v1/rules/derived", {**JURADO, **change})
    assert response.status_code == 422
    assert response.json()["field"] == field


def test_derived_says_why_a_weight_is_refused(client):
    body = post_json(client, "/api/v1/rules/derived", {**JURADO, "carried_kg": -1}).json()
    assert (body["code"], body["detail"]) == ("invalid", NEGATIVE_WEIGHT)


def test_derived_refuses_a_missing_attribute(client):
    body = {k: v for k, v in JURADO.items() if k != "ht"}
    response = post_json(client, "/api/v1/rules/derived", body)
    assert response.status_code == 422
    assert response.json()["field"] == "ht"


def test_derived_refuses_a_body_that_is_not_json(client):
    response = client.post("/api/v1/rules/derived", "st=13", content_type="application/json")
    assert response.status_code in (400, 422)


# --- the readings the numbers rest on, as the sheets API gives them -------------------------


def _pairs(body) -> set:
    return {(r["value"], r["reading"]) for r in body["readings"]}


def test_derived_gives_no_reading_where_no_number_rests_on_one(client):
    assert post_json(client, "/api/v1/rules/derived", JURADO).json()["readings"] == []


def test_derived_gives_the_readings_of_fatigue_and_halving_below_0_hp(client):
    from gurps.readings import READINGS_BY_KEY

    case = {**JURADO, "fatigue_lost": 2, "hp_lost": 14, "combat_reflexes": True}
    body = post_json(client, "/api/v1/rules/derived", case).json()
    keys = {reading for _, reading in _pairs(body)}
    assert {"carga_uses_sheet_st", "staggered_below_1_hp", "combat_reflexes_after_halving"} <= keys
    row = next(r for r in body["readings"] if r["reading"] == "carga_uses_sheet_st")
    reading = READINGS_BY_KEY["carga_uses_sheet_st"]
    assert (row["value"], row["answer"], row["divergence"]) == (
        "encumbrance",
        reading.answer,
        None,
    )


def test_derived_and_the_sheets_api_give_the_same_readings_for_the_same_case(
    client, client_for, mestre, jurado
):
    from sheets.reads import state_of

    state = state_of(jurado)
    state.fatigue_lost, state.hp_lost = 2, 14
    state.save()
    sheet = client_for(mestre).get(f"/api/v1/sheets/{jurado.code}").json()
    case = {**JURADO, "fatigue_lost": 2, "hp_lost": 14}
    rules = post_json(client, "/api/v1/rules/derived", case).json()
    assert _pairs(rules) == _pairs(sheet) and _pairs(rules)
