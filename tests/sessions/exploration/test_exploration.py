"""The exploration tracker's services: the encounter cadence of each danger level (Tabela A),
darkness making it Mortal, timers running out, the hour without rest, surprise, the monsters'
arrival, sleep, the tally — every die a chained roll of the procedure's API."""

from __future__ import annotations

import pytest

from campaigns.errors import ServiceError
from sessions.combat import services as combat_services
from sessions.exploration import services as exploration_services
from sessions.log import chain
from sessions.models import Combatant, Exploration, ExplorationEvent, Roll
from tests.sessions.combat.helpers import cavador

RISKY, UNSAFE, DEADLY = "risky", "unsafe", "deadly"


def start(scene, mestre, danger=RISKY, **kwargs):
    return exploration_services.exploration_start(scene=scene, user=mestre, danger=danger, **kwargs)


def turn(exploration, mestre, *, rested=False):
    """One whole exploration turn: start (encounter check if due) and end."""
    started = exploration_services.exploration_turn_start(exploration=exploration, user=mestre)
    ended = exploration_services.exploration_turn_end(
        exploration=exploration, user=mestre, rested=rested
    )
    return started, ended


def checks_in(scene) -> list[Roll]:
    return [
        r
        for r in Roll.objects.filter(scene=scene).order_by("sequence")
        if r.details.get("procedure_table") == "danger_levels"
    ]


@pytest.mark.parametrize(
    ("danger", "checked_turns"),
    [(UNSAFE, [3, 6]), (RISKY, [2, 4, 6]), (DEADLY, [1, 2, 3, 4, 5, 6])],
)
def test_the_encounter_check_comes_on_the_cadence_of_the_level(
    scene, mestre, server_dice, danger, checked_turns
):
    server_dice(*[6] * 10)  # 6: never an encounter (1:6)
    exploration = start(scene, mestre, danger)
    checked = []
    for _ in range(6):
        started, _ = turn(exploration, mestre, rested=False)
        if started.data["check"]:
            checked.append(started.turn)
    assert checked == checked_turns
    rolls = checks_in(scene)
    assert len(rolls) == len(checked_turns)
    label = Exploration.Danger(danger).label
    assert {r.details["row"] for r in rolls} == {label}
    assert chain.rolls_verify(scene.week.campaign).ok


def test_total_darkness_makes_any_level_mortal(scene, mestre, server_dice):
    server_dice(6, 6)
    exploration = start(scene, mestre, UNSAFE, total_darkness=True)
    assert exploration.effective_danger == DEADLY
    turn(exploration, mestre)
    turn(exploration, mestre)
    assert [r.details["row"] for r in checks_in(scene)] == ["Mortal", "Mortal"]


def test_the_mestre_declares_darkness_when_the_light_goes_out(scene, mestre, server_dice):
    server_dice(6)
    exploration = start(scene, mestre, UNSAFE)
    exploration_services.exploration_declare(
        exploration=exploration, user=mestre, danger=UNSAFE, total_darkness=True
    )
    started, _ = turn(exploration, mestre)
    assert started.data["check"] and started.data["danger"] == DEADLY


def test_a_timer_runs_down_with_the_turns_and_says_when_it_goes_out(scene, mestre, server_dice):
    server_dice(*[6] * 3)
    exploration = start(scene, mestre, RISKY)
    torch = exploration_services.exploration_timer_add(
        exploration=exploration, user=mestre, name="Tocha", turns=2
    )
    _, first = turn(exploration, mestre)
    torch.refresh_from_db()
    assert torch.remaining_turns == 1 and "Tocha: restam 1 turno(s)." in first.lines
    _, second = turn(exploration, mestre)
    torch.refresh_from_db()
    assert torch.is_out and "Tocha apagou." in second.lines
    _, third = turn(exploration, mestre)
    assert not any("Tocha" in line for line in third.lines)


def test_a_timer_needs_the_mestres_length(scene, mestre):
    exploration = start(scene, mestre)
    with pytest.raises(ServiceError) as error:
        exploration_services.exploration_timer_add(
            exploration=exploration, user=mestre, name="Tocha", turns=0
        )
    assert (
        error.value.field == "turns" and error.value.message == exploration_services.TIMER_TURNS_BAD
    )


def test_an_hour_without_a_rest_turn_costs_the_procedures_exhaustion_point(
    scene, mestre, server_dice
):
    server_dice(*[6] * 20)
    exploration = start(scene, mestre, UNSAFE)
    for _ in range(6):
        turn(exploration, mestre)
    exploration.refresh_from_db()
    assert exploration.exhaustion_points == 0 and exploration.turns_since_rest == 6
    _, seventh = turn(exploration, mestre)
    exploration.refresh_from_db()
    assert seventh.data["exhaustion"] is True
    assert exploration_services.EXHAUSTION_TEXT in seventh.lines
    assert exploration.exhaustion_points == 1 and exploration.exhaustion_undecided == 1
    exploration_services.exploration_consequence(
        exploration=exploration, user=mestre, text="1 ponto de fadiga para cada um (§6)"
    )
    exploration.refresh_from_db()
    assert exploration.exhaustion_undecided == 0
    with pytest.raises(ServiceError) as error:
        exploration_services.exploration_consequence(
            exploration=exploration, user=mestre, text="mais uma"
        )
    assert error.value.message == exploration_services.NO_EXHAUSTION_PENDING


