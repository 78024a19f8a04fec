"""The Mestre's AI asks the server to roll (sessions.log.api, sessions.weeks.api: POST and GET /scenes/{id}/rolls).

No die comes from a client; only the Mestre or the Árbitro asks; rolls are numbered
without gaps and chained (docs/DESIGN.md, invariants 1 (The server rolls),
2 (Rolls are append-only), 5 (No roll at 3 or less)).
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from campaigns.models import ApiToken
from gurps.errors import NO_ROLL_AT_THREE_OR_LESS
from sessions.log.chain import GENESIS_HASH
from sessions.log.services import CHARACTER_NOT_IN_SCENE, LABEL_EMPTY
from sessions.models import Roll
from sheets.models import Character
from tests.api.conftest import post_json

ROLL_KEYS = {
    "id",
    "sequence",
    "dice",
    "total",
    "effective_level",
    "outcome",
    "margin",
    "hash",
    "previous_hash",
    "created_at",
}


def _url(scene) -> str:
    return f"/api/v1/scenes/{scene.code}/rolls"


def _observation(rastreador, **extra) -> dict:
    """The AI Mestre's Observação for the Rastreador: the skill named, its level (13) the
    sheet's, never the client's (docs/DESIGN.md, invariant 10 (Levels from the sheet))."""
    return {
        "character": str(rastreador.code),
        "skill": "Observação",
        "modifiers": [{"label": "penumbra", "value": -2}],
        **extra,
    }


def _nobodys(**extra) -> dict:
    """A roll of nobody's (an ambush sensed by the Mestre for the scene): his level."""
    return {"label": "Emboscada", "base_level": 12, "kind": "skill", **extra}


@pytest.fixture
def as_mestre(bearer, mestre):
    """POST as the Mestre's AI client: a bearer token, CSRF enforced as for any client."""
    headers = bearer(mestre)
    strict = Client(enforce_csrf_checks=True)

    def post(scene, body, **extra):
        return post_json(strict, _url(scene), body, **headers, **extra)

    return post


# --- POST, who may ----------------------------------------------------------------------------


def test_the_mestre_rolls_with_a_bearer_token(as_mestre, scene, rastreador):
    response = as_mestre(scene, _observation(rastreador))
    assert response.status_code == 201
    body = response.json()
    assert ROLL_KEYS <= set(body)
    assert len(body["dice"]) == 3
    assert all(isinstance(d, int) and 1 <= d <= 6 for d in body["dice"])
    assert body["total"] == sum(body["dice"])
    assert body["effective_level"] == 13 - 2
    assert body["margin"] == body["effective_level"] - body["total"]
    assert body["outcome"] in {"critical_success", "success", "failure", "critical_failure"}
    assert (body["sequence"], body["previous_hash"]) == (1, GENESIS_HASH)
    assert body["previous_hash"] == "0" * 64
    assert body["rolled_by"] == "mestre"
    roll = Roll.objects.get()
    assert (str(roll.code), roll.hash, roll.dice) == (body["id"], body["hash"], body["dice"])


def test_the_mestre_rolls_with_the_browser_session(client_for, mestre, scene, rastreador):
    # The test client skips CSRF checks; the next test shows them on.
    response = post_json(client_for(mestre), _url(scene), _observation(rastreador))
    assert response.status_code == 201
    assert response.json()["effective_level"] == 11


def test_a_session_post_without_csrf_is_refused(mestre, scene, rastreador):
    client = Client(enforce_csrf_checks=True)
    client.force_login(mestre)
    response = post_json(client, _url(scene), _observation(rastreador))
    assert response.status_code == 403
    assert not Roll.objects.exists()


def test_the_arbitro_rolls_too(client, bearer, arbitro, scene, rastreador):
    response = post_json(client, _url(scene), _observation(rastreador), **bearer(arbitro))
    assert response.status_code == 201


@pytest.mark.parametrize("username", ["jogador", "jogadora", "rastreadora"])
def test_a_jogador_may_not_roll(client, bearer, django_user_model, scene, rastreador, username):
    user = django_user_model.objects.get(username=username)
    response = post_json(client, _url(scene), _observation(rastreador), **bearer(user))
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"
    assert not Roll.objects.exists()


