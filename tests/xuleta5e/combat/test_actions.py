"""Every action of «§3 Accions en combat» and the state's edges, played over JSON
(rulesets.xuleta5e.combat) with a scripted source."""

from __future__ import annotations

import pytest

from rulesets.xuleta5e.combat import COMBAT
from tests.xuleta5e.combat.test_adapter import begin, lines, numbers, play, state
from xuleta.errors import XuletaError


def started(**fighters):
    return begin(state(**fighters), [15, 5][: len(fighters)] + [1] * (len(fighters) - 2)).state


def test_help_distracts_for_the_allys_next_attack(quote):
    quote("O distreus un enemic a 1,5 m de tu: el següent atac del teu aliat contra ell té "
          "avantatge (abans del teu proper torn).")  # fmt: skip
    s = begin(state(a=numbers(side="jogadores"), c=numbers(side="jogadores"), b=numbers(max_hp=30)),
              [15, 10, 5]).state  # fmt: skip
    s = play(s, "a", {"kind": "help", "target": "b"}).state
    played = play(s, "c", {"kind": "attack", "target": "b"}, dice=[3, 14, 5])
    assert "Ajudar" in lines(played)
    assert played.state["xuleta"]["b"]["distracted_by"] == ""


def test_hide_then_attack_with_advantage(quote):
    quote("Tira Destresa (Sigil) perquè no et vegin.")
    s = started(a=numbers(), b=numbers(max_hp=30))
    s = play(s, "a", {"kind": "hide", "dc": 12}, dice=[11]).state
    assert s["xuleta"]["a"]["hidden"]
    s = play(s, "b", {"kind": "dodge"}).state
    played = play(s, "a", {"kind": "attack", "target": "b"}, dice=[15, 3])
    text = lines(played)
    assert "amagat" in text and "Esquivant" in text  # they cancel: one die
    assert not played.state["xuleta"]["a"]["hidden"]


def test_hide_needs_a_dc():
    s = started(a=numbers(), b=numbers())
    with pytest.raises(XuletaError) as caught:
        play(s, "a", {"kind": "hide"})
    assert caught.value.field == "actions.0.dc"


def test_ready_search_use_object_and_other(quote):
    quote("Dius què esperes i què faràs: «si la porta s'obre, disparo».")
    quote("El DM et demanarà Saviesa (Percepció) o Intel·ligència (Investigació).")
    quote("Per a objectes que necessiten una acció, com beure's una poció, o per a una segona "
          "interacció amb un objecte en el mateix torn.")  # fmt: skip
    s = started(a=numbers(hp=4), b=numbers())
    s = play(s, "a", {"kind": "ready", "text": "si la porta s'obre, disparo"}).state
    assert s["xuleta"]["a"]["readied"] == "si la porta s'obre, disparo"
    s = play(s, "b", {"kind": "search", "dc": 15, "skill": "Investigació"}, dice=[14]).state
    played = play(s, "a", {"kind": "use_object", "text": "una poció", "heal": True,
                           "damage": "2d4", "damage_modifier": 2}, dice=[3, 4])  # fmt: skip
    assert played.state["fighters"]["a"]["pv"] == 12  # 4 + 9, «mai per sobre del teu màxim»
    s = play(played.state, "b", {"kind": "interact", "text": "obre la porta"},
             {"kind": "use_object", "text": "tanca la porta"}).state  # fmt: skip
    with pytest.raises(XuletaError):
        play(s, "a", {"kind": "interact"}, {"kind": "interact"})


def test_shove_prone_and_escape_a_grapple(quote):
    quote("Si guanyes, tries: cau tombat o l'allunyes 1,5 m.")
    quote("Per deslliurar-te, fes servir la teva acció: Atletisme o Acrobàcies contra el seu "
          "Atletisme.")  # fmt: skip
    s = started(a=numbers(), b=numbers())
    s = play(s, "a", {"kind": "shove", "target": "b", "shove_result": "prone"}, dice=[15, 5]).state
    assert "prone" in [c["key"] for c in s["xuleta"]["b"]["conditions"]]
    s = play(s, "b", {"kind": "stand_up"}, {"kind": "grapple", "target": "a"}, dice=[15, 5]).state
    assert s["xuleta"]["a"]["grappled_by"] == "b"
    with pytest.raises(XuletaError) as caught:
        play(s, "a", {"kind": "move", "metres": 1.5})
    assert caught.value.field == "actions.0.metres"  # «La teva velocitat és 0»
    s = play(s, "a", {"kind": "escape_grapple", "resist_with": "acrobatics"}, dice=[18, 2]).state
    assert s["xuleta"]["a"]["grappled_by"] == ""


