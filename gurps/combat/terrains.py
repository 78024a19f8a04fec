"""Terrain and what it costs (canon §5d), and docs/DESIGN.md, invariant 8 (Boss and terrain first):
a terrain, like an encounter boss (§5.4.1), counts only if declared before the first die of the
combat. Move is in levels.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from gurps._validate import require_at_least, require_int
from gurps.combat.maneuvers import HALF
from gurps.combat.shared import enum_member
from gurps.errors import (
    NEGATIVE_MOVE,
    TERRAIN_MOVE_STACKING_NOT_IN_CANON,
    UNKNOWN_TERRAIN,
    OutsideCanon,
)
from gurps.tabular import signed


class Terrain(StrEnum):
    BAD = "bad"  # Ruim
    VERY_BAD = "very_bad"  # Muito ruim
    DARK = "dark"  # Escuro
    TIGHT = "tight"  # Aperto
    WAIST_DEEP_WATER = "waist_deep_water"  # Água pela cintura


# §5d: "arma de balanço a −2" in waist-deep water.
WAIST_DEEP_WATER_SWING_MODIFIER = -2


@dataclass(frozen=True)
class TerrainRow:
    """One row of §5d: the canon's two cells and their rules. ``move_fraction``: what is left
    of Move (rounded down, reading "terrain_move_rounds_down"); ``swing_modifier``: attack
    modifier for swinging weapons; ``falls_on_critical_failure``: a critical failure of any
    movement is a fall; ``lighting_penalty``: the §4.5 lighting modifier applies to
    everything, except with Blind Fighting; ``all_combat_is_close``: no backing off or going
    round, every fight is close combat (§5c). The canon cites no book page."""

    terrain: Terrain
    name: str
    cost: str
    move_fraction: Fraction | None = None
    swing_modifier: int = 0
    falls_on_critical_failure: bool = False
    lighting_penalty: bool = False
    all_combat_is_close: bool = False
    section: str = "5d"
    page: str = ""


TERRAINS: tuple[TerrainRow, ...] = (
    TerrainRow(
        Terrain.BAD,
        "Ruim — pedra solta, raiz, entulho",
        "Deslocamento pela metade",
        move_fraction=HALF,
    ),
    TerrainRow(
        Terrain.VERY_BAD,
        "Muito ruim — lama funda, gelo, encosta",
        "um terço, e queda em falha crítica de qualquer movimento",
        move_fraction=Fraction(1, 3),
        falls_on_critical_failure=True,
    ),
    TerrainRow(
        Terrain.DARK,
        "Escuro",
        # The canon's "(§4.14)" is a known slip (canon README): §4.14 is the fencer's dagger.
        "redutor de iluminação em tudo, salvo quem tem Combate às Cegas (§4.14)",
        lighting_penalty=True,
    ),
    TerrainRow(
        Terrain.TIGHT,
        "Aperto — galeria de um hex",
        "não há como recuar nem rodear; todo combate vira de perto",
        all_combat_is_close=True,
    ),
    TerrainRow(
        Terrain.WAIST_DEEP_WATER,
        "Água pela cintura",
        f"Deslocamento pela metade, e arma de balanço a {signed(WAIST_DEEP_WATER_SWING_MODIFIER)}",
        move_fraction=HALF,
        swing_modifier=WAIST_DEEP_WATER_SWING_MODIFIER,
    ),
)


def terrain(value: Terrain | str) -> TerrainRow:
    """The §5d row of ``value`` ("bad", "very_bad", "dark", "tight", "waist_deep_water");
    else InvalidValue("terrain")."""
    chosen = enum_member(Terrain, value, "terrain", UNKNOWN_TERRAIN)
    return next(row for row in TERRAINS if row.terrain is chosen)


@dataclass(frozen=True)
class TerrainEffects:
    """What the declared terrains cost together (§5d): ``move`` in levels after them,
    the swing modifier, and the three flags of ``TerrainRow``."""

    terrains: tuple[Terrain, ...]
    move: int
    swing_modifier: int
    falls_on_critical_failure: bool
    lighting_penalty: bool
    all_combat_is_close: bool
    section: str = "5d"
    readings: tuple[str, ...] = ("terrain_move_rounds_down",)


def terrain_move(move: int, value: Terrain | str) -> int:
    """Move (levels, 0 or more) on terrain ``value`` (§5d): bad and waist-deep water half,
    very bad a third, rounding down (reading "terrain_move_rounds_down"); the others leave it.
    Raises InvalidValue("move"/"terrain")."""
    row = terrain(value)
    level = require_at_least("move", move, 0, NEGATIVE_MOVE)
    if row.move_fraction is None:
        return level
    return math.floor(level * row.move_fraction)


def terrain_effects(move: int, terrains: Iterable[Terrain | str]) -> TerrainEffects:
    """Everything the declared ``terrains`` cost together, for a combatant of ``move``
    (§5d). Only terrains declared before the first die count (``declared_in_time``). Raises
    InvalidValue("move"/"terrain"), and OutsideCanon("5d") for two terrains that both cut
    Move (the canon does not say whether they multiply)."""
    rows = tuple(dict.fromkeys(terrain(value) for value in terrains))
    level = require_at_least("move", move, 0, NEGATIVE_MOVE)
    cutting = [row for row in rows if row.move_fraction is not None]
    if len(cutting) > 1:
        raise OutsideCanon("5d", TERRAIN_MOVE_STACKING_NOT_IN_CANON)
    return TerrainEffects(
        terrains=tuple(row.terrain for row in rows),
        move=terrain_move(level, cutting[0].terrain) if cutting else level,
        swing_modifier=sum(row.swing_modifier for row in rows),
        falls_on_critical_failure=any(row.falls_on_critical_failure for row in rows),
        lighting_penalty=any(row.lighting_penalty for row in rows),
        all_combat_is_close=any(row.all_combat_is_close for row in rows),
    )


def declared_in_time(declared_at: int, first_roll_at: int | None) -> bool:
    """Whether a terrain or an encounter boss counts (docs/DESIGN.md,
    invariant 8 (Boss and terrain first); §5d, §5.4.1): only if declared before the first die of the
    combat. ``declared_at`` and ``first_roll_at`` are positions in the scene's log (any ints, one
    sequence); ``first_roll_at`` None: no die rolled yet, so a declaration now is in time. Raises
    InvalidValue("declared_at" / "first_roll_at") for a non-int."""
    declared = require_int("declared_at", declared_at)
    if first_roll_at is None:
        return True
    return declared < require_int("first_roll_at", first_roll_at)
