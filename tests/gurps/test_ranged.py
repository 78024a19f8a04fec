from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps.dice import DiceExpression
from gurps.errors import (
    DISTANCE_NOT_A_NUMBER,
    MISSILE_DAMAGE_NOT_IN_CANON,
    MISSILE_ENERGY_OUT_OF_RANGE,
    NEGATIVE_ACCURACY,
    NEGATIVE_AIM_TURNS,
    NEGATIVE_DISTANCE,
    NEGATIVE_HEXES,
    NEGATIVE_IGNORED_OBJECTS,
    NEGATIVE_SPEED,
    RANGE_BEYOND_TABLE,
    UNKNOWN_MISSILE_SPELL,
    InvalidValue,
    OutsideCanon,
)
from gurps.ranged import (
    LONG_DISTANCE_STEP_M,
    LONG_DISTANCE_TABLE,
    MISSILE_SPELLS,
    RANGE_TABLE,
    RANGED_WEAPONS,
    UNAIMED_PENALTY,
    aim_bonus,
    crossbow_cocking_seconds,
    long_distance_modifier,
    missile_damage,
    missile_spell,
    range_modifier,
    range_row,
    regular_spell_modifier,
    stone_damage,
)
from tests.gurps.helpers import canon_section, canon_table

PROPERTY = settings(database=None, deadline=None)


def _signed(text: str) -> int:
    return int(text.replace("\u2212", "-"))


def _metres(text: str) -> Fraction:
    """ "1.000" → 1000, "4,5" → 9/2: the canon's thousands dot and decimal comma."""
    return Fraction(text.replace(".", "").replace(",", "."))


def test_the_range_table_is_the_canons_table_row_by_row() -> None:
    rows = canon_table("### A conta")
    assert len(rows) == len(RANGE_TABLE)
    for (bound, modifier), row in zip(rows, RANGE_TABLE, strict=True):
        assert bound == row.label
        assert _metres(re.fullmatch(r"até ([\d.,]+) m", bound)[1]) == row.max_m, bound
        assert _signed(modifier) == row.modifier, bound
        assert (row.section, row.page) == ("4.11", "201")


def test_the_canons_own_examples_of_the_sum() -> None:
    text = canon_section("### A conta")
    assert "Alvo parado a 9 m é 9" in text
    assert "alvo a 5 m correndo a 7 m/s é 12, e vale a linha dos 13,5 m" in text
    assert range_row(5, 7).max_m == Fraction(27, 2)


@pytest.mark.parametrize(
    ("distance", "speed", "modifier"),
    [
        (0, 0, 0),
        (2, 0, 0),
        ("2,01", 0, -1),
        (3, 0, -1),
        (Decimal("4.5"), 0, -2),
        (4.6, 0, -3),
        (9, 0, -4),
        (Fraction(91, 10), 0, -5),
        (5, 7, -5),
        (20, 10, -7),
        (1000, 0, -16),
    ],
)
def test_the_row_is_the_first_at_or_above_distance_plus_speed(
    distance: object, speed: object, modifier: int
) -> None:
    assert range_modifier(distance, speed) == modifier


def test_past_1000_m_is_outside_the_canon() -> None:
    with pytest.raises(OutsideCanon) as caught:
        range_modifier(990, 11)
    assert (caught.value.rule, caught.value.message) == ("4.11", RANGE_BEYOND_TABLE)


@pytest.mark.parametrize(
    ("distance", "speed", "field", "message"),
    [
        (-1, 0, "distance_m", NEGATIVE_DISTANCE),
        ("longe", 0, "distance_m", DISTANCE_NOT_A_NUMBER),
        (float("nan"), 0, "distance_m", DISTANCE_NOT_A_NUMBER),
        (True, 0, "distance_m", DISTANCE_NOT_A_NUMBER),
        (5, -2, "speed_mps", NEGATIVE_SPEED),
    ],
)
def test_it_refuses_impossible_distances_and_speeds(
    distance: object, speed: object, field: str, message: str
) -> None:
    with pytest.raises(InvalidValue) as caught:
        range_modifier(distance, speed)
    assert (caught.value.field, caught.value.message) == (field, message)


@PROPERTY
@given(
    st.fractions(min_value=0, max_value=500, max_denominator=100),
    st.fractions(min_value=0, max_value=400, max_denominator=100),
    st.fractions(min_value=0, max_value=50, max_denominator=100),
)
def test_the_range_modifier_never_rises_as_distance_or_speed_rise(
    distance: Fraction, speed: Fraction, more: Fraction
) -> None:
    here = range_modifier(distance, speed)
    assert range_modifier(distance + more, speed) <= here
    assert range_modifier(distance, speed + more) <= here
    assert -16 <= here <= 0


