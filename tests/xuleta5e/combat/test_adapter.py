"""The Xuleta's combat part played over JSON (rulesets.xuleta5e.combat), with a scripted source:
initiative, the turn's budget, attacks, criticals, resistance, 0 PC and death saves,
opportunity attacks, concentration, grappling — each step as the text says."""

from __future__ import annotations

import pytest

from rulesets.xuleta5e.combat import COMBAT
from tests.gurps.helpers import ScriptedSource
from xuleta.errors import XuletaError

SCORES = {"str": 16, "dex": 12, "con": 14, "int": 10, "wis": 12, "cha": 10}
SWORD = {"name": "Espasa llarga", "bonus": 5, "damage": "1d8", "damage_modifier": 3,
         "damage_type": "slashing"}  # fmt: skip
DAGGER = {"name": "Daga", "bonus": 5, "damage": "1d4", "damage_modifier": 3,
          "damage_type": "piercing", "light": True, "finesse": True}  # fmt: skip
SHORTSWORD = {"name": "Espasa curta", "bonus": 5, "damage": "1d6", "damage_modifier": 3,
              "damage_type": "piercing", "light": True, "finesse": True}  # fmt: skip
CLAW = {"name": "Urpa", "bonus": 4, "damage": "1d6", "damage_modifier": 2,
        "damage_type": "slashing"}  # fmt: skip


def numbers(**more):
    base = {"abilities": dict(SCORES), "ac": 12, "max_hp": 12, "attacks": [SWORD]}
    base.update(more)
    return COMBAT.fighter_numbers(base)


def state(**fighters):
    return {
        "round": 0,
        "turn": 0,
        "fighters": {
            key: {"name": key.capitalize(), "numbers": n, "pv": n["hp"], "out": False}
            for key, n in fighters.items()
        },
    }


def play(played_state, actor, *actions, dice=()):
    source = ScriptedSource(dice)
    played = COMBAT.turn(played_state, actor, None, list(actions), source)
    assert source.values == [], "dados não usados"
    return played


def lines(played) -> str:
    return "\n".join(step.text for step in played.steps)


def begin(s, dice, **kw):
    source = ScriptedSource(dice)
    played = COMBAT.begin(s, source, {}, **kw)
    assert source.values == []
    return played


def test_initiative_group_once_and_order(quote):
    quote("El DM sol tirar una sola vegada per cada grup de monstres iguals.")
    s = state(
        hero=numbers(player_character=True, side="jogadores"),
        g1=numbers(group=1, abilities={**SCORES, "dex": 14}),
        g2=numbers(group=1, abilities={**SCORES, "dex": 14}),
    )
    played = begin(s, [10, 15])
    order = [(e["fighter"], e["initiative"]) for e in played.state["order"]]
    assert order == [("g1", 17), ("g2", 17), ("hero", 11)]
    rolls = [step.roll for step in played.steps if step.roll]
    assert [r["dice"] for r in rolls] == [[10], [15]]
    assert played.state["turn"] == 1


def test_the_mestre_breaks_a_tie():
    s = state(a=numbers(), b=numbers())
    played = begin(s, [9, 9], tie_order=["B", "A"])
    assert [e["fighter"] for e in played.state["order"]] == ["b", "a"]
    assert "ordem do Mestre" in lines(played)


def test_surprised_loses_the_first_turn(quote):
    quote("Qui està sorprès no es mou ni actua en el seu primer torn.")
    s = state(a=numbers(surprised=True), b=numbers())
    played = begin(s, [15, 5])
    assert played.state["order"][played.state["turn"] - 1]["fighter"] == "b"
    assert "surpreso" in lines(played)


def started(dice=(15, 5), **fighters):
    return begin(state(**fighters), list(dice)).state


def test_attack_hit_critical_and_resistance(quote):
    quote("Una espasa llarga (1d8 + 3) fa 2d8 + 3 en un crític.")
    quote("Amb resistència reps la meitat del dany d'aquest tipus")
    s = started(a=numbers(), b=numbers(max_hp=30, resistances=["slashing"]))
    played = play(s, "a", {"kind": "attack", "target": "b"}, dice=[20, 5, 7])
    # 2d8 + 3 = 15, halved to 7.
    assert played.state["fighters"]["b"]["pv"] == 23
    assert "CRÍTICO" in lines(played)
    assert "resistência" in lines(played)
    assert "resistance_rounding" in played.state["readings"]


