"""Fatigue (gurps.fatigue, canon §6.1–6.3 and §6.5)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps.attributes import move
from gurps.errors import (
    MARCH_FATIGUE_NOT_IN_CANON,
    NEGATIVE_DURATION,
    NEGATIVE_FATIGUE_COST,
    NEGATIVE_FATIGUE_LOST,
    ST_TOO_LOW,
    UNKNOWN_ENCUMBRANCE_LEVEL,
    UNKNOWN_EXERTION,
    InvalidValue,
    OutsideCanon,
)
from gurps.fatigue import (
    ASPHYXIA_DEATH_MINUTES,
    ASPHYXIA_FATIGUE_PER_TURN,
    ASPHYXIA_TAKES_HP,
    BREATH_HOLDING,
    CANON_TABLES,
    FATIGUE_CHANGES_WEAPON_DAMAGE,
    FATIGUE_SOURCES,
    SECONDS_PER_TURN,
    Exertion,
    asphyxia,
    breath_holding,
    breath_holding_seconds,
    combat_fatigue,
    fatigue_effects,
    march_fatigue,
    recover_fatigue,
    rest_recovery,
    spend_fatigue,
    st_based_level,
)
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


# --- §6.1 as a table ------------------------------------------------------------------------------


def test_the_fatigue_sources_table_is_built_from_the_data() -> None:
    table = next(t for t in CANON_TABLES if t.key == "fatigue_sources")
    assert table.rows == tuple((r.source, r.cost, r.page) for r in FATIGUE_SOURCES)
    assert table.heading == "## 6.1 O que gasta"


# --- §6.2 what fatigue takes --------------------------------------------------------------------

EFFECTS_TEXT = canon_section("## 6.2 O que a fadiga cobra").replace("**", "")


def test_st_10_with_4_fatigue_works_as_st_6_as_the_canon_says() -> None:
    st, lost, works_as = (
        int(n)
        for n in re.search(
            r"ST (\d+) com (\d+) de fadiga funciona como ST (\d+)", EFFECTS_TEXT
        ).groups()
    )
    effects = fatigue_effects(st, lost)
    assert effects.st_for_skills == works_as
    assert st_based_level(st, st, lost) == works_as  # an ST roll
    assert st_based_level(12, st, lost) == 12 - (st - works_as)  # an ST-based skill


def test_weapon_damage_keeps_the_sheets_st() -> None:
    assert "O dano básico das armas não muda." in EFFECTS_TEXT
    assert FATIGUE_CHANGES_WEAPON_DAMAGE is False
    assert fatigue_effects(12, 7).st_for_weapon_damage == 12


@pytest.mark.parametrize(
    ("lost", "halved", "collapsed", "unconscious"),
    [
        (0, False, False, False),
        (6, False, False, False),
        (7, True, False, False),
        (9, True, True, False),
        (10, True, False, True),
        (14, True, False, True),
    ],
)
def test_what_fatigue_takes_from_st_10(
    lost: int, halved: bool, collapsed: bool, unconscious: bool
) -> None:
    effects = fatigue_effects(10, lost)
    assert (effects.move_halved, effects.collapsed, effects.unconscious) == (
        halved,
        collapsed,
        unconscious,
    )
    assert effects.can_act_physically is not (collapsed or unconscious)
    assert effects.can_talk_and_cast is not unconscious


def test_the_move_halving_of_fatigue_is_the_one_attributes_move_applies() -> None:
    assert "até a ST cair a 3" in EFFECTS_TEXT
    for lost in range(11):
        effects = fatigue_effects(10, lost)
        halved = move(6, 0, st=10, fatigue_lost=lost) == 3
        assert halved is effects.move_halved


def test_the_canon_states_collapse_at_st_1_and_fainting_at_st_0() -> None:
    assert "ST 1: você desfalece" in EFFECTS_TEXT
    assert "Ainda fala e ainda conjura." in EFFECTS_TEXT
    assert "ST 0: desmaia, e descansa automaticamente até voltar a 1" in EFFECTS_TEXT
    assert "Fadiga negativa não existe." in EFFECTS_TEXT


def test_spending_stops_at_st_and_recovering_at_0() -> None:
    assert spend_fatigue(10, 8, 5) == 10
    assert spend_fatigue(10, 2, 3) == 5
    assert recover_fatigue(3, 5) == 0
    assert recover_fatigue(6, 2) == 4


def test_fatigue_effects_refuse_bad_input() -> None:
    with pytest.raises(InvalidValue) as caught:
        fatigue_effects(0, 0)
    assert (caught.value.field, caught.value.message) == ("st", ST_TOO_LOW)
    with pytest.raises(InvalidValue) as caught:
        fatigue_effects(10, -1)
    assert (caught.value.field, caught.value.message) == ("fatigue_lost", NEGATIVE_FATIGUE_LOST)
    with pytest.raises(InvalidValue) as caught:
        spend_fatigue(10, 0, -2)
    assert (caught.value.field, caught.value.message) == ("cost", NEGATIVE_FATIGUE_COST)


# --- §6.5 asphyxia ------------------------------------------------------------------------------

ASPHYXIA_TEXT = canon_section("## 6.5 Asfixia e fôlego").replace("**", "")


def _canon_breath(cell: str) -> tuple[int, str]:
    """(HT multiple, unit) of a cell: "HT × 10 segundos", "HT segundos", "4 × HT turnos"."""
    if match := re.fullmatch(r"HT × (\d+) (\w+)", cell):
        return int(match[1]), match[2]
    if match := re.fullmatch(r"(\d+) × HT (\w+)", cell):
        return int(match[1]), match[2]
    match = re.fullmatch(r"HT (\w+)", cell)
    return 1, match[1]


def test_breath_holding_is_the_canons_table() -> None:
    rows = canon_table("## 6.5 Asfixia e fôlego")
    assert len(rows) == len(BREATH_HOLDING)
    for (situation, cell), row in zip(rows, BREATH_HOLDING, strict=True):
        assert situation == row.situation
        assert _canon_breath(cell) == (row.ht_multiple, str(row.unit))
        assert row.needs_will_roll is ("teste de Vontade" in situation)


def test_breath_in_seconds_for_ht_12() -> None:
    assert "Cada turno é 1 segundo." in canon_section("## 4.1 O turno").replace("**", "")
    assert SECONDS_PER_TURN == 1
    assert breath_holding_seconds(12, "resting") == 120
    assert breath_holding_seconds(12, Exertion.LIGHT) == 48
    assert breath_holding_seconds(12, Exertion.HEAVY) == 12
    assert breath_holding_seconds(12, Exertion.PASSIVE_HELD) == 48
    assert breath_holding(Exertion.PASSIVE_HELD).needs_will_roll


def test_breath_refuses_an_unknown_exertion() -> None:
    with pytest.raises(InvalidValue) as caught:
        breath_holding_seconds(12, "swimming")
    assert (caught.value.field, caught.value.message) == ("exertion", UNKNOWN_EXERTION)


def test_out_of_breath_the_canons_numbers() -> None:
    assert f"{ASPHYXIA_FATIGUE_PER_TURN} ponto de fadiga por turno" in ASPHYXIA_TEXT
    assert f"morre em {ASPHYXIA_DEATH_MINUTES} minutos" in ASPHYXIA_TEXT
    assert "Asfixia não tira PV" in ASPHYXIA_TEXT and ASPHYXIA_TAKES_HP is False


def test_asphyxia_faints_when_fatigue_equals_st_and_kills_4_minutes_later() -> None:
    assert (asphyxia(10, 2, 7).fatigue_lost, asphyxia(10, 2, 7).fainted) == (9, False)
    assert asphyxia(10, 2, 8).fainted
    assert not asphyxia(10, 2, 8 + 239, held_by_aggressor=True).dead
    assert asphyxia(10, 2, 8 + 240, held_by_aggressor=True).dead
    assert not asphyxia(10, 2, 8 + 240).dead  # let go: no death
    assert asphyxia(10, 2, 1000).fatigue_lost == 10


@PROPERTY
@given(
    st.integers(min_value=1, max_value=30),
    st.integers(min_value=1, max_value=5),
    st.sampled_from(list(Exertion)),
)
def test_breath_is_proportional_to_ht(ht: int, k: int, exertion: Exertion) -> None:
    assert breath_holding_seconds(ht * k, exertion) == k * breath_holding_seconds(ht, exertion)


@PROPERTY
@given(
    st.integers(min_value=1, max_value=30),
    st.integers(min_value=0, max_value=60),
    st.integers(min_value=0, max_value=60),
    st.integers(min_value=0, max_value=60),
)
def test_fatigue_is_never_negative_nor_above_st(st_: int, lost: int, cost: int, back: int) -> None:
    lost = min(lost, st_)
    spent = spend_fatigue(st_, lost, cost)
    assert lost <= spent <= st_
    assert 0 <= recover_fatigue(spent, back) <= spent
    effects = fatigue_effects(st_, spent)
    assert 0 <= effects.st_for_skills <= st_
    assert not (effects.collapsed and effects.unconscious)


@PROPERTY
@given(
    st.integers(min_value=1, max_value=30),
    st.integers(min_value=0, max_value=30),
    st.integers(min_value=0, max_value=600),
    st.booleans(),
)
def test_asphyxia_never_takes_more_than_st(st_: int, lost: int, turns: int, held: bool) -> None:
    state = asphyxia(st_, min(lost, st_), turns, held_by_aggressor=held)
    assert 0 <= state.fatigue_lost <= st_
    assert state.fainted is (state.fatigue_lost == st_)
    assert not state.dead or (held and state.fainted)
