"""What a new user met running a sistema001 fight (an AI Mestre through MCP, a jogador on a
phone): each fix with the chapter's sentence it follows."""

from __future__ import annotations

from django.urls import reverse

from sessions.native_combat import services
from tests.sessions.native_combat.conftest import SWORD, numbers


def _start(scene, people, server_dice, *faces, ogro=None):
    server_dice(*faces)
    return services.fight_start(
        scene=scene,
        user=people["mestre"],
        combatants=[
            {"name": "Aria", "numbers": numbers(mobilidade=6, side="jogadores", weapons=[SWORD])},
            {"name": "Ogro", "numbers": ogro or numbers(mobilidade=4, forca=10, pv=20)},
        ],
    )


def test_a_condition_the_fighter_is_immune_to_has_no_effect_and_is_not_in_force(
    client, scene, people, server_dice
):
    """«Imunidade a uma condição anula completamente seus efeitos mecânicos.»"""
    immune = numbers(mobilidade=4, pv=20, condition_immunities=["envenenado", "sangrando"])
    combat = _start(scene, people, server_dice, 3, 7, ogro=immune)  # Ogro 11, Aria 9
    ogro = combat.combatants.get(name="Ogro")
    event = services.fight_condition(
        combat=combat,
        user=people["mestre"],
        target=ogro,
        condition="sangrando",
        rounds=2,
        turn_damage=(2, "corte"),
    )
    assert "imune" in event.text and "fica Sangrando" not in " ".join(event.lines)
    assert any("imune" in line for line in event.lines)
    combat.refresh_from_db()
    view = services.fight_view(combat)
    row = next(r for r in view["order"] if r["name"] == "Ogro")
    assert row["conditions"] == []
    client.force_login(people["jogador"])
    page = client.get(reverse("combat", kwargs={"code": scene.code})).content.decode()
    assert "Sangrando —" not in page