def test_a_grapple_ends_when_the_grappler_is_incapacitated(quote):
    quote("S'acaba si qui t'agafa queda incapacitat.")
    s = started(a=numbers(), b=numbers())
    s = play(s, "a", {"kind": "grapple", "target": "b"}, dice=[15, 5]).state
    played = COMBAT.condition(s, "a", "stunned")
    assert "grappled" not in [c["key"] for c in played.state["xuleta"]["b"]["conditions"]]


def test_grapple_size_limit():
    s = started(a=numbers(size="small"), b=numbers(size="huge"))
    with pytest.raises(XuletaError) as caught:
        play(s, "a", {"kind": "grapple", "target": "b"})
    assert caught.value.field == "actions.0.target"


def test_dash_doubles_the_movement():
    s = started(a=numbers(), b=numbers())
    played = play(s, "a", {"kind": "dash"}, {"kind": "move", "metres": 18})
    assert "restam 0 m" in lines(played)


def test_exhaustion_halves_speed_and_restrained_stops_it(quote):
    quote("Velocitat a la meitat")
    # Exhaustion 1: disadvantage on checks, the initiative's Destresa check too: two dice.
    s = begin(state(a=numbers(exhaustion=2), b=numbers()), [15, 3, 5]).state
    assert s["order"][0]["fighter"] == "b"
    s = play(s, "b").state
    with pytest.raises(XuletaError):
        play(s, "a", {"kind": "move", "metres": 6})
    s = started(a=numbers(conditions=["restrained"]), b=numbers())
    with pytest.raises(XuletaError):
        play(s, "a", {"kind": "move", "metres": 1.5})


def test_charmed_cannot_attack_the_charmer(quote):
    quote("No pots atacar qui t'ha encantat ni apuntar-li amb habilitats o màgia que facin mal.")
    s = started(a=numbers(), b=numbers())
    s = COMBAT.condition(s, "a", "charmed", None, False, "b").state
    with pytest.raises(XuletaError) as caught:
        play(s, "a", {"kind": "attack", "target": "b"})
    assert caught.value.field == "actions.0.target"


def test_a_timed_condition_ends_at_the_start_of_its_turn():
    s = started(a=numbers(), b=numbers())
    s = COMBAT.condition(s, "b", "poisoned", 1).state
    s = play(play(s, "a").state, "b").state
    assert "poisoned" in [c["key"] for c in s["xuleta"]["b"]["conditions"]]
    played = play(s, "a")  # round 2: it ends as b's turn starts
    assert "Termina: Enverinat em B" in lines(played)


def test_a_timed_conditions_label_says_when_the_engine_ends_it():
    """«até o início da rodada 2» would be wrong: in round 2 it holds until its holder's turn."""
    s = started(a=numbers(), b=numbers())
    played = COMBAT.condition(s, "b", "restrained", 1)
    assert "até o início do seu turno na rodada 2" in lines(played)
    s = played.state
    shown = _ends(s, "b")
    assert shown == "até o início do turno de B na rodada 2"
    s = play(play(s, "a").state, "b").state  # round 2 starts: a acts first, b still held
    assert s["round"] == 2 and _ends(s, "b") == shown
    assert "restrained" in [c["key"] for c in s["xuleta"]["b"]["conditions"]]
    assert "Termina: Immobilitzat em B" in lines(play(s, "a"))


def _ends(state, key):
    row = next(r for r in COMBAT.view(state)["order"] if r["id"] == key)
    return next(c["ends"] for c in row["conditions"] if c["key"] == "restrained")


def test_spell_attack_and_concentration_replaced(quote):
    quote("Només et pots concentrar en un alhora.")
    s = started(a=numbers(spell_attack_bonus=5, concentration="Beneir"), b=numbers(max_hp=30))
    played = play(
        s, "a",
        {"kind": "cast_spell", "spell": "Raig de foc", "spell_attack": True, "target": "b",
         "damage": "1d10", "damage_type": "fire", "concentration": True},
        dice=[12, 7],
    )  # fmt: skip
    assert played.state["fighters"]["b"]["pv"] == 23
    assert played.state["xuleta"]["a"]["concentration"] == "Raig de foc"
    assert "perde a concentração em Beneir" in lines(played)


def test_a_spells_condition_on_a_failed_save_auto_fail_when_paralysed(quote):
    quote("Falles sense tirar les salvacions de Força i Destresa.")
    s = started(a=numbers(spell_save_dc=13), b=numbers(max_hp=30, conditions=["paralyzed"]))
    played = play(
        s, "a",
        {"kind": "cast_spell", "spell": "Onada", "targets": ["b"], "save": "str",
         "condition": "prone"},
    )  # fmt: skip
    assert "falha sem rolar" in lines(played)


