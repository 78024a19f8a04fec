"""What the Mestre (a page's form, the API, the MCP tools) gives the combat tracker: a bestiary
creature's numbers, the announced modifiers of an attack, the defender's choice.

One input mapper per capability ("surfaces map input, services validate", docs/DESIGN.md): the
page's forms and the API's bodies each say their input in the API's field names (a mapping:
the API's ``payload.dict()``, the page's cleaned data renamed by its form), and
``creature_spec``, ``attack_spec``, ``defence_spec`` and ``maneuver_spec`` turn it into the
service's spec. They check nothing: the services refuse, one message each
(``sessions.combat.messages``), within the bounds below, which the API's schemas publish.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from sessions.log import services as log_services
from sessions.models import Combatant

# --- the bounds of the numbers the Mestre enters (low, high), checked by the services --------

ATTRIBUTE = (1, 40)
HP = (1, 400)
MOVE = (0, 40)
DEFENCE_LEVEL = (-10, 30)  # a bestiary Dodge, Block or Parry
PASSIVE_DEFENSE = (0, 20)
DAMAGE_RESISTANCE = (0, 100)
SKILL = (-10, 40)
ACCURACY = (0, 20)
WEAPON_LINE = (0, 20)  # a weapon's line index
# The API's schema bounds of the §4.5 situations; the engine refuses outside its table.
LIGHTING = (-9, 0)
FOOTING = (-20, 0)  # bad footing and awkward position: −2 or worse
DISTANCE_M = (0, 100_000)  # §4.11

# --- inputs -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class WeaponSpec:
    """A weapon of a bestiary creature or NPC as the Mestre enters it: the skill level, the
    damage as a sheet writes it ("2d cort", "GDP+1 perf"), read at the creature's ST."""

    name: str
    skill: int | None  # None: the creature's DX (gurps.combat.creature_weapon_skill)
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
    move: int | None = None  # None: the canon's, from DX, HT and Carga (gurps.derived)
    dodge: int | None = None  # None: the canon's, = Move (§2.1)
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

    def as_kwargs(self) -> dict[str, Any]:
        """The spec as the keyword arguments of ``maneuvers.maneuver_declare`` and
        ``maneuver_change`` (a shallow copy: the target stays the caller's instance)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @property
    def options(self) -> dict[str, Any]:
        """The options given, by field name, in the order a refusal names them."""
        given = {
            "all_out_option": self.all_out_option,
            "posture": self.posture,
            "weapon": self.weapon is not None,
            "reloading": self.reloading,
            "target": self.target is not None,
        }
        return {name: value for name, value in given.items() if value}


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


# --- the mappers ------------------------------------------------------------------------------


def weapon_spec(data: Mapping[str, Any]) -> WeaponSpec:
    """A bestiary weapon from the API's ``CombatWeaponIn`` fields (``skill`` None or missing:
    the creature's DX, said by the service)."""
    return WeaponSpec(
        name=data.get("name") or "",
        skill=data.get("skill"),
        damage=data.get("damage") or "",
        weapon_class=data.get("weapon_class") or "",
        attack_kind=data.get("attack_kind") or "hand_weapon",
        parry=data.get("parry"),
        weight_kg=data.get("weight_kg") or None,
        accuracy=data.get("accuracy"),
    )


def creature_spec(data: Mapping[str, Any]) -> CreatureSpec:
    """A creature or NPC from the API's ``CombatantIn`` fields; a number not given is the
    spec's default (Move and Dodge None: the canon's, from the attributes)."""
    given = {
        name: data[name]
        for name in ("st", "dx", "iq", "ht", "hp", "move", "dodge", "block")
        if data.get(name) is not None
    }
    return CreatureSpec(
        name=data.get("name") or "",
        kind=data.get("kind") or "creature",
        passive_defense=data.get("passive_defense") or 0,
        damage_resistance=data.get("damage_resistance") or 0,
        combat_reflexes=bool(data.get("combat_reflexes")),
        flees=bool(data.get("flees")),
        weapons=tuple(weapon_spec(w) for w in data.get("weapons") or ()),
        demo_note=data.get("demo_note") or "",
        **given,
    )


def attack_spec(data: Mapping[str, Any]) -> AttackSpec:
    """The announced attack from the API's ``TurnAttackIn`` fields (``modifiers`` a list of
    ``{"label", "value"}``)."""
    return AttackSpec(
        weapon=data.get("weapon") or 0,
        lighting=data.get("lighting") or 0,
        total_darkness=bool(data.get("total_darkness")),
        bad_footing=data.get("bad_footing") or 0,
        awkward_position=data.get("awkward_position") or 0,
        location=data.get("location") or "torso",
        arm_side=data.get("arm_side") or None,
        side=data.get("side") or None,
        distance_m=data.get("distance_m"),
        modifiers=tuple(
            log_services.Modifier(m["label"], m["value"]) for m in data.get("modifiers") or ()
        ),
    )


def defence_spec(data: Mapping[str, Any]) -> DefenceSpec:
    """The defender's choice from the API's ``TurnAttackIn`` fields (``defences`` a list)."""
    return DefenceSpec(
        defences=tuple(d for d in data.get("defences") or () if d),
        parry_weapon=data.get("parry_weapon"),
        retreat=bool(data.get("retreat")),
        dagger=bool(data.get("dagger")),
    )


def maneuver_spec(data: Mapping[str, Any], target: Combatant | None = None) -> ManeuverSpec | None:
    """The maneuver from the API's ``ManeuverIn``/``TurnIn`` fields, ``target`` the feint's
    (looked up by the surface). None when neither a maneuver nor an option is given; options
    without a maneuver make a spec of an empty ``maneuver``, which the service refuses
    (``messages.OPTION_WITHOUT_MANEUVER``), naming the first option."""
    spec = ManeuverSpec(
        maneuver=data.get("maneuver") or "",
        all_out_option=data.get("all_out_option") or "",
        posture=data.get("posture") or "",
        weapon=data.get("weapon"),
        reloading=bool(data.get("reloading")),
        target=target,
        target_sees=data.get("target_sees", True) is not False,
    )
    if not spec.maneuver and not spec.options:
        return None
    return spec
