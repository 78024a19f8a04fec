"""The combat text as the table reads it (issue 24): the aim line of a weapon without Prec, the
lying target's modifier, the retreat in the total said, the weapon's open question said once,
a stunned combatant without last turn's maneuver. Demo numbers entered as the Mestre would."""

from __future__ import annotations

from sessions.combat import attack as combat_attack
from sessions.combat import cards as combat_cards
from sessions.combat import defending as combat_defending
from sessions.combat import maneuvers as combat_maneuvers
from sessions.combat import messages as combat_messages
from sessions.combat import services as combat_services
from sessions.combat import specs as combat_specs
from sessions.combat import turns as combat_turns
from sessions.combat.numbers import combatant_numbers
from sessions.models import Combatant, CombatEvent
from tests.sessions.combat.helpers import cavador
from tests.sessions.combat.test_combat_numbers import _turn_of

BOW_WITHOUT_PREC = combat_specs.WeaponSpec(
    name="Arco curto", skill=14, damage="1d+1 perf", attack_kind="arrow", weight_kg="1"
)


def _archers(scene, mestre, bow=BOW_WITHOUT_PREC):
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[])
    archer = combat_specs.CreatureSpec(
        name="Arqueira", st=11, dx=14, iq=10, ht=11, move=7, dodge=6, weapons=(bow,)
    )
    combat_services.combatant_add(combat=combat, user=mestre, creature=archer)
    combat_services.combatant_add(combat=combat, user=mestre, creature=cavador("Alvo"))
    combat_turns.combat_next_turn(combat=combat, user=mestre)
    return combat


def _shoot(combat, mestre, archer):
    return combat_attack.attack_resolve(
        combat=combat,
        attacker=archer,
        defender=Combatant.objects.get(combat=combat, name="Alvo"),
        user=mestre,
        attack=combat_specs.AttackSpec(weapon=0, distance_m=2),
    )


def test_aiming_a_bow_without_prec_adds_nothing_and_the_aim_line_says_why(
    scene, mestre, server_dice
):
    combat = _archers(scene, mestre)
    archer = _turn_of(combat, mestre, "Arqueira")
    combat_maneuvers.maneuver_declare(
        combat=combat, combatant=archer, user=mestre, maneuver="aim", weapon=0
    )
    _turn_of(combat, mestre, "Alvo")
    archer = _turn_of(combat, mestre, "Arqueira")
    combat_maneuvers.maneuver_declare(
        combat=combat, combatant=archer, user=mestre, maneuver="move_and_attack"
    )
    server_dice(*[5] * 20)
    outcome = _shoot(combat, mestre, archer)
    why = combat_messages.NO_ACCURACY_AIM.format(weapon="Arco curto")
    modifiers = {m.reason: m.value for m in outcome.resolution.modifiers}
    assert modifiers[f"mira de 1 turno(s) ({why})"] == 0


def test_the_card_says_a_ranged_weapon_has_no_prec(scene, mestre):
    combat = _archers(scene, mestre)
    archer = Combatant.objects.get(combat=combat, name="Arqueira")
    card = combat_cards.card(combat, archer, full=True, is_current=True)
    assert card.weapons[0].accuracy_missing == combat_messages.NO_ACCURACY


def test_a_bow_with_prec_is_not_said_to_lack_it(scene, mestre):
    bow = combat_specs.WeaponSpec(
        name="Arco", skill=14, damage="1d+1 perf", attack_kind="arrow", accuracy=1
    )
    combat = _archers(scene, mestre, bow)
    archer = Combatant.objects.get(combat=combat, name="Arqueira")
    assert (
        combat_cards.card(combat, archer, full=True, is_current=True).weapons[0].accuracy_missing
        == ""
    )


def test_a_shot_at_a_lying_target_takes_the_posture_modifier_by_itself(scene, mestre, server_dice):
    combat = _archers(scene, mestre)
    Combatant.objects.filter(combat=combat, name="Alvo").update(posture="lying")
    archer = _turn_of(combat, mestre, "Arqueira")
    combat_maneuvers.maneuver_declare(
        combat=combat, combatant=archer, user=mestre, maneuver="move_and_attack"
    )
    server_dice(*[5] * 20)
    outcome = _shoot(combat, mestre, archer)
    low = [m for m in outcome.resolution.modifiers if m.reason.startswith("alvo deitado")]
    # §4.11: "de −2 a −7, conforme a posição"; the reading takes the mildest.
    assert [m.value for m in low] == [-2] and "leitura" in low[0].reason


