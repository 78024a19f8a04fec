"""The Mestre's change of PC outside a fight in a Xuleta campaign (the scene's «mudança de
estado»): written to the character's JSON state through the sheets part's ``state_change``."""

from __future__ import annotations

import pytest

from campaigns.errors import ServiceError
from sessions.log import scene_ops
from sessions.log import services as log_services
from sessions.weeks import services as weeks_services
from sheets import ruleset_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def scene(campaign, people, aina):
    week = weeks_services.week_open(campaign=campaign, user=people["mestre"])
    return log_services.scene_create(
        week=week, user=people["mestre"], title="El port", characters=[aina]
    )


def change(scene, people, aina, **points):
    return scene_ops.state_change_create(
        scene=scene, user=people["mestre"], character=aina, reason="Caiguda", **points
    )


def test_damage_and_healing_outside_a_fight(scene, people, aina, quote):
    quote("Un matalàs de PC que es gasta abans que els de veritat.")
    ruleset_data.data_state_write(character=aina, data={"temp_hp": 2})
    change(scene, people, aina, hp=-7)
    state = ruleset_data.data_state(aina)
    assert (state["temp_hp"], state["hp_lost"]) == (0, 5)
    change(scene, people, aina, hp=30)  # «mai per sobre del teu màxim»
    assert ruleset_data.data_state(aina)["hp_lost"] == 0


def test_falling_to_zero_and_dying_outright(scene, people, aina, quote):
    quote(
        "Si un cop et deixa a 0 PC i el dany que sobra és igual o més gran que el teu màxim de PC, mors a l'acte."
    )
    change(scene, people, aina, hp=-30)
    state = ruleset_data.data_state(aina)
    assert state["hp_lost"] == 28 and state["conditions"] == ["unconscious"]
    assert state["dead"] is False
    change(scene, people, aina, hp=-100)  # at 0 already: a failed death save
    assert ruleset_data.data_state(aina)["death_saves"]["failures"] == 1


def test_fatigue_is_refused_naming_the_field(scene, people, aina):
    with pytest.raises(ServiceError) as caught:
        change(scene, people, aina, fatigue=-1)
    assert caught.value.field == "fatigue"
    assert "esgotamento" in caught.value.message
    assert ruleset_data.data_state(aina)["hp_lost"] == 0


# --- the scene page's form ---------------------------------------------------------------------


def test_the_scene_page_asks_for_pc_and_no_fatigue(scene, client_of, aina):
    from xuleta.text import cite

    page = client_of("mestre").get(scene.get_absolute_url()).content.decode()
    assert "PC fora de combate" in page and "PC (−perde, +recupera)" in page
    assert "PV e fadiga" not in page and 'name="state-fatigue"' not in page
    assert f"Xuleta {cite('Curació')}, {cite('Punts de cop temporals')}" in page


def test_the_scene_page_form_changes_the_pc_without_a_fatigue_field(scene, client_of, aina):
    from campaigns.confirm import CONFIRMED

    ruleset_data.data_state_write(character=aina, data={"temp_hp": 2})
    fields = {"state-character": str(aina.code), "state-hp": "-7", "state-reason": "Caiguda"}
    answer = client_of("mestre").post(f"/cenas/{scene.code}/estado/", fields | CONFIRMED)
    assert answer.status_code == 302, answer.content.decode()[:500]  # back to the scene
    state = ruleset_data.data_state(aina)
    assert (state["temp_hp"], state["hp_lost"]) == (0, 5)
