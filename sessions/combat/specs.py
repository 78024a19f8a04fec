"""What the Mestre (a page's form, the API, the MCP tools) gives the combat tracker: a bestiary
creature's numbers, the announced modifiers of an attack, the defender's choice.
"""

from __future__ import annotations

from dataclasses import dataclass

from sessions.log import services as log_services
from sessions.models import Combatant

# --- inputs -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class WeaponSpec:
    """A weapon of a bestiary creature or NPC as the Mestre enters it: the skill level, the
    damage as a sheet writes it ("2d cort", "GDP+1 perf"), read at the creature's ST."""

    name: str
    skill: int
    damage: str
    weapon_class: str = ""
    attack_kind: str = "hand_weapon"
    parry: int | None = None
    weight_kg: str | None = None
    accuracy: int | None = None  # Prec of a ranged weapon (§4.11)


@dataclass(frozen=True)
class CreatureSpec:
    """A bestiary creature or a named NPC, entered with its numbers (they are data the Mestre
    or the Árbitro enters, not canon the site invents)."""

    name: str
    kind: str = "creature"
    st: int = 10
    dx: int = 10
    iq: int = 10
    ht: int = 10
    hp: int | None = None
    move: int = 5
    dodge: int = 5
    block: int | None = None
    passive_defense: int = 0
    damage_resistance: int = 0
    combat_reflexes: bool = False
    flees: bool = False
    weapons: tuple[WeaponSpec, ...] = ()
    demo_note: str = ""


@dataclass(frozen=True)
class DefenceSpec:
    """The defender's choice, made when the blow comes (§4.6): one active defence, or two
    different in Defesa Total (``defences``); ``parry_weapon`` the weapon index that parries;
    ``retreat`` +3 (once a round); ``dagger`` the fencer's off-hand dagger (§4.14)."""

    defences: tuple[str, ...] = ()
    parry_weapon: int | None = None
    retreat: bool = False
    dagger: bool = False


@dataclass(frozen=True)
class ManeuverSpec:
    """The maneuver a combatant declares (§4.3) with its options: ``all_out_option`` for
    Ataque Total ("double", "feint", "determined", "strong"), ``posture`` for Mudança de
    Posição, ``weapon`` the line index Apontar, Preparar and the feint use, ``reloading`` a
    missile weapon (Preparar), ``target`` whom a feint is against and ``target_sees`` False
    when he cannot see the feinter (the feint is then worth nothing, §4.3)."""

    maneuver: str
    all_out_option: str = ""
    posture: str = ""
    weapon: int | None = None
    reloading: bool = False
    target: Combatant | None = None
    target_sees: bool = True


@dataclass(frozen=True)
class AttackSpec:
    """What the Mestre announces before the attack roll (§1.4, §4.5): lighting (−1 to −9),
    total darkness, bad footing and awkward position (−2 or worse), the location aimed at
    (with ``arm_side`` for an arm, ``side`` "left"/"right" for a leg, hand or foot),
    the distance for a ranged weapon, and any other modifier with its reason."""

    weapon: int = 0
    lighting: int = 0
    total_darkness: bool = False
    bad_footing: int = 0
    awkward_position: int = 0
    location: str = "torso"
    arm_side: str | None = None
    side: str | None = None
    distance_m: int | None = None
    modifiers: tuple[log_services.Modifier, ...] = ()
