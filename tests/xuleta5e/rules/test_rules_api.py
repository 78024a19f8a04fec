"""The rules API answers for the Xuleta (issue 22, item 7): ``GET /rules/odds`` with bonus, dc,
edge and roll (the exact chance as a fraction), ``POST /rules/derived`` with the issue's own
body; GURPS's forms unchanged. No login needed: these are the rules."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import get_args

import pytest

from rules.api import (
    XULETA_ENUMS,
    XuletaAbilityIn,
    XuletaConditionIn,
    XuletaEdgeIn,
    XuletaRollIn,
    XuletaSkillIn,
)
from tests.api.conftest import post_json
from xuleta.rolls import success_chance

ODDS = "/api/v1/rules/odds"
DERIVED = "/api/v1/rules/derived"
# The issue's own example (item 7).
ISSUE_BODY = {
    "ruleset": "xuleta5e",
    "abilities": {"str": 15, "dex": 12, "con": 14, "int": 8, "wis": 13, "cha": 10},
    "level": 3,
    "proficiencies": {"skills": ["Percepció", "Atletisme"], "saves": ["str", "con"]},
    "exhaustion": 0,
    "conditions": [],
}


def _odds(client, **query):
    return client.get(ODDS, {"ruleset": "xuleta5e", **query})


def test_the_schemas_enums_are_the_engines_sets():
    for literal, name in (
        (XuletaEdgeIn, "edge"),
        (XuletaRollIn, "roll"),
        (XuletaAbilityIn, "ability"),
        (XuletaSkillIn, "skill"),
        (XuletaConditionIn, "condition"),
    ):
        assert get_args(literal) == tuple(XULETA_ENUMS[name])


@pytest.mark.parametrize(
    ("query", "exact"),
    [
        ({"bonus": 5, "dc": 15}, "11/20"),
        ({"bonus": 5, "dc": 15, "edge": "advantage"}, "319/400"),
        ({"bonus": 5, "dc": 15, "edge": "disadvantage"}, "121/400"),
        ({"bonus": 0, "dc": 21, "roll": "save"}, "0/1"),
        ({"bonus": 10, "dc": 5, "roll": "check"}, "1/1"),
        ({"bonus": 0, "dc": 40, "roll": "attack"}, "1/20"),
        ({"bonus": 20, "dc": 5, "roll": "attack", "edge": "disadvantage"}, "361/400"),
    ],
)
def test_odds_are_the_exact_fraction(client, query, exact):
    response = _odds(client, **query)
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["success_exact"] == exact
    assert body["success"] == pytest.approx(float(Fraction(exact)))
    assert body["edge"] == query.get("edge", "none") and body["roll"] == query.get("roll", "check")


def test_an_attack_gives_the_natural_20_and_1(client):
    body = _odds(client, bonus=5, dc=15, roll="attack", edge="advantage").json()
    assert (body["critical_exact"], body["fumble_exact"]) == ("39/400", "1/400")
    assert body["critical"] == pytest.approx(39 / 400)
    check = _odds(client, bonus=5, dc=15, roll="check").json()
    assert check["critical_exact"] is None and check["fumble_exact"] is None


def test_odds_agree_with_the_engine_on_a_wide_grid(client):
    for bonus, dc, edge, roll in itertools.product(
        (-3, 0, 7), (1, 12, 25), ("none", "advantage", "disadvantage"), ("check", "attack")
    ):
        body = _odds(client, bonus=bonus, dc=dc, edge=edge, roll=roll).json()
        exact = success_chance(bonus, dc, edge, roll)
        assert body["success_exact"] == f"{exact.numerator}/{exact.denominator}"


@pytest.mark.parametrize("missing", ["bonus", "dc"])
def test_a_missing_parameter_is_named_in_portuguese(client, missing):
    query = {"bonus": 3, "dc": 12}
    del query[missing]
    response = _odds(client, **query)
    assert response.status_code == 422
    body = response.json()
    assert body["field"] == missing
    assert f"mande {missing}" in body["detail"] and "Xuleta" in body["detail"]


@pytest.mark.parametrize(
    ("query", "field", "allowed"),
    [
        ({"edge": "double"}, "edge", "advantage"),
        ({"roll": "damage"}, "roll", "attack"),
        ({"bonus": "x"}, "bonus", "inteiro"),
    ],
)
def test_a_bad_value_is_refused_naming_the_field_and_the_allowed(client, query, field, allowed):
    response = _odds(client, **{"bonus": 3, "dc": 12, **query})
    assert response.status_code == 422
    body = response.json()
    assert body["field"] == field and allowed in body["detail"][0]["message"]


def test_gurps_odds_unchanged_and_level_still_needed(client):
    assert client.get(ODDS, {"level": 10}).json()["success_exact"] == "108/216"
    response = client.get(ODDS, {"bonus": 3, "dc": 10})
    assert response.status_code == 422 and response.json()["field"] == "level"
    assert "mande level" in response.json()["detail"]


# --- POST /rules/derived ---------------------------------------------------------------------


def test_derived_answers_the_issues_example(client):
    response = post_json(client, DERIVED, ISSUE_BODY)
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["modifiers"] == {"str": 2, "dex": 1, "con": 2, "int": -1, "wis": 1, "cha": 0}
    assert body["proficiency_bonus"] == 2
    assert body["skills"]["Percepció"] == 3 and body["skills"]["Atletisme"] == 4
    assert body["skills"]["Sigil"] == 1 and len(body["skills"]) == 18
    assert body["saves"] == {"str": 4, "dex": 1, "con": 4, "int": -1, "wis": 1, "cha": 0}
    assert body["passive_perception"] == 13
    assert body["speed"] == 9
    assert body["edges"] == {"check": "none", "save": "none", "attack": "none"}
    assert body["auto_fail"] == [] and body["attacked_edge"] == "none"
    assert body["explanations"]["saves.str"] == "mod. de Força +2 + competència +2 = +4"
    assert [r["reading"] for r in body["readings"]] == ["speed_default"]


def test_derived_under_exhaustion_and_conditions(client):
    body = post_json(
        client,
        DERIVED,
        {**ISSUE_BODY, "exhaustion": 3, "conditions": ["restrained", "stunned"], "speed_m": 9},
    ).json()
    assert body["edges"] == {
        "check": "disadvantage",
        "save": "disadvantage",
        "attack": "disadvantage",
    }
    assert body["auto_fail"] == ["str", "dex"]
    assert body["speed"] == 0 and body["attacked_edge"] == "advantage"
    assert body["passive_perception"] == 8
    assert body["readings"] == []
    assert any("Esgotament 3" in reason for reason in body["reasons"]["attack"])


def test_derived_takes_the_ruleset_from_the_query_too(client):
    body = {k: v for k, v in ISSUE_BODY.items() if k != "ruleset"}
    response = post_json(client, f"{DERIVED}?ruleset=xuleta5e", body)
    assert response.status_code == 200 and response.json()["passive_perception"] == 13
    differ = post_json(client, f"{DERIVED}?ruleset=gurps3e", ISSUE_BODY)
    assert differ.status_code == 422 and differ.json()["field"] == "ruleset"


@pytest.mark.parametrize(
    ("change", "field", "allowed"),
    [
        ({"proficiencies": {"skills": ["Stealth"]}}, "proficiencies.skills.0", "Sigil"),
        ({"proficiencies": {"saves": ["luck"]}}, "proficiencies.saves.0", "'cha'"),
        ({"conditions": ["drunk"]}, "conditions.0", "poisoned"),
        ({"abilities": {**ISSUE_BODY["abilities"], "str": 31}}, "abilities.str", "30"),
        ({"abilities": {**ISSUE_BODY["abilities"], "luck": 12}}, "abilities.luck", "desconhecido"),
        ({"level": 21}, "level", "20"),
        ({"exhaustion": 7}, "exhaustion", "6"),
        ({"ruleset": "dnd9"}, "ruleset", "xuleta5e"),
    ],
)
def test_derived_refuses_bad_input_naming_the_field_and_the_allowed(client, change, field, allowed):
    response = post_json(client, DERIVED, {**ISSUE_BODY, **change})
    assert response.status_code == 422
    body = response.json()
    assert body["field"] == field
    assert allowed in str(body["detail"])


def test_derived_refuses_a_missing_ability(client):
    abilities = {k: v for k, v in ISSUE_BODY["abilities"].items() if k != "wis"}
    response = post_json(client, DERIVED, {**ISSUE_BODY, "abilities": abilities})
    assert response.status_code == 422 and response.json()["field"] == "abilities.wis"


def test_the_schema_publishes_both_bodies_and_the_enums(client):
    spec = client.get("/api/v1/openapi.json").json()
    body = spec["paths"][DERIVED]["post"]["requestBody"]["content"]["application/json"]
    refs = {option["$ref"].rsplit("/", 1)[1] for option in body["schema"]["anyOf"]}
    assert refs == {"DerivedIn", "XuletaRulesDerivedIn"}
    schemas = spec["components"]["schemas"]
    assert set(schemas["XuletaRulesAbilitiesIn"]["properties"]) == set(XULETA_ENUMS["ability"])
    conditions = schemas["XuletaRulesDerivedIn"]["properties"]["conditions"]["items"]["enum"]
    assert conditions == list(XULETA_ENUMS["condition"])
    query = {p["name"]: p for p in spec["paths"][ODDS]["get"]["parameters"]}
    assert query["edge"]["schema"]["enum"] == list(XULETA_ENUMS["edge"])
    assert query["roll"]["schema"]["enum"] == list(XULETA_ENUMS["roll"])
    assert query["level"]["required"] is False
