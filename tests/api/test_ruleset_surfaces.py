"""The rules API and the vocabularies follow the campaign's ruleset (issue 21, items 2 and 5):
``?ruleset=`` on /rules/* (gurps3e by default; an unknown key or a system without the part
refused in Portuguese), GURPS's closed sets from ``rulesets.gurps3e.pages``, and /me saying
each campaign's ruleset. A second ruleset, defined by the tests, proves the agnostic side."""

from __future__ import annotations

import pytest

from rulesets.registry import GURPS3E, ruleset_choices, ruleset_for
from sessions import vocabularies
from tests.second_ruleset import D20, D20_LABEL, DICE_ONLY, campaign_on, register

pytestmark = pytest.mark.django_db

# Every set GET /rules/vocabularies listed before rulesets (GURPS's and the procedure's).
GURPS_SETS = {
    "maneuver", "all_out_option", "terrain", "hit_location", "arm_side", "limb_side", "limb",
    "attack_kind", "weapon_class", "defence", "posture", "surprise", "combatant_kind",
    "damage_type", "table", "roll_kind", "test_kind", "danger", "timer_kind", "contest_kind",
    "test_attribute", "difficulty", "level_source",
}  # fmt: skip


@pytest.fixture(autouse=True)
def _second_ruleset():
    yield from register()


def _names(answer) -> list[str]:
    assert answer.status_code == 200, answer.json()
    return [v["name"] for v in answer.json()]


def test_gurps_is_the_default_and_lists_the_sets_it_always_did(client, bearer, mestre):
    url = "/api/v1/rules/vocabularies"
    plain = client.get(url, **bearer(mestre))
    named = client.get(url, {"ruleset": GURPS3E}, **bearer(mestre))
    assert plain.json() == named.json()
    assert set(_names(plain)) == GURPS_SETS and len(_names(plain)) == len(GURPS_SETS)
    kinds = next(v for v in plain.json() if v["name"] == "combatant_kind")
    assert [t["key"] for t in kinds["terms"]] == ["creature", "named_npc"]


def test_another_ruleset_publishes_its_own_sets_and_the_procedures(client, bearer, mestre):
    answer = client.get("/api/v1/rules/vocabularies", {"ruleset": D20}, **bearer(mestre))
    assert _names(answer) == ["action", "danger", "timer_kind"]
    assert answer.json()[0]["terms"][0] == {"key": "dash", "label": "Disparada", "details": {}}


def test_an_unknown_ruleset_is_refused_in_portuguese_naming_the_known(client, bearer, mestre):
    for url, query in (("vocabularies", {}), ("odds", {"level": 10})):
        answer = client.get(f"/api/v1/rules/{url}", {**query, "ruleset": "dnd9"}, **bearer(mestre))
        assert answer.status_code == 422, url
        body = answer.json()
        assert body["field"] == "ruleset"
        assert "Sistema de regras desconhecido: «dnd9»" in body["detail"]
        assert GURPS3E in body["detail"] and D20 in body["detail"]


def test_a_ruleset_without_the_part_is_refused_saying_which(client, bearer, mestre):
    headers = bearer(mestre)
    vocab = client.get("/api/v1/rules/vocabularies", {"ruleset": DICE_ONLY}, **headers)
    assert vocab.status_code == 422
    assert "não tem páginas de regras" in vocab.json()["detail"]
    odds = client.get("/api/v1/rules/odds", {"level": 10, "ruleset": DICE_ONLY}, **headers)
    assert odds.status_code == 422 and "não tem testes fora do combate" in odds.json()["detail"]
    damage = client.get("/api/v1/rules/damage", {"st": 10, "ruleset": DICE_ONLY}, **headers)
    assert damage.status_code == 422 and "não tem regras de combate" in damage.json()["detail"]


def test_the_canons_numbers_answer_with_or_without_the_ruleset(client, bearer, mestre):
    headers = bearer(mestre)
    plain = client.get("/api/v1/rules/odds", {"level": 10}, **headers).json()
    named = client.get("/api/v1/rules/odds", {"level": 10, "ruleset": GURPS3E}, **headers).json()
    assert plain == named and plain["success_exact"] == "108/216"


def test_the_schema_offers_the_ruleset_as_an_enum(client):
    spec = client.get("/api/v1/openapi.json").json()
    query = spec["paths"]["/api/v1/rules/vocabularies"]["get"]["parameters"]
    ruleset = next(p for p in query if p["name"] == "ruleset")
    assert GURPS3E in ruleset["schema"]["enum"] and ruleset["required"] is False


def test_me_says_each_campaigns_ruleset(client, bearer, mestre):
    campaign_on(D20, slug="d20", user=mestre)
    found = {
        m["campaign"]: m for m in client.get("/api/v1/me", **bearer(mestre)).json()["memberships"]
    }
    assert (found["d20"]["ruleset"], found["d20"]["ruleset_label"]) == (D20, D20_LABEL)
    assert found["a-garganta"]["ruleset"] == GURPS3E


def test_the_registry_and_the_module_names_the_api_schema_reads():
    assert ruleset_for(D20).label == D20_LABEL
    assert (D20, D20_LABEL) in ruleset_choices() and ruleset_choices()[0][0] == GURPS3E
    assert vocabularies.MANEUVER is vocabularies.vocabularies()["maneuver"]
    with pytest.raises(AttributeError):
        vocabularies.NO_SUCH_SET  # noqa: B018