def test_a_shot_at_a_standing_target_takes_no_posture_modifier(scene, mestre, server_dice):
    combat = _archers(scene, mestre)
    archer = _turn_of(combat, mestre, "Arqueira")
    combat_maneuvers.maneuver_declare(
        combat=combat, combatant=archer, user=mestre, maneuver="move_and_attack"
    )
    server_dice(*[5] * 20)
    outcome = _shoot(combat, mestre, archer)
    assert not [m for m in outcome.resolution.modifiers if m.reason.startswith("alvo ")]


def _bout(scene, mestre, jurado):
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[jurado])
    combat_services.combatant_add(combat=combat, user=mestre, creature=cavador("Cavador"))
    combat_turns.combat_next_turn(combat=combat, user=mestre)
    return combat


def _bite(combat, mestre, server_dice, dice):
    cav = _turn_of(combat, mestre, "Cavador")
    combat_maneuvers.maneuver_declare(
        combat=combat, combatant=cav, user=mestre, maneuver="move_and_attack"
    )
    server_dice(*dice)
    return combat_attack.attack_resolve(
        combat=combat,
        attacker=Combatant.objects.get(combat=combat, name="Cavador"),
        defender=Combatant.objects.get(combat=combat, name="Jurado de Gapheim"),
        user=mestre,
        attack=combat_specs.AttackSpec(weapon=0),
    )


def test_the_total_said_is_the_one_rolled_against_with_the_retreat(
    scene, mestre, jogador, jurado, server_dice
):
    combat = _bout(scene, mestre, jurado)
    combat_defending.defence_choose(
        combat=combat,
        combatant=Combatant.objects.get(combat=combat, name="Jurado de Gapheim"),
        user=jogador,
        first="dodge",
        retreat=True,
    )
    numbers = combatant_numbers(Combatant.objects.get(combat=combat, name="Jurado de Gapheim"))
    outcome = _bite(combat, mestre, server_dice, (2, 3, 4, 1, 1, 1))
    step = next(s for s in outcome.resolution.steps if s.number == 5 and s.dice)
    rolled_against = numbers.passive_defense + numbers.dodge + 3  # the retreat's +3 (§9.2)
    assert step.level == rolled_against
    assert any(f"(total {rolled_against}, recuando +3)" in line for line in outcome.event.lines)


def test_the_bites_open_question_is_said_once_in_the_fight(scene, mestre, jurado, server_dice):
    combat = _bout(scene, mestre, jurado)
    _bite(combat, mestre, server_dice, (5, 5, 5))  # 15 against 12: a miss
    _turn_of(combat, mestre, "Jurado de Gapheim")
    _bite(combat, mestre, server_dice, (5, 5, 5))
    events = CombatEvent.objects.filter(combat=combat, kind=CombatEvent.Kind.ATTACK)
    said = [
        [line for line in e.lines if "fica despreparada" in line and "Pendência" in line]
        for e in events.order_by("pk")
    ]
    assert [len(lines) for lines in said] == [1, 0]


def test_a_stunned_combatant_who_stays_stunned_has_no_maneuver(scene, mestre, server_dice):
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[])
    combat_services.combatant_add(combat=combat, user=mestre, creature=cavador("A"))
    combat_services.combatant_add(combat=combat, user=mestre, creature=cavador("B"))
    combat_turns.combat_next_turn(combat=combat, user=mestre)
    first = _turn_of(combat, mestre, "A")
    combat_maneuvers.maneuver_declare(
        combat=combat,
        combatant=first,
        user=mestre,
        maneuver="all_out_attack",
        all_out_option="determined",
    )
    Combatant.objects.filter(pk=first.pk).update(stunned=True)
    _turn_of(combat, mestre, "B")
    server_dice(6, 6, 6)  # the HT 9 roll to leave the stun fails (§5.2)
    a = _turn_of(combat, mestre, "A")
    assert a.stunned and (a.maneuver, a.all_out_option) == ("", "")
    card = combat_cards.card(combat, a, full=True, is_current=True)
    assert card.maneuver_name == ""
