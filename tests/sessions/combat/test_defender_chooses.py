"""The defender chooses (§4.1, §4.6; docs/DESIGN.md, invariant 11 (The defender chooses)): his own
choice, or the best total his maneuver leaves, said in the log; no active defence only where a rule
takes it away, named; the Mestre never picks a jogador's defence."""

from __future__ import annotations

import pytest

from campaigns.errors import ServiceError
from sessions.combat import attack as combat_attack
from sessions.combat import defending as combat_defending
from sessions.combat import maneuvers as combat_maneuvers
from sessions.combat import pending as combat_pending
from sessions.combat import services as combat_services
from sessions.combat import specs as combat_specs
from sessions.combat import state as combat_state
from sessions.combat import turns as combat_turns
from sessions.combat.numbers import combatant_numbers
from sessions.models import Combat, Combatant, CombatEvent, Roll
from tests.sessions.combat.helpers import cavador


@pytest.fixture
def bout(scene, mestre, jurado):
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[jurado])
    combat_services.combatant_add(combat=combat, user=mestre, creature=cavador("Cavador"))
    combat_turns.combat_next_turn(combat=combat, user=mestre)
    return combat


def _get(combat, name) -> Combatant:
    return Combatant.objects.select_related("character").get(combat=combat, name=name)


def _cavador_attacks(combat, mestre, server_dice, dice, **choice):
    for _ in range(4):
        combat.refresh_from_db()
        if combat_state.current(combat).name == "Cavador":
            break
        combat_turns.combat_next_turn(combat=combat, user=mestre)
    combat_maneuvers.maneuver_declare(
        combat=combat, combatant=_get(combat, "Cavador"), user=mestre, maneuver="move_and_attack"
    )
    server_dice(*dice)
    return combat_attack.attack_resolve(
        combat=combat,
        attacker=_get(combat, "Cavador"),
        defender=_get(combat, "Jurado de Gapheim"),
        user=mestre,
        attack=combat_specs.AttackSpec(weapon=0),
        defence_choice=combat_specs.DefenceSpec(**choice) if choice else None,
    )


def test_without_an_answer_in_the_mestres_time_the_best_total_stands_and_the_log_says_so(
    bout, mestre, server_dice
):
    jurado = _get(bout, "Jurado de Gapheim")
    numbers = combatant_numbers(jurado)
    totals = {"dodge": numbers.dodge, "block": numbers.block}
    best = max(totals, key=totals.get)  # Bloquear 7 against Esquiva 5: the jurado's shield
    Combat.objects.filter(pk=bout.pk).update(defence_wait_minutes=0)  # no time to wait
    outcome = _cavador_attacks(bout, mestre, server_dice, (2, 3, 4, 1, 1, 1))
    assert outcome.awaits_defence  # he is asked first (§4.6)
    bout.refresh_from_db()
    assert combat_pending.defences_overdue_apply(bout) == 1
    event = bout.events.filter(kind=CombatEvent.Kind.DEFENCE).latest("pk")
    defence_roll = Roll.objects.get(details__event=str(event.code), details__step=5)
    assert best == "block" and defence_roll.label.startswith("Bloquear")
    assert any("não escolheu defesa" in line and "a escolha padrão" in line for line in event.lines)
    assert any("prazo do Mestre" in line for line in event.lines)
    assert event.data["hit"] is False


def test_the_jogadors_own_choice_is_used(bout, mestre, jogador, server_dice):
    combat_defending.defence_choose(
        combat=bout, combatant=_get(bout, "Jurado de Gapheim"), user=jogador, first="dodge"
    )
    outcome = _cavador_attacks(bout, mestre, server_dice, (2, 3, 4, 1, 1, 1))
    defence_step = next(s for s in outcome.resolution.steps if s.number == 5 and s.dice)
    assert defence_step.title.startswith("Esquiva")
    assert any("a escolha do jogador" in line for line in outcome.event.lines)


def test_the_mestre_cannot_pick_a_jogadors_defence(bout, mestre, server_dice):
    with pytest.raises(ServiceError) as refused:
        _cavador_attacks(bout, mestre, server_dice, (2, 3, 4), defences=("dodge",))
    assert refused.value.field == "defences"
    assert refused.value.message == combat_defending.DEFENCE_IS_THE_PLAYERS.format(
        name="Jurado de Gapheim"
    )
    assert not Roll.objects.exists()


def test_another_jogador_cannot_choose_for_him(bout, jogadora, mestre):
    for who in (jogadora, mestre):
        with pytest.raises(ServiceError) as refused:
            combat_defending.defence_choose(
                combat=bout, combatant=_get(bout, "Jurado de Gapheim"), user=who, first="block"
            )
        assert refused.value.code == "forbidden"
    assert _get(bout, "Jurado de Gapheim").standing_defence == {}


def test_all_out_attack_leaves_no_active_defence_and_the_log_names_the_rule(
    scene, mestre, server_dice
):
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[])
    for name in ("Ana", "Bia"):
        combat_services.combatant_add(combat=combat, user=mestre, creature=cavador(name))
    combat_turns.combat_next_turn(combat=combat, user=mestre)
    combat.refresh_from_db()
    ana = _get(combat, combat_state.current(combat).name)
    bia = _get(combat, "Bia" if ana.name == "Ana" else "Ana")
    combat_maneuvers.maneuver_declare(
        combat=combat,
        combatant=ana,
        user=mestre,
        maneuver="all_out_attack",
        all_out_option="strong",
    )
    combat_turns.combat_next_turn(combat=combat, user=mestre)
    combat_maneuvers.maneuver_declare(
        combat=combat, combatant=bia, user=mestre, maneuver="move_and_attack"
    )
    server_dice(3, 4, 4, *[5] * 12)  # 11 hits; the PD alone is rolled against
    outcome = combat_attack.attack_resolve(
        combat=combat,
        attacker=bia,
        defender=_get(combat, ana.name),
        user=mestre,
        attack=combat_specs.AttackSpec(weapon=0),
    )
    assert any("Ataque Total" in line and "§4.3" in line for line in outcome.event.lines)
    defence = next(s for s in outcome.resolution.steps if s.number == 5 and s.dice)
    assert "Defesa Passiva" in defence.text or defence.title.startswith("Defesa de")


def test_a_choice_is_an_event_of_the_fight(bout, jogador):
    event = combat_defending.defence_choose(
        combat=bout,
        combatant=_get(bout, "Jurado de Gapheim"),
        user=jogador,
        first="block",
        then="dodge",
        retreat=True,
    )
    assert event.kind == CombatEvent.Kind.DEFENCE
    assert event.text == "Jurado de Gapheim escolhe a defesa: Bloquear, senão Esquiva, recuando."
    assert _get(bout, "Jurado de Gapheim").standing_defence["then"] == "dodge"