def test_one_action_a_turn_names_the_field():
    s = started(a=numbers(), b=numbers())
    with pytest.raises(XuletaError) as caught:
        play(s, "a", {"kind": "dodge"}, {"kind": "attack", "target": "b"}, dice=[])
    assert caught.value.field == "actions.1.kind"


def test_extra_attack_and_grapple_replacing_one(quote):
    quote("Agafar i empènyer substitueixen un d'aquests atacs.")
    s = started(a=numbers(attacks_per_action=2), b=numbers(max_hp=30))
    played = play(
        s, "a",
        {"kind": "attack", "target": "b"},
        {"kind": "grapple", "target": "b"},
        dice=[2, 15, 8],
    )  # fmt: skip
    assert "grappled" in [c["key"] for c in played.state["xuleta"]["b"]["conditions"]]
    with pytest.raises(XuletaError):
        play(s, "a", *[{"kind": "attack", "target": "b"}] * 3, dice=[2, 2, 2])


def test_movement_split_and_opportunity_attack(quote):
    quote("L'atac arriba just abans que se'n vagi.")
    s = started(a=numbers(), b=numbers(max_hp=30))
    played = play(
        s, "a",
        {"kind": "move", "metres": 3},
        {"kind": "attack", "target": "b"},
        {"kind": "move", "metres": 6, "leaves_reach_of": ["b"]},
        dice=[2, 15, 4],
    )  # fmt: skip
    assert played.state["fighters"]["a"]["pv"] == 12 - 7
    text = lines(played)
    assert "atac d'oportunitat" in text
    # b's reaction is spent, then recovered at the start of its turn.
    assert text.index("a reação") < text.index("Turno de B")


def test_disengage_no_opportunity():
    s = started(a=numbers(), b=numbers())
    played = play(s, "a", {"kind": "disengage"},
                  {"kind": "move", "metres": 9, "leaves_reach_of": ["b"]})  # fmt: skip
    assert "oportunitat" not in lines(played)


def test_two_weapons_offhand_without_modifier(quote):
    quote("Al dany del segon atac no hi sumes el modificador de característica (tret que sigui "
          "negatiu).")  # fmt: skip
    s = started(a=numbers(attacks=[SHORTSWORD, DAGGER]), b=numbers(max_hp=30))
    played = play(
        s, "a",
        {"kind": "attack", "target": "b", "weapon": "Espasa curta"},
        {"kind": "offhand_attack", "target": "b", "weapon": "Daga"},
        dice=[15, 4, 15, 3],
    )  # fmt: skip
    assert played.state["fighters"]["b"]["pv"] == 30 - 7 - 3


def test_bonus_action_needs_a_grant():
    s = started(a=numbers(), b=numbers())
    with pytest.raises(XuletaError) as caught:
        play(s, "a", {"kind": "bonus_action"})
    assert caught.value.field == "actions.0.source"


def test_zero_pc_death_saves_and_stabilise(quote):
    quote("Quedes inconscient i comences a fer salvacions contra la mort.")
    quote("Si et fan mal a 0 PC, sumes un fracàs (dos si és crític).")
    s = started(
        a=numbers(max_hp=30),
        hero=numbers(player_character=True, max_hp=10, hp=4, side="jogadores"),
        cleric=numbers(max_hp=10, side="jogadores", skills={"Medicina": 4}),
        dice=(18, 10, 5),
    )
    assert [e["fighter"] for e in s["order"]] == ["a", "hero", "cleric"]
    s = play(s, "a", {"kind": "attack", "target": "hero"}, dice=[15, 5, 4]).state
    # the hero's turn starts with its death save: 8 fails; then the cleric.
    x = s["xuleta"]["hero"]
    assert s["fighters"]["hero"]["pv"] == 0
    assert x["death_saves"] == {"successes": 0, "failures": 1}
    assert s["order"][s["turn"] - 1]["fighter"] == "cleric"
    played = play(s, "cleric", {"kind": "stabilize", "target": "hero"}, dice=[6])
    # Medicina 6 + 4 = 10 against DC 10; then round 2, the enemy's turn (no die).
    assert played.state["xuleta"]["hero"]["stable"]


