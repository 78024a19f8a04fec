"""§8.1–§8.4: the pace table, the day, the forced march, terrain, climbing, jumping."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xuleta import travel
from xuleta.errors import XuletaError


class Dice:
    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


def test_the_pace_table(quote):
    quote("El grup tria anar ràpid, normal o lent.")
    quote("Ràpid	120 m	6 km	48 km	−5 a la Percepció passiva")
    quote("Normal	90 m	4,5 km	36 km	—")
    quote("Lent	60 m	3 km	24 km	Pots fer servir Sigil")
    rows = [
        (p.label, p.per_minute_m, p.per_hour_km, p.per_day_km, p.effect) for p in travel.paces()
    ]
    assert rows == [
        ("Ràpid", 120, 6, 48, "−5 a la Percepció passiva"),
        ("Normal", 90, Fraction(9, 2), 36, "—"),
        ("Lent", 60, 3, 24, "Pots fer servir Sigil"),
    ]
    # a day is 8 hours of travel: the «Per dia» column is 8 × «Per hora»
    quote("Es compten unes 8 hores de viatge al dia.")
    for p in travel.paces():
        assert p.per_hour_km * travel.TRAVEL_HOURS_PER_DAY == p.per_day_km


def test_pace_effects(quote):
    quote("Anar ràpid cansa la vista; anar lent deixa moure's amb sigil.")
    assert travel.passive_perception_at(14, "fast") == 9
    assert travel.passive_perception_at(14, "normal") == 14
    assert travel.pace_allows_stealth("slow") and not travel.pace_allows_stealth("fast")
    with pytest.raises(XuletaError) as refused:
        travel.pace("trote")
    assert refused.value.field == "pace" and "fast" in refused.value.message


def test_difficult_terrain_halves_travel(quote):
    quote("Viatjant, avances la meitat de distància.")
    assert travel.travel_km("normal", 8) == 36
    assert travel.travel_km("normal", 8, difficult=True) == 18


def test_forced_march(quote):
    quote(
        "Marxa forçada: per cada hora de més, salvació de Constitució CD 10 + 1 per hora extra. "
        "Si falles, un nivell d'esgotament."
    )
    assert travel.forced_march_dcs(8, 12) == ((1, 11), (2, 12), (3, 13), (4, 14))
    assert travel.forced_march_dcs(0, 8) == ()
    assert travel.forced_march_dcs(10, 11) == ((3, 13),)
    # +2 CON save: 9 + 2 = 11 passes DC 11; 9 + 2 fails DC 12; 20 passes; 1 + 2 fails
    saves = travel.forced_march(Dice(9, 9, 20, 1), 2, 8, 12)
    assert [(s.dc, s.result.total, s.exhausts) for s in saves] == [
        (11, 11, False),
        (12, 11, True),
        (13, 22, False),
        (14, 3, True),
    ]


@given(st.integers(1, 30))
def test_forced_march_dc_rises_by_one(hour):
    assert travel.forced_march_dc(hour) == 10 + hour


def test_difficult_terrain_costs_double(quote):
    quote("Cada casella costa el doble: 1,5 m et gasten 3 m de moviment.")
    assert travel.movement_cost_m(Fraction(3, 2), difficult=True) == 3


def test_climbing_swimming_crawling(quote):
    quote(
        "Cada metre compta doble, tret que tinguis velocitat per a això (velocitat d'escalada "
        "o de natació)."
    )
    quote("Si a més és terreny difícil, cada metre compta el triple.")
    for mode in ("climb", "swim", "crawl"):
        assert travel.movement_cost_m(3, mode) == 6
        assert travel.movement_cost_m(3, mode, difficult=True) == 9
    assert travel.movement_cost_m(3, "climb", special_speed=True) == 3
    assert travel.movement_cost_m(3, "swim", special_speed=True) == 3
    assert travel.movement_cost_m(3, "crawl", special_speed=True) == 6  # no crawling speed
    assert travel.movement_cost_m(3, "climb", difficult=True, special_speed=True) == 6  # reading
    with pytest.raises(XuletaError):
        travel.movement_factor("fly")


def test_jumping(quote):
    quote("Amb 3 m d'embranzida saltes el màxim; sense embranzida, la meitat.")
    quote("Longitud: 30 cm per cada punt de Força (amb Força 15, uns 4,5 m).")
    quote("Alçada: 90 cm + 30 cm per cada punt del teu mod. de Força.")
    quote("Cada metre de salt gasta un metre de moviment.")
    assert travel.long_jump_cm(15) == 450
    assert travel.long_jump_cm(15, run_up=False) == 225
    assert travel.high_jump_cm(3) == 180
    assert travel.high_jump_cm(3, run_up=False) == 90
    assert travel.high_jump_cm(-4) == 0  # reading high_jump_minimum
    assert travel.jump_movement_cm(450) == 450


@given(st.integers(1, 30))
def test_long_jump_is_30_cm_a_point(strength):
    assert travel.long_jump_cm(strength) == 30 * strength
    assert travel.long_jump_cm(strength, run_up=False) == 30 * strength // 2
