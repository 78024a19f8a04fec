"""The short fight through the services: start, order, maneuvers, two attacks with the full
§4.10 sequence in the log, the cards, the end with the state carried; and the refusals."""

from __future__ import annotations

import pytest

from campaigns.errors import ServiceError
from gurps.errors import InvalidValue
from sessions.combat import attack as combat_attack
from sessions.combat import cards as combat_cards
from sessions.combat import defending as combat_defending
from sessions.combat import maneuvers as combat_maneuvers
from sessions.combat import messages as combat_messages
from sessions.combat import services as combat_services
from sessions.combat import specs as combat_specs
from sessions.combat import state as combat_state
from sessions.combat import turns as combat_turns
from sessions.log import chain
from sessions.models import Combatant, CombatEvent, Roll
from sheets.reads import state_of
from tests.sessions.combat.helpers import B_WOUNDS_JURADO, HOPLITA_FELLS_A, cavador


@pytest.fixture
def fight(scene, mestre, jurado, hoplita):
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[jurado, hoplita])
    combat_services.combatant_add(combat=combat, user=mestre, creature=cavador("Cavador A"))
    combat_services.combatant_add(combat=combat, user=mestre, creature=cavador("Cavador B"))
    return combat


def named(combat, name) -> Combatant:
    return Combatant.objects.get(combat=combat, name=name)


def pass_to(combat, mestre, name) -> Combatant:
    for _ in range(8):
        combat.refresh_from_db()
        now = combat_state.current(combat)
        if now is not None and now.name == name:
            return now
        combat_turns.combat_next_turn(combat=combat, user=mestre)
    raise AssertionError(f"never {name}'s turn")


def hoplita_fells_a(fight, mestre, server_dice):
    hoplita = pass_to(fight, mestre, "Hoplita de Ônfalos")
    combat_maneuvers.maneuver_declare(
        combat=fight, combatant=hoplita, user=mestre, maneuver="move_and_attack"
    )
    server_dice(*HOPLITA_FELLS_A)
    return combat_attack.attack_resolve(
        combat=fight,
        attacker=hoplita,
        defender=named(fight, "Cavador A"),
        user=mestre,
        attack=combat_specs.AttackSpec(weapon=0, lighting=-2),
        defence_choice=combat_specs.DefenceSpec(defences=("dodge",)),
    )


def test_the_turn_order_is_stored_and_never_reshuffles(fight, mestre):
    combat_turns.combat_next_turn(combat=fight, user=mestre)
    order = list(fight.combatants.order_by("position").values_list("name", flat=True))
    # Move 6 before the characters' Move under their loads (§4.2); A declared before B.
    assert order == ["Cavador A", "Cavador B", "Hoplita de Ônfalos", "Jurado de Gapheim"]
    for _ in range(5):
        combat_turns.combat_next_turn(combat=fight, user=mestre)
    again = list(fight.combatants.order_by("position").values_list("name", flat=True))
    assert again == order


def test_the_short_fight(fight, mestre, jogador, server_dice, jurado, scene):
    outcome = hoplita_fells_a(fight, mestre, server_dice)
    assert "Iluminação ruim −2" in outcome.resolution.lines[0]
    a = named(fight, "Cavador A")
    assert (a.hp_now, a.status) == (0, Combatant.Status.FLED)

    b = pass_to(fight, mestre, "Cavador B")
    combat_maneuvers.maneuver_declare(
        combat=fight, combatant=b, user=mestre, maneuver="move_and_attack"
    )
    # The jurado's own choice: his player's (§4.1, §4.6), not the Mestre's.
    combat_defending.defence_choose(
        combat=fight, combatant=named(fight, "Jurado de Gapheim"), user=jogador, first="block"
    )
    server_dice(*B_WOUNDS_JURADO)
    combat_attack.attack_resolve(
        combat=fight,
        attacker=b,
        defender=named(fight, "Jurado de Gapheim"),
        user=mestre,
        attack=combat_specs.AttackSpec(weapon=0),
    )
    j = named(fight, "Jurado de Gapheim")
    assert j.stunned and j.hp_now == 2 and j.shock == -10
    assert j.blocks_used == 1

    rolls = combat_cards.combat_rolls_in_order(fight)
    attack = [("skill", 3), ("defence", 5), ("damage", 6)]
    # Cavador A, out at 0 HP, gets no Prostração roll (§5.4.1); the jurado does (§5.2).
    assert [(r.kind, r.details["step"]) for r in rolls] == [*attack, *attack, ("attribute", 10)]
    assert rolls[2].details["notes"][:2] == ["RD 1: passam 5.", "Perfuração ×2: 10."]
    assert chain.rolls_verify(scene.week.campaign).ok

    combat_services.combat_end(combat=fight, user=mestre, spoils="Couro de cavador")
    state = state_of(jurado)
    assert state.hp_lost == 10
    assert state.fatigue_lost == 0  # two rounds: not a fight of more than 10 seconds (§6.1)