def test_temporary_hit_points_and_damage_while_stable(quote):
    quote("Si et tornen a fer mal, deixes d'estar estable.")
    s = started(a=numbers(), b=numbers(temp_hp=5, max_hp=30))
    played = play(s, "a", {"kind": "attack", "target": "b"}, dice=[15, 4])
    assert played.state["fighters"]["b"]["pv"] == 28
    assert played.state["xuleta"]["b"]["temp_hp"] == 0
    s = started(a=numbers(), b=numbers(player_character=True, hp=0, stable=True,
                                       conditions=["unconscious"]))  # fmt: skip
    played = play(s, "a", {"kind": "attack", "target": "b"}, dice=[15, 2, 4, 3, 9])
    x = played.state["xuleta"]["b"]
    # Inconscient: advantage (two d20) and a hit from 1,5 m is a critical (2d8) — «dos si és
    # crític»: two failures; then its own death save (9) a third: dead.
    assert x["dead"]


def test_a_surprised_combatant_cannot_react_until_its_first_turn_ends():
    s = begin(state(a=numbers(), b=numbers(surprised=True)), [15, 5]).state
    assert s["xuleta"]["b"]["reaction"] is False
    played = play(s, "a", {"kind": "move", "metres": 3, "leaves_reach_of": ["b"]})
    assert "não tem reação" in lines(played)


def test_join_rolls_and_takes_its_place():
    s = started(a=numbers(), b=numbers())
    s["fighters"]["c"] = {"name": "C", "numbers": numbers(), "pv": 12, "out": False}
    from tests.gurps.helpers import ScriptedSource

    played = COMBAT.join(s, "c", ScriptedSource([20]))
    assert played.state["order"][0]["fighter"] == "c"
    assert played.state["order"][0]["from_round"] == 2
    assert "age a partir da rodada 2" in played.text


def test_a_joiner_whose_place_is_ahead_acts_this_round():
    """Not the Sistema 001's Entrada Tardia («só age a partir da rodada seguinte»): in a Xuleta
    fight the joiner acts in the current round when the order reaches its place."""
    from tests.gurps.helpers import ScriptedSource

    s = started(a=numbers(), b=numbers())
    s["fighters"]["c"] = {"name": "C", "numbers": numbers(), "pv": 12, "out": False}
    played = COMBAT.join(s, "c", ScriptedSource([1]))
    assert [e["fighter"] for e in played.state["order"]] == ["a", "b", "c"]
    assert played.state["order"][2]["from_round"] == 1
    assert "age ainda nesta rodada (1)" in played.text
    assert "seguinte" not in played.text
    s = play(play(played.state, "a").state, "b").state
    assert s["round"] == 1 and s["order"][s["turn"] - 1]["fighter"] == "c"


