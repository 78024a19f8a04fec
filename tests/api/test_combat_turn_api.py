"""A combatant's turn in one call through the API (POST /combats/{id}/act): the dice it rolled,
each with its sequence in the chain; its dry run, which spends no key and writes nothing; the
maneuver changed before its first die (PUT /maneuvers); a combatant marked fled; every
turn-type answer with its dice."""

from __future__ import annotations

import json

import pytest

from sessions import entries
from sessions.combat import messages as combat_messages
from sessions.log import chain
from sessions.models import Combatant, CombatEvent, Roll
from tests.api.conftest import post_json
from tests.gurps.helpers import ScriptedSource
from tests.sessions.combat.helpers import B_WOUNDS_JURADO, CAVADOR, HOPLITA_FELLS_A

BASE = "/api/v1/combats"
CREATURE = {
    **CAVADOR,
    "weapons": [{"name": "Mordida", "skill": 12, "damage": "2d cort", "weapon_class": "bite"}],
}


@pytest.fixture
def server_dice(monkeypatch):
    def script(*faces: int) -> None:
        source = ScriptedSource(faces)
        monkeypatch.setattr(entries, "dice_source", lambda: source)

    return script


@pytest.fixture
def fight(client, bearer, mestre, scene, jurado, hoplita):
    """Order (§4.2): Cavador A, Cavador B, the hoplita, the jurado. Returns (url, headers,
    ids by name)."""
    headers = bearer(mestre)
    body = {"scene": str(scene.code), "characters": [str(jurado.code), str(hoplita.code)]}
    started = post_json(client, BASE, body, **headers)
    assert started.status_code == 201, started.json()
    url = f"{BASE}/{started.json()['id']}"
    for name in ("Cavador A", "Cavador B"):
        added = post_json(client, f"{url}/combatants", {**CREATURE, "name": name}, **headers)
        assert added.status_code == 201, added.json()
    ids = {c.name: str(c.code) for c in Combatant.objects.all()}
    return url, headers, ids


def act(client, fight, name, key="", **body):
    url, headers, ids = fight
    if key:
        headers = {**headers, "HTTP_IDEMPOTENCY_KEY": key}
    return post_json(client, f"{url}/act", {"combatant": ids[name], **body}, **headers)


def cavadores_move(client, fight):
    for name in ("Cavador A", "Cavador B"):
        done = act(client, fight, name, maneuver="move")
        assert done.status_code == 201, done.json()


def spear(fight, **more):
    return {"defender": fight[2]["Cavador A"], "lighting": -2, "defences": ["dodge"], **more}


def counts():
    return Roll.objects.count(), CombatEvent.objects.count()


def test_a_pc_attacks_a_creature_in_one_call_and_every_die_is_listed(
    client, fight, server_dice, scene
):
    cavadores_move(client, fight)
    server_dice(*HOPLITA_FELLS_A)
    done = act(client, fight, "Hoplita de Ônfalos", maneuver="move_and_attack", attack=spear(fight))
    assert done.status_code == 201, done.json()
    body = done.json()
    assert [e["kind"] for e in body["events"]] == ["turn", "maneuver", "attack"]
    rolls = list(Roll.objects.order_by("sequence"))
    assert [r["sequence"] for r in body["rolls"]] == [r.sequence for r in rolls]
    assert [(r["kind"], r["details"]["step"]) for r in body["rolls"]] == [
        ("skill", 3),
        ("defence", 5),
        ("damage", 6),
    ]
    assert body["events"][2]["rolls"] == [r.sequence for r in rolls]
    assert body["attack"]["effective_level"] == 15 and body["attack"]["hit"]
    cavador_a = next(c for c in body["combat"]["combatants"] if c["name"] == "Cavador A")
    assert cavador_a["status"] == "fled"
    assert chain.rolls_verify(scene.week.campaign).ok


def test_a_creature_attacks_a_pc_with_his_standing_defence(
    client, fight, server_dice, bearer, jogador
):
    url, _, ids = fight
    mine = f"{url}/combatants/{ids['Jurado de Gapheim']}/defence"
    assert post_json(client, mine, {"first": "dodge"}, **bearer(jogador)).status_code == 200
    assert act(client, fight, "Cavador A", maneuver="move").status_code == 201
    server_dice(2, 3, 4, 1, 1, 1)
    attack = {"defender": ids["Jurado de Gapheim"]}
    done = act(client, fight, "Cavador B", maneuver="move_and_attack", attack=attack)
    assert done.status_code == 201, done.json()
    defence = done.json()["rolls"][1]
    assert defence["label"] == "Esquiva de Jurado de Gapheim"
    assert not done.json()["attack"]["hit"]
    # The Mestre does not name a jogador's defence (§4.1, §4.6): refused, nothing rolled.
    before = counts()
    refused = act(
        client,
        fight,
        "Hoplita de Ônfalos",
        maneuver="move_and_attack",
        attack={"defender": ids["Jurado de Gapheim"], "defences": ["dodge"]},
    )
    assert (refused.status_code, refused.json()["field"]) == (422, "defences")
    assert counts() == before