def test_aiming_one_turn_adds_the_accuracy_capped_by_skill() -> None:
    assert "NH 8 com arma de Prec +13 rende +8" in canon_section(
        "### Os quatro números de cada arma de longo alcance"
    )
    assert aim_bonus(1, 13, 8) == 8
    assert aim_bonus(1, 3, 14) == 3


@pytest.mark.parametrize(("turns", "bonus"), [(0, UNAIMED_PENALTY), (1, 3), (2, 4), (3, 5)])
def test_each_extra_turn_adds_1(turns: int, bonus: int) -> None:
    assert aim_bonus(turns, 3, 14) == bonus


@pytest.mark.parametrize("turns", [4, 5, 20])
def test_extra_turns_stop_at_plus_3(turns: int) -> None:
    assert aim_bonus(turns, 3, 14) == 6


def test_not_aiming_costs_4() -> None:
    assert "Sem apontar, arma de longo alcance ataca a −4" in canon_section(
        "### O que mais mexe no tiro"
    )
    assert aim_bonus(0, 3, 14) == -4


def test_past_half_damage_the_accuracy_is_worth_nothing_and_a_brace_adds_1() -> None:
    assert aim_bonus(2, 4, 14, beyond_half_damage=True) == 1
    assert aim_bonus(1, 4, 14, braced=True) == 5
    assert aim_bonus(0, 4, 14, braced=True) == UNAIMED_PENALTY


@pytest.mark.parametrize(
    ("args", "field", "message"),
    [
        ((-1, 3, 12), "turns_aimed", NEGATIVE_AIM_TURNS),
        ((1, -1, 12), "accuracy", NEGATIVE_ACCURACY),
    ],
)
def test_aiming_refuses_negative_inputs(args: tuple[int, int, int], field: str, message: str):
    with pytest.raises(InvalidValue) as caught:
        aim_bonus(*args)
    assert (caught.value.field, caught.value.message) == (field, message)


def test_the_weapon_table_is_the_canons_table_row_by_row() -> None:
    rows = canon_table("### Os quatro números de cada arma de longo alcance")
    assert len(rows) == len(RANGED_WEAPONS)
    for (name, snap, acc, half, maximum), weapon in zip(rows, RANGED_WEAPONS, strict=True):
        assert name == weapon.name
        assert (int(snap), _signed(acc)) == (weapon.snap_shot, weapon.accuracy), name
        assert (half, maximum) == (weapon.half_damage.text, weapon.max_range.text), name
        assert (weapon.section, weapon.page) == ("4.11", "114–115")
    assert [w.name for w in RANGED_WEAPONS if w.uses_weapon_st] == ["Besta"]


def test_the_distances_are_metres_at_the_shooters_st() -> None:
    knife, stone, spear, bow, crossbow = RANGED_WEAPONS
    assert (knife.half_damage.metres(10), knife.max_range.metres(10)) == (5, 10)
    assert knife.half_damage.metres(4) == 0  # ST−5 never below 0
    assert stone.max_range.metres(10) == 35
    assert spear.max_range.metres(11) == Fraction(33, 2)
    assert (bow.half_damage.metres(11), bow.max_range.metres(11)) == (165, 220)
    assert crossbow.max_range.metres(12) == 300


@pytest.mark.parametrize(
    ("crossbow_st", "user_st", "seconds"),
    [(9, 9, 2), (8, 12, 2), (10, 9, 6), (11, 9, 6), (12, 9, 20), (13, 9, 20), (14, 9, None)],
)
def test_cocking_a_crossbow_takes_longer_the_stronger_the_bow(
    crossbow_st: int, user_st: int, seconds: int | None
) -> None:
    assert crossbow_cocking_seconds(crossbow_st, user_st) == seconds


def test_a_stone_does_one_point_less_than_thrust() -> None:
    assert stone_damage(10) == DiceExpression(1, -3)
    assert stone_damage(13) == DiceExpression(1, -1)


def test_the_missile_spells_are_the_canons_eight_row_by_row() -> None:
    rows = canon_table("### Magia de projétil: os oito conjuntos do livro")
    assert len(rows) == len(MISSILE_SPELLS) == 8
    for (name, snap, acc, half, maximum), spell in zip(rows, MISSILE_SPELLS, strict=True):
        assert name == spell.name
        assert (int(snap), _signed(acc)) == (spell.snap_shot, spell.accuracy), name
        assert (half, maximum) == (f"{spell.half_damage_m} m", f"{spell.max_range_m} m"), name


def test_the_damage_lines_are_the_canons() -> None:
    text = canon_section("### Magia de projétil: os oito conjuntos do livro")
    line = next(row for row in text.splitlines() if row.startswith("| Bola de Fogo ·"))
    names = [name.strip() for name in line.split("|")[1].split("·")]
    assert "| 1 a 3 | **1d por ponto** |" in line
    for name in names:
        spell = missile_spell(name)
        assert (spell.energy, spell.points_per_die) == ((1, 3), 1)
    assert "| **Bola de Fogo Explosiva** | **2 a 6** | **1d a cada 2 pontos** — máximo 3d |" in (
        text
    )
    assert (
        missile_spell("Bola de Fogo Explosiva").energy,
        missile_spell("bola de fogo explosiva").points_per_die,
    ) == ((2, 6), 2)


