"""A table roll that follows a roll (issue 27): the fright check takes the number of the Will
roll that failed and adds the margin it failed by (§5b); each table's options are named in
the schema, none free-form."""

from __future__ import annotations

import pytest

from garganta_site.api import api as ninja_api
from sessions.log.services import FOLLOWED_MARGIN_DISAGREES, FOLLOWED_ROLL_PASSED
from sessions.models import Roll
from tests.api.conftest import post_json

pytestmark = pytest.mark.django_db


@pytest.fixture
def as_mestre(client, bearer, mestre):
    headers = bearer(mestre)

    def post(scene, path, body):
        return post_json(client, f"/api/v1/scenes/{scene.code}/{path}", body, **headers)

    return post


def _will_check(as_mestre, scene, rastreador, *, modifier: int) -> dict:
    body = {
        "character": str(rastreador.code),
        "attribute": "will",
        "label": "Verificação de Pânico",
        "modifiers": [{"label": "o que não devia existir", "value": modifier}],
    }
    response = as_mestre(scene, "rolls", body)
    assert response.status_code == 201, response.json()
    return response.json()


def test_a_fright_check_after_a_failed_will_roll_adds_its_margin(as_mestre, scene, rastreador):
    """Vontade 12 at −15 is 3 or less: refused; at −8 it is 4, and 3d almost always fails."""
    for _ in range(20):  # a 3 or 4 on 3d passes (1 in 54): roll again until one fails
        will = _will_check(as_mestre, scene, rastreador, modifier=-8)
        if will["margin"] < 0:
            break
    else:
        pytest.fail("twenty Will rolls at 4 all passed")
    fright = as_mestre(scene, "table-rolls", {"table": "fright_check", "follows": will["id"]})
    assert fright.status_code == 201, fright.json()
    details = fright.json()["details"]
    assert details["follows"] == will["sequence"]
    assert details["options"] == {"margin_of_failure": -will["margin"]}
    assert fright.json()["character"] == str(rastreador.code)
    # §5b: 3d plus the margin of failure
    assert fright.json()["total"] == sum(fright.json()["dice"]) - will["margin"]


def test_a_margin_that_disagrees_with_the_followed_roll_is_refused(as_mestre, scene, rastreador):
    for _ in range(20):
        will = _will_check(as_mestre, scene, rastreador, modifier=-8)
        if will["margin"] < 0:
            break
    wrong = -will["margin"] + 1
    body = {"table": "fright_check", "follows": will["id"], "options": {"margin_of_failure": wrong}}
    response = as_mestre(scene, "table-rolls", body)
    assert response.status_code == 422
    assert response.json()["field"] == "options.margin_of_failure"
    assert response.json()["detail"] == FOLLOWED_MARGIN_DISAGREES.format(
        given=wrong, label="Verificação de Pânico", margin=-will["margin"]
    )
    assert Roll.objects.filter(kind="table").count() == 0


def test_no_fright_table_after_a_will_roll_that_passed(as_mestre, scene, rastreador):
    """Vontade 12 at +6 is 18: only a 17 or 18 fails (§1.2), so the loop soon meets a pass."""
    for _ in range(20):
        will = _will_check(as_mestre, scene, rastreador, modifier=6)
        if will["margin"] >= 0:
            break
    response = as_mestre(scene, "table-rolls", {"table": "fright_check", "follows": will["id"]})
    assert response.status_code == 422
    assert response.json()["detail"] == FOLLOWED_ROLL_PASSED.format(
        label="Verificação de Pânico", margin=will["margin"]
    )


def test_each_tables_options_are_named_in_the_schema():
    schemas = ninja_api.get_openapi_schema()["components"]["schemas"]
    options = schemas["TableOptionsIn"]
    assert options.get("additionalProperties") is False
    assert {"unarmed", "location", "damage_type", "best_intent", "margin_of_failure"} <= set(
        options["properties"]
    )
    assert "follows" in schemas["TableRollIn"]["properties"]


def test_an_option_no_table_takes_is_refused_naming_it(as_mestre, scene):
    response = as_mestre(scene, "table-rolls", {"table": "critical_miss", "options": {"x": 1}})
    assert response.status_code == 422
    assert "options.x" in str(response.json())
    assert not Roll.objects.exists()


# --- a contest answering a declaration (issue 27) -------------------------------------------------


def test_a_contest_applies_the_announced_modifiers_to_side_a_once(
    as_mestre, client, bearer, jogadora, scene, rastreador
):
    from sessions.log.services import CONTEST_ALREADY_ANSWERED
    from sessions.models import Declaration

    declaration = Declaration.objects.create(
        scene=scene, character=rastreador, author=rastreador.owner, text="Empurro a grade."
    )
    announced = [{"label": "grade emperrada", "value": -2}]
    made = as_mestre(
        scene, "announcements", {"declaration": str(declaration.code), "modifiers": announced}
    )
    assert made.status_code == 201, made.json()
    body = {
        "declaration": str(declaration.code),
        "a": {"character": str(rastreador.code), "attribute": "st"},
        "b": {"name": "A grade", "label": "ST", "base_level": 12, "kind": "attribute"},
    }
    first = as_mestre(scene, "contests", body)
    assert first.status_code == 201, first.json()
    answer = first.json()
    assert answer["details"]["announced_side"] == "a"
    assert answer["modifiers"] == announced
    assert answer["details"]["a"]["effective_level"] == 11 - 2  # the Rastreador's ST 11
    again = as_mestre(scene, "contests", body)
    assert again.status_code == 409
    assert again.json()["detail"] == CONTEST_ALREADY_ANSWERED.format(
        sequence=answer["sequence"], label=answer["label"]
    )
    assert Roll.objects.filter(kind="contest").count() == 1


def test_a_refused_modifier_is_named_by_number_and_label(as_mestre, scene):
    from campaigns.api_errors import VALIDATION_MESSAGES
    from garganta_site.api import LIST_ITEM, LIST_ITEM_NAMED

    body = {
        "label": "Saltar o fosso",
        "base_level": 12,
        "kind": "skill",
        "modifiers": [{"label": "penumbra", "value": -2}, {"label": "queda", "value": -99}],
    }
    response = as_mestre(scene, "rolls", body)
    assert response.status_code == 422
    (item,) = response.json()["detail"]
    assert item["field"] == "modifiers.1.value"
    assert item["message"] == LIST_ITEM.format(
        list="modifiers",
        number=2,
        named=LIST_ITEM_NAMED.format(name="queda"),
        message=VALIDATION_MESSAGES["greater_than_equal"].format(ge=-50),
    )