def test_a_turn_that_stuns_lists_its_ht_roll(client, fight, server_dice, bearer, jogador):
    url, _, ids = fight
    mine = f"{url}/combatants/{ids['Jurado de Gapheim']}/defence"
    post_json(client, mine, {"first": "block"}, **bearer(jogador))
    act(client, fight, "Cavador A", maneuver="move")
    server_dice(*B_WOUNDS_JURADO)
    attack = {"defender": ids["Jurado de Gapheim"]}
    bite = act(client, fight, "Cavador B", maneuver="move_and_attack", attack=attack).json()
    # The major wound's HT roll (§5.2), after the damage: listed, in the chain's order.
    last = bite["rolls"][-1]
    assert (last["kind"], last["details"]["step"], last["total"]) == ("attribute", 10, 17)
    jurado = next(c for c in bite["combat"]["combatants"] if c["name"] == "Jurado de Gapheim")
    assert jurado["stunned"]

    act(client, fight, "Hoplita de Ônfalos", maneuver="move")
    server_dice(6, 6, 5)
    still = act(client, fight, "Jurado de Gapheim", maneuver="all_out_defense").json()
    assert still["stopped"] == combat_messages.STUNNED_NO_MANEUVER.format(name="Jurado de Gapheim")
    [stun] = still["rolls"]
    assert (stun["details"]["rule"], stun["total"]) == ("5.2", 17)


def test_the_turns_answer_lists_the_dice_the_start_of_the_turn_rolled(client, fight, server_dice):
    url, headers, ids = fight
    Combatant.objects.filter(name="Cavador A").update(stunned=True)
    server_dice(1, 1, 1)
    passed = client.post(f"{url}/turns", **headers)
    assert passed.status_code == 200, passed.json()
    body = passed.json()
    [roll] = body["rolls"]
    assert (roll["details"]["rule"], roll["total"]) == ("5.2", 3)
    assert body["current"] == ids["Cavador A"] and body["event"]


# --- the dry run -------------------------------------------------------------------------------


def test_the_dry_run_writes_nothing_spends_no_key_and_its_level_is_the_attacks(
    client, fight, server_dice
):
    cavadores_move(client, fight)
    before = counts()
    server_dice()  # no die may be drawn
    body = {"maneuver": "move_and_attack", "attack": spear(fight)}
    preview = act(client, fight, "Hoplita de Ônfalos", key="turno-h", dry_run=True, **body)
    assert preview.status_code == 200, preview.json()
    assert counts() == before
    seen = preview.json()
    assert seen["dry_run"] and seen["passes_turn"]
    assert seen["attack"]["effective_level"] == 15
    assert seen["attack"]["modifiers"] == [
        {"name": "Iluminação ruim", "value": -2, "section": "4.5"}
    ]
    dodge = next(d for d in seen["attack"]["defences"] if d["defence"] == "dodge")
    assert (dodge["level"], dodge["total"], dodge["usable"]) == (5, 6, True)
    assert seen["attack"]["rolled"] == [{"defence": "dodge", "level": 5, "total": 6}]

    server_dice(*HOPLITA_FELLS_A)
    done = act(client, fight, "Hoplita de Ônfalos", key="turno-h", **body)
    assert done.status_code == 201, done.json()  # the key the dry run brought is still free
    assert done.json()["rolls"][0]["effective_level"] == seen["attack"]["effective_level"]
    again = act(client, fight, "Hoplita de Ônfalos", key="turno-h", **body)
    assert again.json()["replayed"] and Roll.objects.count() == 3


# --- the maneuver changed before its first die -------------------------------------------------


def test_the_maneuver_changes_before_its_first_die_and_not_after(client, fight, server_dice):
    url, headers, ids = fight
    act(client, fight, "Cavador A", maneuver="all_out_attack", all_out_option="strong")
    change = {"combatant": ids["Cavador A"], "maneuver": "move_and_attack"}
    changed = client.put(
        f"{url}/maneuvers", json.dumps(change), content_type="application/json", **headers
    )
    assert changed.status_code == 200, changed.json()
    a = next(c for c in changed.json()["combatants"] if c["name"] == "Cavador A")
    assert a["maneuver"] == "move_and_attack"
    server_dice(2, 3, 4, 1, 1, 1)
    attack = {"defender": ids["Jurado de Gapheim"]}
    Combatant.objects.filter(pk=Combatant.objects.get(code=ids["Jurado de Gapheim"]).pk).update(
        standing_defence={"first": "best"}  # his jogador left «decidir por mim» (§4.6)
    )
    assert act(client, fight, "Cavador A", attack=attack).status_code == 201
    late = client.put(
        f"{url}/maneuvers", json.dumps(change), content_type="application/json", **headers
    )
    assert late.status_code == 422
    assert (late.json()["code"], late.json()["field"]) == ("maneuver_locked", "maneuver")


# --- fled ---------------------------------------------------------------------------------------