def test_anonymous_may_not_roll(client, scene, rastreador):
    response = post_json(client, _url(scene), _observation(rastreador))
    assert response.status_code == 401
    assert not Roll.objects.exists()


def test_an_outsider_gets_404(client, bearer, outsider, scene, rastreador):
    response = post_json(client, _url(scene), _observation(rastreador), **bearer(outsider))
    assert response.status_code == 404
    assert not Roll.objects.exists()


def test_an_unknown_scene_is_404(client, bearer, mestre, rastreador):
    url = "/api/v1/scenes/00000000-0000-0000-0000-000000000000/rolls"
    assert post_json(client, url, _observation(rastreador), **bearer(mestre)).status_code == 404


# --- bearer tokens ----------------------------------------------------------------------------


def test_a_revoked_token_is_refused(client, bearer, mestre, scene, rastreador):
    headers = bearer(mestre)
    ApiToken.objects.filter(user=mestre).update(revoked_at=timezone.now())
    response = post_json(client, _url(scene), _observation(rastreador), **headers)
    assert response.status_code == 401
    assert not Roll.objects.exists()


def test_an_unknown_token_is_refused(client, scene, rastreador, demo):
    headers = {"HTTP_AUTHORIZATION": "Bearer not-a-token"}
    assert post_json(client, _url(scene), _observation(rastreador), **headers).status_code == 401


def test_the_token_of_an_inactive_user_is_refused(client, bearer, mestre, scene, rastreador):
    headers = bearer(mestre)
    mestre.is_active = False
    mestre.save()
    assert post_json(client, _url(scene), _observation(rastreador), **headers).status_code == 401


# --- POST, the chain --------------------------------------------------------------------------


def test_rolls_are_numbered_without_gaps_and_chained(as_mestre, scene, rastreador):
    bodies = [as_mestre(scene, _observation(rastreador)).json() for _ in range(3)]
    assert [b["sequence"] for b in bodies] == [1, 2, 3]
    assert bodies[0]["previous_hash"] == "0" * 64
    assert bodies[1]["previous_hash"] == bodies[0]["hash"]
    assert bodies[2]["previous_hash"] == bodies[1]["hash"]
    assert len({b["hash"] for b in bodies}) == 3


def test_a_refused_roll_leaves_no_gap(as_mestre, scene, rastreador):
    as_mestre(scene, _observation(rastreador))
    as_mestre(scene, _observation(rastreador, modifiers=[{"label": "breu", "value": -10}]))
    assert as_mestre(scene, _observation(rastreador)).json()["sequence"] == 2


def test_the_same_idempotency_key_twice_rolls_once(as_mestre, scene, rastreador):
    first = as_mestre(scene, _observation(rastreador), HTTP_IDEMPOTENCY_KEY="roll-7f3a")
    again = as_mestre(scene, _observation(rastreador), HTTP_IDEMPOTENCY_KEY="roll-7f3a")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert Roll.objects.count() == 1


def test_the_same_idempotency_key_with_another_request_is_a_conflict(as_mestre, scene, rastreador):
    first = as_mestre(scene, _observation(rastreador), HTTP_IDEMPOTENCY_KEY="roll-7f3a")
    other = as_mestre(
        scene, _observation(rastreador, base_level=14), HTTP_IDEMPOTENCY_KEY="roll-7f3a"
    )
    assert other.status_code == 409
    assert other.json()["code"] == "idempotency_conflict"
    assert [str(code) for code in Roll.objects.values_list("code", flat=True)] == [
        first.json()["id"]
    ]


def test_different_idempotency_keys_roll_twice(as_mestre, scene, rastreador):
    as_mestre(scene, _observation(rastreador), HTTP_IDEMPOTENCY_KEY="a")
    as_mestre(scene, _observation(rastreador), HTTP_IDEMPOTENCY_KEY="b")
    assert Roll.objects.count() == 2


# --- POST, refusals ---------------------------------------------------------------------------


def test_a_skill_at_effective_level_3_or_less_is_refused(as_mestre, scene, rastreador):
    response = as_mestre(
        scene, _observation(rastreador, modifiers=[{"label": "breu", "value": -10}])
    )
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "no_roll_at_3_or_less"
    assert (body["detail"], body["effective_level"]) == (NO_ROLL_AT_THREE_OR_LESS, 3)
    assert not Roll.objects.exists()


