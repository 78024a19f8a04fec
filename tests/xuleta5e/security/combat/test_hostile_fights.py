"""The attacker's findings on /api/v1/fights in a Xuleta campaign (issue 22): JSON's true/false
taken as 1 and 0 (an AC, a score, an attack bonus, exhaustion, a condition's level), unbounded
save and skill bonuses, a range with the normal past the long, a spell cast in a slot below its
level, and a refusal that named pydantic's internals and both systems' fields
(``numbers.function-wrap[_run_root_validator()].attributes``) for one wrong Xuleta value. Each
is a 422 in Portuguese naming the field, and nothing is started or played."""

from __future__ import annotations

import copy
import json

import pytest

from campaigns.auth import api_token_create
from sessions.models import Combat
from tests.xuleta5e.combat.conftest import numbers

pytestmark = pytest.mark.django_db

SWORD = {"name": "Espasa", "bonus": 5, "damage": "1d8", "damage_modifier": 3,
         "damage_type": "slashing"}  # fmt: skip


def _post(client, url, body, user):
    token = api_token_create(user=user)
    return client.post(
        url, json.dumps(body), content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )


def _combatants():
    return [
        {"name": "Aria", "numbers": numbers(side="jogadores", attacks=[SWORD])},
        {"name": "Goblin", "numbers": numbers(attacks=[SWORD], max_hp=7)},
    ]


def _start(client, scene, people, combatants):
    body = {"scene": str(scene.code), "combatants": combatants}
    return _post(client, "/api/v1/fights", body, people["mestre"])


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"ac": True}, "ac"),
        ({"max_hp": True}, "max_hp"),
        ({"exhaustion": True}, "exhaustion"),
        ({"group": True}, "group"),
        (
            {"abilities": {"str": True, "dex": 10, "con": 10, "int": 10, "wis": 10, "cha": 10}},
            "abilities.str",
        ),  # fmt: skip
        ({"attacks": [{**SWORD, "bonus": True}]}, "attacks.0.bonus"),
        ({"saves": {"str": 10**9}}, "saves.str"),
        ({"skills": {"Percepció": -(10**9)}}, "skills.Percepció"),
        ({"attacks": [{**SWORD, "range_m": [96, 24]}]}, "attacks.0.range_m"),
        ({"attacks": [{**SWORD, "range_m": [-1, 2]}]}, "attacks.0.range_m.0"),
        ({"ac": -1}, "ac"),
        ({"speed_m": "nove"}, "speed_m"),
    ],
)
def test_bad_xuleta_numbers_are_refused_naming_their_field(client, scene, people, change, field):
    combatants = _combatants()
    combatants[1]["numbers"].update(change)
    answer = _start(client, scene, people, combatants)
    assert answer.status_code == 422, answer.content
    body = answer.json()
    assert body["field"] == f"combatants.1.numbers.{field}", body
    assert "function-wrap" not in answer.content.decode()
    assert "attributes" not in answer.content.decode()  # the sistema001's fields not named
    assert not Combat.objects.filter(scene=scene).exists()


def test_sistema001_numbers_in_a_xuleta_fight_name_their_own_fields(client, scene, people):
    combatants = _combatants()
    combatants[1]["numbers"] = {"attributes": {"mobilidade": 1}, "pv_max": 10}
    answer = _start(client, scene, people, combatants)
    assert answer.status_code == 422
    assert answer.json()["field"].startswith("combatants.1.numbers.")
    assert "function-wrap" not in answer.content.decode()
    assert not Combat.objects.filter(scene=scene).exists()


