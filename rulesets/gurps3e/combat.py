"""GURPS's combat part (``rulesets.base.CombatPart``): the canon's turn order (§4.2), the
maneuvers as the turn's budget (§4.3), acting through the §4.10 sequence, the checks at the
start of a turn (§5.2, §5.4, §5e) and the effects that last a while (§4.3 the feint, §5e
partial surprise). Every function delegates to ``gurps.combat`` or ``gurps.injury``; nothing
here computes a rule. Pure: no Django import.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gurps import combat as engine
from gurps import injury
from gurps.errors import InvalidValue

# The keys of ``start_of_turn``, in the order the start of a turn makes them.
HT_AT_ZERO_HP = "ht_at_zero_hp"  # §5.4: HT each turn at 0 HP or less, or faint
STUN_RECOVERY = "stun_recovery"  # §5.2: HT to leave a stun, else no maneuver
TOTAL_SURPRISE = "total_surprise"  # §5e: IQ to start acting
PARTIAL_SURPRISE = "partial_surprise"  # §5e: the first turn is lost (no roll)

# The keys of ``effect_lasts``.
FEINT = "feint"  # §4.3
UNKNOWN_TIMED_EFFECT = "Efeito com prazo desconhecido no GURPS: {effect}."


class GurpsCombat:
    """The ``CombatPart`` of ``gurps3e``. Combatants are ``gurps.combat.Combatant`` for the
    order (or any object with ``name``, ``move``, ``basic_speed``, ``dx``, ``declared``) and,
    for the start of a turn, any object with ``ht``, ``hp_now``, ``strong_will``,
    ``weak_will``, ``stunned``, ``surprise`` ("", "partial", "total") and ``acting``."""

    def turn_order(self, combatants: Iterable[Any]) -> tuple[Any, ...]:
        """§4.2: Move, then the full Basic Speed, then DX, then the order of declaration
        (``gurps.combat.turn_order``)."""
        return engine.turn_order(combatants)

    def actions(self) -> tuple[str, ...]:
        """The §4.3 maneuvers' keys, in the canon's order."""
        return tuple(row.maneuver.value for row in engine.MANEUVERS)

    def budget(self, action: str) -> engine.ManeuverRow:
        """The §4.3 row of the maneuver ``action``: its movement, what it does, the defences
        it leaves (``gurps.combat.maneuver_row``; with ``maneuver_movement`` and
        ``defences_left`` for a combatant's numbers). InvalidValue("maneuver") if unknown."""
        return engine.maneuver_row(action)

    def plan(
        self,
        attack: engine.AttackInput,
        defence: engine.DefenceInput,
        target: engine.TargetInput,
        *,
        preview: bool = False,
    ) -> engine.Plan:
        """§4.10 rows 2–5 before any die (``gurps.combat.plan_attack``)."""
        return engine.plan_attack(attack, defence, target, preview=preview)

    def act(
        self,
        source: engine.RandomSource,
        attack: engine.AttackInput,
        defence: engine.DefenceInput,
        target: engine.TargetInput,
        *,
        rolled: Any = None,
    ) -> engine.AttackResolution:
        """One attack through the §4.10 sequence (``gurps.combat.resolve_attack``)."""
        return engine.resolve_attack(source, attack, defence, target, rolled=rolled)

    def start_of_turn(self, combatant: Any, round_: int) -> tuple[str, ...]:
        """What the start of ``combatant``'s turn in ``round_`` asks before he acts: HT at 0
        HP or less (§5.4, ``gurps.injury.turn_start_ht_roll``), HT to leave a stun (§5.2),
        IQ under total surprise (§5e, ``gurps.combat.still_surprised``), or the first turn
        lost to a partial surprise (§5e, ``gurps.combat.loses_the_turn``)."""
        c = combatant
        found = []
        low = injury.turn_start_ht_roll(
            c.ht, c.hp_now, strong_will=c.strong_will, weak_will=c.weak_will
        )
        if low is not None:
            found.append(HT_AT_ZERO_HP)
        if c.stunned:
            found.append(STUN_RECOVERY)
        if engine.still_surprised(c.surprise, c.acting):
            found.append(TOTAL_SURPRISE)
        if engine.loses_the_turn(c.surprise, round_):
            found.append(PARTIAL_SURPRISE)
        return tuple(found)

    def effect_lasts(self, effect: str, since_round: int, round_: int) -> bool:
        """Whether a feint won in ``since_round`` still holds in ``round_`` (§4.3,
        ``gurps.combat.feint_holds``). InvalidValue("effect") for another effect."""
        if effect == FEINT:
            return engine.feint_holds(since_round, round_)
        raise InvalidValue("effect", UNKNOWN_TIMED_EFFECT.format(effect=effect))


COMBAT = GurpsCombat()
