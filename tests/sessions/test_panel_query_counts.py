"""The combat and exploration panels, and their API reads, cost the same number of queries
however many combatants fight and however many rounds (or exploration turns) went by: a poll
every 30 s of a long fight must not cost more than the first round's."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.auth import api_token_create
from sessions.combat import services as combat_services
from sessions.combat import turns as combat_turns
from sessions.exploration import services as exploration_services
from tests.sessions.combat.helpers import cavador


def _count(client, url: str, **headers) -> int:
    client.get(url, **headers)  # the first read may make what later reads find (a state row)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url, **headers).status_code == 200
    return len(captured)


def _fight(scene, mestre, jurado, creatures: int, rounds: int):
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[jurado])
    for n in range(creatures):
        combat_services.combatant_add(combat=combat, user=mestre, creature=cavador(f"Cavador {n}"))
    for _ in range(rounds * (creatures + 1)):  # every combatant's turn, each round
        combat_turns.combat_next_turn(combat=combat, user=mestre)
    return combat


def _combat_reads(client, scene, combat, api_header) -> list[int]:
    panel = reverse("combat", kwargs={"code": scene.code})
    return [
        _count(client, panel),
        _count(client, panel, HTTP_HX_REQUEST="true"),
        _count(client, f"/api/v1/combats/{combat.code}", **api_header),
    ]


@pytest.mark.parametrize("who", ["mestre", "jogador"])
def test_the_combat_panel_is_flat_in_combatants_and_rounds(
    request, client_for, scene, mestre, jurado, server_dice, who
):
    server_dice(*([3] * 4000))  # every roll the turns ask comes out the same
    user = request.getfixturevalue(who)
    client = client_for(user)
    api_header = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user)}"}
    small = _fight(scene, mestre, jurado, creatures=1, rounds=1)  # 2 combatants × 1 round
    small_counts = _combat_reads(client, scene, small, api_header)
    combat_services.combat_end(combat=small, user=mestre)
    large = _fight(scene, mestre, jurado, creatures=5, rounds=5)  # 6 combatants × 5 rounds
    assert large.combatants.count() == 6
    assert _combat_reads(client, scene, large, api_header) == small_counts


def _exploration(scene, mestre, turns: int, timers: int):
    exploration = exploration_services.exploration_start(scene=scene, user=mestre, danger="risky")
    for n in range(timers):
        exploration_services.exploration_timer_add(
            exploration=exploration, user=mestre, name=f"Tocha {n}", turns=60
        )
    for _ in range(turns):
        exploration_services.exploration_turn_start(exploration=exploration, user=mestre)
        exploration_services.exploration_turn_end(exploration=exploration, user=mestre)
    return exploration


def _exploration_reads(client, scene, exploration, api_header) -> list[int]:
    panel = reverse("exploration", kwargs={"code": scene.code})
    return [
        _count(client, panel),
        _count(client, panel, HTTP_HX_REQUEST="true"),
        _count(client, f"/api/v1/explorations/{exploration.code}", **api_header),
    ]


@pytest.mark.parametrize("who", ["mestre", "jogador"])
def test_the_exploration_panel_is_flat_in_turns_and_timers(
    request, client_for, scene, mestre, server_dice, who
):
    server_dice(*([4] * 4000))  # no encounter (1 on the d6 is one), no surprise
    user = request.getfixturevalue(who)
    client = client_for(user)
    api_header = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user)}"}
    small = _exploration(scene, mestre, turns=1, timers=1)
    small_counts = _exploration_reads(client, scene, small, api_header)
    exploration_services.exploration_end(exploration=small, user=mestre)
    large = _exploration(scene, mestre, turns=5, timers=5)
    assert _exploration_reads(client, scene, large, api_header) == small_counts
