from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as strategies

from gurps.attributes import base_move, basic_speed
from gurps.derived import Given, NamedValue, Shield, Weapon, derive, format_number
from gurps.encumbrance import LIFT_ONLY_NAME
from gurps.errors import (
    DUPLICATE_WEAPON_NAME,
    NEGATIVE_FATIGUE_LOST,
    NEGATIVE_HP_LOST,
    NEGATIVE_PD,
    NEGATIVE_SKILL,
    NEGATIVE_WEIGHT,
    ST_TOO_LOW,
    UNKNOWN_PARRY_KIND,
    InvalidValue,
)
from gurps.readings import READINGS_BY_KEY

JURADO = dict(st=13, dx=14, iq=10, ht=13, armour_pd=3, shield=Shield(skill=14, pd=2))


def test_it_derives_the_jurados_block() -> None:
    derived = derive(**JURADO, carried_kg=20, weapons=[Weapon("Lança", 17)])
    assert (derived.hp, derived.hp_remaining, derived.fatigue, derived.st_after_fatigue) == (
        13,
        13,
        13,
        13,
    )
    assert derived.basic_speed == Fraction(27, 4)
    assert (derived.encumbrance.level, derived.move, derived.dodge) == (1, 5, 5)
    assert (derived.block, derived.passive_defense, derived.block_total) == (7, 5, 12)
    assert derived.dodge_total == 10
    assert derived.parries == (NamedValue("Lança", 8),)
    assert derived.parries_total == (NamedValue("Lança", 13),)
    assert derived.staggered is False


def test_it_explains_each_value_with_its_numbers_and_section() -> None:
    derived = derive(**JURADO, carried_kg=20, weapons=[Weapon("Lança", 17)], combat_reflexes=True)
    explanations = derived.explanations
    assert explanations["basic_speed"].formula == "(DX 14 + HT 13) ÷ 4 = 6,75"
    assert explanations["move"].formula == "Velocidade Básica 6,75 − Carga 1 = 5,75 → 5"
    assert explanations["block"].formula == "NH Escudo 14 ÷ 2 = 7 (+1 Reflexos em Combate) = 8"
    assert explanations["encumbrance"].formula == "20 kg com ST 13: até 26 kg (2 × ST) → Leve (1)"
    assert (explanations["basic_speed"].section, explanations["basic_speed"].page) == ("2.1", "15")
    required = {
        "hp",
        "fatigue",
        "basic_speed",
        "encumbrance",
        "move",
        "dodge",
        "block",
        "passive_defense",
    }
    assert required | {"parry:Lança"} <= set(explanations)


def test_staggered_halves_move_and_dodge_before_combat_reflexes() -> None:
    derived = derive(**JURADO, hp_lost=11, combat_reflexes=True)
    assert (derived.staggered, derived.move, derived.dodge) == (True, 3, 4)
    assert "combat_reflexes_after_halving" in derived.explanations["dodge"].readings


def test_below_0_hp_move_and_dodge_stay_halved_and_say_it_is_a_reading() -> None:
    derived = derive(**JURADO, hp_lost=20)
    assert (derived.hp_remaining, derived.move, derived.dodge) == (-7, 3, 3)
    assert "staggered_below_1_hp" in derived.explanations["move"].readings


def test_fatigue_halves_move_at_st_3_but_carga_keeps_the_sheets_st() -> None:
    derived = derive(**JURADO, carried_kg=20, fatigue_lost=10)
    assert derived.st_after_fatigue == 3
    assert derived.encumbrance.level == 1  # 20 kg against ST 13, not ST 3
    assert (derived.move, derived.dodge) == (2, 2)
    assert "carga_uses_sheet_st" in derived.explanations["encumbrance"].readings


def test_low_hp_and_low_st_together_halve_once() -> None:
    derived = derive(**JURADO, hp_lost=12, fatigue_lost=12)
    assert derived.move == 3
    assert "halve_once" in derived.explanations["move"].readings


def test_between_10_and_15_times_st_there_is_no_move() -> None:
    derived = derive(**JURADO, carried_kg=150)
    assert (derived.encumbrance.name, derived.move, derived.dodge) == (LIFT_ONLY_NAME, 0, 0)


def test_without_a_shield_there_is_no_block() -> None:
    derived = derive(st=10, dx=10, iq=10, ht=10)
    assert (derived.block, derived.block_total, derived.passive_defense) == (None, None, 0)


def test_a_shield_without_the_shield_skill_still_gives_its_pd() -> None:
    # §4.6 (p. 99): PD "sempre protege"; §4.7: Block needs the Shield skill.
    derived = derive(st=13, dx=12, iq=10, ht=12, armour_pd=3, shield=Shield(skill=None, pd=2))
    assert (derived.block, derived.block_total, derived.passive_defense) == (None, None, 5)
    assert derived.dodge_total == derived.dodge + 5


