from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps.errors import (
    MARCH_FATIGUE_NOT_IN_CANON,
    NEGATIVE_DURATION,
    UNKNOWN_ENCUMBRANCE_LEVEL,
    InvalidValue,
    OutsideCanon,
)
from gurps.fatigue import FATIGUE_SOURCES, combat_fatigue, march_fatigue, rest_recovery
from tests.gurps.helpers import canon_section, canon_table

PROPERTY = settings(database=None, deadline=None)


def test_the_fatigue_sources_are_the_canons_table_row_by_row() -> None:
    rows = canon_table("## 6.1 O que gasta")
    assert [[row.source, row.cost, row.page] for row in FATIGUE_SOURCES] == rows
    assert all(row.section == "6.1" for row in FATIGUE_SOURCES)


@pytest.mark.parametrize(("level", "cost"), [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)])
def test_a_fight_over_10_seconds_costs_encumbrance_level_plus_1(level: int, cost: int) -> None:
    assert combat_fatigue(11, level) == cost
    assert combat_fatigue(10, level) == 0


def test_combat_refuses_unknown_levels_and_negative_time() -> None:
    with pytest.raises(InvalidValue) as caught:
        combat_fatigue(20, 5)
    assert (caught.value.field, caught.value.message) == (
        "encumbrance_level",
        UNKNOWN_ENCUMBRANCE_LEVEL,
    )
    with pytest.raises(InvalidValue) as caught:
        combat_fatigue(-1, 0)
    assert (caught.value.field, caught.value.message) == ("seconds", NEGATIVE_DURATION)


def test_marching_with_light_load_costs_2_an_hour_3_in_the_heat() -> None:
    assert march_fatigue(3, 1) == 6
    assert march_fatigue(3, 1, hot=True) == 9


@pytest.mark.parametrize("level", [0, 2, 3, 4])
def test_marching_with_other_loads_is_outside_the_canon(level: int) -> None:
    with pytest.raises(OutsideCanon) as caught:
        march_fatigue(1, level)
    assert (caught.value.rule, caught.value.message) == ("6.1", MARCH_FATIGUE_NOT_IN_CANON)


def test_rest_gives_back_1_point_per_10_minutes() -> None:
    assert "1 ponto a cada 10 minutos de descanso tranquilo" in canon_section("## 6.3 Recuperação")
    assert (rest_recovery(9), rest_recovery(10), rest_recovery(35)) == (0, 1, 3)
    assert rest_recovery(35, meal=True) == 4


@PROPERTY
@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=0, max_value=4))
def test_fatigue_costs_are_never_negative(duration: int, level: int) -> None:
    assert combat_fatigue(duration, level) >= 0
    assert march_fatigue(duration, 1) >= 0
    assert rest_recovery(duration) >= 0
