"""What the §4.8 tables, the feint, Concentrar, the parry extras of §4.7 and Aguardar leave
on the fight — state, not only the log — with the server's dice scripted.

The creatures are demo numbers entered as the Mestre would (not canon)."""

from __future__ import annotations

import pytest

from campaigns.errors import ServiceError
from sessions.combat import attack as combat_attack
from sessions.combat import cards as combat_cards
from sessions.combat import maneuvers as combat_maneuvers
from sessions.combat import messages as combat_messages
from sessions.combat import services as combat_services
from sessions.combat import specs as combat_specs
from sessions.combat import state as combat_state
from sessions.combat import turns as combat_turns
from sessions.combat.numbers import combatant_numbers
from sessions.log import chain
from sessions.models import Combatant, CombatEvent, Roll

SWORD = combat_specs.WeaponSpec(name="Espada", skill=12, damage="2d cort", parry=6, weight_kg="1,5")


def creature(name, *weapons, iq=10, ht=10, dx=11, move=5):
    return combat_specs.CreatureSpec(
        name=name,
        st=10,
        dx=dx,
        iq=iq,
        ht=ht,
        hp=12,
        move=move,
        dodge=5,
        passive_defense=1,
        damage_resistance=1,
        weapons=weapons or (SWORD,),
        demo_note="Números de demonstração, entrados pelo Mestre; não são do cânone.",
    )


@pytest.fixture
def duel(scene, mestre):
    """Ana acts first (declared first, same numbers), then Bia."""

    def make(ana=None, bia=None, terrain=None):
        combat = combat_services.combat_start(scene=scene, user=mestre, characters=[])
        combat_services.combatant_add(combat=combat, user=mestre, creature=ana or creature("Ana"))
        combat_services.combatant_add(combat=combat, user=mestre, creature=bia or creature("Bia"))
        if terrain:
            combat_services.combat_declare(combat=combat, user=mestre, terrain=terrain)
        combat_turns.combat_next_turn(combat=combat, user=mestre)
        return combat

    return make


def get(combat, name) -> Combatant:
    return Combatant.objects.get(combat=combat, name=name)


def maneuver(combat, mestre, name, value, **kw):
    return combat_maneuvers.maneuver_declare(
        combat=combat, combatant=get(combat, name), user=mestre, maneuver=value, **kw
    )


def attack(combat, mestre, by, at, *, weapon=0, defences=(), location="torso", **kw):
    return combat_attack.attack_resolve(
        combat=combat,
        attacker=get(combat, by),
        defender=get(combat, at),
        user=mestre,
        attack=combat_specs.AttackSpec(weapon=weapon, location=location),
        defence_choice=combat_specs.DefenceSpec(defences=defences, **kw),
    )


def next_turn(combat, mestre):
    combat_turns.combat_next_turn(combat=combat, user=mestre)
    combat.refresh_from_db()
    return combat_state.current(combat)


CRITICAL_MISS = (6, 6, 6)


# --- 1. the critical miss table changes the state ---------------------------------------------


def test_critical_miss_9_drops_the_weapon_and_a_ready_turn_picks_it_up(
    duel, mestre, server_dice, scene
):
    combat = duel()
    maneuver(combat, mestre, "Ana", "move_and_attack")
    server_dice(*CRITICAL_MISS, 3, 3, 4)  # 10: "Derruba a arma"
    attack(combat, mestre, "Ana", "Bia")
    ana = get(combat, "Ana")
    assert ana.dropped == [0] and ana.unready == [0]
    card = combat_cards.card(combat, ana, full=True, is_current=True)
    assert "Espada no chão" in card.effects and card.parries == ()
    # Next round: she cannot attack with it; one Ready turn picks it up.
    next_turn(combat, mestre)
    next_turn(combat, mestre)
    maneuver(combat, mestre, "Ana", "move_and_attack")
    with pytest.raises(ServiceError) as refused:
        attack(combat, mestre, "Ana", "Bia")
    assert refused.value.message == combat_messages.WEAPON_DROPPED.format(weapon="Espada")
    next_turn(combat, mestre)
    next_turn(combat, mestre)
    maneuver(combat, mestre, "Ana", "ready", weapon=0)
    ana = get(combat, "Ana")
    assert ana.dropped == [] and ana.unready == []
    assert chain.rolls_verify(scene.week.campaign).ok


