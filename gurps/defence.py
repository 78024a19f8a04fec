"""Defence: the three active defences and the passive one (canon §4.6–4.7; book p. 98–99).

The defender rolls 3d6 against passive defence plus one active defence (§4.6).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from gurps._validate import require_at_least
from gurps.errors import (
    NEGATIVE_MOVE,
    NEGATIVE_PD,
    NEGATIVE_SKILL,
    UNKNOWN_PARRY_KIND,
    InvalidValue,
)


class ParryKind(StrEnum):
    NORMAL = "normal"
    FENCING = "fencing"
    STAFF = "staff"
    KNIFE = "knife"
    THROWN = "thrown"
    THROWN_KNIFE = "thrown_knife"
    FLAIL = "flail"


@dataclass(frozen=True)
class ParryRule:
    """Parry = floor(weapon skill × ``fraction``) + ``adjustment`` (§4.7, p. 99)."""

    kind: ParryKind
    name: str
    fraction: Fraction
    adjustment: int
    section: str = "4.7"
    page: str = "99"


PARRY_RULES: tuple[ParryRule, ...] = (
    ParryRule(ParryKind.NORMAL, "Arma comum", Fraction(1, 2), 0),
    ParryRule(ParryKind.FENCING, "Esgrima", Fraction(2, 3), 0),
    ParryRule(ParryKind.STAFF, "Bastão", Fraction(2, 3), 0),
    ParryRule(ParryKind.KNIFE, "Faca", Fraction(1, 2), -1),
    ParryRule(ParryKind.THROWN, "Arma arremessada", Fraction(1, 2), -1),
    ParryRule(ParryKind.THROWN_KNIFE, "Faca arremessada", Fraction(1, 2), -2),
    ParryRule(ParryKind.FLAIL, "Mangual", Fraction(1, 2), -4),
)

# §4.6 (p. 98): +1 to each active defence; −4 to every active defence.
COMBAT_REFLEXES_BONUS = 1
STUNNED_PENALTY = -4
DEFENCE_SECTION = "4.6"
DEFENCE_PAGE = "98"
# §4.7 (p. 98): Block = ½ Shield skill, rounding down.
BLOCK_FRACTION = Fraction(1, 2)


def parry_rule(kind: ParryKind | str) -> ParryRule:
    """The rule of ``kind`` ("normal", "fencing", ...); unknown raises InvalidValue("parry")."""
    for rule in PARRY_RULES:
        if isinstance(kind, str) and rule.kind == kind.strip().lower():
            return rule
    raise InvalidValue("parry", UNKNOWN_PARRY_KIND)


def _modifiers(combat_reflexes: bool, stunned: bool) -> int:
    return (COMBAT_REFLEXES_BONUS if combat_reflexes else 0) + (STUNNED_PENALTY if stunned else 0)


def dodge(move: int, *, combat_reflexes: bool = False, stunned: bool = False) -> int:
    """Dodge = Move (§2.1, p. 77 and 98), +1 with Combat Reflexes, −4 stunned (§4.6).

    Pass the Move already halved when staggered (README reading: halve first, then +1).
    May be below 1 when stunned: a defence roll of 3 or 4 still passes (§4.6).
    Raises InvalidValue("move") for a negative Move.
    """
    require_at_least("move", move, 0, NEGATIVE_MOVE)
    return move + _modifiers(combat_reflexes, stunned)


def parry(
    skill_level: int,
    kind: ParryKind | str = "normal",
    *,
    combat_reflexes: bool = False,
    stunned: bool = False,
) -> int:
    """floor(weapon skill × ½ or ⅔) + the kind's adjustment, +1 Combat Reflexes, −4 stunned
    (§4.7, p. 99). Raises InvalidValue("skill") if negative, InvalidValue("parry") for an
    unknown kind."""
    require_at_least("skill", skill_level, 0, NEGATIVE_SKILL)
    rule = parry_rule(kind)
    return (
        math.floor(skill_level * rule.fraction)
        + rule.adjustment
        + _modifiers(combat_reflexes, stunned)
    )


def block(shield_skill: int, *, combat_reflexes: bool = False, stunned: bool = False) -> int:
    """floor(Shield skill ÷ 2), +1 Combat Reflexes, −4 stunned (§4.7, p. 98). Skill 14 → 7.
    Raises InvalidValue("shield_skill") if negative."""
    require_at_least("shield_skill", shield_skill, 0, NEGATIVE_SKILL)
    return math.floor(shield_skill * BLOCK_FRACTION) + _modifiers(combat_reflexes, stunned)


def passive_defense(armour_pd: int, shield_pd: int = 0, magic_pd: int = 0) -> int:
    """Armour + shield + magic PD (§4.6, p. 99); it always protects. Raises
    InvalidValue("armour_pd"/"shield_pd"/"magic_pd") for a negative value."""
    require_at_least("armour_pd", armour_pd, 0, NEGATIVE_PD)
    require_at_least("shield_pd", shield_pd, 0, NEGATIVE_PD)
    require_at_least("magic_pd", magic_pd, 0, NEGATIVE_PD)
    return armour_pd + shield_pd + magic_pd


def defence_total(active: int, passive: int) -> int:
    """What the defender rolls against: passive + the chosen active defence (§4.6, p. 98).
    The jurado: Block 7 + shield 2 + mail 3 = 12."""
    return active + passive
