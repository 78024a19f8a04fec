"""The combat tracker through the API: the same short fight as the browser test, the same
refusals as the page, and no die from the client."""

from __future__ import annotations

import pytest

from sessions import entries
from sessions.combat import messages as combat_messages
from sessions.log import chain
from sessions.log import services as log_services
from sessions.models import Combat, Roll
from tests.api.conftest import post_json
from tests.gurps.helpers import ScriptedSource
from tests.sessions.combat.helpers import B_WOUNDS_JURADO, CAVADOR, HOPLITA_FELLS_A

BASE = "/api/v1/combats"
CREATURE = {
    **{k: v for k, v in CAVADOR.items()},
    "weapons": [{"name": "Mordida", "skill": 12, "damage": "2d cort", "weapon_class": "bite"}],
}


@pytest.fixture
def server_dice(monkeypatch):
    def script(*faces: int) -> None:
        source = ScriptedSource(faces)
        monkeypatch.setattr(entries, "dice_source", lambda: source)

    return script


def by_name(state, name):
    return next(c for c in state["combatants"] if c["name"] == name)


def next_until(client, code, name, headers):
    for _ in range(8):
        state = client.post(f"{BASE}/{code}/turns", **headers).json()
        if state["current"] == by_name(state, name)["id"]:
            return state
    raise AssertionError(name)


@pytest.fixture
def started(client, bearer, mestre, scene, jurado, hoplita):
    headers = bearer(mestre)
    response = post_json(
        client,
        BASE,
        {"scene": str(scene.code), "characters": [str(jurado.code), str(hoplita.code)]},
        **headers,
    )
    assert response.status_code == 201, response.json()
    code = response.json()["id"]
    for name in ("Cavador A", "Cavador B"):
        added = post_json(
            client, f"{BASE}/{code}/combatants", {**CREATURE, "name": name}, **headers
        )
        assert added.status_code == 201, added.json()
    return code, headers


def test_the_api_plays_the_short_fight(client, started, server_dice, scene, bearer, jogador):
    code, headers = started
    server_dice(*HOPLITA_FELLS_A, *B_WOUNDS_JURADO)
    state = next_until(client, code, "Hoplita de Ônfalos", headers)
    hoplita, a = by_name(state, "Hoplita de Ônfalos"), by_name(state, "Cavador A")
    maneuver = {"combatant": hoplita["id"], "maneuver": "move_and_attack"}
    assert post_json(client, f"{BASE}/{code}/maneuvers", maneuver, **headers).status_code == 200
    body = {"attacker": hoplita["id"], "defender": a["id"], "lighting": -2, "defences": ["dodge"]}
    hit = post_json(client, f"{BASE}/{code}/attacks", body, **headers)
    assert hit.status_code == 201, hit.json()
    assert by_name(hit.json()["combat"], "Cavador A")["status"] == "fled"

    state = next_until(client, code, "Cavador B", headers)
    b, jurado = by_name(state, "Cavador B"), by_name(state, "Jurado de Gapheim")
    maneuver = {"combatant": b["id"], "maneuver": "move_and_attack"}
    post_json(client, f"{BASE}/{code}/maneuvers", maneuver, **headers)
    mine = f"{BASE}/{code}/combatants/{jurado['id']}/defence"
    chose = post_json(client, mine, {"first": "block"}, **bearer(jogador))
    assert chose.status_code == 200, chose.json()
    body = {"attacker": b["id"], "defender": jurado["id"]}
    bite = post_json(client, f"{BASE}/{code}/attacks", body, **headers)
    assert bite.status_code == 201, bite.json()
    after = by_name(bite.json()["combat"], "Jurado de Gapheim")
    assert after["stunned"] and after["hp_now"] == 2

    rolls = list(Roll.objects.filter(scene=scene).order_by("sequence"))
    # Cavador A, out at 0 HP, has no Prostração roll (§5.4.1); the jurado has his.
    assert [r.details["step"] for r in rolls] == [3, 5, 6, 3, 5, 6, 10]
    described = bite.json()["rolls"]
    assert [r["sequence"] for r in described] == [r.sequence for r in rolls[3:]]
    assert [r["dice"] for r in described] == [r.dice for r in rolls[3:]]
    assert [f for r in rolls for f in r.dice] == [*HOPLITA_FELLS_A, *B_WOUNDS_JURADO]
    assert chain.rolls_verify(scene.week.campaign).ok
    ended = post_json(client, f"{BASE}/{code}/end", {"spoils": "couro"}, **headers)
    assert ended.json()["status"] == "ended"


