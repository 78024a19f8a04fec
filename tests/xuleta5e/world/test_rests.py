"""A Xuleta character's rests through the service and the API (§6 Descansar): the short rest's
hit dice rolled one at a time into the chain, the long rest's every line written to the state,
the refusals in Portuguese naming the field."""

from __future__ import annotations

import pytest

from campaigns.auth import api_token_create
from campaigns.errors import ServiceError
from sessions.exploration import rests
from sessions.exploration import services as exploration_services
from sessions.log import chain
from sessions.models import Narration
from sheets.ruleset_data import data_state, data_state_write

BASE = "/api/v1/explorations"


@pytest.fixture
def exploration(scene, people):
    return exploration_services.exploration_start(scene=scene, user=people["mestre"], danger="")


def hurt(character, **changes):
    state = data_state(character)
    data_state_write(character=character, data={**state, **changes})


def test_short_rest_hit_dice_one_at_a_time(exploration, people, characters, server_dice, quote):
    quote(
        "Pots gastar daus de cop: tira cadascun, suma el teu mod. de Constitució i recuperes "
        "aquests PC."
    )
    hurt(characters["Aina"], hp_lost=15)
    server_dice(6, 9)
    done = rests.exploration_rest(
        exploration=exploration, user=people["mestre"], character="Aina", kind="short", hit_dice=2
    )
    assert [(r.kind, r.dice, r.total) for r in done.rolls] == [
        ("hit_die", [6], 8),
        ("hit_die", [9], 11),
    ]
    state = data_state(characters["Aina"])
    assert state["hp_lost"] == 0 and state["hit_dice_spent"] == 2  # 15 − 8 − 7 (the maximum)
    assert "recupera 7 PC (21 → 28 de 28)" in done.lines[-1]
    assert Narration.objects.filter(scene=exploration.scene).count() == 1
    assert chain.rolls_verify(exploration.scene.week.campaign).ok
    with pytest.raises(ServiceError) as refused:
        rests.exploration_rest(
            exploration=exploration,
            user=people["mestre"],
            character="Aina",
            kind="short",
            hit_dice=2,
        )
    assert refused.value.field == "hit_dice"


def test_a_short_rest_stops_spending_hit_dice_at_full_pc(
    exploration, people, characters, server_dice, quote
):
    quote("tira cadascun, suma el teu mod. de Constitució i recuperes aquests PC")
    hurt(characters["Aina"], hp_lost=5)
    server_dice(6)  # 6 + 2 = 8 ≥ 5: full after the first die; the second is not rolled
    done = rests.exploration_rest(
        exploration=exploration, user=people["mestre"], character="Aina", kind="short", hit_dice=2
    )
    assert [(r.dice, r.total) for r in done.rolls] == [([6], 8)]
    state = data_state(characters["Aina"])
    assert state["hp_lost"] == 0 and state["hit_dice_spent"] == 1
    assert (
        "já está com os PC no máximo (28 de 28): para aqui, sem gastar 1 dado(s)"
        in (done.lines[-1])
    )
    # At full PC from the start: no die spent, and the line says why.
    done = rests.exploration_rest(
        exploration=exploration, user=people["mestre"], character="Aina", kind="short", hit_dice=1
    )
    assert done.rolls == [] and data_state(characters["Aina"])["hit_dice_spent"] == 1
    assert "sem gastar 1 dado(s)" in done.lines[-1]


def test_long_rest_and_the_24_hours(exploration, people, characters, quote):
    quote("Només un cada 24 hores, i has de tenir almenys 1 PC en començar.")
    hurt(characters["Bru"], hp_lost=20, hit_dice_spent=3, exhaustion=2)
    done = rests.exploration_rest(
        exploration=exploration,
        user=people["mestre"],
        character="Bru",
        kind="long",
        ate_and_drank=True,
    )
    state = data_state(characters["Bru"])
    assert (state["hp_lost"], state["hit_dice_spent"], state["exhaustion"]) == (0, 2, 1)
    assert state["last_long_rest"] == "480" and done.rolls == []
    with pytest.raises(ServiceError) as refused:
        rests.exploration_rest(
            exploration=exploration,
            user=people["mestre"],
            character="Bru",
            kind="long",
            ends_at=900,
        )
    assert refused.value.field == "ends_at" and "24 horas" in refused.value.message
    hurt(characters["Carme"], hp_lost=28)
    with pytest.raises(ServiceError) as refused:
        rests.exploration_rest(
            exploration=exploration, user=people["mestre"], character="Carme", kind="long"
        )
    assert refused.value.field == "state.hp_lost"


def test_the_api_rests_and_refuses_in_portuguese(
    client, exploration, people, characters, server_dice
):
    hurt(characters["Aina"], hp_lost=4)
    mestre = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=people['mestre'])}"}
    path = f"{BASE}/{exploration.code}/rests"
    server_dice(3)
    answer = client.post(
        path,
        {"character": "Aina", "kind": "short"},
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="descanso-1",
        **mestre,
    )
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["state"]["hp_lost"] == 0 and body["rolls"][0]["dice"] == [3]
    again = client.post(
        path,
        {"character": "Aina", "kind": "short"},
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="descanso-1",
        **mestre,
    )
    assert again.status_code == 201 and again.json()["rolls"] == body["rolls"]
    assert data_state(characters["Aina"])["hit_dice_spent"] == 1
    bad = client.post(
        path, {"character": "Aina", "kind": "nap"}, content_type="application/json", **mestre
    )
    assert bad.status_code == 422
    nobody = client.post(
        path, {"character": "Ninguém", "kind": "long"}, content_type="application/json", **mestre
    )
    assert nobody.status_code in (400, 409, 422) and nobody.json()["field"] == "character"
    jogador = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=people['jogador'])}"}
    refused = client.post(
        path, {"character": "Aina", "kind": "long"}, content_type="application/json", **jogador
    )
    assert refused.status_code == 403


def test_a_hit_die_or_an_initiative_roll_is_not_a_test_a_save_is():
    """Only the checks part's kinds (check, save, attack) may answer a journey's test."""
    from sessions.models import Roll

    assert Roll(ruleset="xuleta5e", kind="save").is_test
    assert Roll(ruleset="xuleta5e", kind="check").is_test
    for kind in ("hit_die", "initiative", "death_save", "damage"):
        assert not Roll(ruleset="xuleta5e", kind=kind).is_test
    assert Roll(ruleset="gurps3e", kind="skill").is_test
    assert Roll(ruleset="sistema001", kind="iniciativa").is_test  # no checks part: as before
