"""§8.5–§8.8: falls, light, darkvision, suffocation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xuleta import environment as env
from xuleta.damage_types import DAMAGE_TYPES
from xuleta.errors import XuletaError


class Dice:
    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.asked: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        self.asked.append((a, b))
        return self.faces.pop(0)


def test_falls(quote):
    quote("En caure reps 1d6 de dany contundent per cada 3 m, fins a un màxim de 20d6.")
    quote("Acabes tombat, tret que evitis el dany.")
    source = Dice(4, 5, 6)
    fell = env.fall(source, 9)
    assert source.asked == [(1, 6)] * 3
    assert (fell.dice, fell.damage, fell.prone) == (3, 15, True)
    assert DAMAGE_TYPES[fell.damage_type] == "contundent"
    assert env.fall(Dice(2), 3, avoided_damage=True).prone is False
    assert env.fall_dice(10) == 3 and env.fall_dice(2) == 0  # reading fall_partial_metres
    assert env.fall_dice(60) == 20 and env.fall_dice(600) == 20
    with pytest.raises(XuletaError):
        env.fall_dice(-1)


@given(st.integers(0, 1000))
def test_fall_dice_bounds(height):
    assert env.fall_dice(height) == min(20, height // 3)


def test_light_levels(quote):
    quote("Hi ha tres nivells de llum i cadascun canvia el que veus.")
    quote("Llum brillant: hi veus amb normalitat.")
    quote(
        "Llum tènue (penombra, lluna plena, la vora d'una torxa): zona lleugerament fosca. "
        "Desavantatge en Percepció amb la vista."
    )
    quote("Foscor: zona molt fosca. A efectes pràctics estàs encegat.")
    for key, line in env.LIGHT_LEVELS.items():
        quote(line)
        assert env.sight(key).line == line
    assert not env.sight("bright").perception_disadvantage
    assert env.sight("dim").perception_disadvantage and not env.sight("dim").blinded
    assert env.sight("darkness").blinded and env.sight("darkness").condition == "blinded"
    with pytest.raises(XuletaError) as refused:
        env.sight("twilight")
    assert refused.value.field == "light"


def test_darkvision(quote):
    quote(
        "Dins del seu abast (normalment 18 m) hi veus amb llum tènue com si fos brillant, i a "
        "les fosques com si fos tènue."
    )
    quote("A les fosques no distingeixes colors, només tons de gris.")
    assert env.DARKVISION_USUAL_M == 18
    dim = env.sight("dim", darkvision_m=18, distance_m=10)
    assert dim.seen == "bright" and not dim.perception_disadvantage
    dark = env.sight("darkness", darkvision_m=18, distance_m=18)
    assert dark.seen == "dim" and dark.grey and not dark.blinded and dark.perception_disadvantage
    far = env.sight("darkness", darkvision_m=18, distance_m=19)
    assert far.blinded


def test_suffocation(quote):
    quote(
        "Pots aguantar la respiració 1 minut + 1 per cada punt del teu mod. de Constitució "
        "(com a mínim 30 segons)."
    )
    quote(
        "Quan se t'acaba l'aire, aguantes tantes rondes com el teu mod. de Constitució (mínim 1)."
    )
    quote("En començar el torn següent caus a 0 PC i t'estàs morint.")
    assert env.breath_seconds(2) == 180
    assert env.breath_seconds(0) == 60
    assert env.breath_seconds(-1) == 30 and env.breath_seconds(-3) == 30
    assert env.rounds_without_air(3) == 3 and env.rounds_without_air(-2) == 1
    assert env.suffocation(2, 179).stage == "breath"
    assert env.suffocation(2, 180).stage == "choking" and env.suffocation(2, 180).rounds_left == 2
    assert env.suffocation(2, 192).stage == "dying"
    dying = env.dying_state({"conditions": ["prone"], "stable": True})
    assert dying["conditions"] == ["prone", "unconscious"] and dying["stable"] is False


@given(st.integers(-5, 10))
def test_breath_never_below_30_seconds(mod):
    assert env.breath_seconds(mod) == max(30, 60 * (1 + mod))
