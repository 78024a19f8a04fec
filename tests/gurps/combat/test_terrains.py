"""Terrain and docs/DESIGN.md, invariant 8 (Boss and terrain first) (gurps.combat.terrains; canon
§5d)."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from gurps.combat import TERRAINS, Terrain, declared_in_time, terrain_effects, terrain_move
from gurps.errors import OutsideCanon
from tests.gurps.helpers import canon_table


def _signed(text: str) -> int:
    return int(text.replace("\u2212", "-").replace("+", ""))


def test_terrain_rows_follow_the_canon_and_halve_or_third_the_move() -> None:
    rows = canon_table("# 5d. Terreno e o que ele cobra")
    assert [row[0] for row in rows] == [row.name for row in TERRAINS]
    for (_, cost), row in zip(rows, TERRAINS, strict=True):
        if "pela metade" in cost:
            assert row.move_fraction == Fraction(1, 2)
        elif cost.startswith("um terço"):
            assert row.move_fraction == Fraction(1, 3)
        else:
            assert row.move_fraction is None
        if match := re.search(r"balanço a (−\d+)", cost):
            assert row.swing_modifier == _signed(match[1])


@pytest.mark.parametrize(
    ("terrain", "move", "left"),
    [
        ("bad", 5, 2),
        ("very_bad", 5, 1),
        ("very_bad", 2, 0),
        ("waist_deep_water", 7, 3),
        ("dark", 5, 5),
        ("tight", 5, 5),
    ],
)
def test_terrain_cuts_move_rounding_down(terrain: str, move: int, left: int) -> None:
    assert terrain_move(move, terrain) == left


def test_terrains_together() -> None:
    effects = terrain_effects(6, [Terrain.WAIST_DEEP_WATER, Terrain.DARK, Terrain.TIGHT])
    assert (effects.move, effects.swing_modifier) == (3, -2)
    assert effects.lighting_penalty and effects.all_combat_is_close
    with pytest.raises(OutsideCanon):
        terrain_effects(6, ["bad", "waist_deep_water"])


@pytest.mark.parametrize(
    ("declared", "first_roll", "counts"),
    [(3, 5, True), (5, 5, False), (7, 5, False), (9, None, True)],
)
def test_terrain_and_boss_count_only_if_declared_before_the_first_die(
    declared: int, first_roll: int | None, counts: bool
) -> None:
    assert declared_in_time(declared, first_roll) is counts
