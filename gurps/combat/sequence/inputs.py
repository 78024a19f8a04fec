"""What one attack is given (canon §4.10; §1.4: everything is said before the dice): the
attacker's side, the defender's and the body the blow lands on.
"""

from __future__ import annotations

from dataclasses import dataclass

from gurps.combat.maneuvers import AllOutAttackOption, Maneuver
from gurps.combat.modifiers import AnnouncedModifier
from gurps.damage import DamageType
from gurps.defence import ActiveDefence, AttackKind
from gurps.dice import DiceExpression
from gurps.hit_locations import ArmSide, HitLocation
from gurps.house import CombatantKind
from gurps.rolling import Modifier

# The maneuvers that attack (§4.3): Avançar e Atacar, Ataque Total, Aguardar.
ATTACK_MANEUVERS = frozenset({Maneuver.MOVE_AND_ATTACK, Maneuver.ALL_OUT_ATTACK, Maneuver.WAIT})


@dataclass(frozen=True)
class AttackInput:
    """The attacker's side of one attack, everything said before the dice (§1.4).

    ``name``: the attacker, for the log. ``skill``: the weapon skill (NH), levels. ``damage``:
    the weapon's damage dice at the attacker's ST (``gurps.damage.weapon_damage(...).
    expression``, or text such as "1d+2"); ``damage_type`` "cr", "cut" or "imp".
    ``maneuver``: Avançar e Atacar, Ataque Total (with ``all_out_option``) or Aguardar.
    ``announced``: the §4.5 situations (``attack_modifiers``; ``ambidextrous`` for the off
    hand); ``modifiers``: any other announced modifier with its reason (range, aim,
    shock…: ``gurps.ranged.range_modifier``, ``AimState.bonus``,
    ``gurps.injury.shock_penalty``). ``location`` where the blow is aimed (its §5.5 penalty
    is added; ``arm_side`` for an arm). ``attack_kind``: what comes at the defender
    (``gurps.defence.AttackKind``). ``feint_penalty``: the margin of the attacker's own feint
    against this defender (``FeintResult.defence_penalty``). ``thrust``: a golpe de ponta
    (the §4.13 torso cap); ``beam``: beam, fireball or lightning. ``unbreakable`` and
    ``cheap``: the weapon, for the critical miss table.
    """

    name: str
    skill: int
    damage: DiceExpression | str
    damage_type: DamageType | str
    maneuver: Maneuver | str = Maneuver.MOVE_AND_ATTACK
    all_out_option: AllOutAttackOption | str | None = None
    announced: tuple[AnnouncedModifier, ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    ambidextrous: bool = False
    location: HitLocation | str = HitLocation.TORSO
    arm_side: ArmSide | str | None = None
    attack_kind: AttackKind | str = AttackKind.HAND_WEAPON
    feint_penalty: int = 0
    thrust: bool = False
    beam: bool = False
    unbreakable: bool = False
    cheap: bool = False


@dataclass(frozen=True)
class DefenceChoice:
    """An active defence the defender will use if the attack hits, and its level (from
    ``gurps.defence.dodge``/``parry``/``block``, with Combat Reflexes, stun, retreat…)."""

    defence: ActiveDefence | str
    level: int


@dataclass(frozen=True)
class DefenceInput:
    """The defender's side (§4.6). ``maneuver``: his own last maneuver, which decides what he
    has (§4.1). ``passive_defense``: PD, 0 or more. ``choices``: the active defence he
    chooses — one; two different in Defesa Total; none to roll against the PD alone.
    ``aware``: False when he does not know the attack comes (surprise, backstab, the unseen
    target of §5e): no active defence. ``grappled``: no Dodge (§5c).
    ``reloading_missile_weapon``: Preparar while reloading: only Dodge. ``will``: his Will,
    for the Will−3 roll of Concentrar. How many defences are left in the round
    (``gurps.defence.RoundDefences``, before the dice; record afterwards only
    ``AttackResolution.defences_used``) and whether his weapon is ready
    (``WeaponReadiness.can_parry``) are the caller's to check."""

    name: str
    maneuver: Maneuver | str
    passive_defense: int
    choices: tuple[DefenceChoice, ...] = ()
    aware: bool = True
    grappled: bool = False
    reloading_missile_weapon: bool = False
    will: int | None = None


@dataclass(frozen=True)
class TargetInput:
    """The body the blow lands on. ``ht`` 1 or more; ``hp`` remaining before the blow (may be
    0 or negative); ``dr`` at the location hit, 0 or more; ``kind`` for the house rule of
    §5.4.1 ("creature", "named_npc", "boss", "player_character" — a boss only if declared
    before the first die, ``declared_in_time``); ``strong_will``/``weak_will`` levels for the
    turn-start HT roll at 0 HP; ``limb_hp_lost_before``: what the limb hit took earlier in the
    fight (§5.5)."""

    ht: int
    hp: int
    dr: int
    kind: CombatantKind | str
    strong_will: int = 0
    weak_will: int = 0
    limb_hp_lost_before: int = 0
