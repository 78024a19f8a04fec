from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps.checks import Outcome
from gurps.errors import (
    FLOOR_TOO_LOW,
    IQ_TOO_LOW,
    NEGATIVE_MAGIC_RESISTANCE,
    NEGATIVE_SPELL_COST,
    NEGATIVE_WILL_LEVEL,
    NO_MANA_IN_POCKET,
    NO_SPELL_WITHOUT_MAGERY,
    NOT_AN_INTEGER,
    ONE_TARGET_UNLESS_AREA,
    UNKNOWN_OUTCOME,
    UNKNOWN_RESISTANCE_ATTRIBUTE,
    InvalidValue,
    NoRollAtThreeOrLess,
)
from gurps.magic import (
    AREA_MAGIC_RESISTANCE_FACTOR,
    CASTER_FAILED_TEXT,
    LIVING_TARGET_LEVEL_CAP,
    MANA_BANDS,
    NOT_RESISTED_TEXT,
    POCKET,
    SPELL_ENERGY_RULES,
    Mana,
    SpellTarget,
    caster_level_against,
    mana_band,
    mana_outcome,
    resist_spell,
    resistance_level,
    spell_casting,
    spell_energy_spent,
    spell_fatigue_spent,
)
from tests.gurps.helpers import ScriptedSource, canon_section, canon_table

PROPERTY = settings(database=None, deadline=None)
MANA_HEADING = "## 6.4 Por que isso é decisivo para o mago"


def test_the_mana_table_is_the_canons_table_row_by_row() -> None:
    rows = canon_table(MANA_HEADING)
    assert len(rows) == len(MANA_BANDS)
    for (band, mana, effect), row in zip(rows, MANA_BANDS, strict=True):
        assert (band, mana) == (row.band, row.name)
        floors = re.fullmatch(r"Andares (\d+)(?:–(\d+)|\+)", band)
        if floors:
            first, last = int(floors[1]), floors[2] and int(floors[2])
            assert (row.first_floor, row.last_floor) == (first, last), band
        else:
            assert band == "Bolsão" and row is POCKET
        bonus = re.search(r"\+(\d+) no nível efetivo", effect)
        assert row.effective_level_bonus == (int(bonus[1]) if bonus else 0), band
        if "metade da fadiga, arredondando para cima" in effect:
            assert (row.fatigue_numerator, row.fatigue_denominator) == (1, 2), band
        elif "Nenhuma fadiga" in effect or "Nada funciona" in effect:
            assert row.fatigue_numerator == 0, band
        else:
            assert effect == "Custo cheio"
            assert (row.fatigue_numerator, row.fatigue_denominator) == (1, 1)
        assert row.failures_are_critical == ("toda falha comum vira falha crítica" in effect)
        assert row.spells_work == (effect != "Nada funciona"), band
        assert row.section == "6.4"


def test_magery_is_required_on_every_floor_by_the_canon() -> None:
    assert "Sem Aptidão Mágica não há feitiço em nenhuma faixa" in canon_section(MANA_HEADING)
    assert "Sem Aptidão Mágica não existe feitiço" in canon_section(
        "# 8. O que esta campanha faz diferente do livro"
    )
    for floor in (1, 9, 21, 40):
        with pytest.raises(InvalidValue) as caught:
            spell_casting(floor, 1, magery=0)
        assert (caught.value.field, caught.value.message) == ("magery", NO_SPELL_WITHOUT_MAGERY)


@pytest.mark.parametrize(
    ("floor", "mana"),
    [(1, Mana.NORMAL), (8, Mana.NORMAL), (9, Mana.HIGH), (20, Mana.HIGH), (21, Mana.VERY_HIGH)],
)
def test_each_floor_has_its_band(floor: int, mana: Mana) -> None:
    assert mana_band(floor).mana is mana
    assert mana_band(floor, pocket=True) is POCKET


@pytest.mark.parametrize(
    ("floor", "cost", "bonus", "fatigue"),
    [(1, 3, 0, 3), (8, 4, 0, 4), (9, 3, 2, 2), (9, 4, 2, 2), (20, 1, 2, 1), (21, 6, 0, 0)],
)
def test_the_floor_sets_level_bonus_and_fatigue(
    floor: int, cost: int, bonus: int, fatigue: int
) -> None:
    casting = spell_casting(floor, cost, magery=1)
    assert (casting.effective_level_bonus, casting.fatigue_cost) == (bonus, fatigue)
    assert casting.failures_are_critical == (floor >= 21)


