"""Concentration (Xuleta, «§7.4 Concentració»): one spell at a time, what breaks it, and the
Constitució save after damage. Randomness only from ``source``."""

from __future__ import annotations

from dataclasses import dataclass

from dice.rolling import RandomSource
from xuleta.abilities import CON
from xuleta.conditions import incapacitated, roll_edge
from xuleta.rolls import SAVE, D20Result, d20, resolve

BASE_DC = 10


def save_dc(damage: int) -> int:
    """«Si reps dany, salvació de Constitució: CD 10 o la meitat del dany, el que sigui més
    alt.» Half rounds down (the reading ``resistance_rounding``'s rule for a half)."""
    return max(BASE_DC, max(0, damage) // 2)


@dataclass(frozen=True)
class ConcentrationSave:
    """One save for one hit: its ``dc``, the ``result`` (None when failed without rolling: a
    condition's «Falles sense tirar» does not apply to Constitució, so never in practice) and
    whether concentration ``holds``."""

    dc: int
    result: D20Result
    holds: bool


def concentration_save(
    source: RandomSource,
    con_save_bonus: int,
    damage: int,
    conditions=(),
    exhaustion: int = 0,
    advantages=(),
    disadvantages=(),
) -> ConcentrationSave:
    """«Una salvació per cada cop que rebis.» The edge from the conditions and exhaustion
    (``xuleta.conditions.roll_edge``, kind save, Constitució)."""
    dc = save_dc(damage)
    edge = roll_edge(
        SAVE,
        ability=CON,
        conditions=conditions,
        exhaustion=exhaustion,
        advantages=advantages,
        disadvantages=disadvantages,
    )
    result = resolve(SAVE, d20(source, edge.edge), con_save_bonus, dc)
    return ConcentrationSave(dc, result, result.success)


def breaks(conditions=(), dead: bool = False, new_concentration_spell: bool = False) -> str:
    """Why concentration breaks now, or ``""``: «Es trenca si llances un altre encanteri de
    concentració, si quedes incapacitat o si mors.»"""
    if dead:
        return "morreu"
    if incapacitated(conditions):
        return "ficou incapacitado"
    if new_concentration_spell:
        return "lançou outra magia de concentração"
    return ""