def test_boss_declared_after_the_first_die_does_not_count(fight, mestre, server_dice):
    hoplita_fells_a(fight, mestre, server_dice)
    with pytest.raises(ServiceError) as refused:
        combat_services.combat_declare(combat=fight, user=mestre, boss=named(fight, "Cavador B"))
    assert refused.value.message == combat_messages.BOSS_TOO_LATE
    assert named(fight, "Cavador B").kind == Combatant.Kind.CREATURE


def test_boss_declared_before_the_first_die_dies_at_minus_ht(fight, mestre):
    combat_services.combat_declare(
        combat=fight, user=mestre, boss=named(fight, "Cavador B"), terrain=["dark"]
    )
    assert named(fight, "Cavador B").kind == Combatant.Kind.BOSS
    fight.refresh_from_db()
    assert fight.terrain == ["dark"]


def test_a_refused_attack_saves_nothing(fight, mestre):
    hoplita = pass_to(fight, mestre, "Hoplita de Ônfalos")
    combat_maneuvers.maneuver_declare(
        combat=fight, combatant=hoplita, user=mestre, maneuver="move_and_attack"
    )
    with pytest.raises(InvalidValue):
        combat_attack.attack_resolve(
            combat=fight,
            attacker=hoplita,
            defender=named(fight, "Cavador A"),
            user=mestre,
            attack=combat_specs.AttackSpec(weapon=0, lighting=-12),
        )
    assert not Roll.objects.exists()
    assert not CombatEvent.objects.filter(kind="attack").exists()


def test_the_same_attack_posted_twice_rolls_once(fight, mestre, server_dice):
    hoplita = pass_to(fight, mestre, "Hoplita de Ônfalos")
    combat_maneuvers.maneuver_declare(
        combat=fight, combatant=hoplita, user=mestre, maneuver="move_and_attack"
    )
    server_dice(*HOPLITA_FELLS_A)
    for _ in range(2):
        combat_attack.attack_resolve(
            combat=fight,
            attacker=hoplita,
            defender=named(fight, "Cavador A"),
            user=mestre,
            attack=combat_specs.AttackSpec(weapon=0, lighting=-2),
            defence_choice=combat_specs.DefenceSpec(defences=("dodge",)),
            request_key="golpe-1",
        )
    assert Roll.objects.count() == 3  # attack, dodge, damage: once


def test_a_stunned_combatant_rolls_ht_at_the_start_of_its_turn(fight, mestre, server_dice):
    jurado = named(fight, "Jurado de Gapheim")
    Combatant.objects.filter(pk=jurado.pk).update(stunned=True)
    server_dice(3, 3, 3)
    pass_to(fight, mestre, "Jurado de Gapheim")
    jurado.refresh_from_db()
    assert not jurado.stunned
    roll = Roll.objects.get()
    assert (roll.kind, roll.details["rule"], roll.details["step"]) == ("attribute", "5.2", 1)


def test_only_the_table_runs_combat(scene, jogador):
    with pytest.raises(ServiceError) as refused:
        combat_services.combat_start(scene=scene, user=jogador)
    assert refused.value.code == "forbidden"


def test_a_maneuver_out_of_turn_is_refused(fight, mestre):
    combat_turns.combat_next_turn(combat=fight, user=mestre)
    with pytest.raises(ServiceError) as refused:
        combat_maneuvers.maneuver_declare(
            combat=fight,
            combatant=named(fight, "Jurado de Gapheim"),
            user=mestre,
            maneuver="all_out_defense",
        )
    assert refused.value.code == "not_its_turn"
