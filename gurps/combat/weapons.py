"""Weapon classes (canon §4.3 notes, book p. 97 and 104; §5c): which weapons become unready
after an attack and take a Ready turn, which attack in close combat and at what, and a weapon
in hand, ready or not (§4.7: to parry the weapon must be ready).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from gurps.combat.shared import enum_member
from gurps.errors import READINESS_NOT_IN_CANON, UNKNOWN_WEAPON_CLASS, OutsideCanon


class WeaponClass(StrEnum):
    SWORD = "sword"
    SHORT_SWORD = "short_sword"
    RAPIER = "rapier"
    TWO_HANDED_SWORD = "two_handed_sword"
    KNIFE = "knife"
    DAGGER = "dagger"
    AXE = "axe"
    MACE = "mace"
    POLEARM = "polearm"
    SPEAR = "spear"
    PUNCH = "punch"
    ELBOW = "elbow"
    BITE = "bite"


class Readiness(StrEnum):
    NEVER_UNREADY = "never_unready"  # "nunca ficam despreparadas"
    UNREADY_AFTER_ATTACK = "unready_after_attack"  # "depois de golpear, gasta-se um turno"


class CloseCombatUse(StrEnum):
    ATTACKS = "attacks"  # "Faca, adaga, soco, cotovelada e mordida, sim."
    PENALISED = "penalised"  # "Espada curta e rapieira atacam a −4."
    CANNOT = "cannot"  # "Lança, arma de haste e espada de duas mãos não atacam de perto."


# §4.3 (p. 97, 104): an unready weapon takes one Ready turn.
READY_TURNS_AFTER_ATTACK = 1
# §5c: "Espada curta e rapieira atacam a −4."
CLOSE_COMBAT_PENALTY = -4


@dataclass(frozen=True)
class WeaponClassRow:
    """What the canon says of a kind of weapon: whether it becomes unready after an attack
    (§4.3 note, p. 97 and 104) and whether it attacks in close combat (§5c). None where the
    canon says nothing: the functions then raise OutsideCanon."""

    weapon_class: WeaponClass
    name: str
    readiness: Readiness | None
    close_combat: CloseCombatUse | None
    section: str = "4.3, 5c"
    page: str = "97 e 104"


_N, _U = Readiness.NEVER_UNREADY, Readiness.UNREADY_AFTER_ATTACK
_YES, _PEN, _NO = CloseCombatUse.ATTACKS, CloseCombatUse.PENALISED, CloseCombatUse.CANNOT

WEAPON_CLASSES: tuple[WeaponClassRow, ...] = (
    WeaponClassRow(WeaponClass.SWORD, "espada", _N, None),
    WeaponClassRow(WeaponClass.SHORT_SWORD, "espada curta", _N, _PEN),
    WeaponClassRow(WeaponClass.RAPIER, "rapieira", _N, _PEN),
    WeaponClassRow(WeaponClass.TWO_HANDED_SWORD, "espada de duas mãos", _N, _NO),
    WeaponClassRow(WeaponClass.KNIFE, "faca", _N, _YES),
    # §4.14 counts the dagger among the knives ("o −1 que toda faca sofre ao aparar").
    WeaponClassRow(WeaponClass.DAGGER, "adaga", _N, _YES, section="4.3, 4.14, 5c"),
    WeaponClassRow(WeaponClass.AXE, "machado", _U, None),
    WeaponClassRow(WeaponClass.MACE, "maça", _U, None),
    WeaponClassRow(WeaponClass.POLEARM, "arma de haste", _U, _NO),
    WeaponClassRow(WeaponClass.SPEAR, "lança", None, _NO),
    WeaponClassRow(WeaponClass.PUNCH, "soco", None, _YES),
    WeaponClassRow(WeaponClass.ELBOW, "cotovelada", None, _YES),
    WeaponClassRow(WeaponClass.BITE, "mordida", None, _YES),
)


def weapon_class(value: WeaponClass | str) -> WeaponClassRow:
    """The row of ``value`` ("sword", "axe", ...); else InvalidValue("weapon_class")."""
    chosen = enum_member(WeaponClass, value, "weapon_class", UNKNOWN_WEAPON_CLASS)
    return next(row for row in WEAPON_CLASSES if row.weapon_class is chosen)


def needs_ready_after_attack(value: WeaponClass | str) -> bool:
    """True if the weapon becomes unready after an attack and takes a Ready turn (axe, mace,
    polearm); False for swords and knives, which never become unready (§4.3 note, p. 97 and
    104). Raises InvalidValue("weapon_class") and OutsideCanon("4.3") for a weapon the canon
    does not class (spear, punch, elbow, bite)."""
    row = weapon_class(value)
    if row.readiness is None:
        raise OutsideCanon("4.3", READINESS_NOT_IN_CANON.format(weapon=row.name))
    return row.readiness is Readiness.UNREADY_AFTER_ATTACK


@dataclass(frozen=True)
class WeaponReadiness:
    """A weapon in hand, ready or not (§4.3 note, p. 97 and 104; §4.7: to parry the weapon
    must be ready). Immutable: each event returns the new state."""

    weapon_class: WeaponClass
    ready: bool = True

    def after_attack(self) -> WeaponReadiness:
        """The state after attacking with it: unready for an axe, mace or polearm, still
        ready for a sword or knife. Raises OutsideCanon("4.3") for an unclassed weapon."""
        if needs_ready_after_attack(self.weapon_class):
            return WeaponReadiness(self.weapon_class, ready=False)
        return self

    def after_ready(self) -> WeaponReadiness:
        """The state after a Ready maneuver (one turn): ready."""
        return WeaponReadiness(self.weapon_class, ready=True)

    @property
    def can_attack(self) -> bool:
        return self.ready

    @property
    def can_parry(self) -> bool:
        """False while unready: no parry with an axe in the turn one attacked with it (§4.3),
        nor with any unready weapon (§4.7 "Precisa da arma preparada")."""
        return self.ready


def creature_weapon_skill(skill: int | None, dx: int) -> int:
    """The level a bestiary creature or NPC attacks at with a weapon (§4.4: "o atacante rola
    3d6 contra o NH da arma"): the NH the Mestre gives; none given, the creature's DX.
    Reading (not in the canon's words): a bestiary line without its NH attacks at the
    creature's DX, as the Basic Set's animals do; the Mestre enters the NH when the bestiary
    has one."""
    return dx if skill is None else skill