def test_critical_miss_3_breaks_the_weapon_for_the_rest_of_the_combat(duel, mestre, server_dice):
    combat = duel()
    maneuver(combat, mestre, "Ana", "move_and_attack")
    server_dice(*CRITICAL_MISS, 1, 1, 1)
    attack(combat, mestre, "Ana", "Bia")
    assert get(combat, "Ana").broken == [0]
    next_turn(combat, mestre)
    maneuver(combat, mestre, "Bia", "move_and_attack")
    server_dice(3, 3, 4)
    with pytest.raises(ServiceError) as refused:
        attack(combat, mestre, "Bia", "Ana", defences=("parry",), parry_weapon=0)
    assert refused.value.message == combat_messages.WEAPON_BROKEN.format(weapon="Espada")
    assert not Roll.objects.filter(details__turn=combat.turn, kind="skill").exists()
    with pytest.raises(ServiceError):
        maneuver(combat, mestre, "Ana", "ready", weapon=0)


def test_critical_miss_7_loses_balance_defences_minus_2_until_the_next_turn(
    duel, mestre, server_dice
):
    dagger = combat_specs.WeaponSpec(name="Adaga", skill=11, damage="1d-1 perf", parry=5)
    combat = duel(ana=creature("Ana", SWORD, dagger))
    maneuver(combat, mestre, "Ana", "all_out_attack", all_out_option="double")
    server_dice(*CRITICAL_MISS, 1, 2, 4)  # 7
    attack(combat, mestre, "Ana", "Bia")
    ana = get(combat, "Ana")
    assert ana.off_balance
    numbers = combatant_numbers(ana)
    assert numbers.dodge == 5 - 2 and numbers.parry_of(ana.weapon_lines()[0]) == 6 - 2
    with pytest.raises(ServiceError) as refused:  # the second attack of (a): nothing
        attack(combat, mestre, "Ana", "Bia")
    assert refused.value.message == combat_messages.OFF_BALANCE_NOTHING.format(name="Ana")
    next_turn(combat, mestre)
    next_turn(combat, mestre)  # Ana's next turn
    assert not get(combat, "Ana").off_balance


def test_critical_miss_8_turns_in_hand_one_extra_ready(duel, mestre, server_dice):
    combat = duel()
    maneuver(combat, mestre, "Ana", "move_and_attack")
    server_dice(*CRITICAL_MISS, 2, 3, 3)  # 8
    attack(combat, mestre, "Ana", "Bia")
    ana = get(combat, "Ana")
    assert ana.unready == [0] and ana.ready_turns == {"0": 1} and ana.dropped == []


def test_critical_miss_15_strains_the_shoulder_and_16_falls(duel, mestre, server_dice):
    combat = duel()
    maneuver(combat, mestre, "Ana", "move_and_attack")
    server_dice(*CRITICAL_MISS, 5, 5, 5)  # 15
    attack(combat, mestre, "Ana", "Bia")
    assert get(combat, "Ana").strained == [0]
    next_turn(combat, mestre)
    maneuver(combat, mestre, "Bia", "move_and_attack")
    server_dice(*CRITICAL_MISS, 6, 5, 5)  # 16
    attack(combat, mestre, "Bia", "Ana")
    bia = get(combat, "Bia")
    assert bia.posture == Combatant.Posture.LYING
    ana = get(combat, "Ana")
    assert combat_state.weapon_problem(ana, 0) == combat_messages.ARM_STRAINED.format(
        weapon="Espada"
    )


