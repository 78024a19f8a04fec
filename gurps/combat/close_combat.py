"""Close combat — two in the same hex (canon §5c): what each weapon attacks at there, the
defences a grappled combatant keeps, and the contests to grab (DX) and to pin (ST).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from gurps.checks import RollKind, SuccessRoll, ensure_rollable, quick_contest, roll_success
from gurps.combat.maneuvers import ALL_ACTIVE_DEFENCES
from gurps.combat.shared import enum_member
from gurps.combat.weapons import CLOSE_COMBAT_PENALTY, CloseCombatUse, WeaponClass, weapon_class
from gurps.defence import ActiveDefence
from gurps.dice import RandomSource
from gurps.errors import CLOSE_COMBAT_NOT_IN_CANON, UNKNOWN_GRAPPLE_STAGE, OutsideCanon

# §5c: "Quem está agarrado não esquiva. Aparar e bloquear seguem valendo."
GRAPPLED_DEFENCES = frozenset({ActiveDefence.PARRY, ActiveDefence.BLOCK})
# §5c: "Para sair, é preciso evadir-se do inimigo e ultrapassá-lo — não basta andar."
LEAVING_CLOSE_COMBAT_NEEDS_EVADING = True


def close_combat_modifier(value: WeaponClass | str) -> int | None:
    """The attack modifier of a weapon in close combat — two in the same hex (§5c): knife,
    dagger, punch, elbow, bite 0; short sword and rapier −4; None for spear, polearm and
    two-handed sword, which do not attack there. Raises InvalidValue("weapon_class") and
    OutsideCanon("5c") for a weapon §5c does not name (sword, axe, mace)."""
    row = weapon_class(value)
    if row.close_combat is None:
        raise OutsideCanon("5c", CLOSE_COMBAT_NOT_IN_CANON.format(weapon=row.name))
    if row.close_combat is CloseCombatUse.CANNOT:
        return None
    return CLOSE_COMBAT_PENALTY if row.close_combat is CloseCombatUse.PENALISED else 0


def close_combat_defences(*, grappled: bool) -> frozenset[ActiveDefence]:
    """The active defences in close combat (§5c): a grappled combatant cannot dodge; parry
    and block still count, with a weapon that serves there."""
    return GRAPPLED_DEFENCES if grappled else ALL_ACTIVE_DEFENCES


class GrappleStage(StrEnum):
    """§5c: "Agarrar e imobilizar ... são Disputa de DX e depois de ST" (reading
    "grapple_dx_then_st": grabbing is the DX contest, pinning the ST contest after it)."""

    GRAB = "grab"  # agarrar: DX
    PIN = "pin"  # imobilizar: ST


@dataclass(frozen=True)
class GrappleResult:
    """A grapple contest: the stage, the two rolls, the tie-break rolls if there was a tie
    and both had Judo or Brawling, and the winner ("attacker", "defender" or None)."""

    stage: GrappleStage
    attacker: SuccessRoll
    defender: SuccessRoll
    tie_break: tuple[SuccessRoll, SuccessRoll] | None
    winner: Literal["attacker", "defender"] | None
    section: str = "5c"
    readings: tuple[str, ...] = ("grapple_dx_then_st", "grapple_tie_break")


def grapple_contest(
    source: RandomSource,
    stage: GrappleStage | str,
    attacker_level: int,
    defender_level: int,
    *,
    attacker_tie_break: int | None = None,
    defender_tie_break: int | None = None,
) -> GrappleResult:
    """A quick contest to grab (DX against DX) or to pin (ST against ST) in close combat
    (§5c; reading "grapple_dx_then_st"): grappling and pinning are not skills.

    ``attacker_level``/``defender_level``: DX for ``stage`` "grab", ST for "pin".
    ``*_tie_break``: each side's Judo or Brawling level (the better one), or None. On a tie,
    when both have one, a quick contest of those decides; otherwise — or if that ties too —
    nobody won (§1.5; reading "grapple_tie_break"). Raises InvalidValue("stage") and
    NoRollAtThreeOrLess before any die for a level of 3 or less (§1.1).
    """
    chosen = enum_member(GrappleStage, stage, "stage", UNKNOWN_GRAPPLE_STAGE)
    levels = [attacker_level, defender_level]
    has_tie_break = attacker_tie_break is not None and defender_tie_break is not None
    if has_tie_break:
        levels += [attacker_tie_break, defender_tie_break]
    for level in levels:
        ensure_rollable(level, RollKind.SKILL)
    mine = roll_success(source, attacker_level)
    his = roll_success(source, defender_level)
    winner = quick_contest(mine, his)
    tie_rolls = None
    if winner is None and has_tie_break:
        assert attacker_tie_break is not None and defender_tie_break is not None
        tie_rolls = (
            roll_success(source, attacker_tie_break),
            roll_success(source, defender_tie_break),
        )
        winner = quick_contest(*tie_rolls)
    named = {"a": "attacker", "b": "defender", None: None}[winner]
    return GrappleResult(chosen, mine, his, tie_rolls, named)  # type: ignore[arg-type]
