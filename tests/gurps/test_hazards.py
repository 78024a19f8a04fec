"""Fire, poison and disease (gurps.hazards, canon §5g), heat and cold (§5h)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps.checks import Outcome
from gurps.dice import DiceExpression, parse_dice
from gurps.errors import (
    DIE_OUT_OF_RANGE,
    FIRE_DR_OUTSIDE_CANON,
    FLOOR_TOO_LOW,
    NEGATIVE_DR,
    NEGATIVE_DURATION,
    ORDINARY_COLD_OUTSIDE_CANON,
    TORCH_DAMAGE_IS_PER_HIT,
    UNKNOWN_FIRE_ARMOUR,
    UNKNOWN_FIRE_KIND,
    UNKNOWN_OUTCOME,
    UNKNOWN_POISON_TYPE,
    InvalidValue,
    OutsideCanon,
)
from gurps.hazards import (
    CANON_TABLES,
    CLIMATE_HAZARDS,
    DEEP_HEAT_FROM_FLOOR,
    DEEP_HEAT_NOTE,
    DISEASE_STREAK,
    FIRE_HAZARDS,
    FIRST_AID_KIT_BONUS,
    IMPROVISED_ANTIDOTE_MODIFIER,
    METAL_ARMOUR_HEAT_MULTIPLIER,
    POISONS,
    PUT_OUT_TURNS,
    TORCH_IGNITES_AT_OR_BELOW,
    WOUND_INFECTION_MODIFIER,
    Climate,
    ClimateCost,
    DiseaseCourse,
    FireArmour,
    FireKind,
    PoisonEffectKind,
    PoisonType,
    antidote_roll,
    disease_course,
    disease_day,
    disease_level,
    dr_against_fire,
    extreme_cold,
    extreme_heat,
    fire_damage,
    fire_put_out,
    icy_water,
    metal_armour_is_an_oven,
    ordinary_cold,
    poison_delivered,
    poison_effect,
    poison_resistance_level,
    roll_torch_ignites,
    torch_ignites,
    wound_infection_level,
)
from gurps.readings import READINGS_BY_KEY
from tests.gurps.helpers import ScriptedSource, canon_section, canon_table

PROPERTY = settings(database=None, deadline=None)


def _prose(heading: str) -> str:
    """The canon's text under ``heading``, bold removed and its line breaks joined."""
    return " ".join(canon_section(heading).replace("**", "").split())


FIRE = _prose("## Fogo")
POISON = _prose("## Veneno")
DISEASE = _prose("## Doença")
HEAT_AND_COLD = _prose("# 5h. Calor e frio")
S, F = Outcome.SUCCESS, Outcome.FAILURE


def _dice(text: str) -> DiceExpression:
    return parse_dice(text.replace("D", "d"))


# --- Fogo ---------------------------------------------------------------------------------------


def test_the_fire_numbers_are_the_canons() -> None:
    found = {
        FireKind.ON_FIRE: re.search(r"Estar em chamas custa (\S+) por turno", FIRE)[1],
        FireKind.TORCH: re.search(r"Tocha em combate faz (\S+) e incendeia", FIRE)[1],
        FireKind.BURNING_OIL: re.search(r"Óleo em chamas faz (\S+) por turno", FIRE)[1],
    }
    for row in FIRE_HAZARDS:
        assert row.damage == _dice(found[row.kind]), row.name
        assert row.per_turn is (row.kind is not FireKind.TORCH)
        assert (row.section, row.page) == ("5g", "")
    ignites = re.search(r"incendeia com (\d) ou menos em 1d", FIRE)[1]
    assert TORCH_IGNITES_AT_OR_BELOW == int(ignites)
    assert f"leva {PUT_OUT_TURNS} turno com sucesso em DX" in FIRE


def test_fire_damage_adds_up_turn_by_turn() -> None:
    assert fire_damage("on_fire", turns=3) == parse_dice("3d")
    assert fire_damage(FireKind.BURNING_OIL, turns=3) == parse_dice("3d-3")
    assert fire_damage(FireKind.TORCH) == parse_dice("1d-3")
    assert fire_damage(FireKind.ON_FIRE, turns=0) == DiceExpression(0)