def test_critical_miss_5_hits_yourself_is_the_mestres_logged_adjustment(duel, mestre, server_dice):
    combat = duel()
    maneuver(combat, mestre, "Ana", "move_and_attack")
    server_dice(*CRITICAL_MISS, 1, 1, 3)  # 5
    outcome = attack(combat, mestre, "Ana", "Bia")
    assert any("Ajuste do Mestre" in line for line in outcome.event.lines)
    assert get(combat, "Ana").hp_lost == 0  # no number invented
    with pytest.raises(ServiceError) as refused:
        combat_services.combatant_adjust(
            combat=combat, combatant=get(combat, "Ana"), user=mestre, hp_lost=4, reason=""
        )
    assert refused.value.field == "reason"
    combat_services.combatant_adjust(
        combat=combat,
        combatant=get(combat, "Ana"),
        user=mestre,
        hp_lost=4,
        reason="Erro crítico 5: atingiu a si mesma na perna",
        request_key="aj-1",
    )
    combat_services.combatant_adjust(
        combat=combat,
        combatant=get(combat, "Ana"),
        user=mestre,
        hp_lost=4,
        reason="Erro crítico 5: atingiu a si mesma na perna",
        request_key="aj-1",
    )
    assert get(combat, "Ana").hp_lost == 4
    assert CombatEvent.objects.filter(kind="adjustment").count() == 1


# --- 1. the critical hit tables ---------------------------------------------------------------


def test_critical_hit_15_the_opponents_weapon_falls(duel, mestre, server_dice):
    combat = duel()
    maneuver(combat, mestre, "Ana", "move_and_attack")
    # 3 (critical), table 5+5+5 = 15, damage 2d 1+1 = 2 (DR 1: 1, cut ×1.5 → 1).
    server_dice(1, 1, 1, 5, 5, 5, 1, 1)
    attack(combat, mestre, "Ana", "Bia", defences=("dodge",))
    bia = get(combat, "Bia")
    assert bia.dropped == [0] and bia.unready == [0]
    assert "Espada no chão" in combat_cards.card_effects(bia)


def test_head_6_blinds_both_eyes_dx_minus_10_on_every_attack(duel, mestre, server_dice):
    combat = duel(ana=creature("Ana", SWORD, ht=14), bia=creature("Bia", SWORD, ht=14))
    maneuver(combat, mestre, "Ana", "move_and_attack")
    server_dice(1, 1, 1, 1, 2, 3, *(1,) * 30)
    attack(combat, mestre, "Ana", "Bia", location="head")
    bia = get(combat, "Bia")
    assert (bia.blind, bia.dx_penalty) == ("both_eyes", -10)
    assert any("Cego dos dois olhos" in effect for effect in combat_cards.card_effects(bia))


def test_head_7_blind_one_eye_attacks_at_minus_2(duel, mestre, server_dice):
    combat = duel(ana=creature("Ana", SWORD, ht=14))
    Combatant.objects.filter(combat=combat, name="Ana").update(blind="one_eye", dx_penalty=-2)
    maneuver(combat, mestre, "Ana", "move_and_attack")
    server_dice(3, 3, 4, 1, 1, 2)
    outcome = attack(combat, mestre, "Ana", "Bia", defences=("dodge",))
    assert outcome.resolution.effective_level == 12 - 2


def test_head_8_unbalanced_defends_next_turn_and_does_nothing_else(duel, mestre, server_dice):
    combat = duel(ana=creature("Ana", SWORD, ht=14), bia=creature("Bia", SWORD, ht=14))
    maneuver(combat, mestre, "Ana", "move_and_attack")
    server_dice(1, 1, 1, 2, 3, 3, *(1,) * 30)
    attack(combat, mestre, "Ana", "Bia", location="head")
    assert get(combat, "Bia").unbalanced
    server_dice(1, 1, 1)  # Bia's HT to leave the stun the critical hit gave
    assert next_turn(combat, mestre).name == "Bia"
    with pytest.raises(ServiceError) as refused:
        maneuver(combat, mestre, "Bia", "move_and_attack")
    assert refused.value.message == combat_messages.UNBALANCED_TURN.format(name="Bia")


# --- 2. feint ---------------------------------------------------------------------------------


