"""What one attack leaves (canon §4.10 steps 3 to 10): each step as the scene log shows it,
the consequences of step 10 and the whole resolution.
"""

from __future__ import annotations

from dataclasses import dataclass

from gurps.checks import SuccessRoll
from gurps.combat.sequence.table import StepNumber
from gurps.damage import Wound
from gurps.defence import ActiveDefence
from gurps.injury import StunCause
from gurps.rolling import Modifier
from gurps.tables import TableRoll


@dataclass(frozen=True)
class SequenceStep:
    """One step of the attack as the scene log shows it: its ``number`` in the §4.10 table,
    a short ``title``, and a Portuguese ``text`` line with the numbers. For a roll: the
    ``dice`` faces, their ``total`` (for damage, with the weapon's modifier), the ``level``
    rolled against and the ``outcome`` (a ``gurps.checks.Outcome`` value, or None). ``table``
    for a roll on a §4.8 table; ``readings`` the keys of ``gurps.readings`` it depends on."""

    number: StepNumber
    title: str
    text: str
    dice: tuple[int, ...] = ()
    total: int | None = None
    level: int | None = None
    outcome: str | None = None
    table: TableRoll | None = None
    readings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Consequences:
    """Step 10 (§4.10; §5.1–5.5; §5.4.1). ``shock``: the modifier to IQ, DX and their skills
    on the victim's next turn (0 or negative). ``stun_causes``: why he is stunned (empty: he
    is not). ``knocked_down``: fell from a failed major-wound roll. ``knocked_out``:
    unconscious. ``crippled``: the limb hit is crippled. ``drops_weapon``. ``staggered``: at
    3 HP or less, Move and Dodge halved. ``ht_roll_each_turn``: at 0 HP or less, the level of
    the HT roll at the start of each of his turns (None above 0). ``death_checks``: how many
    were rolled. ``dead``: certainly dead. ``out_of_the_fight``: out under §5.4.1 (a bestiary
    creature at 0 HP is dead, or fled if its species flees). ``body_may_be_destroyed`` at
    −10 × HT. ``pending``: what the canon does not settle here, for the Árbitro."""

    shock: int = 0
    stun_causes: tuple[StunCause, ...] = ()
    knocked_down: bool = False
    knocked_out: bool = False
    crippled: bool = False
    drops_weapon: bool = False
    staggered: bool = False
    ht_roll_each_turn: int | None = None
    death_checks: int = 0
    dead: bool = False
    out_of_the_fight: bool = False
    body_may_be_destroyed: bool = False
    pending: tuple[str, ...] = ()

    @property
    def stunned(self) -> bool:
        return bool(self.stun_causes)


@dataclass(frozen=True)
class AttackResolution:
    """One attack from the attack roll to its consequences (§4.10 steps 3–10), every step
    kept for the scene log (``steps``, in order; ``lines`` their text).

    ``effective_level`` and ``modifiers``: what the attack was rolled against and why.
    ``hit``: the blow landed. ``critical_hit``/``critical_table``: a critical success and its
    roll on the critical hit (or head) table; ``critical_miss``: the critical miss table roll.
    ``defence_rolls`` (empty after a critical hit or a miss); ``defended``. ``damage_dice``
    and ``wound`` (``gurps.damage.Wound``, None when no damage was rolled); ``hp_lost`` and
    ``hp_after`` in HP. ``consequences`` (None when the blow did not land). For the
    defender's maneuver: ``aim_spoiled`` (he defended while aiming), ``reload_cancelled`` (he
    dodged while reloading), ``concentration_will_level`` (he defended while concentrating:
    the Will−3 roll to make, None otherwise or if his Will is not given).
    ``defences_used``: the active defences actually rolled, in order — empty after a miss, a
    critical hit (no defence roll, §4.8) or a roll against the PD alone; in Defesa Total the
    second only if the first failed. Only these count against the round's allowance: record
    them with ``RoundDefences.defend(*defences_used, dagger=...)`` (§4.7, §4.14).
    """

    attacker: str
    defender: str
    steps: tuple[SequenceStep, ...]
    effective_level: int
    modifiers: tuple[Modifier, ...]
    attack_roll: SuccessRoll
    hit: bool
    critical_hit: bool
    critical_table: TableRoll | None
    critical_miss: TableRoll | None
    defence_rolls: tuple[SuccessRoll, ...]
    defended: bool
    damage_dice: tuple[int, ...]
    wound: Wound | None
    hp_lost: int
    hp_after: int
    consequences: Consequences | None
    aim_spoiled: bool = False
    reload_cancelled: bool = False
    concentration_will_level: int | None = None
    defences_used: tuple[ActiveDefence, ...] = ()
    section: str = "4.10"

    @property
    def lines(self) -> tuple[str, ...]:
        """Each step's Portuguese line, in order."""
        return tuple(step.text for step in self.steps)

    @property
    def readings(self) -> tuple[str, ...]:
        """Every reading the result depends on, each once."""
        keys = [key for step in self.steps for key in step.readings]
        if self.wound is not None:
            keys.extend(self.wound.readings)
        return tuple(dict.fromkeys(keys))
