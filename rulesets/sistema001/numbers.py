"""The Mestre's numbers for a sistema001 combatant, as JSON (``Combatant.data``): a pydantic
model for the shape, the engine's ``Fighter`` and ``Weapon`` for every rule on the values (their
refusals name the field). Pure Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sistema001.errors import Sistema001Error
from sistema001.fighters import Fighter, Weapon, unarmed

BAD_NUMBERS = "Números do combatente recusados: {message}"
NO_SUCH_WEAPON = "{name} não tem a arma «{weapon}»: as dele são {known}."
UNARMED_ONLY = "nenhuma (só o ataque desarmado)"


class WeaponNumbers(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=100)
    kind: str
    damage_increase: int = 0
    damage_types: list[str] = Field(default_factory=list)
    magical: bool = False
    reach_m: int = 1
    ammunition: int | None = Field(default=None, ge=0)


class FighterNumbers(BaseModel):
    """What the Mestre gives for a combatant (no character sheet): the six attributes, the size
    of each attribute's die, PV, side, what it resists, and its weapons."""

    model_config = ConfigDict(extra="forbid")

    attributes: dict[str, int]
    dice: dict[str, int]
    pv_max: int
    pv: int | None = None
    side: str = "inimigos"
    resistances: list[str] = Field(default_factory=list)
    vulnerabilities: list[str] = Field(default_factory=list)
    immunities: list[str] = Field(default_factory=list)
    condition_resistances: list[str] = Field(default_factory=list)
    condition_vulnerabilities: list[str] = Field(default_factory=list)
    condition_immunities: list[str] = Field(default_factory=list)
    mundane_immune: bool = False
    damage_reduction: int = Field(default=0, ge=0)
    weapons: list[WeaponNumbers] = Field(default_factory=list)


def validated(data: Mapping[str, Any]) -> dict:
    """``data`` as plain JSON the engine accepts; ``Sistema001Error`` naming the field."""
    try:
        numbers = FighterNumbers.model_validate(dict(data))
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"])
        raise Sistema001Error(BAD_NUMBERS.format(message=first["msg"]), field) from None
    plain = numbers.model_dump()
    if plain["pv"] is None:
        plain["pv"] = plain["pv_max"]
    fighter("?", "?", plain, plain["pv"])  # the engine's own checks, naming the field
    for index, weapon in enumerate(plain["weapons"]):
        try:
            weapon_of(weapon)
        except Sistema001Error as error:
            raise Sistema001Error(error.message, f"weapons.{index}.{error.field}") from None
        plain["weapons"][index]["damage_types"] = list(weapon_of(weapon).damage_types)
    return plain


def fighter(key: str, name: str, numbers: Mapping[str, Any], pv: int) -> Fighter:
    """The engine's ``Fighter`` of a combatant's numbers with its PV now."""
    return Fighter(
        key=key,
        name=name,
        attributes=numbers["attributes"],
        dice=numbers["dice"],
        pv_max=numbers["pv_max"],
        pv=max(0, min(pv, numbers["pv_max"])),
        side=numbers["side"],
        resistances=frozenset(numbers["resistances"]),
        vulnerabilities=frozenset(numbers["vulnerabilities"]),
        immunities=frozenset(numbers["immunities"]),
        condition_resistances=frozenset(numbers["condition_resistances"]),
        condition_vulnerabilities=frozenset(numbers["condition_vulnerabilities"]),
        condition_immunities=frozenset(numbers["condition_immunities"]),
        mundane_immune=numbers["mundane_immune"],
    )


def weapon_of(data: Mapping[str, Any]) -> Weapon:
    return Weapon(
        name=data["name"],
        kind=data["kind"],
        damage_increase=data.get("damage_increase", 0),
        damage_types=tuple(data.get("damage_types", ())),
        magical=data.get("magical", False),
        reach_m=data.get("reach_m", 1),
    )


def weapon_named(name: str, fighter_name: str, numbers: Mapping[str, Any], field: str) -> Weapon:
    """The combatant's weapon called ``name`` (any case); "" is the unarmed attack."""
    if not name.strip():
        return unarmed()
    for weapon in numbers.get("weapons", ()):
        if weapon["name"].casefold() == name.strip().casefold():
            return weapon_of(weapon)
    known = ", ".join(w["name"] for w in numbers.get("weapons", ())) or UNARMED_ONLY
    raise Sistema001Error(NO_SUCH_WEAPON.format(name=fighter_name, weapon=name, known=known), field)
