"""How the armour worn and the shield readied make a combatant's PD and DR (canon §4.6, book
p. 99): "Defesa Passiva (PD) vem da armadura, do escudo e de magia"; each piece's PD and DR are
data (the Árbitro's item tables, document 03, §9.4–9.5).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gurps.derived import Shield


@dataclass(frozen=True)
class ArmourPiece:
    """One piece of armour carried: its PD and DR (levels)."""

    pd: int
    dr: int


@dataclass(frozen=True)
class ShieldPiece:
    """One shield carried: its PD and the bearer's Shield skill level (None without the
    skill: no Block, but its PD still counts, §4.6)."""

    pd: int
    skill: int | None


@dataclass(frozen=True)
class Protection:
    """What ``protection`` found: the armour's PD and DR, and the shield the sheet defends
    with (``gurps.derived.Shield``, None without one) — ``gurps.derived.derive`` adds the two
    PDs (``armour_pd`` + ``shield.pd``) and takes the armour's DR (§4.6)."""

    armour_pd: int
    armour_dr: int
    shield: Shield | None


def protection(armour: Iterable[ArmourPiece], shields: Iterable[ShieldPiece]) -> Protection:
    """The PD and DR of the armour and the shield a character carries (§4.6, p. 99).

    Reading (not in the canon): of several armour pieces carried, the highest PD counts, and
    the highest DR; a second armour in the pack does not add to the first. Of several shields,
    the one of highest PD is the one readied (the first of them, on a tie). 0 and None when
    there is nothing.
    """
    armour = tuple(armour)
    pd = max((piece.pd for piece in armour if piece.pd), default=0)
    dr = max((piece.dr for piece in armour), default=0)
    shields = tuple(shields)
    if not shields:
        return Protection(pd, dr, None)
    best = max(shields, key=lambda piece: piece.pd)
    return Protection(pd, dr, Shield(skill=best.skill, pd=best.pd))