def test_a_torch_does_its_damage_per_blow() -> None:
    with pytest.raises(InvalidValue) as caught:
        fire_damage(FireKind.TORCH, turns=2)
    assert (caught.value.field, caught.value.message) == ("turns", TORCH_DAMAGE_IS_PER_HIT)
    with pytest.raises(InvalidValue) as caught:
        fire_damage("lava")
    assert (caught.value.field, caught.value.message) == ("kind", UNKNOWN_FIRE_KIND)


def test_a_torch_ignites_on_5_or_less() -> None:
    assert [torch_ignites(face) for face in range(1, 7)] == [True] * 5 + [False]
    assert roll_torch_ignites(ScriptedSource([6])) == (6, False)
    with pytest.raises(InvalidValue) as caught:
        torch_ignites(7)
    assert (caught.value.field, caught.value.message) == ("die", DIE_OUT_OF_RANGE)


def test_putting_the_fire_out_takes_a_dx_success() -> None:
    assert fire_put_out(Outcome.SUCCESS) and fire_put_out("critical_success")
    assert not fire_put_out(Outcome.FAILURE)
    with pytest.raises(InvalidValue) as caught:
        fire_put_out("maybe")
    assert caught.value.message == UNKNOWN_OUTCOME


def test_metal_dr_does_not_protect_against_fire_and_leather_protects_half() -> None:
    assert "RD de metal não protege contra fogo" in FIRE
    assert "Couro protege pela metade" in FIRE
    assert dr_against_fire(4, FireArmour.METAL) == 0
    assert dr_against_fire(4, "leather") == 2
    assert dr_against_fire(3, "leather") == 1  # reading: rounds down
    assert "leather_fire_dr_rounds_down" in READINGS_BY_KEY


def test_burning_oil_under_the_armour_meets_no_armour() -> None:
    assert "a armadura não protege contra fogo que entra por baixo dela" in FIRE
    assert dr_against_fire(4, "leather", fire_under_armour=True) == 0


def test_other_protection_against_fire_is_outside_the_canon() -> None:
    with pytest.raises(OutsideCanon) as caught:
        dr_against_fire(2, FireArmour.OTHER)
    assert (caught.value.rule, caught.value.message) == ("5g", FIRE_DR_OUTSIDE_CANON)
    with pytest.raises(InvalidValue) as caught:
        dr_against_fire(2, "wood")
    assert (caught.value.field, caught.value.message) == ("armour", UNKNOWN_FIRE_ARMOUR)
    with pytest.raises(InvalidValue) as caught:
        dr_against_fire(-1, "metal")
    assert (caught.value.field, caught.value.message) == ("dr", NEGATIVE_DR)


# --- Veneno -------------------------------------------------------------------------------------


def test_each_poison_rows_numbers_are_in_its_words() -> None:
    rows = canon_table("## Veneno")
    assert [row.name for row in POISONS] == [name for name, _ in rows]
    for (_, effect), row in zip(rows, POISONS, strict=True):
        modifier = re.match(r"HT(?: ([−+]\d+))? ou", effect)[1]
        assert row.ht_modifier == (int(modifier.replace("−", "-")) if modifier else 0)
        assert row.dice == _dice(re.search(r"(\d+D)", effect)[1])


def test_a_poisoned_weapon_delivers_only_through_the_dr() -> None:
    assert "só se o golpe passar a RD" in POISON
    assert poison_delivered(5, 3)
    assert not poison_delivered(3, 3)
    assert not poison_delivered(-1, 0)


def test_the_ht_roll_takes_the_poisons_modifier() -> None:
    assert poison_resistance_level(12, "blood") == 12
    assert poison_resistance_level(12, PoisonType.SLEEP) == 10
    assert poison_resistance_level(12, PoisonType.SLEEP, modifier=-4) == 8
    assert "poison_modifier_replaces_type" in READINGS_BY_KEY
    with pytest.raises(InvalidValue) as caught:
        poison_resistance_level(12, "snake")
    assert (caught.value.field, caught.value.message) == ("poison_type", UNKNOWN_POISON_TYPE)