def test_natural_20_on_a_death_save_revives():
    s = started(
        a=numbers(max_hp=30),
        hero=numbers(player_character=True, max_hp=10, hp=4, side="jogadores"),
    )
    s = play(s, "a", {"kind": "attack", "target": "hero"}, dice=[15, 5, 20]).state
    assert s["fighters"]["hero"]["pv"] == 1
    assert s["order"][s["turn"] - 1]["fighter"] == "hero"


def test_instant_death(quote):
    quote("Si un cop et deixa a 0 PC i el dany que sobra és igual o més gran que el teu màxim de "
          "PC, mors a l'acte.")  # fmt: skip
    s = started(a=numbers(attacks=[{**SWORD, "damage": "4d8"}]),
                b=numbers(max_hp=6, hp=3, player_character=True))  # fmt: skip
    played = play(s, "a", {"kind": "attack", "target": "b"}, dice=[15, 8, 8, 8, 8])
    assert played.state["xuleta"]["b"]["dead"]


def test_monster_dies_at_zero_if_the_mestre_says():
    s = started(a=numbers(), b=numbers(max_hp=5, dies_at_zero=True))
    played = play(s, "a", {"kind": "attack", "target": "b"}, dice=[15, 5])
    assert played.state["xuleta"]["b"]["dead"]
    assert played.state["fighters"]["b"]["out"]


def test_paralysed_hit_from_near_is_critical_and_has_advantage():
    s = started(a=numbers(), b=numbers(max_hp=30, conditions=["paralyzed"]))
    played = play(s, "a", {"kind": "attack", "target": "b"}, dice=[3, 12, 4, 4])
    assert played.state["fighters"]["b"]["pv"] == 30 - 11
    assert "Paralitzat" in lines(played)


def test_concentration_save_on_damage(quote):
    quote("Una salvació per cada cop que rebis.")
    s = started(a=numbers(), b=numbers(max_hp=30, concentration="Beneir"))
    played = play(s, "a", {"kind": "attack", "target": "b"}, dice=[15, 5, 3])
    # 8 damage: DC 10; Constitució +2: 3 + 2 = 5 fails.
    assert played.state["xuleta"]["b"]["concentration"] == ""


def test_spell_save_half_one_roll_for_all(quote):
    quote("Si un efecte fa mal a diversos alhora, es tira un sol cop per a tots.")
    s = started(
        a=numbers(spell_save_dc=13), b=numbers(max_hp=30), c=numbers(max_hp=30),
        dice=(15, 5, 4),
    )  # fmt: skip
    played = play(
        s, "a",
        {"kind": "cast_spell", "spell": "Bola de foc", "targets": ["b", "c"], "save": "dex",
         "damage": "8d6", "damage_type": "fire", "half_on_save": True},
        dice=[15, 2, 3, 3, 3, 3, 3, 3, 3, 3],
    )  # fmt: skip
    assert played.state["fighters"]["b"]["pv"] == 30 - 12
    assert played.state["fighters"]["c"]["pv"] == 30 - 24


def test_dodge_gives_disadvantage_until_its_next_turn():
    s = started(a=numbers(), b=numbers(max_hp=30))
    s = play(s, "a", {"kind": "dodge"}).state
    played = play(s, "b", {"kind": "attack", "target": "a"}, dice=[18, 3])
    assert "Esquivant" in lines(played)
    assert not played.state["xuleta"]["a"]["dodging"]


def test_conditions_from_the_mestre_and_exhaustion():
    s = started(a=numbers(), b=numbers())
    played = COMBAT.condition(s, "b", "poisoned", None, False, "a")
    assert COMBAT.view(played.state)["order"][1]["conditions"][0]["label"] == "Enverinat"
    played = COMBAT.condition(played.state, "b", "exhaustion", level=4)
    row = next(r for r in COMBAT.view(played.state)["order"] if r["id"] == "b")
    assert row["pv_max"] == 6 and row["pv"] == 6
    with pytest.raises(XuletaError) as caught:
        COMBAT.condition(played.state, "b", "blinded", None, True)
    assert caught.value.field == "condition"


def test_character_states_for_the_sheet():
    s = started(a=numbers(), hero=numbers(player_character=True, hp=5))
    states = COMBAT.character_states(s)
    assert states["hero"]["hp_lost"] == 7
    assert set(states) == {"hero"}


def test_bad_numbers_name_the_field():
    with pytest.raises(XuletaError) as caught:
        numbers(attacks=[{**SWORD, "damage_type": "lava"}])
    assert caught.value.field.startswith("numbers")
