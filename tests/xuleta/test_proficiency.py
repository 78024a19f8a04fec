"""The bonuses added to a d20: «Prova de característica», «Tirada d'atac», «Tirada de
salvació», «Bonificació per competència», «Proves passives», «CD i atac d'encanteri»
(xuleta.proficiency)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xuleta.abilities import ABILITIES, SKILLS, proficiency_bonus
from xuleta.errors import XuletaError
from xuleta.proficiency import (
    SPELLCASTING_ABILITY,
    attack_ability,
    attack_bonus,
    check_bonus,
    modifiers,
    passive_score,
    save_bonus,
    spell_attack_bonus,
    spell_save_dc,
    spellcasting_ability,
)
from xuleta.rolls import ADVANTAGE, DISADVANTAGE

PROPERTY = settings(
    database=None, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
scores = st.fixed_dictionaries({a: st.integers(min_value=1, max_value=30) for a in ABILITIES})
levels = st.integers(min_value=1, max_value=20)
FIGHTER = {"str": 15, "dex": 12, "con": 14, "int": 8, "wis": 13, "cha": 10}


@PROPERTY
@given(scores, levels, st.sampled_from(tuple(SKILLS)), st.booleans())
def test_a_skill_check_adds_proficiency_when_proficient(quote, abilities, level, skill, mine):
    quote(
        "Si la prova fa servir una habilitat en què ets competent, també hi sumes la "
        "bonificació per competència."
    )
    mod = (abilities[SKILLS[skill]] - 10) // 2
    expected = mod + (proficiency_bonus(level) if mine else 0)
    assert check_bonus(abilities, level, "", [skill] if mine else [], skill) == expected


def test_proficiency_is_added_once(quote):
    quote("Mai no se suma més d'un cop a la mateixa tirada.")
    twice = check_bonus(FIGHTER, 3, "", ["Atletisme", "atletisme", "Atletisme"], "Atletisme")
    assert twice == 2 + 2
    assert save_bonus(FIGHTER, 3, "str", ["str", "Força"]) == 2 + 2


def test_the_dm_may_change_a_skills_ability(quote):
    quote("El DM pot canviar la característica si té sentit")
    # Atletisme with Constitució: CON +2, proficient +2.
    assert check_bonus(FIGHTER, 1, "con", ["Atletisme"], "Atletisme") == 4
    assert check_bonus(FIGHTER, 1, "int") == -1


@PROPERTY
@given(scores, levels, st.sampled_from(ABILITIES), st.booleans())
def test_a_save_adds_proficiency_when_the_class_gives_it(quote, abilities, level, ability, mine):
    quote(
        "Si la teva classe et dona competència en aquesta salvació, hi sumes la bonificació "
        "per competència."
    )
    expected = (abilities[ability] - 10) // 2 + (proficiency_bonus(level) if mine else 0)
    assert save_bonus(abilities, level, ability, [ability] if mine else []) == expected


def test_attack_ability_melee_ranged_finesse(quote):
    quote("Cos a cos fa servir Força; a distància, Destresa.")
    quote("Les armes subtils et deixen triar Força o Destresa.")
    assert attack_ability(FIGHTER, ranged=False) == "str"
    assert attack_ability(FIGHTER, ranged=True) == "dex"
    nimble = {**FIGHTER, "dex": 18}
    assert attack_ability(nimble, ranged=False, finesse=True) == "dex"
    assert attack_ability(FIGHTER, ranged=False, finesse=True) == "str"


def test_attack_bonus(quote):
    quote(
        "d20 + modificador + bonificació per competència (si ets competent amb l'arma), contra "
        "la classe d'armadura (CA) de l'objectiu."
    )
    assert attack_bonus(FIGHTER, 5, "str", proficient=True) == 2 + 3
    assert attack_bonus(FIGHTER, 5, "str", proficient=False) == 2


def test_passive_perception(quote):
    quote("La més utilitzada és la Percepció passiva.")
    assert passive_score(FIGHTER, 3, proficient_skills=["Percepció"]) == 10 + 1 + 2
    assert passive_score(FIGHTER, 3, edge=ADVANTAGE) == 16
    assert passive_score(FIGHTER, 3, edge=DISADVANTAGE) == 6


@PROPERTY
@given(scores, levels, st.sampled_from(tuple(SPELLCASTING_ABILITY)))
def test_spell_dc_and_attack(quote, abilities, level, class_name):
    quote(
        "CD de salvació = 8 + bonificació per competència + mod. de la teva característica de "
        "llançament."
    )
    quote(
        "Atac d'encanteri = bonificació per competència + mod. de la teva característica de llançament."
    )
    ability = spellcasting_ability(class_name)
    mod = (abilities[ability] - 10) // 2
    assert spell_save_dc(abilities, level, ability) == 8 + proficiency_bonus(level) + mod
    assert spell_attack_bonus(abilities, level, ability) == proficiency_bonus(level) + mod


def test_spellcasting_ability_by_class(quote):
    quote(
        "La teva característica de llançament depèn de la classe: Intel·ligència (mag), "
        "Saviesa (clergue, druida, explorador) o Carisma (bard, bruixot, fetiller, paladí)."
    )
    assert spellcasting_ability("Mag") == "int"
    assert {spellcasting_ability(c) for c in ("clergue", "druida", "explorador")} == {"wis"}
    assert {spellcasting_ability(c) for c in ("bard", "bruixot", "fetiller", "paladí")} == {"cha"}
    with pytest.raises(XuletaError) as caught:
        spellcasting_ability("guerrer")
    assert caught.value.field == "spellcasting.class" and "mag" in caught.value.message


def test_missing_or_bad_ability_named():
    with pytest.raises(XuletaError) as caught:
        modifiers({k: v for k, v in FIGHTER.items() if k != "wis"})
    assert caught.value.field == "abilities.wis"
    with pytest.raises(XuletaError) as caught:
        modifiers({**FIGHTER, "cha": 31})
    assert caught.value.field == "abilities.cha"
