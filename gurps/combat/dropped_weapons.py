"""Which weapon falls when the victim of a blow drops one (canon §4.8: head table 14, "com
duas, sorteia-se qual", and the critical hit table's 15; book p. 202).
"""

from __future__ import annotations

from dataclasses import dataclass

from gurps._validate import require_at_least
from gurps.dice import DiceExpression, RandomSource
from gurps.errors import NEGATIVE_READY_WEAPONS, OutsideCanon

# The weapons in hand a fair draw on 1d covers (each gets the same number of faces).
DROPPED_WEAPON_DRAW_MAX = 3
DROPPED_WEAPON_DRAW_TOO_MANY = (
    "A tabela da cabeça diz «com duas, sorteia-se qual»; com mais de três armas na mão o "
    "sorteio fica com o Mestre."
)


@dataclass(frozen=True)
class DroppedWeaponDraw:
    """Which of the weapons in hand falls (§4.8, head table 14; also the critical hit table's
    15 "a arma do oponente cai"). ``index`` into the weapons in hand; ``die`` the 1d of the
    draw, None when there was nothing to draw (one weapon) or no weapon (``index`` None)."""

    index: int | None
    die: int | None
    section: str = "4.8"
    page: str = "202"


def draw_dropped_weapon(source: RandomSource, in_hand: int) -> DroppedWeaponDraw:
    """The weapon that falls, out of ``in_hand`` weapons in hand (§4.8: "com duas,
    sorteia-se qual"): none with 0, the only one with 1 (no die), and with 2 or 3 a fair draw
    on 1d — the faces split evenly (1–3 / 4–6; 1–2 / 3–4 / 5–6). Raises
    InvalidValue("in_hand") if negative and OutsideCanon("4.8") above 3 (no even split)."""
    count = require_at_least("in_hand", in_hand, 0, NEGATIVE_READY_WEAPONS)
    if count == 0:
        return DroppedWeaponDraw(None, None)
    if count == 1:
        return DroppedWeaponDraw(0, None)
    if count > DROPPED_WEAPON_DRAW_MAX:
        raise OutsideCanon("4.8", DROPPED_WEAPON_DRAW_TOO_MANY)
    _faces, die = DiceExpression(1).roll(source)
    return DroppedWeaponDraw((die - 1) // (6 // count), die)