def test_terrain_declared_after_the_first_die_is_refused(client, started, server_dice):
    code, headers = started
    server_dice(*HOPLITA_FELLS_A)
    state = next_until(client, code, "Hoplita de Ônfalos", headers)
    hoplita, a = by_name(state, "Hoplita de Ônfalos"), by_name(state, "Cavador A")
    post_json(
        client,
        f"{BASE}/{code}/maneuvers",
        {"combatant": hoplita["id"], "maneuver": "move_and_attack"},
        **headers,
    )
    body = {"attacker": hoplita["id"], "defender": a["id"], "defences": ["dodge"]}
    post_json(client, f"{BASE}/{code}/attacks", body, **headers)
    late = post_json(client, f"{BASE}/{code}/declarations", {"terrain": ["bad"]}, **headers)
    assert late.status_code == 422
    assert late.json() == {
        "code": "declared_too_late",
        "detail": combat_messages.TERRAIN_TOO_LATE,
        "field": "terrain",
    }


def test_an_attack_out_of_turn_is_refused_and_rolls_nothing(client, started):
    code, headers = started
    state = next_until(client, code, "Cavador A", headers)
    jurado, b = by_name(state, "Jurado de Gapheim"), by_name(state, "Cavador B")
    body = {"attacker": jurado["id"], "defender": b["id"]}
    refused = post_json(client, f"{BASE}/{code}/attacks", body, **headers)
    assert refused.status_code == 422
    assert refused.json()["code"] == "not_its_turn"
    assert not Roll.objects.exists()


def test_no_body_takes_a_die(client, started):
    code, headers = started
    body = {"attacker": "x", "defender": "y", "dice": [6, 6, 6]}
    refused = post_json(client, f"{BASE}/{code}/attacks", body, **headers)
    assert refused.status_code == 422


def test_a_jogador_reads_but_does_not_run_it(client, started, bearer, jogador):
    code, _ = started
    headers = bearer(jogador)
    assert client.get(f"{BASE}/{code}", **headers).status_code == 200
    refused = client.post(f"{BASE}/{code}/turns", **headers)
    assert refused.status_code == 403
    # his own card in full, the creatures' visible state only
    state = client.get(f"{BASE}/{code}", **headers).json()
    assert "hp_now" in by_name(state, "Jurado de Gapheim")
    assert by_name(state, "Cavador A")["hp_now"] is None


def test_the_same_request_twice_is_one_action(client, started):
    code, headers = started
    headers = {**headers, "HTTP_IDEMPOTENCY_KEY": "turno-1"}
    first = client.post(f"{BASE}/{code}/turns", **headers).json()
    second = client.post(f"{BASE}/{code}/turns", **headers).json()
    assert first["turn"] == second["turn"] and first["round"] == second["round"] == 1
    assert Combat.objects.get().events.filter(kind="turn").count() == 1


def test_the_api_feints_and_the_next_attack_takes_the_margin(client, started, server_dice):
    code, headers = started
    state = next_until(client, code, "Cavador A", headers)
    a, b = by_name(state, "Cavador A"), by_name(state, "Cavador B")
    missing = post_json(
        client,
        f"{BASE}/{code}/maneuvers",
        {"combatant": a["id"], "maneuver": "feint", "weapon": 0},
        **headers,
    )
    assert missing.status_code == 422
    assert missing.json()["field"] == "target"
    # A 1+2+3 = 6 against 12 (margin 6); B 5+5+5 = 15 against 12: A wins by 6.
    server_dice(1, 2, 3, 5, 5, 5)
    body = {"combatant": a["id"], "maneuver": "feint", "weapon": 0, "target": b["id"]}
    feinted = post_json(client, f"{BASE}/{code}/maneuvers", body, **headers)
    assert feinted.status_code == 200, feinted.json()
    assert by_name(feinted.json(), "Cavador A")["feint"]["penalty"] == 6
    assert [r.total for r in Roll.objects.order_by("sequence")] == [6, 15]


