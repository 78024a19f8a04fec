"""A Xuleta fight through the site's services, API and panel (sessions.native_combat): its
numbers, its refusals in Portuguese naming the field, the published enums, the panel with PC,
CA and death saves."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.auth import api_token_create
from campaigns.errors import ServiceError
from sessions.native_combat import services
from tests.xuleta5e.combat.conftest import numbers

SWORD = {"name": "Espasa", "bonus": 5, "damage": "1d8", "damage_modifier": 3,
         "damage_type": "slashing"}  # fmt: skip


def _start(scene, people, server_dice, *dice, **more):
    server_dice(*dice)
    return services.fight_start(
        scene=scene,
        user=people["mestre"],
        combatants=[
            {
                "name": "Aria",
                "numbers": numbers(side="jogadores", attacks=[SWORD], player_character=True),
            },  # fmt: skip
            {"name": "Goblin", "numbers": numbers(attacks=[SWORD], max_hp=7)},
        ],
        **more,
    )


def test_a_fight_starts_plays_and_shows_on_the_panel(client, scene, people, server_dice):
    combat = _start(scene, people, server_dice, 15, 3)
    view = services.fight_view(combat)
    assert view["ruleset"] == "xuleta5e" and view["turn"]["name"] == "Aria"
    goblin = combat.combatants.get(name="Goblin")
    server_dice(14, 6, 12)  # the hit, its damage, then the goblin's death save at its turn
    services.fight_turn(
        combat=combat,
        user=people["mestre"],
        combatant=combat.combatants.get(name="Aria"),
        plan=None,
        actions=[{"kind": "attack", "target": str(goblin.code)}],
    )
    goblin.refresh_from_db()
    assert goblin.hp_now == 0
    client.force_login(people["jogador"])
    page = client.get(reverse("combat", kwargs={"code": scene.code})).content.decode()
    assert "PC <strong>0/7</strong>" in page and "Salvacions contra la mort" in page
    assert "Mobilidade" not in page and "CA" in page


def test_ties_in_the_mestres_order_and_its_range(scene, people, server_dice):
    combat = _start(scene, people, server_dice, 10, 10, tie_order=[1, 0])
    assert [r["name"] for r in services.fight_view(combat)["order"]] == ["Goblin", "Aria"]


def test_a_tie_order_out_of_range_names_the_field(scene, people, server_dice):
    server_dice()
    with pytest.raises(ServiceError) as caught:
        _start(scene, people, server_dice, tie_order=[2])
    assert caught.value.field == "tie_order"


def test_a_character_without_numbers_needs_a_homologated_sheet(scene, people, server_dice):
    from sheets.models import Character

    hero = Character.objects.create(
        campaign=scene.week.campaign, name="Heroi", owner=people["jogador"]
    )
    scene.characters.add(hero)
    server_dice()
    with pytest.raises(ServiceError) as caught:
        services.fight_start(
            scene=scene,
            user=people["mestre"],
            combatants=[
                {"name": "Heroi", "character": hero},
                {"name": "Goblin", "numbers": numbers()},
            ],  # fmt: skip
        )
    assert caught.value.field == "combatants.0.character"
    assert "ficha homologada" in caught.value.message


def test_bad_numbers_are_refused_naming_the_field(scene, people, server_dice):
    server_dice()
    with pytest.raises(ServiceError) as caught:
        services.fight_start(
            scene=scene,
            user=people["mestre"],
            combatants=[
                {"name": "A", "numbers": numbers(ac=12, abilities={"str": 10})},
                {"name": "B", "numbers": numbers()},
            ],  # fmt: skip
        )
    assert caught.value.field == "combatants.0.numbers.abilities"


def test_the_api_publishes_the_xuletas_enums(client):
    schemas = client.get("/api/v1/openapi.json").json()["components"]["schemas"]
    action = schemas["XuletaActionIn"]["properties"]
    assert "grapple" in str(action["kind"]) and "Agafar" in str(action["kind"])
    assert "three_quarters" in str(action["cover"]) and "advantage" in str(action["edge"])
    assert "paralyzed" in str(schemas["FightConditionIn"]["properties"]["condition"])
    assert "bludgeoning" in str(schemas["XuletaAttackIn"]["properties"]["damage_type"])


def test_a_sistema001_action_in_a_xuleta_fight_is_refused(client, scene, people, server_dice):
    combat = _start(scene, people, server_dice, 15, 3)
    aria = combat.combatants.get(name="Aria")
    token = api_token_create(user=people["mestre"])
    answer = client.post(
        f"/api/v1/fights/{combat.code}/turns",
        {"combatant": str(aria.code), "actions": [{"kind": "movimento"}]},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert answer.status_code in (400, 422)
    assert answer.json()["field"] == "actions.0.kind"
    assert "outro sistema" in answer.json()["detail"]
