"""One truth for a Xuleta character's state, ``CharacterState.data``: a fight writes back only
what it changed (never its copy, taken at its start, over what a journey or a rest wrote
meanwhile), and a fight's timed conditions end with it."""

from __future__ import annotations

from sessions.log import services as log_services
from sessions.native_combat import services as fights
from sessions.weeks import services as weeks_services
from sheets.ruleset_data import data_state, data_state_write
from tests.gurps.helpers import ScriptedSource
from tests.xuleta5e.combat.conftest import numbers


def _fight(campaign, people, aina, *dice):
    source = ScriptedSource(list(dice or (15, 5)))
    week = weeks_services.week_open(campaign=campaign, user=people["mestre"])
    scene = log_services.scene_create(week=week, user=people["mestre"], title="El gual")
    scene.characters.add(aina)
    combat = fights.fight_start(
        scene=scene,
        user=people["mestre"],
        combatants=[{"name": "Aina", "character": aina}, {"name": "Goblin", "numbers": numbers()}],
        source=source,
    )
    return combat, {c.name: c for c in combat.combatants.all()}


def test_a_fight_adds_its_exhaustion_to_what_the_journey_wrote_meanwhile(campaign, people, aina):
    combat, rows = _fight(campaign, people, aina)
    # The journey's forced march, meanwhile: one level on the sheet.
    data_state_write(character=aina, data={**data_state(aina), "exhaustion": 1})
    fights.fight_condition(
        combat=combat, user=people["mestre"], target=rows["Aina"], condition="exhaustion"
    )
    assert data_state(aina)["exhaustion"] == 2  # 1 of the march + 1 of the fight, not 1
    fights.fight_condition(
        combat=combat, user=people["mestre"], target=rows["Aina"], condition="exhaustion", level=3
    )
    assert data_state(aina)["exhaustion"] == 5  # 1 + 1 + 3, not the fight's own 4
    # A call that changes nothing of Aina's writes nothing over the sheet.
    data_state_write(character=aina, data={**data_state(aina), "hp_lost": 3})
    fights.fight_condition(
        combat=combat, user=people["mestre"], target=rows["Goblin"], condition="prone"
    )
    assert data_state(aina)["hp_lost"] == 3
    fights.fight_end(combat=combat, user=people["mestre"])
    assert data_state(aina)["exhaustion"] == 5
    assert data_state(aina)["hp_lost"] == 3


def test_a_timed_condition_of_the_fight_never_reaches_the_sheet(campaign, people, aina):
    combat, rows = _fight(campaign, people, aina)
    fights.fight_condition(
        combat=combat, user=people["mestre"], target=rows["Aina"], condition="poisoned", rounds=3
    )
    fights.fight_condition(
        combat=combat, user=people["mestre"], target=rows["Aina"], condition="blinded"
    )
    fights.fight_condition(
        combat=combat, user=people["mestre"], target=rows["Aina"], condition="prone"
    )
    assert data_state(aina)["conditions"] == ["blinded"]
    fights.fight_end(combat=combat, user=people["mestre"])
    # Enverinat for 3 rounds and Tombat (she stands up) end with the fight; Cec had no end.
    assert data_state(aina)["conditions"] == ["blinded"]


def test_a_condition_the_fight_removes_leaves_the_sheet(campaign, people, aina):
    data_state_write(character=aina, data={**data_state(aina), "conditions": ["poisoned"]})
    combat, rows = _fight(campaign, people, aina, 15, 15, 5)  # Enverinada: two d20
    data_state_write(
        character=aina, data={**data_state(aina), "conditions": ["poisoned", "deafened"]}
    )
    fights.fight_condition(
        combat=combat, user=people["mestre"], target=rows["Aina"], condition="poisoned",
        remove=True,
    )  # fmt: skip
    assert data_state(aina)["conditions"] == ["deafened"]


def test_a_fight_refuses_a_dead_character_by_name(campaign, people, aina):
    from campaigns.errors import ServiceError

    data_state_write(character=aina, data={**data_state(aina), "dead": True})
    try:
        _fight(campaign, people, aina)
    except ServiceError as error:
        assert error.field == "combatants.0.character"
        assert error.message.startswith("Aina está morto")
    else:
        raise AssertionError("a dead character was let into the fight")