def test_a_rest_turn_within_the_hour_costs_nothing(scene, mestre, server_dice):
    server_dice(*[6] * 20)
    exploration = start(scene, mestre, UNSAFE)
    for _ in range(6):
        turn(exploration, mestre)
    turn(exploration, mestre, rested=True)
    for _ in range(6):
        turn(exploration, mestre)
    exploration.refresh_from_db()
    assert exploration.exhaustion_points == 0


def test_an_encounter_arrives_at_the_end_of_the_turn(scene, mestre, server_dice):
    server_dice(1, 2)  # the check (1: encounter), then the arrival (2: the room)
    exploration = start(scene, mestre, DEADLY)
    started = exploration_services.exploration_turn_start(exploration=exploration, user=mestre)
    assert started.data["encounter"] is True
    exploration.refresh_from_db()
    assert exploration.encounter_pending
    ended = exploration_services.exploration_turn_end(exploration=exploration, user=mestre)
    assert ended.data["arrival"] == exploration_services.ARRIVAL_ROOM
    arrival = ended.rolls.get()
    assert arrival.details["procedure_table"] == "monster_arrival" and arrival.total == 2
    assert any(line.startswith("Ordem de marcha:") for line in ended.lines)


def test_the_monsters_may_arrive_in_an_adjacent_room(scene, mestre, server_dice):
    server_dice(1, 5)
    exploration = start(scene, mestre, DEADLY)
    _, ended = turn(exploration, mestre)
    assert ended.data["arrival"] == exploration_services.ARRIVAL_ADJACENT


@pytest.mark.parametrize(
    ("faces", "result"),
    [((1, 2), "nobody"), ((1, 5), "party"), ((4, 2), "monsters"), ((3, 6), "none")],
)
def test_surprise_for_each_side_and_both_surprised_is_nobody(
    scene, mestre, server_dice, faces, result
):
    server_dice(*faces)
    exploration = start(scene, mestre)
    event = exploration_services.exploration_surprise(exploration=exploration, user=mestre)
    assert event.data["result"] == result
    assert [r.details["procedure_table"] for r in event.rolls.order_by("sequence")] == [
        "surprise",
        "surprise",
    ]


@pytest.mark.parametrize(("danger", "checks"), [(UNSAFE, 2), (RISKY, 4), (DEADLY, 8)])
def test_sleeping_rolls_a_mishap_and_the_rest_encounters_of_the_level(
    scene, mestre, server_dice, danger, checks
):
    server_dice(7, *[6] * checks)
    exploration = start(scene, mestre, danger)
    exploration_services.exploration_timer_add(
        exploration=exploration, user=mestre, name="Lampião", turns=100
    )
    event = exploration_services.exploration_sleep(exploration=exploration, user=mestre, hours=8)
    tables = [r.details["procedure_table"] for r in event.rolls.order_by("sequence")]
    assert tables == ["dungeon_mishaps"] + ["dungeon_rest"] * checks
    mishap = event.rolls.order_by("sequence").first()
    assert mishap.details["row"] == "7" and "carrapatos" in event.lines[0]
    assert "Lampião: restam 52 turno(s)." in event.lines
    exploration.refresh_from_db()
    assert exploration.hours_slept == 8 and exploration.turns_since_rest == 0


def test_a_turn_in_course_is_finished_before_sleeping(scene, mestre, server_dice):
    server_dice(6)
    exploration = start(scene, mestre, DEADLY)
    exploration_services.exploration_turn_start(exploration=exploration, user=mestre)
    with pytest.raises(ServiceError) as error:
        exploration_services.exploration_sleep(exploration=exploration, user=mestre)
    assert error.value.code == "turn_started"
    with pytest.raises(ServiceError):
        exploration_services.exploration_turn_start(exploration=exploration, user=mestre)


def test_the_same_form_twice_is_one_turn(scene, mestre, server_dice):
    server_dice(6)
    exploration = start(scene, mestre, DEADLY)
    a = exploration_services.exploration_turn_start(
        exploration=exploration, user=mestre, request_key="k"
    )
    b = exploration_services.exploration_turn_start(
        exploration=exploration, user=mestre, request_key="k"
    )
    assert a.pk == b.pk and Roll.objects.count() == 1
    exploration.refresh_from_db()
    assert exploration.turn == 1