def test_in_a_pocket_nothing_works() -> None:
    with pytest.raises(InvalidValue) as caught:
        spell_casting(3, 2, magery=2, pocket=True)
    assert (caught.value.field, caught.value.message) == ("floor", NO_MANA_IN_POCKET)
    with pytest.raises(InvalidValue):
        mana_outcome(Outcome.SUCCESS, 3, pocket=True)


@pytest.mark.parametrize(
    ("floor", "outcome", "result"),
    [
        (21, Outcome.FAILURE, Outcome.CRITICAL_FAILURE),
        (21, Outcome.SUCCESS, Outcome.SUCCESS),
        (21, Outcome.CRITICAL_SUCCESS, Outcome.CRITICAL_SUCCESS),
        (20, Outcome.FAILURE, Outcome.FAILURE),
        (1, Outcome.FAILURE, Outcome.FAILURE),
    ],
)
def test_in_very_high_mana_every_ordinary_failure_is_critical(
    floor: int, outcome: Outcome, result: Outcome
) -> None:
    assert mana_outcome(outcome, floor) is result


@pytest.mark.parametrize(
    ("args", "field", "message"),
    [
        ((0, 1, 1), "floor", FLOOR_TOO_LOW),
        (("9", 1, 1), "floor", NOT_AN_INTEGER),
        ((9, -1, 1), "spell_cost", NEGATIVE_SPELL_COST),
        ((9, 1, -1), "magery", NO_SPELL_WITHOUT_MAGERY),
    ],
)
def test_it_refuses_impossible_castings(args: tuple, field: str, message: str) -> None:
    with pytest.raises(InvalidValue) as caught:
        spell_casting(*args)
    assert (caught.value.field, caught.value.message) == (field, message)


@PROPERTY
@given(
    st.integers(min_value=1, max_value=60),
    st.integers(min_value=0, max_value=40),
    st.integers(min_value=1, max_value=3),
)
def test_the_fatigue_cost_is_never_negative_nor_above_the_cost(
    floor: int, cost: int, magery: int
) -> None:
    casting = spell_casting(floor, cost, magery)
    assert 0 <= casting.fatigue_cost <= cost


# --- §4.15 The energy a spell roll spends -------------------------------------------------------

SPELL_FAILURE_HEADING = "## 4.15 Falha crítica em operação mágica"


def test_the_energy_rule_is_the_canons_list() -> None:
    text = " ".join(canon_section(SPELL_FAILURE_HEADING).replace("**", "").split())
    for rule in SPELL_ENERGY_RULES:
        if rule.section == "4.15":
            assert rule.text in text, rule.outcome
    failure = re.search(r"Falha comum gasta (\d+) ponto", text)
    assert spell_energy_spent(Outcome.FAILURE, 10) == int(failure[1])
    assert "Sucesso decisivo não gasta energia nenhuma" in text
    assert "Falha crítica gasta o custo inteiro" in text


@pytest.mark.parametrize(
    ("outcome", "cost", "spent"),
    [
        (Outcome.CRITICAL_SUCCESS, 5, 0),
        (Outcome.SUCCESS, 5, 5),
        (Outcome.FAILURE, 5, 1),
        (Outcome.CRITICAL_FAILURE, 5, 5),
        ("failure", 1, 1),
        (Outcome.FAILURE, 0, 0),  # reading spell_failure_cost_zero
        (Outcome.CRITICAL_FAILURE, 0, 0),
    ],
)
def test_the_energy_a_spell_roll_spends(outcome, cost: int, spent: int) -> None:
    assert spell_energy_spent(outcome, cost) == spent


@pytest.mark.parametrize(
    ("floor", "outcome", "fatigue"),
    [
        (1, Outcome.SUCCESS, 3),
        (1, Outcome.FAILURE, 1),
        (1, Outcome.CRITICAL_FAILURE, 3),
        (1, Outcome.CRITICAL_SUCCESS, 0),
        (9, Outcome.SUCCESS, 2),  # half of 3, rounding up
        (9, Outcome.FAILURE, 1),  # half of 1, rounding up
        (9, Outcome.CRITICAL_FAILURE, 2),
        (9, Outcome.CRITICAL_SUCCESS, 0),
        (21, Outcome.SUCCESS, 0),
        (21, Outcome.FAILURE, 0),  # critical in very high mana, and still no fatigue
        (21, Outcome.CRITICAL_FAILURE, 0),
    ],
)
def test_the_floor_takes_its_share_of_the_energy_spent(
    floor: int, outcome: Outcome, fatigue: int
) -> None:
    assert spell_fatigue_spent(outcome, floor, 3, magery=1) == fatigue


