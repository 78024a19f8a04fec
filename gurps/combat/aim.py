"""Aiming a ready ranged weapon (canon §4.3 and §4.11, book p. 95 and 201): the turns aimed,
and what defending does to them. The bonus itself is ``gurps.ranged.aim_bonus``.
"""

from __future__ import annotations

from dataclasses import dataclass

from gurps._validate import require_at_least
from gurps.errors import NEGATIVE_AIM_TURNS
from gurps.ranged import aim_bonus


@dataclass(frozen=True)
class AimState:
    """Turns spent aiming a ready ranged weapon (§4.3, §4.11). Immutable: ``aim()`` adds a
    turn, ``defend()`` loses everything accumulated (p. 95). Raises InvalidValue("turns")
    if negative."""

    turns: int = 0

    def __post_init__(self) -> None:
        require_at_least("turns", self.turns, 0, NEGATIVE_AIM_TURNS)

    def aim(self) -> AimState:
        return AimState(self.turns + 1)

    def defend(self) -> AimState:
        """Defending spoils the aim: back to no turns aimed (§4.3, §4.11, p. 95)."""
        return AimState(0)

    def bonus(
        self,
        accuracy: int,
        skill: int,
        *,
        beyond_half_damage: bool = False,
        braced: bool = False,
    ) -> int:
        """The attack modifier now (``gurps.ranged.aim_bonus``): unaimed −4; first turn +Acc
        (never above ``skill``); then +1, +2, +3; ``braced`` +1 if there was time to aim."""
        return aim_bonus(
            self.turns, accuracy, skill, beyond_half_damage=beyond_half_damage, braced=braced
        )
