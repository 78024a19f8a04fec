"""A sistema001 fight through the services: initiative, a turn, every die in the chain."""

from __future__ import annotations

import pytest

from campaigns.errors import ServiceError
from sessions.log import chain
from sessions.models import Combat, Roll
from sessions.native_combat import services
from tests.sessions.native_combat.conftest import SWORD, numbers


def _start(scene, people, server_dice, *faces):
    server_dice(*faces)
    return services.fight_start(
        scene=scene,
        user=people["mestre"],
        combatants=[
            {"name": "Aria", "numbers": numbers(mobilidade=6, side="jogadores", weapons=[SWORD])},
            {"name": "Ogro", "numbers": numbers(mobilidade=4, forca=10, pv=20)},
        ],
    )


def test_the_fight_starts_with_everyones_initiative_rolled_by_the_server(
    scene, people, server_dice
):
    """«Iniciativa = Dado de Mobilidade + Mobilidade + Modificadores» — «Após todos rolarem a
    iniciativa, organize em ordem decrescente quem começa primeiro, do maior resultado ao
    menor.»"""
    combat = _start(scene, people, server_dice, 3, 7)
    view = services.fight_view(combat)
    assert [(r["name"], r["initiative"]) for r in view["order"]] == [("Ogro", 11), ("Aria", 9)]
    assert view["turn"]["name"] == "Ogro" and combat.round == 1
    rolls = list(Roll.objects.filter(campaign=scene.week.campaign).order_by("sequence"))
    assert [(r.kind, r.ruleset, r.dice) for r in rolls] == [
        ("iniciativa", "sistema001", [3]),
        ("iniciativa", "sistema001", [7]),
    ]
    assert chain.rolls_verify(scene.week.campaign).ok


def test_a_turn_attacks_and_the_server_rolls_the_defence(scene, people, server_dice):
    """«Ataque maior que a Defesa: o ataque acerta e causa dano total.» — «Dano de Arma Corpo a
    Corpo: 1 + Aumento de Dano da arma + Bônus de Força.»"""
    combat = _start(scene, people, server_dice, 7, 3)
    aria = combat.combatants.get(name="Aria")
    ogro = combat.combatants.get(name="Ogro")
    server_dice(8, 2)  # Aria's attack 8 + 6 = 14 against the Ogro's defence 2 + 4 = 6
    services.fight_turn(
        combat=combat,
        user=people["mestre"],
        combatant=aria,
        plan="movimento_execucao",
        actions=[{"kind": "ataque", "target": str(ogro.code), "weapon": "Espada"}],
    )
    ogro.refresh_from_db()
    assert ogro.hp_now == 20 - (1 + 1 + 1)  # 1 + aumento 1 + bônus de Força (5 → 1)
    combat.refresh_from_db()
    assert services.fight_view(combat)["turn"]["name"] == "Ogro"


def test_a_player_may_not_start_a_fight(scene, people, server_dice):
    with pytest.raises(ServiceError) as refused:
        services.fight_start(scene=scene, user=people["jogador"], combatants=[])
    assert refused.value.code == "forbidden"
    assert not Combat.objects.exists()
