"""A combatant's weapons as typed lines (canon §4.3, §4.7, §4.9): what is stored is what the sheet
or the Mestre said — the skill level, the damage as written, the parry kind or a bestiary Aparar
— and what follows from them (the dice at this ST, the type, whether it is a golpe de ponta) is
read by ``gurps.damage`` when it is needed, never stored.

A weapon may have more than one attack line (a spear as thrust and as swing): the lines that
share a name are one weapon, which parries once, breaks once and falls once (§4.7, §4.8).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from decimal import Decimal

from campaigns.errors import ServiceError
from gurps import combat as engine
from gurps import damage
from gurps.errors import GurpsError, InvalidValue, OutsideCanon
from gurps.ranged import RANGED_SKILLS  # noqa: F401 (sessions.combat.services reads it here)

HAND_ATTACKS = ("hand_weapon", "unarmed")

# The site's guess of a weapon's class from the skill it is used with, for readiness (§4.3)
# and close combat (§5c). Not a rule: the rule is in gurps.combat.WEAPON_CLASSES.
SKILL_WEAPON_CLASS = {
    "espada curta": engine.WeaponClass.SHORT_SWORD,
    "espada larga": engine.WeaponClass.SWORD,
    "espada": engine.WeaponClass.SWORD,
    "rapieira": engine.WeaponClass.RAPIER,
    "esgrima": engine.WeaponClass.RAPIER,
    "espada de duas mãos": engine.WeaponClass.TWO_HANDED_SWORD,
    "faca": engine.WeaponClass.KNIFE,
    "adaga": engine.WeaponClass.DAGGER,
    "machado": engine.WeaponClass.AXE,
    "maça": engine.WeaponClass.MACE,
    "arma de haste": engine.WeaponClass.POLEARM,
    "lança": engine.WeaponClass.SPEAR,
    "briga": engine.WeaponClass.PUNCH,
}

DAMAGE_TYPE_NEEDED = "Diga o tipo do dano da arma: cont, corte ou perf (§4.9)."
UNKNOWN_ATTACK_KIND = "Tipo de ataque desconhecido (arma de mão, flecha, arremesso…)."
WEIGHT_BAD = "Peso da arma em kg, 0 ou mais (ex.: 1,5)."
NO_DAMAGE_NUMBER = "{weapon}: {message} O dano desta arma não tem número; ela apara, mas não ataca."


@dataclass(frozen=True)
class CombatWeapon:
    """One attack line of a combatant: ``skill`` its NH (levels); ``damage`` as the sheet
    writes it ("GDP+1 perf", "2d cort"); ``parry_kind`` a sheet weapon's parry (§4.7: "normal",
    "fencing", "knife" …, "" when it does not parry); ``given_parry`` a bestiary weapon's
    Aparar as the Mestre gives it; ``accuracy`` Prec (§4.11); ``weight_kg`` as text (kg)."""

    name: str
    skill: int
    damage: str
    weapon_class: str = ""
    attack_kind: str = "hand_weapon"
    parry_kind: str = ""
    given_parry: int | None = None
    accuracy: int | None = None
    weight_kg: str | None = None

    @property
    def ranged(self) -> bool:
        return self.attack_kind not in HAND_ATTACKS

    @property
    def unarmed(self) -> bool:
        return self.attack_kind == "unarmed"

    @property
    def parries(self) -> bool:
        return bool(self.parry_kind) or self.given_parry is not None

    @property
    def weapon(self) -> str:
        """The weapon this line belongs to: lines with the same name are one weapon."""
        return self.name.casefold().strip()

    def read(self, st: int) -> damage.WeaponDamage:
        """The damage at ``st`` (§4.9). Raises OutsideCanon("4.9") above ST 20 for GDP/Bal,
        InvalidValue("damage") for text the canon cannot read."""
        return damage.weapon_damage(self.damage, st)

    def damage_problem(self, st: int) -> str | None:
        """Why this line has no damage number at ``st`` (the canon's words), or None."""
        try:
            self.read(st)
        except (OutsideCanon, InvalidValue) as error:
            return NO_DAMAGE_NUMBER.format(weapon=self.name, message=error.message)
        return None

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> CombatWeapon:
        known = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        return cls(**known)


def weapons_of(stored: list[dict]) -> list[CombatWeapon]:
    """A combatant's ``weapons`` column as typed lines, in their order (indexes are stable)."""
    return [CombatWeapon.from_json(line) for line in stored]


def lines_of_weapon(weapons: list[CombatWeapon], index: int) -> list[int]:
    """Every line index of the weapon that line ``index`` belongs to."""
    name = weapons[index].weapon
    return [i for i, w in enumerate(weapons) if w.weapon == name]


def weapon_class_of_skill(skill_name: str) -> str:
    found = SKILL_WEAPON_CLASS.get(skill_name.casefold().strip())
    return found.value if found else ""


def _clean_weight(weight_kg, field_name: str) -> str | None:
    if weight_kg in (None, ""):
        return None
    try:
        weight = Decimal(str(weight_kg).replace(",", ".").strip())
    except ArithmeticError:
        raise ServiceError(WEIGHT_BAD, field=f"{field_name}.weight_kg") from None
    if not weight.is_finite() or weight < 0 or weight > 1000:
        raise ServiceError(WEIGHT_BAD, field=f"{field_name}.weight_kg")
    return str(weight)


def weapon_line(
    *,
    name: str,
    skill: int,
    written: str,
    st: int,
    weapon_class: str = "",
    attack_kind: str = "hand_weapon",
    parry_kind: str = "",
    given_parry: int | None = None,
    accuracy: int | None = None,
    weight_kg=None,
    field_name: str = "weapons",
    max_dice: int,
    max_adds: int,
    too_many_dice: str,
    adds_too_large: str,
) -> CombatWeapon:
    """A checked line. Unreadable text, no damage type or absurd dice are refused (naming
    ``field_name``); damage the canon has no number for at this ST (§4.9, ST above 20) is kept:
    the weapon still parries, and the card says why it does not attack."""
    if attack_kind not in {kind.value for kind in engine.AttackKind}:
        raise InvalidValue(f"{field_name}.attack_kind", UNKNOWN_ATTACK_KIND)
    if weapon_class:
        engine.weapon_class(weapon_class)  # InvalidValue("weapon_class") if unknown
    line = CombatWeapon(
        name=name[:100],
        skill=skill,
        damage=written,
        weapon_class=weapon_class,
        attack_kind=attack_kind,
        parry_kind=parry_kind or "",
        given_parry=given_parry,
        accuracy=accuracy,  # None where not given: the card and the aim line say so (§4.3)
        weight_kg=_clean_weight(weight_kg, field_name),
    )
    try:
        read = line.read(st)
    except OutsideCanon:
        return line
    except InvalidValue as error:
        raise ServiceError(error.message, field=f"{field_name}.damage") from None
    if read.damage_type is None:
        raise ServiceError(DAMAGE_TYPE_NEEDED, field=f"{field_name}.damage")
    # The same bounds as a damage roll of the scene: no million-die weapon in the chain.
    if read.expression.count > max_dice:
        raise ServiceError(too_many_dice.format(limit=max_dice), field=f"{field_name}.damage")
    if abs(read.expression.modifier) > max_adds:
        raise ServiceError(adds_too_large.format(limit=max_adds), field=f"{field_name}.damage")
    return line


def readable(line: CombatWeapon, st: int) -> bool:
    """Whether the line's damage has a number at ``st``."""
    try:
        line.read(st)
    except GurpsError:
        return False
    return True