def test_spending_follows_the_mana_rules_refusals() -> None:
    with pytest.raises(InvalidValue) as caught:
        spell_fatigue_spent(Outcome.SUCCESS, 3, 2, magery=0)
    assert (caught.value.field, caught.value.message) == ("magery", NO_SPELL_WITHOUT_MAGERY)
    with pytest.raises(InvalidValue) as caught:
        spell_fatigue_spent(Outcome.SUCCESS, 3, 2, magery=1, pocket=True)
    assert (caught.value.field, caught.value.message) == ("floor", NO_MANA_IN_POCKET)


@pytest.mark.parametrize(
    ("args", "field", "message"),
    [
        (("sucesso", 3), "outcome", UNKNOWN_OUTCOME),
        ((Outcome.SUCCESS, -1), "spell_cost", NEGATIVE_SPELL_COST),
        ((Outcome.SUCCESS, "3"), "spell_cost", NOT_AN_INTEGER),
    ],
)
def test_it_refuses_bad_energy_input(args: tuple, field: str, message: str) -> None:
    with pytest.raises(InvalidValue) as caught:
        spell_energy_spent(*args)
    assert (caught.value.field, caught.value.message) == (field, message)


@PROPERTY
@given(
    st.sampled_from(list(Outcome)),
    st.integers(min_value=1, max_value=60),
    st.integers(min_value=0, max_value=40),
)
def test_energy_spent_is_never_above_the_cost_and_0_only_on_a_critical_success(
    outcome: Outcome, floor: int, cost: int
) -> None:
    energy = spell_energy_spent(outcome, cost)
    fatigue = spell_fatigue_spent(outcome, floor, cost, magery=1)
    assert 0 <= fatigue <= energy <= cost
    if cost >= 1:
        very_high = mana_band(floor).mana is Mana.VERY_HIGH
        assert (energy == 0) == (outcome is Outcome.CRITICAL_SUCCESS)
        assert (fatigue == 0) == (outcome is Outcome.CRITICAL_SUCCESS or very_high)


# --- §7.3 Resistir a magia ------------------------------------------------------------------------

RESIST_HEADING = "## 7.3 Resistir a magia"


def faces(total: int) -> list[int]:
    first = min(6, total - 2)
    second = min(6, total - first - 1)
    return [first, second, total - first - second]


def dice(*totals: int) -> ScriptedSource:
    return ScriptedSource([face for total in totals for face in faces(total)])


def test_the_caps_are_the_canons() -> None:
    text = canon_section(RESIST_HEADING)
    cap = re.search(r"o conjurador rola contra (\d+) no máximo", text)
    assert int(cap[1]) == LIVING_TARGET_LEVEL_CAP
    assert "Abascanto conta em dobro contra magia de área" in text
    assert AREA_MAGIC_RESISTANCE_FACTOR == 2


def test_a_failed_spell_goes_unnoticed_and_no_one_resists() -> None:
    result = resist_spell(dice(15), spell_level=12, targets=[SpellTarget("iq", 10)])
    (target,) = result.targets
    assert not result.spell_roll.outcome.is_success
    assert (target.roll, target.resisted, target.affected) == (None, False, False)
    assert target.text == CASTER_FAILED_TEXT
    assert not result.caster_rebuffed


def test_against_a_living_target_the_caster_counts_at_most_16() -> None:
    living = resist_spell(dice(10, 12), spell_level=20, targets=[SpellTarget("ht", 12)])
    assert living.targets[0].caster_level == 16 and living.targets[0].caster_margin == 6
    thing = resist_spell(
        dice(10, 12), spell_level=20, targets=[SpellTarget("ht", 12, living=False)]
    )
    assert thing.targets[0].caster_level == 20 and thing.targets[0].caster_margin == 10
    assert caster_level_against(14, living=True) == 14


