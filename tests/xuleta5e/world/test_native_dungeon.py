"""The dungeon half of the procedure played natively in a Xuleta campaign: sleeping's Tabela B
row 6 («Teste de CON DC 12 para ter os benefícios do Descanso») rolled from each sheet, the
long rest for who passes; the hour without rest a level of exhaustion on the state."""

from __future__ import annotations

from sessions.exploration import services as exploration_services
from sessions.models import ExplorationTest, Roll
from sheets.ruleset_data import data_state, data_state_write


def test_sleeping_in_the_dungeon_rolls_con_dc_12_from_each_sheet(
    scene, people, characters, server_dice
):
    mestre = people["mestre"]
    for name in ("Aina", "Bru"):
        state = data_state(characters[name])
        data_state_write(character=characters[name], data={**state, "hp_lost": 9})
    exploration = exploration_services.exploration_start(scene=scene, user=mestre, danger="unsafe")
    # Tabela B row 6, two quiet checks (Inseguro: 3:6 every 4 h), then CON DC 12:
    # Aina 9 + 4 ✓, Bru 10 + 1 ✗, Carme 1 + 4 ✗.
    server_dice(6, 6, 6, 9, 10, 1)
    event = exploration_services.exploration_sleep(exploration=exploration, user=mestre, hours=8)
    saves = [r for r in event.rolls.order_by("sequence") if r.kind == "save"]
    assert [(r.character.name, r.outcome) for r in saves] == [
        ("Aina", Roll.Outcome.SUCCESS),
        ("Bru", Roll.Outcome.FAILURE),
        ("Carme", Roll.Outcome.FAILURE),
    ]
    assert data_state(characters["Aina"])["hp_lost"] == 0
    assert data_state(characters["Aina"])["last_long_rest"] == str(8 * 60)
    assert data_state(characters["Bru"])["hp_lost"] == 9
    tests = ExplorationTest.objects.filter(exploration=exploration)
    assert tests.count() == 3 and not tests.filter(roll__isnull=True).exists()
    assert {t.kind for t in tests} == {ExplorationTest.Kind.DUNGEON_REST}


def test_an_hour_without_rest_is_a_level_on_each_state(scene, people, characters):
    exploration = exploration_services.exploration_start(
        scene=scene, user=people["mestre"], danger="unsafe"
    )
    lines = exploration_services._exhaust_each(exploration)
    assert lines[0].startswith("Aina: esgotamento 0 → 1 (Desavantatge en proves de característica)")
    assert all(data_state(c)["exhaustion"] == 1 for c in characters.values())
    assert exploration.party["Bru"]["exhaustion"] == 1