@pytest.fixture
def fight(client, scene, people):
    answer = _start(client, scene, people, _combatants())
    assert answer.status_code == 201, answer.content
    view = answer.json()
    ids = {row["name"]: row["id"] for row in view["order"]}
    turn = view["turn"]["fighter"]
    other = next(code for code in ids.values() if code != turn)
    return view["id"], turn, other


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ({"kind": "move", "metres": 10**6}, "actions.0.metres"),
        ({"kind": "move", "metres": -3}, "actions.0.metres"),
        ({"kind": "attack", "dc": True}, "actions.0.dc"),
        ({"kind": "cast_spell", "spell": "x", "spell_level": True}, "actions.0.spell_level"),
        ({"kind": "attack", "within_1_5_m": "sim"}, "actions.0.within_1_5_m"),
        ({"kind": "atac_total"}, "actions.0.kind"),
    ],
)
def test_a_bad_xuleta_action_names_its_own_field(client, people, fight, action, field):
    code, turn, other = fight
    body = {"combatant": turn, "actions": [{**action, "target": other}]}
    answer = _post(client, f"/api/v1/fights/{code}/turns", body, people["mestre"])
    assert answer.status_code == 422, answer.content
    assert answer.json()["field"] == field
    text = answer.content.decode()
    assert "function-wrap" not in text and "'ataque'" not in text  # not the sistema001's kinds
    assert Combat.objects.get(code=code).round == 1


def test_a_spell_in_a_slot_below_its_level_is_refused_even_uncounted(client, people, fight):
    code, turn, other = fight
    spell = {"kind": "cast_spell", "spell": "Bola de foc", "spell_level": 3, "slot_level": 1,
             "target": other}  # fmt: skip
    answer = _post(
        client,
        f"/api/v1/fights/{code}/turns",
        {"combatant": turn, "actions": [spell]},
        people["mestre"],
    )
    assert answer.status_code == 422, answer.content
    assert answer.json()["field"] == "actions.0.slot_level"
    assert "seu nivell o superior" in answer.json()["detail"]
    spell["slot_level"] = 3  # sent again, corrected
    again = _post(
        client,
        f"/api/v1/fights/{code}/turns",
        {"combatant": turn, "actions": [spell]},
        people["mestre"],
    )
    assert again.status_code == 201, again.content


def test_a_conditions_level_is_a_number_not_true(client, people, fight):
    code, _, other = fight
    body = {"target": other, "condition": "exhaustion", "level": True}
    answer = _post(client, f"/api/v1/fights/{code}/conditions", body, people["mestre"])
    assert answer.status_code == 422 and answer.json()["field"] == "level"


def test_the_jogador_does_not_run_the_fight(client, people, fight):
    code, turn, _ = fight
    body = {"combatant": turn, "actions": [{"kind": "dodge"}]}
    assert _post(client, f"/api/v1/fights/{code}/turns", body, people["jogador"]).status_code == 403
    assert _post(client, f"/api/v1/fights/{code}/end", {}, people["jogador"]).status_code == 403


def test_a_sistema001_action_still_refused_as_another_systems(client, people, fight):
    code, turn, other = fight
    body = {"combatant": turn, "actions": [{"kind": "ataque", "target": other}]}
    answer = _post(client, f"/api/v1/fights/{code}/turns", body, people["mestre"])
    assert answer.status_code == 422 and "outro sistema" in answer.json()["detail"]


def test_a_late_entrant_with_true_for_a_number_is_refused(client, people, fight):
    code, _, _ = fight
    body = {"name": "Llop", "numbers": copy.deepcopy(numbers(ac=True))}
    answer = _post(client, f"/api/v1/fights/{code}/combatants", body, people["mestre"])
    assert answer.status_code == 422 and answer.json()["field"] == "numbers.ac"


def test_the_same_turn_twice_with_its_key_is_one_turn_and_another_body_conflicts(
    client, people, fight
):
    code, turn, _ = fight
    token = api_token_create(user=people["mestre"])
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}", "HTTP_IDEMPOTENCY_KEY": "torn-1"}
    url = f"/api/v1/fights/{code}/turns"
    body = {"combatant": turn, "actions": [{"kind": "dodge"}]}
    first = client.post(url, json.dumps(body), content_type="application/json", **headers)
    again = client.post(url, json.dumps(body), content_type="application/json", **headers)
    assert first.status_code == again.status_code == 201, again.content
    assert first.json()["lines"] == again.json()["lines"]
    other = {"combatant": turn, "actions": [{"kind": "dash"}]}
    clash = client.post(url, json.dumps(other), content_type="application/json", **headers)
    assert clash.status_code == 409 and clash.json()["code"] == "idempotency_conflict", (
        clash.content
    )
    view = client.get(f"/api/v1/fights/{code}", HTTP_AUTHORIZATION=f"Bearer {token}").json()
    assert view["turn"]["fighter"] != turn  # one turn went by, not two