def test_numbers_from_a_homologated_sheet():
    sheet = {
        "name": "Aria", "level": 3,
        "abilities": {"str": 16, "dex": 14, "con": 14, "int": 10, "wis": 12, "cha": 8},
        "saves": {"str": 5, "dex": 2, "con": 4, "int": 0, "wis": 1, "cha": -1},
        "skills": {"Atletisme": 5, "Medicina": 1}, "ac": 16, "max_hp": 28, "hit_die": 10,
        "hit_dice": 3, "speed_m": 9, "darkvision_m": 0,
        "attacks": [{"name": "Espasa llarga", "ability": "str", "bonus": 5, "damage": "1d8",
                     "damage_modifier": 3, "damage_type": "slashing", "ranged": False,
                     "finesse": False, "light": False, "thrown": False, "reach_m": 1.5,
                     "range_m": None}],
        "spellcasting": None, "resistances": [], "vulnerabilities": [], "immunities": [],
        "state": {"hp_lost": 5, "temp_hp": 0, "exhaustion": 4, "conditions": ["poisoned"],
                  "death_saves": {"successes": 0, "failures": 0}, "stable": False,
                  "dead": False, "concentration": ""},
    }  # fmt: skip
    found = COMBAT.numbers_from_sheet(sheet)
    assert found["player_character"] and found["conditions"] == ["poisoned"]
    # Exhaustion 4: «Punts de cop màxims a la meitat»; hp_lost counts from the sheet's 28, and
    # the PC now never pass the halved maximum: min(14, 28 − 5).
    assert found["hp"] == min(28 // 2, 28 - 5) == 14
    assert found["attacks"][0]["damage_type"] == "slashing"


def test_bonus_action_spell_then_a_cantrip_only():
    s = started(a=numbers(), b=numbers(max_hp=30))
    with pytest.raises(XuletaError) as caught:
        play(
            s, "a",
            {"kind": "bonus_action", "source": "Paraula curativa", "spell": "Paraula curativa",
             "heal": True, "damage": "1d4", "target": "a"},
            {"kind": "cast_spell", "spell": "Escut", "spell_level": 1},
            dice=[2],
        )  # fmt: skip
    assert caught.value.field == "actions.1.spell_level"


def test_a_push_out_of_the_grapplers_reach_ends_the_grapple(quote):
    quote("S'acaba si alguna cosa t'allunya del seu abast (una empenta màgica, per exemple).")
    s = begin(state(a=numbers(), b=numbers(), c=numbers()), [15, 10, 5]).state
    s = play(s, "a", {"kind": "grapple", "target": "c"}, dice=[15, 5]).state
    s = play(s, "b", {"kind": "shove", "target": "c", "shove_result": "push"}, dice=[15, 5]).state
    assert s["xuleta"]["c"]["grappled_by"] == ""


def test_a_light_thrown_weapon_thrown_in_the_other_hand(quote):
    quote("Si alguna és llancívola, la pots llançar en lloc de colpejar.")
    dagger = {"name": "Daga", "bonus": 5, "damage": "1d4", "damage_modifier": 3,
              "damage_type": "piercing", "light": True, "thrown": True}  # fmt: skip
    s = started(a=numbers(attacks=[dagger]), b=numbers(max_hp=30))
    played = play(
        s, "a",
        {"kind": "attack", "target": "b"},
        {"kind": "offhand_attack", "target": "b", "thrown": True, "enemy_within_1_5_m": True},
        dice=[15, 2, 15, 14, 3],  # the thrown one with disadvantage: 15 and 14, the lower
    )  # fmt: skip
    assert "atac a distància amb un enemic a 1,5 m" in lines(played)
    assert played.state["fighters"]["b"]["pv"] == 30 - 5 - 3


def test_a_levelled_spell_spends_a_slot():
    s = started(a=numbers(slots={"1": 1}, spell_save_dc=13), b=numbers(max_hp=30))
    spell = {"kind": "cast_spell", "spell": "Raig", "spell_level": 1, "targets": ["b"],
             "save": "dex", "damage": "1d6", "damage_type": "fire"}  # fmt: skip
    s = play(s, "a", spell, dice=[2, 4]).state
    assert s["xuleta"]["a"]["slots_spent"] == {"1": 1}
    s = play(s, "b").state
    with pytest.raises(XuletaError) as caught:
        play(s, "a", spell)
    assert caught.value.field == "actions.0.slot_level"


def test_a_readied_action_goes_off_with_the_reaction(quote):
    quote("Quan passa, ho fas amb la teva reacció (o ho deixes córrer).")
    quote("Si prepares un encanteri, gastes l'espai de seguida i necessites concentració fins que "
          "el deixis anar.")  # fmt: skip
    s = started(a=numbers(), b=numbers(max_hp=30))
    s = play(s, "a", {"kind": "ready", "text": "si s'acosta, l'ataco"}).state
    played = play(
        s, "b",
        {"kind": "move", "metres": 3},
        {"kind": "reaction", "by": "a", "target": "b"},
        dice=[15, 4],
    )  # fmt: skip
    assert played.state["fighters"]["b"]["pv"] == 30 - 7
    assert "a ação preparada" in lines(played)
    with pytest.raises(XuletaError) as caught:
        play(s, "b", {"kind": "reaction", "by": "a", "target": "b"},
             {"kind": "reaction", "by": "a", "target": "b"}, dice=[15, 4])  # fmt: skip
    assert caught.value.field == "actions.1.by"


def test_a_readied_spell_spends_its_slot_at_once():
    s = started(a=numbers(slots={"1": 1}, spell_save_dc=13), b=numbers(max_hp=30))
    s = play(s, "a", {"kind": "ready", "text": "si obre la porta", "spell": "Raig",
                      "spell_level": 1, "concentration": True}).state  # fmt: skip
    assert s["xuleta"]["a"]["slots_spent"] == {"1": 1}
    assert s["xuleta"]["a"]["concentration"] == "Raig"
    played = play(
        s, "b",
        {"kind": "reaction", "by": "a", "spell": "Raig", "targets": ["b"], "save": "dex",
         "damage": "1d6", "damage_type": "fire"},
        dice=[2, 4],
    )  # fmt: skip
    assert played.state["fighters"]["b"]["pv"] == 26
    assert played.state["xuleta"]["a"]["concentration"] == ""