def test_a_defence_at_effective_level_2_is_rolled(as_mestre, scene, rastreador):
    body = _observation(rastreador, skill="", label="Esquiva", base_level=4, kind="defence")
    response = as_mestre(scene, body)
    assert response.status_code == 201
    assert response.json()["effective_level"] == 2


@pytest.mark.parametrize(
    "forged",
    [
        {"dice": [6, 6, 6]},
        {"total": 18},
        {"outcome": "critical_success"},
        {"effective_level": 18},
        {"sequence": 1},
        {"hash": "0" * 64},
        {"luck": True},
    ],
)
def test_a_body_with_dice_or_any_unknown_field_is_refused(as_mestre, scene, rastreador, forged):
    response = as_mestre(scene, _observation(rastreador, **forged))
    assert response.status_code == 422
    assert response.json()["field"] == next(iter(forged))
    assert not Roll.objects.exists()


def test_a_modifier_with_an_unknown_field_is_refused(as_mestre, scene, rastreador):
    body = _observation(rastreador, modifiers=[{"label": "penumbra", "value": -2, "dice": 6}])
    response = as_mestre(scene, body)
    assert response.status_code == 422
    assert response.json()["field"] == "modifiers.0.dice"
    assert not Roll.objects.exists()


def test_a_hidden_roll_needs_a_character(as_mestre, scene):
    response = as_mestre(
        scene, {"label": "Emboscada", "base_level": 12, "kind": "skill", "hidden": True}
    )
    assert response.status_code == 422
    assert response.json()["field"] == "hidden"
    assert not Roll.objects.exists()


def test_a_character_not_in_the_scene_is_refused(as_mestre, demo, jogador, scene, rastreador):
    stranger = Character.objects.create(campaign=demo, owner=jogador, name="Fora da cena")
    response = as_mestre(scene, _observation(rastreador, character=str(stranger.code)))
    assert response.status_code == 422
    body = response.json()
    assert (body["field"], body["detail"]) == ("character", CHARACTER_NOT_IN_SCENE)
    assert not Roll.objects.exists()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"skill": " "}, "skill"),
        ({"skill": ""}, "skill"),
        ({"skill": "escrita antiga de amenti"}, "skill"),
        ({"attribute": "sorte"}, "attribute"),
        ({"difficulty": "impossível"}, "difficulty"),
        ({"base_level": 15}, "base_level"),
        ({"kind": "sorte"}, "kind"),
        ({"base_level": "treze"}, "base_level"),
        ({"base_level": 51}, "base_level"),
        ({"modifiers": [{"label": "", "value": -2}]}, "modifiers"),
        ({"modifiers": [{"label": "queda", "value": -99}]}, "modifiers"),
        ({"character": "not-a-uuid"}, "character"),
        ({"hidden": "yes"}, "hidden"),
        ({"modifiers": [{"label": f"m{n}", "value": 0} for n in range(21)]}, "modifiers"),
    ],
)
def test_bad_input_is_refused_naming_the_field(as_mestre, scene, rastreador, change, field):
    response = as_mestre(scene, _observation(rastreador, **change))
    assert response.status_code == 422
    assert response.json()["field"].split(".")[0] == field
    assert not Roll.objects.exists()


def test_a_blank_label_says_why(as_mestre, scene):
    assert as_mestre(scene, _nobodys(label="  ")).json()["detail"] == LABEL_EMPTY


def test_a_missing_label_is_refused(as_mestre, scene):
    body = {k: v for k, v in _nobodys().items() if k != "label"}
    response = as_mestre(scene, body)
    assert response.status_code == 422
    assert response.json()["field"] == "label"


# --- GET --------------------------------------------------------------------------------------


def test_the_list_gives_the_rolls_in_order(as_mestre, client_for, jogador, scene, rastreador):
    made = [as_mestre(scene, _observation(rastreador)).json() for _ in range(3)]
    response = client_for(jogador).get(_url(scene))
    assert response.status_code == 200
    assert response.json() == made


def test_the_list_requires_authentication(client, scene):
    assert client.get(_url(scene)).status_code == 401


def test_the_list_checks_membership(client_for, outsider, scene):
    assert client_for(outsider).get(_url(scene)).status_code == 404
