"""The sistema001 fight's API: a jogador is refused (403), bad input is said in Portuguese
naming the field (422), the OpenAPI publishes the closed sets."""

from __future__ import annotations

from campaigns.auth import api_token_create
from tests.sessions.native_combat.conftest import numbers

BASE = "/api/v1/fights"
ARIA = {"name": "Aria", "numbers": numbers(mobilidade=6, side="jogadores")}
OGRO = {"name": "Ogro", "numbers": numbers(mobilidade=4, pv=20)}


def _headers(user) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user)}"}


def _start(client, scene, people, server_dice) -> dict:
    server_dice(3, 7)
    answer = client.post(
        BASE,
        {"scene": str(scene.code), "combatants": [ARIA, OGRO]},
        content_type="application/json",
        **_headers(people["mestre"]),
    )
    assert answer.status_code == 201, answer.json()
    return answer.json()


def test_a_jogador_posting_a_turn_is_refused(client, scene, people, server_dice):
    fight = _start(client, scene, people, server_dice)
    ogro = next(r["id"] for r in fight["order"] if r["name"] == "Ogro")
    answer = client.post(
        f"{BASE}/{fight['id']}/turns",
        {"combatant": ogro},
        content_type="application/json",
        **_headers(people["jogador"]),
    )
    assert answer.status_code == 403
    assert answer.json()["detail"] == "Só o Mestre de Cena ou o Árbitro conduzem o combate."
    # ... but reads the fight.
    read = client.get(f"{BASE}/{fight['id']}", **_headers(people["jogador"]))
    assert read.status_code == 200 and read.json()["turn"]["name"] == "Ogro"


def test_a_jogador_may_not_start_one(client, scene, people):
    answer = client.post(
        BASE,
        {"scene": str(scene.code), "combatants": [ARIA, OGRO]},
        content_type="application/json",
        **_headers(people["jogador"]),
    )
    assert answer.status_code == 403


def test_bad_input_is_said_in_portuguese_naming_the_field(client, scene, people, server_dice):
    fight = _start(client, scene, people, server_dice)
    ogro = next(r["id"] for r in fight["order"] if r["name"] == "Ogro")
    aria = next(r["id"] for r in fight["order"] if r["name"] == "Aria")
    headers = _headers(people["mestre"])
    unknown = client.post(
        f"{BASE}/{fight['id']}/turns",
        {"combatant": ogro, "plan": "correr_muito"},
        content_type="application/json",
        **headers,
    )
    assert unknown.status_code == 422 and unknown.json()["field"] == "plan"
    # A plan that does not hold the action: «Não é possível “converter” Ações».
    two = client.post(
        f"{BASE}/{fight['id']}/turns",
        {
            "combatant": ogro,
            "plan": "dois_movimentos",
            "actions": [{"kind": "ataque", "target": aria}],
        },
        content_type="application/json",
        **headers,
    )
    body = two.json()
    assert two.status_code == 422 and body["field"] == "actions"
    assert "converter" in body["detail"]
    no_weapon = client.post(
        f"{BASE}/{fight['id']}/turns",
        {
            "combatant": ogro,
            "plan": "movimento_execucao",
            "actions": [{"kind": "ataque", "target": aria, "weapon": "Machado"}],
        },
        content_type="application/json",
        **headers,
    )
    assert no_weapon.status_code == 422
    assert no_weapon.json()["field"] == "actions.0.weapon"
    assert "Ogro não tem a arma «Machado»" in no_weapon.json()["detail"]


def test_a_rule_that_awaits_the_arbitro_refuses_without_guessing(
    client, scene, people, server_dice
):
    """«Atacante: faz um teste de Mobilidade contra metade do Dado de Acuidade + Acuidade do
    alvo.» — whether a test passes on ≥ or > is the Árbitro's pendência: refused, no die."""
    fight = _start(client, scene, people, server_dice)
    ogro = next(r["id"] for r in fight["order"] if r["name"] == "Ogro")
    aria = next(r["id"] for r in fight["order"] if r["name"] == "Aria")
    answer = client.post(
        f"{BASE}/{fight['id']}/turns",
        {
            "combatant": ogro,
            "plan": "movimento_execucao",
            "actions": [{"kind": "ataque", "target": aria, "situations": ["ataque_furtivo"]}],
        },
        content_type="application/json",
        **_headers(people["mestre"]),
    )
    assert answer.status_code == 422 and answer.json()["code"] == "awaits_arbitro"
    assert "Árbitro" in answer.json()["detail"]


def test_the_openapi_publishes_the_closed_sets(client):
    schema = client.get("/api/v1/openapi.json").json()["components"]["schemas"]
    action = schema["FightActionIn"]["properties"]
    assert "ataque" in str(action["kind"]) and "derrubar" in str(action["maneuver"])
    assert "incendiado" in str(schema["FightConditionIn"]["properties"]["condition"])
    assert "flanqueando" in str(action["situations"])