def test_a_won_feint_takes_its_margin_off_the_next_defence_then_clears(
    duel, mestre, server_dice, scene
):
    combat = duel()
    # Ana 1+2+3 = 6 against 12 (margin 6); Bia 5+5+5 = 15 against 12: Ana wins by 6.
    server_dice(1, 2, 3, 5, 5, 5)
    maneuver(combat, mestre, "Ana", "feint", weapon=0, target=get(combat, "Bia"))
    ana = get(combat, "Ana")
    assert ana.feint["penalty"] == 6 and ana.feint["target"] == str(get(combat, "Bia").code)
    feint_rolls = list(Roll.objects.order_by("sequence"))
    assert [(r.kind, r.total, r.details["rule"]) for r in feint_rolls] == [
        ("skill", 6, "4.3"),
        ("skill", 15, "4.3"),
    ]
    assert feint_rolls[0].details["combat"] == str(combat.code)
    next_turn(combat, mestre)
    next_turn(combat, mestre)  # round 2, Ana
    maneuver(combat, mestre, "Ana", "move_and_attack")
    server_dice(3, 3, 4, 1, 1, 2)  # hit; Bia's dodge 4: always passes
    outcome = attack(combat, mestre, "Ana", "Bia", defences=("dodge",))
    dodge = outcome.rolls[1]
    assert dodge.effective_level == 1 + 5 - 6  # PD 1 + Esquiva 5 − finta 6
    assert get(combat, "Ana").feint == {}
    assert chain.rolls_verify(scene.week.campaign).ok


def test_a_feint_in_the_dark_is_worth_nothing_and_rolls_nothing(duel, mestre, server_dice):
    combat = duel(terrain=["dark"])
    server_dice()
    event = maneuver(combat, mestre, "Ana", "feint", weapon=0, target=get(combat, "Bia"))
    assert "não vale nada" in " ".join(event.lines)
    assert not Roll.objects.exists() and get(combat, "Ana").feint == {}


def test_a_feint_against_who_cannot_see_is_worth_nothing(duel, mestre, server_dice):
    combat = duel()
    maneuver(combat, mestre, "Ana", "feint", weapon=0, target=get(combat, "Bia"), target_sees=False)
    assert not Roll.objects.exists()


def test_a_feint_needs_a_target(duel, mestre):
    combat = duel()
    with pytest.raises(ServiceError) as refused:
        maneuver(combat, mestre, "Ana", "feint", weapon=0)
    assert refused.value.field == "target"
    assert not CombatEvent.objects.filter(kind="maneuver").exists()


def test_all_out_attack_b_feints_then_attacks(duel, mestre, server_dice):
    combat = duel()
    server_dice(1, 2, 3, 5, 5, 5)
    maneuver(
        combat,
        mestre,
        "Ana",
        "all_out_attack",
        all_out_option="feint",
        weapon=0,
        target=get(combat, "Bia"),
    )
    server_dice(3, 3, 4, 1, 1, 2)
    outcome = attack(combat, mestre, "Ana", "Bia", defences=("dodge",))
    assert outcome.rolls[1].effective_level == 0
    with pytest.raises(ServiceError) as refused:
        attack(combat, mestre, "Ana", "Bia", defences=("dodge",))
    assert refused.value.code == "attacks_used"


# --- 3. Concentrar ----------------------------------------------------------------------------


def test_defending_while_concentrating_rolls_will_minus_3(duel, mestre, server_dice):
    combat = duel(bia=creature("Bia", SWORD, iq=12))
    maneuver(combat, mestre, "Ana", "move")
    next_turn(combat, mestre)
    maneuver(combat, mestre, "Bia", "concentrate")
    next_turn(combat, mestre)
    maneuver(combat, mestre, "Ana", "move_and_attack")
    server_dice(3, 3, 4, 1, 1, 2, 5, 5, 5)  # hit; dodge 4 passes; Will 12 − 3 = 9: 15 fails
    outcome = attack(combat, mestre, "Ana", "Bia", defences=("dodge",))
    will = outcome.event  # the Will roll is the last roll of the attack's event
    roll = Roll.objects.order_by("-sequence").first()
    assert (roll.kind, roll.effective_level, roll.total, roll.details["rule"]) == (
        "attribute",
        9,
        15,
        "4.3",
    )
    assert roll.details["event"] == str(will.code)
    assert get(combat, "Bia").concentration_lost
    assert "Perdeu a concentração" in combat_cards.card_effects(get(combat, "Bia"))