@pytest.mark.parametrize(
    ("spell", "energy", "damage"),
    [
        ("Bola de Fogo", 1, "1d"),
        ("Bola de Fogo", 3, "3d"),
        ("Relâmpago", 2, "2d"),
        ("Bola de Fogo Explosiva", 2, "1d"),
        ("Bola de Fogo Explosiva", 3, "1d"),
        ("Bola de Fogo Explosiva", 4, "2d"),
        ("Bola de Fogo Explosiva", 6, "3d"),
    ],
)
def test_missile_damage_follows_each_spells_entry(spell: str, energy: int, damage: str) -> None:
    assert str(missile_damage(spell, energy)) == damage


@pytest.mark.parametrize(("spell", "energy"), [("Bola de Fogo", 4), ("Bola de Fogo Explosiva", 1)])
def test_energy_outside_a_spells_range_is_refused(spell: str, energy: int) -> None:
    row = missile_spell(spell)
    with pytest.raises(InvalidValue) as caught:
        missile_damage(row, energy)
    minimum, maximum = row.energy
    expected = MISSILE_ENERGY_OUT_OF_RANGE.format(spell=row.name, minimum=minimum, maximum=maximum)
    assert (caught.value.field, caught.value.message) == ("energy", expected)


@pytest.mark.parametrize("spell", ["Poltergeist", "Projétil de Pedra", "Faca Alada"])
def test_spells_without_a_damage_line_are_outside_the_canon(spell: str) -> None:
    with pytest.raises(OutsideCanon) as caught:
        missile_damage(spell, 1)
    expected = MISSILE_DAMAGE_NOT_IN_CANON.format(spell=spell)
    assert (caught.value.rule, caught.value.message) == ("4.11", expected)


def test_an_unknown_missile_spell_is_refused() -> None:
    with pytest.raises(InvalidValue) as caught:
        missile_damage("Bola de Neve", 1)
    assert (caught.value.field, caught.value.message) == ("spell", UNKNOWN_MISSILE_SPELL)


@pytest.mark.parametrize(
    ("hexes", "sees", "modifier"), [(0, True, 0), (0, False, 0), (3, True, -3), (3, False, -8)]
)
def test_a_regular_spell_costs_1_per_hex_and_5_more_unseen(
    hexes: int, sees: bool, modifier: int
) -> None:
    assert regular_spell_modifier(hexes, sees_subject=sees) == modifier


def test_a_regular_spell_refuses_negative_hexes() -> None:
    with pytest.raises(InvalidValue) as caught:
        regular_spell_modifier(-1)
    assert (caught.value.field, caught.value.message) == ("hexes", NEGATIVE_HEXES)


def _canon_long_distance_ladder() -> list[tuple[Fraction, int]]:
    text = canon_section("### Magia: os outros alcances")
    line = next(row for row in text.splitlines() if "Localizar" in row)
    ladder = [(Fraction(100), _signed(re.search(r"menos de 100 m, (\S+?);", line)[1]))]
    for number, unit, modifier in re.findall(r"até ([\d.,]+) (m|km), (−\d+)", line):
        ladder.append((_metres(number) * (1000 if unit == "km" else 1), _signed(modifier)))
    return ladder


def test_the_locate_ladder_is_the_canons_row_by_row() -> None:
    ladder = _canon_long_distance_ladder()
    assert ladder == [(Fraction(row.max_m), row.modifier) for row in LONG_DISTANCE_TABLE]
    assert all((row.section, row.page) == ("4.11", "MAGIA 10") for row in LONG_DISTANCE_TABLE)
    assert "−1 por cada 1.500 km a mais" in canon_section("### Magia: os outros alcances")
    assert LONG_DISTANCE_STEP_M == 1_500_000


@pytest.mark.parametrize(
    ("metres", "ignored", "modifier"),
    [
        (0, 0, 0),
        (99, 0, 0),
        (100, 0, -1),
        (800, 0, -1),
        (1_500, 0, -2),
        (1_500_000, 0, -8),
        (1_500_001, 0, -9),
        (3_000_000, 0, -9),
        (3_000_001, 0, -10),
        (50, 2, -2),
    ],
)
def test_the_locate_ladder_is_of_kilometres(metres: int, ignored: int, modifier: int) -> None:
    assert long_distance_modifier(metres, ignored) == modifier


def test_the_locate_ladder_refuses_negative_counts() -> None:
    with pytest.raises(InvalidValue) as caught:
        long_distance_modifier(10, -1)
    assert (caught.value.field, caught.value.message) == (
        "ignored_objects",
        NEGATIVE_IGNORED_OBJECTS,
    )