def test_the_api_records_the_mestres_adjustment(client, started):
    code, headers = started
    state = next_until(client, code, "Cavador A", headers)
    a = by_name(state, "Cavador A")
    bad = post_json(
        client, f"{BASE}/{code}/adjustments", {"combatant": a["id"], "hp_lost": 3}, **headers
    )
    assert bad.status_code == 422
    body = {"combatant": a["id"], "hp_lost": 3, "reason": "Erro crítico 5: atingiu a si mesmo"}
    done = post_json(client, f"{BASE}/{code}/adjustments", body, **headers)
    assert done.status_code == 201, done.json()
    assert by_name(done.json()["combat"], "Cavador A")["hp_now"] == 9 - 3
    assert not Roll.objects.exists()


def test_an_unknown_hit_location_is_a_422_and_rolls_nothing(client, started):
    code, headers = started
    state = next_until(client, code, "Hoplita de Ônfalos", headers)
    hoplita, a = by_name(state, "Hoplita de Ônfalos"), by_name(state, "Cavador A")
    maneuver = {"combatant": hoplita["id"], "maneuver": "move_and_attack"}
    post_json(client, f"{BASE}/{code}/maneuvers", maneuver, **headers)
    before = Roll.objects.count()
    body = {"attacker": hoplita["id"], "defender": a["id"], "location": "soul"}
    response = post_json(client, f"{BASE}/{code}/attacks", body, **headers)
    assert (response.status_code, response.json()["field"]) == (422, "location")
    assert Roll.objects.count() == before


def test_a_creature_weapon_has_the_scenes_dice_bounds(client, started):
    code, headers = started
    huge = {
        **CREATURE,
        "name": "Zed",
        "weapons": [{**CREATURE["weapons"][0], "damage": "40d cort"}],
    }
    response = post_json(client, f"{BASE}/{code}/combatants", huge, **headers)
    assert response.status_code == 422
    assert response.json()["detail"] == log_services.TOO_MANY_DICE.format(
        limit=log_services.MAX_DAMAGE_DICE
    )


def test_a_leg_without_its_side_is_a_422_naming_side_and_rolls_nothing(client, started):
    code, headers = started
    state = next_until(client, code, "Hoplita de Ônfalos", headers)
    hoplita, a = by_name(state, "Hoplita de Ônfalos"), by_name(state, "Cavador A")
    maneuver = {"combatant": hoplita["id"], "maneuver": "move_and_attack"}
    post_json(client, f"{BASE}/{code}/maneuvers", maneuver, **headers)
    before = Roll.objects.count()
    body = {"attacker": hoplita["id"], "defender": a["id"], "location": "leg"}
    response = post_json(client, f"{BASE}/{code}/attacks", body, **headers)
    assert (response.status_code, response.json()["field"]) == (422, "side")
    body["side"] = "middle"
    response = post_json(client, f"{BASE}/{code}/attacks", body, **headers)
    assert (response.status_code, response.json()["field"]) == (422, "side")
    assert Roll.objects.count() == before


def test_the_schema_publishes_the_limb_side_and_the_crippled_limbs_as_closed_sets(client):
    schema = client.get("/api/v1/openapi.json").json()["components"]["schemas"]
    side = schema["AttackIn"]["properties"]["side"]
    assert {"left", "right"} == set(next(s for s in side["anyOf"] if "enum" in s)["enum"])
    crippled = schema["CombatantOut"]["properties"]["crippled"]
    items = next(s for s in crippled["anyOf"] if s.get("type") == "array")["items"]
    assert {"arm_weapon", "arm_other", "leg_left", "foot_right", "hand_left"} <= set(items["enum"])