# --- 4. parry extras --------------------------------------------------------------------------


def test_a_parry_against_a_weapon_three_times_heavier_may_break(duel, mestre, server_dice):
    maul = combat_specs.WeaponSpec(name="Maça", skill=12, damage="2d cont", weight_kg="6")
    knife = combat_specs.WeaponSpec(
        name="Faca", skill=12, damage="1d-2 corte", parry=6, weight_kg="1"
    )
    combat = duel(ana=creature("Ana", maul), bia=creature("Bia", knife))
    maneuver(combat, mestre, "Ana", "move_and_attack")
    server_dice(3, 3, 4, 1, 1, 2, 2)  # hit; parry 4 passes; 1d = 2: breaks on 1–2 (1/3)
    attack(combat, mestre, "Ana", "Bia", defences=("parry",), parry_weapon=0)
    assert get(combat, "Bia").broken == [0]
    roll = Roll.objects.order_by("-sequence").first()
    assert (roll.kind, roll.dice, roll.details["rule"]) == ("table", [2], "4.7")


def test_a_parry_against_a_lighter_weapon_rolls_no_break(duel, mestre, server_dice):
    combat = duel()
    maneuver(combat, mestre, "Ana", "move_and_attack")
    server_dice(3, 3, 4, 1, 1, 2)
    attack(combat, mestre, "Ana", "Bia", defences=("parry",), parry_weapon=0)
    assert get(combat, "Bia").broken == [] and Roll.objects.count() == 2


def test_parrying_a_bare_hand_with_a_weapon_may_injure_the_attacker(duel, mestre, server_dice):
    fist = combat_specs.WeaponSpec(name="Soco", skill=12, damage="1d-2 cont", attack_kind="unarmed")
    combat = duel(ana=creature("Ana", fist))
    maneuver(combat, mestre, "Ana", "move_and_attack")
    # hit; parry 4 passes; Espada 2+2+2 = 6 against 12: injures; 2d cut 3+3 = 6 − DR 1 = 5
    # ×1.5 = 7 HP on Ana.
    server_dice(3, 3, 4, 1, 1, 2, 2, 2, 2, 3, 3)
    outcome = attack(combat, mestre, "Ana", "Bia", defences=("parry",), parry_weapon=0)
    assert get(combat, "Ana").hp_lost == 7
    kinds = [r.kind for r in outcome.rolls] + [
        r.kind for r in Roll.objects.order_by("sequence")[2:]
    ]
    assert kinds[-2:] == ["skill", "damage"]


# --- 5. Aguardar ------------------------------------------------------------------------------


def test_a_waiting_combatant_attacks_once_out_of_turn(duel, mestre, server_dice):
    combat = duel()
    maneuver(combat, mestre, "Ana", "wait")
    assert next_turn(combat, mestre).name == "Bia"
    server_dice(3, 3, 4, 1, 1, 2)
    outcome = attack(combat, mestre, "Ana", "Bia", defences=("dodge",))
    assert "ataque do Aguardar" in " ".join(outcome.event.lines)
    assert not get(combat, "Ana").waiting
    with pytest.raises(ServiceError) as refused:
        attack(combat, mestre, "Ana", "Bia", defences=("dodge",))
    assert refused.value.code == "not_its_turn"


def test_without_wait_no_attack_out_of_turn(duel, mestre):
    combat = duel()
    maneuver(combat, mestre, "Ana", "move")
    next_turn(combat, mestre)
    with pytest.raises(ServiceError) as refused:
        attack(combat, mestre, "Ana", "Bia")
    assert refused.value.code == "not_its_turn"
