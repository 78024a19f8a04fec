from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps.checks import Outcome
from gurps.errors import (
    FLOOR_TOO_LOW,
    NEGATIVE_SPELL_COST,
    NO_MANA_IN_POCKET,
    NO_SPELL_WITHOUT_MAGERY,
    NOT_AN_INTEGER,
    InvalidValue,
)
from gurps.magic import MANA_BANDS, POCKET, Mana, mana_band, mana_outcome, spell_casting
from tests.gurps.helpers import canon_section, canon_table

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