def test_every_reading_named_in_an_explanation_exists() -> None:
    derived = derive(**JURADO, carried_kg=150, hp_lost=20, fatigue_lost=12, combat_reflexes=True)
    for explanation in derived.explanations.values():
        assert all(key in READINGS_BY_KEY for key in explanation.readings)


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"st": 0}, "st", ST_TOO_LOW),
        ({"carried_kg": -1}, "carried_kg", NEGATIVE_WEIGHT),
        ({"hp_lost": -1}, "hp_lost", NEGATIVE_HP_LOST),
        ({"fatigue_lost": -1}, "fatigue_lost", NEGATIVE_FATIGUE_LOST),
        ({"armour_pd": -1}, "armour_pd", NEGATIVE_PD),
        ({"shield": Shield(skill=14, pd=-1)}, "shield.pd", NEGATIVE_PD),
        ({"shield": Shield(skill=-1, pd=2)}, "shield.skill", NEGATIVE_SKILL),
        ({"weapons": [Weapon("Sabre", 12, "lightsaber")]}, "weapons.parry", UNKNOWN_PARRY_KIND),
        ({"weapons": [Weapon("Sabre", -1)]}, "weapons.skill", NEGATIVE_SKILL),
        (
            {"weapons": [Weapon("Faca", 12), Weapon("Faca", 10)]},
            "weapons.name",
            DUPLICATE_WEAPON_NAME,
        ),
    ],
)
def test_it_names_the_field_of_an_invalid_value(changes: dict, field: str, message: str) -> None:
    with pytest.raises(InvalidValue) as caught:
        derive(**{**JURADO, **changes})
    assert (caught.value.field, caught.value.message) == (field, message)


@pytest.mark.parametrize(
    ("value", "text"),
    [(Fraction(27, 4), "6,75"), (6, "6"), (Fraction(-1, 2), "−0,5"), (Fraction(1, 3), "1/3")],
)
def test_numbers_are_written_the_brazilian_way(value: Fraction, text: str) -> None:
    assert format_number(value) == text


def test_a_sheets_own_st_3_without_fatigue_keeps_its_move() -> None:
    # §6.2: "Deslocamento não muda até a ST cair a 3" — ST 3 from the sheet has not fallen.
    whole = derive(st=3, dx=12, iq=10, ht=12)
    assert (whole.move, whole.dodge, whole.move_halved) == (6, 6, False)
    assert "fadiga" not in whole.explanations["move"].formula
    fallen = derive(st=4, dx=12, iq=10, ht=12, fatigue_lost=1)
    assert (fallen.move, fallen.dodge, fallen.move_halved) == (3, 3, True)
    assert "ST 3 ou menos por fadiga" in fallen.explanations["move"].formula


def test_a_creatures_given_numbers_take_the_same_halving_stun_and_balance() -> None:
    cavador = dict(st=10, dx=12, iq=4, ht=9, given=Given(hp=9, move=7, dodge=6, block=None))
    whole = derive(**cavador, weapons=[Weapon("Mordida", 12, given_parry=None)])
    assert (whole.hp, whole.move, whole.dodge) == (9, 7, 6)
    hurt = derive(**cavador, hp_lost=6, stunned=True, off_balance=True)
    # 3 of 9 HP: Move and Dodge halved once, rounding down (§5.4, "bicho inclusive"); then
    # stunned −4 (§4.6) and off balance −2 (§4.8).
    assert (hurt.hp_remaining, hurt.move, hurt.dodge) == (3, 3, 3 - 4 - 2)
    assert "Esquiva do bestiário 6" in hurt.explanations["dodge"].formula


def test_a_bestiary_parry_and_block_are_the_mestres_numbers_with_stun() -> None:
    found = derive(
        st=12,
        dx=12,
        iq=10,
        ht=12,
        stunned=True,
        given=Given(block=6),
        weapons=[Weapon("Clava", 12, given_parry=7)],
    )
    assert found.block == 6 - 4
    assert found.parries == (NamedValue("Clava", 3),)


def test_off_balance_costs_every_active_defence_two() -> None:
    calm = derive(**JURADO, weapons=[Weapon("Lança", 17)])
    shaken = derive(**JURADO, weapons=[Weapon("Lança", 17)], off_balance=True)
    assert (shaken.dodge, shaken.block) == (calm.dodge - 2, calm.block - 2)
    assert shaken.parries[0].value == calm.parries[0].value - 2
    assert "Perdeu o equilíbrio" in shaken.explanations["dodge"].formula


@settings(max_examples=300, deadline=None)
@given(
    st=strategies.integers(1, 20),
    dx=strategies.integers(1, 20),
    ht=strategies.integers(1, 20),
    hp_lost=strategies.integers(0, 120),
    fatigue_lost=strategies.integers(0, 25),
    kg=strategies.integers(0, 300),
    cr=strategies.booleans(),
    stunned=strategies.booleans(),
)
def test_move_and_dodge_follow_the_canon_at_every_hp_fatigue_and_load(
    st, dx, ht, hp_lost, fatigue_lost, kg, cr, stunned
) -> None:
    found = derive(
        st=st,
        dx=dx,
        iq=10,
        ht=ht,
        hp_lost=hp_lost,
        fatigue_lost=fatigue_lost,
        carried_kg=kg,
        combat_reflexes=cr,
        stunned=stunned,
    )
    whole = base_move(basic_speed(dx, ht), found.encumbrance.level)
    halved = ht - hp_lost <= 3 or (fatigue_lost > 0 and st - fatigue_lost <= 3)
    assert found.move == (whole // 2 if halved else whole)  # halved once, never twice
    assert found.dodge == found.move + (1 if cr else 0) - (4 if stunned else 0)