def test_a_blood_poison_hurts_each_minute_until_a_roll_passes() -> None:
    hurt = poison_effect("blood", F, ScriptedSource([4]))
    assert (hurt.kind, hurt.amount, hurt.rolls_again, hurt.dice) == (
        PoisonEffectKind.DAMAGE_PER_MINUTE,
        4,
        True,
        (4,),
    )
    passed = poison_effect("blood", S, ScriptedSource([]))
    assert (passed.amount, passed.rolls_again) == (0, False)


def test_nerve_and_sleeping_poisons_last_1d_minutes_and_hours() -> None:
    nerve = poison_effect(PoisonType.NERVE, Outcome.CRITICAL_FAILURE, ScriptedSource([3]))
    sleep = poison_effect(PoisonType.SLEEP, F, ScriptedSource([6]))
    assert (nerve.kind, nerve.amount, nerve.rolls_again) == (
        PoisonEffectKind.PARALYSIS_MINUTES,
        3,
        False,
    )
    assert (sleep.kind, sleep.amount) == (PoisonEffectKind.SLEEP_HOURS, 6)


def test_an_antidote_rolls_pharmacy_or_first_aid_at_minus_4() -> None:
    words = re.search(r"Antídoto testa (\w+), ou (.+?) a ([−+]\d+) se for improvisado", POISON)
    prepared = antidote_roll(improvised=False, pharmacy=11)
    improvised = antidote_roll(improvised=True, first_aid=12)
    assert (prepared.skill, prepared.level) == (words[1], 11)
    assert improvised.skill == words[2]
    assert IMPROVISED_ANTIDOTE_MODIFIER == int(words[3].replace("−", "-"))
    assert improvised.level == 12 + IMPROVISED_ANTIDOTE_MODIFIER


def test_an_antidote_needs_the_skill() -> None:
    with pytest.raises(InvalidValue) as caught:
        antidote_roll(improvised=True, pharmacy=14)
    assert caught.value.field == "first_aid"


# --- Doença -------------------------------------------------------------------------------------


def test_the_disease_rule_is_the_canons() -> None:
    assert "uma vez por dia; três sucessos seguidos curam, três falhas agravam" in DISEASE
    assert DISEASE_STREAK == 3
    assert disease_level(12, -2) == 10


@pytest.mark.parametrize(
    ("outcomes", "successes", "failures", "worsened", "cured"),
    [
        ([S, S, S], 3, 0, 0, True),
        ([S, S, F, S, S], 2, 0, 0, False),
        ([F, F, F], 0, 0, 1, False),
        ([F] * 6, 0, 0, 2, False),
        ([F, F, S, F, F], 0, 2, 0, False),
        ([F, F, F, S, S, S, F], 3, 0, 1, True),  # cured stays cured
    ],
)
def test_a_disease_day_by_day(outcomes, successes, failures, worsened, cured) -> None:
    course = disease_course(outcomes)
    assert (
        course.successes_in_a_row,
        course.failures_in_a_row,
        course.worsened,
        course.cured,
    ) == (successes, failures, worsened, cured)


def test_a_wound_infection_is_ht_plus_3_or_plain_ht_and_the_kit_gives_1() -> None:
    assert f"HT +{WOUND_INFECTION_MODIFIER} para evitar, HT normal em área" in DISEASE
    assert f"O kit de primeiros socorros dá +{FIRST_AID_KIT_BONUS}" in DISEASE
    assert "quem não tem kit não trata" in DISEASE
    assert wound_infection_level(12) == 15
    assert wound_infection_level(12, special_area=True) == 12
    assert wound_infection_level(12, treated_with_kit=True) == 16


# --- §5h Calor e frio ---------------------------------------------------------------------------


def test_the_heat_and_cold_numbers_are_in_the_canons_cells() -> None:
    rows = dict(canon_table("# 5h. Calor e frio"))
    for row in CLIMATE_HAZARDS:
        cell = rows[row.situation]
        fatigue = re.match(r"(\d+) de Fadiga por hora", cell)
        assert row.fatigue_per_hour == (int(fatigue[1]) if fatigue else 0)
        dice = re.search(r"(\d+D)(?: de dano)? por (hora|minuto)", cell)
        assert (row.damage, row.damage_every) == (
            (_dice(dice[1]), dice[2]) if dice else (None, None)
        )
    assert "o dobro com armadura de metal" in rows["Calor extremo"]
    assert METAL_ARMOUR_HEAT_MULTIPLIER == 2


