"""§2 El teu torn, §3 Accions en combat, §7.4 Concentració: initiative, surprise, the turn's
budget, attacks, cover, two weapons, grappling and shoving, concentration."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.gurps.helpers import ScriptedSource
from xuleta import actions, attacks, concentration, initiative
from xuleta.errors import XuletaError
from xuleta.readings import all_readings


def test_initiative_is_a_dex_check_highest_first(quote):
    quote("Cadascú tira una prova de Destresa (d20 + mod. de Destresa).")
    quote("Es va de més a menys.")
    rolls = initiative.roll_initiative(
        [initiative.Entrant("a", 2), initiative.Entrant("b", 0)], ScriptedSource([5, 12])
    )
    assert [(r.keys, r.total) for r in rolls] == [(("b",), 12), (("a",), 7)]


def test_a_group_of_identical_monsters_rolls_once(quote):
    quote("El DM sol tirar una sola vegada per cada grup de monstres iguals.")
    rolls = initiative.roll_initiative(
        [
            initiative.Entrant("g1", 2, "goblins"),
            initiative.Entrant("hero", 1),
            initiative.Entrant("g2", 2, "goblins"),
        ],
        ScriptedSource([10, 4]),
    )
    assert [(r.keys, r.total) for r in rolls] == [(("g1", "g2"), 12), (("hero",), 5)]


def test_ties_the_mestre_order_or_a_reroll(quote):
    quote("Si hi ha empat, ho decideix el DM (o torneu a tirar).")
    two = [initiative.Entrant("a", 0), initiative.Entrant("b", 0)]
    by_mestre = initiative.roll_initiative(two, ScriptedSource([9, 9]), tie_order=["b", "a"])
    assert [r.keys[0] for r in by_mestre] == ["b", "a"]
    rerolled = initiative.roll_initiative(two, ScriptedSource([9, 9, 3, 3, 4, 11]))
    assert [r.keys[0] for r in rerolled] == ["b", "a"]
    assert rerolled[0].tiebreak == (3, 11)


def test_surprise(quote):
    quote("Qui està sorprès no es mou ni actua en el seu primer torn.")
    quote("Tampoc no pot fer servir reaccions fins que s'acabi aquest torn.")
    assert not initiative.surprised_acts(first_turn=True, surprised=True)
    assert initiative.surprised_acts(first_turn=False, surprised=True)
    assert not initiative.surprised_reacts(first_turn_ended=False, surprised=True)
    budget = actions.start_turn(9, surprised_first_turn=True)
    with pytest.raises(XuletaError):
        actions.move(budget, 1.5)
    with pytest.raises(XuletaError):
        actions.spend_action(budget, "attack")


def test_movement_split_around_the_action(quote):
    quote("El pots partir: caminar una mica, atacar i continuar caminant.")
    budget = actions.start_turn(9)
    budget = actions.move(budget, 3)
    budget = actions.spend_action(budget, "attack")
    budget = actions.move(budget, 6)
    assert budget.movement_m == 0
    with pytest.raises(XuletaError) as caught:
        actions.move(budget, 1.5)
    assert caught.value.field == "metres"


def test_one_action_a_turn(quote):
    quote("En tens una per torn.")
    budget = actions.spend_action(actions.start_turn(9), "dodge")
    with pytest.raises(XuletaError):
        actions.spend_action(budget, "attack")


def test_bonus_action_only_when_granted(quote):
    quote(
        "Una acció extra i ràpida, però només si un tret, un encanteri o un objecte te'n dona "
        "una. Com a molt una per torn."
    )
    quote("Si no tens res que la faci servir, no tens acció addicional.")
    budget = actions.start_turn(9)
    with pytest.raises(XuletaError):
        actions.spend_bonus_action(budget, "bonus_action", "")
    budget = actions.spend_bonus_action(budget, "bonus_action", "Acció astuta")
    with pytest.raises(XuletaError):
        actions.spend_bonus_action(budget, "bonus_action", "Acció astuta")


def test_one_reaction_a_round(quote):
    quote("En tens una per ronda.")
    quote("La recuperes en començar el teu torn.")
    assert actions.use_reaction(True) is False
    with pytest.raises(XuletaError):
        actions.use_reaction(False)
    with pytest.raises(XuletaError):
        actions.use_reaction(True, conditions=["stunned"])


def test_one_free_object_interaction(quote):
    quote("Per a una segona cosa així has de fer servir la teva acció.")
    budget = actions.interact(actions.start_turn(9))
    with pytest.raises(XuletaError):
        actions.interact(budget)


def test_standing_costs_half_dropping_nothing(quote):
    quote("Llançar-te a terra no costa moviment; aixecar-te en costa la meitat.")
    assert actions.stand_up(actions.start_turn(9)).movement_m == 4.5


def test_dash_and_disengage(quote):
    quote("Guanyes moviment extra igual a la teva velocitat aquest torn.")
    quote("Amb 9 m de velocitat, pots arribar a 18 m.")
    quote("El teu moviment no provoca atacs d'oportunitat durant la resta del torn.")
    assert actions.spend_action(actions.start_turn(9), "dash").movement_m == 18
    assert actions.dash_reach(9) == 18
    assert actions.spend_action(actions.start_turn(9), "disengage").disengaged


def test_dodge(quote):
    quote("Ho perds si quedes incapacitat o la teva velocitat baixa a 0.")
    quote("Els atacs contra tu tenen desavantatge si veus qui t'ataca.")
    assert actions.dodge_holds([], 9)
    assert not actions.dodge_holds(["stunned"], 9)
    assert not actions.dodge_holds([], 0)
    assert attacks.attack_edge(target_dodging=True).edge == "disadvantage"


def test_extra_attack_count_is_an_input(quote):
    quote("Alguns trets (com Atac Extra) et deixen atacar més d'un cop amb aquesta acció.")
    assert actions.attacks_per_action(2) == 2
    with pytest.raises(XuletaError):
        actions.attacks_per_action(0)


def test_incapacitated_cannot_act(quote):
    quote("No pots fer accions ni reaccions.")
    with pytest.raises(XuletaError):
        actions.spend_action(actions.start_turn(9, ["paralyzed"]), "attack")


def test_cover(quote):
    quote("Si n'hi ha diverses, només compta la que protegeix més.")
    assert attacks.best_cover(["half", "three_quarters", "none"]) == "three_quarters"
    assert attacks.cover_bonus("half") == 2
    assert attacks.cover_bonus("three_quarters") == 5
    quote("No et poden apuntar directament")
    with pytest.raises(XuletaError):
        attacks.cover_bonus("total")


def test_attack_roll_against_ac_with_cover(quote):
    quote("Si l'iguales o el superes, ho aconsegueixes.")
    hit = attacks.roll_attack(ScriptedSource([10]), 5, 13, cover="half")
    assert hit.ac == 15 and hit.hit
    assert not attacks.roll_attack(ScriptedSource([9]), 5, 13, cover="half").hit


def test_natural_20_and_1(quote):
    quote("Un 20 natural sempre encerta i és un cop crític.")
    quote("Un 1 natural sempre falla.")
    crit = attacks.roll_attack(ScriptedSource([20]), 0, 30)
    assert crit.hit and crit.critical
    assert not attacks.roll_attack(ScriptedSource([1]), 30, 5).hit


def test_paralysed_hit_from_1_5_m_is_critical(quote):
    quote("Si et toquen des d'1,5 m o menys, el cop és crític.")
    near = attacks.roll_attack(
        ScriptedSource([12]), 3, 10, target_conditions=["paralyzed"], within_1_5_m=True
    )
    assert near.critical
    far = attacks.roll_attack(ScriptedSource([12]), 3, 10, target_conditions=["paralyzed"])
    assert not far.critical


def test_ranged_with_an_enemy_near(quote):
    quote("Si ataques a distància amb un enemic a 1,5 m de tu, tens desavantatge.")
    assert attacks.attack_edge(ranged=True, enemy_within_1_5_m=True).edge == "disadvantage"
    assert attacks.attack_edge(ranged=False, enemy_within_1_5_m=True).edge == "none"


def test_edges_cancel_and_hide_help(quote):
    quote("Si t'amagues i ataques, tens avantatge, però després ja saben on ets.")
    quote("el següent atac del teu aliat contra ell té avantatge")
    assert attacks.attack_edge(attacker_hidden=True).edge == "advantage"
    assert attacks.attack_edge(helped=True, attacker_conditions=["poisoned"]).edge == "none"


def test_two_weapon_fighting(quote):
    quote(
        "Si ataques amb una arma lleugera cos a cos en una mà, pots atacar amb una altra arma "
        "lleugera a l'altra mà com a acció addicional."
    )
    quote(
        "Al dany del segon atac no hi sumes el modificador de característica (tret que sigui "
        "negatiu)."
    )
    assert attacks.two_weapon_allowed(True, False, True) == ""
    assert attacks.two_weapon_allowed(False, False, True)
    assert attacks.two_weapon_allowed(True, True, True)
    assert attacks.damage_modifier(3, offhand=True) == 0
    assert attacks.damage_modifier(-1, offhand=True) == -1
    assert attacks.damage_modifier(3) == 3


def test_opportunity_attack(quote):
    quote(
        "Si un enemic que veus surt del teu abast, pots fer servir la reacció per fer-li un atac "
        "cos a cos."
    )
    quote(
        "No passa si es desenganxa, es teletransporta o el mou una altra cosa (una empenta, un "
        "encanteri)."
    )
    assert attacks.provokes_opportunity(True)
    assert not attacks.provokes_opportunity(True, disengaged=True)
    assert not attacks.provokes_opportunity(True, teleported=True)
    assert not attacks.provokes_opportunity(True, moved_by_other=True)
    assert not attacks.provokes_opportunity(True, sees_it=False)


def test_grapple_size_and_contest(quote):
    quote("Com a molt, una mida més gran que tu.")
    quote("Si empaten, tot continua com estava.")
    assert attacks.size_allows("medium", "large")
    assert not attacks.size_allows("medium", "huge")
    won = attacks.roll_contest(ScriptedSource([12, 8]), 3, 2)
    assert won.winner == "attacker"
    tie = attacks.roll_contest(ScriptedSource([10, 11]), 3, 2)
    assert tie.winner is None


def test_dragging_halves_speed(quote):
    quote(
        "La pots arrossegar, però la teva velocitat baixa a la meitat (tret que sigui dues "
        "mides més petita)."
    )
    assert attacks.drag_speed(9, "medium", "medium") == 4.5
    assert attacks.drag_speed(9, "medium", "tiny") == 9


@given(st.integers(0, 200))
def test_concentration_dc(damage):
    assert concentration.save_dc(damage) == max(10, damage // 2)


def test_concentration_save(quote):
    quote(
        "Si reps dany, salvació de Constitució: CD 10 o la meitat del dany, el que sigui més alt."
    )
    quote("Una salvació per cada cop que rebis.")
    assert concentration.save_dc(22) == 11
    assert concentration.concentration_save(ScriptedSource([9]), 2, 22).holds
    assert not concentration.concentration_save(ScriptedSource([8]), 2, 22).holds


def test_concentration_breaks(quote):
    quote(
        "Es trenca si llances un altre encanteri de concentració, si quedes incapacitat o si mors."
    )
    assert concentration.breaks(["unconscious"])
    assert concentration.breaks(dead=True)
    assert concentration.breaks(new_concentration_spell=True)
    assert concentration.breaks() == ""


def test_readings_are_published():
    keys = {r.key for r in all_readings()}
    assert {"initiative_ties", "resistance_rounding", "sizes_unlisted"} <= keys


def test_a_bonus_action_spell_then_only_a_cantrip(quote):
    quote("Si llances un encanteri amb l'acció addicional, en aquell torn només pots llançar a "
          "més un truc d'una acció.")  # fmt: skip
    actions.spell_allowed(True, 0)
    actions.spell_allowed(False, 3)
    with pytest.raises(XuletaError) as caught:
        actions.spell_allowed(True, 1)
    assert caught.value.field == "spell_level"


def test_spell_slots(quote):
    quote("Els encanteris de nivell 1 a 9 gasten un espai del seu nivell o superior.")
    quote("Encanteris de nivell 0. No gasten espais: els llances tantes vegades com vulguis.")
    assert actions.spend_slot({"1": 2}, {}, 0) == {}
    assert actions.spend_slot({"1": 2, "2": 1}, {"1": 2}, 1, 2) == {"1": 2, "2": 1}
    with pytest.raises(XuletaError) as caught:
        actions.spend_slot({"1": 2}, {"1": 2}, 1)
    assert caught.value.field == "slot_level"
    with pytest.raises(XuletaError):
        actions.spend_slot({"1": 2, "2": 1}, {}, 2, 1)