def test_a_tie_goes_to_the_target_and_energy_is_spent_anyway() -> None:
    # caster 14 rolls 10: margin 4; target HT 12 rolls 8: margin 4
    result = resist_spell(dice(10, 8), spell_level=14, targets=[SpellTarget("ht", 12)])
    (target,) = result.targets
    assert (target.caster_margin, target.roll.margin) == (4, 4)
    assert target.resisted and not target.affected
    assert result.caster_rebuffed
    assert "O conjurador sabe que foi rechaçado" in target.text
    assert spell_energy_spent(result.spell_roll.outcome, 3) == 3


def test_the_caster_wins_with_the_greater_margin() -> None:
    result = resist_spell(dice(9, 8), spell_level=14, targets=[SpellTarget("iq", 12)])
    assert result.targets[0].affected and not result.targets[0].resisted


def test_strong_will_and_magic_resistance_add_to_the_resistance() -> None:
    target = SpellTarget("iq", 11, strong_will=2, magic_resistance=3)
    assert resistance_level(target) == 16
    assert resistance_level(target, area=True) == 19  # Abascanto counts double


def test_an_area_spell_rolls_once_and_each_target_resists() -> None:
    targets = [
        SpellTarget("ht", 10, name="a"),
        SpellTarget("ht", 10, resists=False, name="b"),
        SpellTarget("ht", 10, magic_resistance=1, name="c"),
    ]
    # spell roll 9 at 13 (margin 4); a rolls 12 (margin −2); b does not roll; c: 12 → 11
    result = resist_spell(dice(9, 12, 11), spell_level=13, targets=targets, area=True)
    a, b, c = result.targets
    assert a.affected and a.roll.margin == -2
    assert b.affected and b.roll is None and b.text == NOT_RESISTED_TEXT
    assert c.resistance == 12 and c.roll.margin == 1 and c.affected


def test_a_resistance_of_3_or_less_is_not_rolled() -> None:
    result = resist_spell(dice(10), spell_level=12, targets=[SpellTarget("iq", 3)])
    assert result.targets[0].affected and result.targets[0].roll is None
    assert result.targets[0].readings == ("resist_at_three_or_less",)


def test_a_spell_that_is_not_an_area_spell_has_one_target() -> None:
    with pytest.raises(InvalidValue) as caught:
        resist_spell(dice(10), spell_level=12, targets=[SpellTarget("iq", 10)] * 2)
    assert (caught.value.field, caught.value.message) == ("targets", ONE_TARGET_UNLESS_AREA)


@pytest.mark.parametrize(
    ("target", "field", "message"),
    [
        (SpellTarget("will", 10), "targets.0.attribute", UNKNOWN_RESISTANCE_ATTRIBUTE),
        (SpellTarget("iq", 0), "targets.0.iq", IQ_TOO_LOW),
        (SpellTarget("ht", 10, strong_will=-1), "targets.0.strong_will", NEGATIVE_WILL_LEVEL),
        (
            SpellTarget("ht", 10, magic_resistance=-1),
            "targets.0.magic_resistance",
            NEGATIVE_MAGIC_RESISTANCE,
        ),
    ],
)
def test_it_refuses_a_bad_target(target: SpellTarget, field: str, message: str) -> None:
    with pytest.raises(InvalidValue) as caught:
        resist_spell(dice(10), spell_level=12, targets=[target])
    assert (caught.value.field, caught.value.message) == (field, message)


def test_no_spell_roll_at_3_or_less() -> None:
    with pytest.raises(NoRollAtThreeOrLess):
        resist_spell(dice(10), spell_level=3, targets=[SpellTarget("iq", 10)])


@PROPERTY
@given(
    st.integers(min_value=4, max_value=30),
    st.integers(min_value=1, max_value=20),
    st.booleans(),
    st.integers(min_value=0, max_value=2**32),
)
def test_a_tie_always_favours_the_target_and_the_cap_holds(
    spell_level: int, resistance: int, living: bool, seed: int
) -> None:
    result = resist_spell(
        random.Random(seed),
        spell_level=spell_level,
        targets=[SpellTarget("iq", resistance, living=living)],
    )
    (target,) = result.targets
    if living:
        assert target.caster_level <= LIVING_TARGET_LEVEL_CAP
    assert target.caster_margin == target.caster_level - result.spell_roll.total
    if target.roll is not None:
        assert target.resisted == (target.roll.margin >= target.caster_margin)
        if target.roll.margin == target.caster_margin:
            assert target.resisted
    assert not (target.resisted and target.affected)
    assert target.affected == (result.spell_roll.outcome.is_success and not target.resisted)