def test_extreme_heat_costs_double_in_metal_armour() -> None:
    assert extreme_heat(3) == ClimateCost(3, DiceExpression(0))
    assert extreme_heat(3, metal_armour=True).fatigue == 6


def test_extreme_cold_hurts_only_without_winter_clothes() -> None:
    assert extreme_cold(2, winter_clothes=False) == ClimateCost(2, parse_dice("2d"))
    assert extreme_cold(2, winter_clothes=True) == ClimateCost(2, DiceExpression(0))


def test_winter_clothes_cancel_ordinary_cold_and_without_them_the_canon_is_silent() -> None:
    assert "Roupa de inverno anula o frio comum." in HEAT_AND_COLD
    assert ordinary_cold(5, winter_clothes=True) == ClimateCost(0, DiceExpression(0))
    with pytest.raises(OutsideCanon) as caught:
        ordinary_cold(5, winter_clothes=False)
    assert (caught.value.rule, caught.value.message) == ("5h", ORDINARY_COLD_OUTSIDE_CANON)


def test_icy_water_is_1d_a_minute_without_protection() -> None:
    assert icy_water(3) == ClimateCost(0, parse_dice("3d"))
    assert icy_water(3, protected=True).damage == DiceExpression(0)
    with pytest.raises(InvalidValue) as caught:
        icy_water(-1)
    assert (caught.value.field, caught.value.message) == ("minutes", NEGATIVE_DURATION)


def test_from_floor_9_down_metal_armour_is_an_oven_with_no_number() -> None:
    assert DEEP_HEAT_NOTE in HEAT_AND_COLD
    assert f"Do andar {DEEP_HEAT_FROM_FLOOR} para baixo" in HEAT_AND_COLD
    assert not metal_armour_is_an_oven(8)
    assert metal_armour_is_an_oven(9) and metal_armour_is_an_oven(30)
    with pytest.raises(InvalidValue) as caught:
        metal_armour_is_an_oven(0)
    assert (caught.value.field, caught.value.message) == ("floor", FLOOR_TOO_LOW)


def test_every_hazard_table_has_its_section() -> None:
    sections = {table.key: table.section for table in CANON_TABLES}
    assert sections == {"fire": "5g", "poison": "5g", "disease": "5g", "heat_and_cold": "5h"}
    assert {row.climate for row in CLIMATE_HAZARDS} == set(Climate)


# --- properties ---------------------------------------------------------------------------------


@PROPERTY
@given(st.integers(min_value=0, max_value=40), st.sampled_from(list(FireArmour)[:2]), st.booleans())
def test_armour_never_protects_more_against_fire_than_its_dr(
    dr: int, armour: FireArmour, under: bool
) -> None:
    assert 0 <= dr_against_fire(dr, armour, fire_under_armour=under) <= dr


@PROPERTY
@given(
    st.sampled_from([FireKind.ON_FIRE, FireKind.BURNING_OIL]),
    st.integers(min_value=0, max_value=60),
)
def test_fire_damage_grows_by_one_turn_at_a_time(kind: FireKind, turns: int) -> None:
    one = fire_damage(kind)
    total = fire_damage(kind, turns=turns)
    assert (total.count, total.modifier) == (one.count * turns, one.modifier * turns)
    assert total.minimum >= 0


@PROPERTY
@given(st.lists(st.sampled_from(list(Outcome)), max_size=30))
def test_a_disease_is_cured_only_by_three_successes_in_a_row(outcomes: list[Outcome]) -> None:
    course = DiseaseCourse()
    streak = 0
    for outcome in outcomes:
        before = course
        course = disease_day(course, outcome)
        if before.cured:
            assert course == before
            continue
        streak = streak + 1 if outcome.is_success else 0
        assert course.cured is (streak >= DISEASE_STREAK)
        assert course.failures_in_a_row < DISEASE_STREAK
        assert course.worsened >= before.worsened