def test_a_failed_action_saves_nothing(scene, mestre, server_dice, monkeypatch):
    server_dice(6)
    exploration = start(scene, mestre, DEADLY)
    torch = exploration_services.exploration_timer_add(
        exploration=exploration, user=mestre, name="Tocha", turns=5
    )
    exploration_services.exploration_turn_start(exploration=exploration, user=mestre)
    exploration.refresh_from_db()
    exploration.encounter_pending = True
    exploration.save()

    def broken(**kwargs):
        raise ServiceError("tabela quebrada", field="key")

    monkeypatch.setattr(exploration_services.procedure_services, "procedure_roll", broken)
    with pytest.raises(ServiceError):
        exploration_services.exploration_turn_end(exploration=exploration, user=mestre)
    torch.refresh_from_db()
    exploration.refresh_from_db()
    assert torch.remaining_turns == 5 and exploration.phase == Exploration.Phase.IN_TURN
    assert not ExplorationEvent.objects.filter(kind=ExplorationEvent.Kind.TURN_END).exists()


def test_only_the_table_runs_it(scene, mestre, jogador):
    with pytest.raises(ServiceError) as error:
        start(scene, jogador)
    assert error.value.code == "forbidden"
    exploration = start(scene, mestre)
    with pytest.raises(ServiceError):
        exploration_services.exploration_turn_start(exploration=exploration, user=jogador)


def test_the_danger_level_is_one_of_the_three(scene, mestre):
    with pytest.raises(ServiceError) as error:
        start(scene, mestre, "andar 3")
    assert (
        error.value.field == "danger" and error.value.message == exploration_services.DANGER_UNKNOWN
    )


def test_the_marching_order_is_kept_and_refuses_a_name_twice(scene, mestre):
    exploration = start(scene, mestre)
    assert exploration.marching_order == [c.name for c in scene.characters.all()]
    exploration_services.exploration_marching_order(
        exploration=exploration, user=mestre, names=["Hoplita de Ônfalos", "Jurado de Gapheim"]
    )
    exploration.refresh_from_db()
    assert exploration.marching_order[0] == "Hoplita de Ônfalos"
    with pytest.raises(ServiceError) as error:
        exploration_services.exploration_marching_order(
            exploration=exploration, user=mestre, names=["A", "a"]
        )
    assert error.value.field == "marching_order"


def test_the_tally_is_filled_from_the_log(scene, mestre, server_dice):
    server_dice(7, 6, 6, 6, 6)  # a mishap (1d10) and four rest checks (Arriscado, 8 h)
    exploration = start(scene, mestre, RISKY, region="Andar 3, galeria")
    exploration_services.exploration_sleep(exploration=exploration, user=mestre, hours=8)
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[])
    for name in ("Cavador A", "Cavador B"):
        combat_services.combatant_add(combat=combat, user=mestre, creature=cavador(name))
    Combatant.objects.filter(name="Cavador A").update(status=Combatant.Status.DEAD)
    Combatant.objects.filter(name="Cavador B").update(status=Combatant.Status.FLED)
    exploration_services.exploration_loot(
        exploration=exploration, user=mestre, category="treasure", kind="moedas", quantity=30
    )
    exploration_services.exploration_loot(
        exploration=exploration, user=mestre, category="item", kind="corda", quantity=1
    )
    exploration_services.exploration_end(exploration=exploration, user=mestre)
    exploration.refresh_from_db()
    tally = exploration_services.exploration_tally(exploration)
    assert tally.region == "Andar 3, galeria"
    assert tally.creatures == [("Cavador", 2)]
    assert tally.treasure == [("moedas", 30)] and tally.items == [("corda", 1)]
    assert tally.dice == [("d6", 4), ("d10", 1)]
    end = exploration.events.get(kind=ExplorationEvent.Kind.END)
    assert end.data["tally"]["dice"] == [{"die": "d6", "count": 4}, {"die": "d10", "count": 1}]


def test_the_cadence_is_the_arbitros_table_not_a_copy_in_code(scene, mestre, arbitro, server_dice):
    # Tabela A says Arriscado checks "1:6 a cada 2 turnos"; the Árbitro changes it to 3:6 every 3.
    from sessions.procedure import services as procedure_services

    row = procedure_services.procedure_table("danger_levels", scene.week.campaign).rows.get(
        label="Arriscado"
    )
    procedure_services.random_table_row_edit(
        row=row, user=arbitro, cells=["3:6 a cada 3 turnos de exploração"], reason="teste"
    )
    server_dice(3)
    exploration = start(scene, mestre, "risky")
    for _ in range(2):
        event = exploration_services.exploration_turn_start(exploration=exploration, user=mestre)
        assert not event.rolls.exists()
        exploration_services.exploration_turn_end(exploration=exploration, user=mestre)
    third = exploration_services.exploration_turn_start(exploration=exploration, user=mestre)
    roll = third.rolls.get()
    assert (roll.details["threshold"], roll.details["happened"]) == (3, True)
    assert "(Arriscado, 3:6)" in " ".join(third.lines)
