"""The attacker's findings on the scene's rolls in a Xuleta campaign (issue 22): JSON's true
taken as a DC of 1, a level of 1 or a modifier of +1; GURPS's difficulty and new_skill taken
and ignored (its attribute and kind are refused); a refusal naming GURPS's fields (``attribute``,
«o atributo (attribute)») for a body that says ``ability``. Each is a 422 in Portuguese naming
the body's field, and nothing is rolled."""

from __future__ import annotations

import json

import pytest

from campaigns.auth import api_token_create
from sessions.models import Roll

pytestmark = pytest.mark.django_db


def _post(client, world, path, body):
    token = api_token_create(user=world["mestre"])
    return client.post(
        f"/api/v1/scenes/{world['scene'].code}/{path}",
        json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


@pytest.mark.parametrize(
    ("body", "field", "said"),
    [
        ({"skill": "Percepció", "dc": True}, "dc", "Use um número"),
        ({"ability": "str", "dc": 10, "base_level": True}, "base_level", "Use um número"),
        (
            {"skill": "Percepció", "dc": 10, "modifiers": [{"label": "x", "value": True}]},
            "modifiers.0.value",
            "Use um número",
        ),  # fmt: skip
        ({"skill": "Percepció", "dc": 10, "difficulty": "A"}, "difficulty", "é do GURPS"),
        ({"skill": "Percepció", "dc": 10, "new_skill": True}, "new_skill", "é do GURPS"),
        ({"roll": "save", "dc": 10}, "ability", "(ability)"),
        ({"roll": "attack", "dc": 12}, "skill", "a característica (ability)"),
    ],
)
def test_a_xuleta_roll_is_refused_in_its_own_words(client, world, sheets, body, field, said):
    answer = _post(client, world, "rolls", {"character": str(world["aina"].code), **body})
    assert answer.status_code == 422, answer.content
    got = answer.json()
    assert got["field"] == field, got
    text = json.dumps(got, ensure_ascii=False)
    assert said in text and "(attribute)" not in text
    assert not Roll.objects.exists()


def test_a_contest_side_says_ability_and_refuses_true(client, world, sheets):
    aina = str(world["aina"].code)
    answer = _post(
        client,
        world,
        "contests",
        {
            "a": {"character": aina, "skill": "Atletisme"},
            "b": {"name": "Llop", "base_level": True, "ability": "str"},
        },  # fmt: skip
    )
    assert answer.status_code == 422 and answer.json()["field"] == "b.base_level"
    gurps = _post(
        client,
        world,
        "contests",
        {
            "a": {"character": aina, "skill": "Atletisme", "difficulty": "A"},
            "b": {"name": "Llop", "base_level": 3, "ability": "str"},
        },  # fmt: skip
    )
    assert gurps.status_code == 422 and gurps.json()["field"] == "a.difficulty"
    assert not Roll.objects.exists()
    fine = _post(
        client,
        world,
        "contests",
        {
            "a": {"character": aina, "skill": "Atletisme"},
            "b": {"name": "Llop", "base_level": 3, "ability": "str"},
        },  # fmt: skip
    )
    assert fine.status_code == 201, fine.content