def test_a_combatant_marked_fled_leaves_the_order(client, fight):
    url, headers, ids = fight
    act(client, fight, "Cavador A", maneuver="move")
    fled = client.post(f"{url}/combatants/{ids['Cavador B']}/fled", **headers)
    assert fled.status_code == 200, fled.json()
    b = next(c for c in fled.json()["combatants"] if c["name"] == "Cavador B")
    assert b["status"] == "fled" and "Fugiu na rodada 1: fora da ordem do turno" in b["effects"]
    assert fled.json()["rolls"] == []
    nxt = client.post(f"{url}/turns", **headers).json()
    assert nxt["current"] == ids["Hoplita de Ônfalos"]  # Cavador B is passed over


# --- permissions and bad input -----------------------------------------------------------------


def test_a_jogador_cannot_run_a_creatures_turn(client, fight, bearer, jogador):
    url, _, ids = fight
    body = {"combatant": ids["Cavador A"], "maneuver": "move"}
    refused = post_json(client, f"{url}/act", body, **bearer(jogador))
    assert refused.status_code == 403
    preview = post_json(client, f"{url}/act", {**body, "dry_run": True}, **bearer(jogador))
    assert preview.status_code == 403
    assert not CombatEvent.objects.filter(kind="turn").exists()


def test_an_unknown_target_is_refused_naming_the_field(client, fight):
    attack = {"defender": "00000000-0000-4000-8000-000000000000"}
    refused = act(client, fight, "Cavador A", maneuver="move_and_attack", attack=attack)
    assert refused.status_code == 422
    assert refused.json()["field"] == "attack.defender"
    assert not Roll.objects.exists() and not CombatEvent.objects.filter(kind="turn").exists()


def test_an_attack_with_a_maneuver_that_does_not_attack_is_refused(client, fight, server_dice):
    server_dice()
    attack = {"defender": fight[2]["Jurado de Gapheim"]}
    refused = act(client, fight, "Cavador A", maneuver="all_out_defense", attack=attack)
    assert refused.status_code == 422
    assert refused.json()["detail"] == combat_messages.NOT_AN_ATTACK_MANEUVER.format(
        name="Cavador A", maneuver="Defesa Total"
    )
    assert not Roll.objects.exists() and not CombatEvent.objects.filter(kind="turn").exists()


def test_the_same_key_twice_is_one_turn_and_another_body_is_a_conflict(client, fight):
    first = act(client, fight, "Cavador A", key="t-1", maneuver="move")
    second = act(client, fight, "Cavador A", key="t-1", maneuver="move")
    assert (first.status_code, second.status_code) == (201, 201)
    assert second.json()["replayed"] and second.json()["events"] == first.json()["events"]
    assert CombatEvent.objects.filter(kind="turn").count() == 1
    other = act(client, fight, "Cavador A", key="t-1", maneuver="all_out_defense")
    assert other.status_code == 409


def test_a_refused_turn_leaves_its_key_free(client, fight):
    bad = act(client, fight, "Hoplita de Ônfalos", key="t-2", maneuver="move")
    assert bad.status_code == 422 and bad.json()["code"] == "not_its_turn"
    good = act(client, fight, "Cavador A", key="t-2", maneuver="move")
    assert good.status_code == 201, good.json()


def test_an_option_without_its_maneuver_is_refused_not_dropped(client, fight):
    refused = act(client, fight, "Cavador A", all_out_option="determined")
    assert refused.status_code == 422
    assert (refused.json()["field"], refused.json()["detail"]) == (
        "all_out_option",
        combat_messages.OPTION_WITHOUT_MANEUVER,
    )
    assert not CombatEvent.objects.filter(kind="turn").exists()


def test_a_dry_run_shows_an_attack_that_could_not_be_rolled_and_why(client, fight):
    """§1.1: no roll at an effective 3 or less. The real turn refuses it before any die; its
    dry run says the level, that it cannot be rolled, and every modifier that brought it
    there — the same plan the real call refuses."""
    cavadores_move(client, fight)
    heavy = spear(fight, modifiers=[{"label": "às cegas, pendurado", "value": -20}])
    before = counts()
    preview = act(
        client, fight, "Hoplita de Ônfalos", maneuver="move_and_attack", attack=heavy, dry_run=True
    )
    assert preview.status_code == 200, preview.json()
    attack = preview.json()["attack"]
    assert attack["rollable"] is False and attack["effective_level"] <= 3, attack
    assert {"name": "às cegas, pendurado", "value": -20} in [
        {"name": m["name"], "value": m["value"]} for m in attack["modifiers"]
    ]
    assert (
        attack["skill"] + sum(m["value"] for m in attack["modifiers"]) == attack["effective_level"]
    )
    real = act(client, fight, "Hoplita de Ônfalos", maneuver="move_and_attack", attack=heavy)
    assert real.status_code == 422
    assert real.json()["code"] == "no_roll_at_3_or_less"
    assert real.json()["effective_level"] == attack["effective_level"]
    assert counts() == before
