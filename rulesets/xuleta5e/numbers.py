"""A Xuleta combatant's numbers as JSON (``Combatant.data``): what the Mestre gives for a monster
or an NPC, or what a character's homologated sheet gives (``from_sheet``, the sheets part's
``check_data`` dict). A pydantic model for the shape; the engine's tables for the values (their
refusals name the field). Pure Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from xuleta.abilities import ABILITIES, SKILLS, ability_modifier, skill_name
from xuleta.attacks import SIZES
from xuleta.conditions import CONDITIONS, EXHAUSTION, MAX_EXHAUSTION, max_hp
from xuleta.damage import parse_dice
from xuleta.damage_types import damage_type
from xuleta.errors import XuletaError

BAD_NUMBERS = "Números do combatente recusados ({field}): {message}"
NO_SUCH_ATTACK = "{name} não tem o ataque «{attack}»: os dele são {known}."
NO_ATTACKS = "{name} não tem ataques: dê-lhe attacks (nome, bônus, dano, tipo)."
SIDES = ("jogadores", "inimigos", "aliados", "neutros")


class AttackNumbers(BaseModel):
    """One attack: to-hit ``bonus`` (d20 + it against the AC), ``damage`` dice (``"1d8"``),
    ``damage_modifier`` (the same ability modifier as the attack), ``damage_type`` (a key of
    ``xuleta.damage_types``), and the weapon's properties."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=100)
    bonus: int = Field(ge=-10, le=30)
    damage: str = Field(min_length=1, max_length=10)
    damage_modifier: int = Field(default=0, ge=-10, le=30)
    damage_type: str
    ability: str | None = ""
    ranged: bool = False
    finesse: bool = False
    light: bool = False
    thrown: bool = False
    reach_m: float = Field(default=1.5, ge=0, le=30)
    range_m: list[float] | None = None

    @field_validator("damage")
    @classmethod
    def _dice(cls, value: str) -> str:
        parse_dice(value)
        return value.replace(" ", "")

    @field_validator("damage_type")
    @classmethod
    def _type(cls, value: str) -> str:
        return damage_type(value)

    @field_validator("ability")
    @classmethod
    def _ability(cls, value: str | None) -> str:
        if value and value not in ABILITIES:
            raise ValueError(f"use {', '.join(ABILITIES)}")
        return value or ""


class XuletaNumbers(BaseModel):
    """What a combatant brings to a fight: the six ability scores (1–30; ``saves`` and
    ``skills`` bonuses where they differ from the bare modifier, the text's skill names), AC,
    maximum PC (before exhaustion) and PC now, speed in metres, size, attacks, damage
    resistances/vulnerabilities/immunities, spellcasting numbers, its ``group`` of identical
    monsters (a number, 0 none: the same number rolls one initiative), ``surprised`` (the Mestre decides), ``attacks_per_action``
    (Atac Extra), ``dies_at_zero`` (a monster the Mestre
    says dies at 0 PC), ``player_character`` (death saves), and its state (conditions,
    exhaustion, temporary PC, death saves, concentration)."""

    model_config = ConfigDict(extra="forbid")

    side: Literal["jogadores", "inimigos", "aliados", "neutros"] = "inimigos"
    abilities: dict[str, int]
    saves: dict[str, int] = Field(default_factory=dict)
    skills: dict[str, int] = Field(default_factory=dict)
    ac: int = Field(ge=0, le=40)
    max_hp: int = Field(ge=1, le=10_000)
    hp: int | None = Field(default=None, ge=0, le=10_000)
    temp_hp: int = Field(default=0, ge=0, le=10_000)
    speed_m: float = Field(default=9, ge=0, le=100)
    size: str = "medium"
    attacks: list[AttackNumbers] = Field(default_factory=list, max_length=10)
    attacks_per_action: int = Field(default=1, ge=1, le=4)
    resistances: list[str] = Field(default_factory=list)
    vulnerabilities: list[str] = Field(default_factory=list)
    immunities: list[str] = Field(default_factory=list)
    spell_save_dc: int | None = Field(default=None, ge=1, le=40)
    spell_attack_bonus: int | None = Field(default=None, ge=-10, le=30)
    slots: dict[str, int] = Field(default_factory=dict)
    slots_spent: dict[str, int] = Field(default_factory=dict)
    group: int = Field(default=0, ge=0, le=30)
    surprised: bool = False
    dies_at_zero: bool = False
    player_character: bool = False
    conditions: list[str] = Field(default_factory=list)
    exhaustion: int = Field(default=0, ge=0, le=MAX_EXHAUSTION)
    death_saves: dict[str, int] = Field(default_factory=dict)
    stable: bool = False
    dead: bool = False
    concentration: str = ""

    @field_validator("abilities")
    @classmethod
    def _abilities(cls, value: dict[str, int]) -> dict[str, int]:
        if set(value) != set(ABILITIES):
            raise ValueError(f"dê as seis: {', '.join(ABILITIES)}")
        for key, score in value.items():
            ability_modifier(score, key)
        return {key: value[key] for key in ABILITIES}

    @field_validator("saves")
    @classmethod
    def _saves(cls, value: dict[str, int]) -> dict[str, int]:
        for key in value:
            if key not in ABILITIES:
                raise ValueError(f"«{key}» não é uma característica: {', '.join(ABILITIES)}")
        return value

    @field_validator("skills")
    @classmethod
    def _skills(cls, value: dict[str, int]) -> dict[str, int]:
        return {skill_name(key): bonus for key, bonus in value.items()}

    @field_validator("slots", "slots_spent")
    @classmethod
    def _slots(cls, value: dict[str, int]) -> dict[str, int]:
        for key, count in value.items():
            if key not in {str(n) for n in range(1, 10)} or not 0 <= count <= 20:
                raise ValueError("níveis de 1 a 9, de 0 a 20 espaços cada")
        return value

    @field_validator("size")
    @classmethod
    def _size(cls, value: str) -> str:
        if value not in SIZES:
            raise ValueError(f"use {', '.join(SIZES)}")
        return value

    @field_validator("resistances", "vulnerabilities", "immunities")
    @classmethod
    def _types(cls, value: list[str]) -> list[str]:
        return list(dict.fromkeys(damage_type(v) for v in value))

    @field_validator("conditions")
    @classmethod
    def _conditions(cls, value: list[str]) -> list[str]:
        for key in value:
            if key not in CONDITIONS or key == EXHAUSTION:
                known = ", ".join(k for k in CONDITIONS if k != EXHAUSTION)
                raise ValueError(f"estado «{key}» desconhecido: {known}")
        return list(dict.fromkeys(value))


def validated(data: Mapping[str, Any]) -> dict:
    """``data`` as plain JSON the fight reads; ``XuletaError`` naming the field (under
    ``numbers``)."""
    try:
        numbers = XuletaNumbers.model_validate(dict(data))
    except XuletaError as error:  # pragma: no cover - pydantic wraps it
        raise XuletaError(error.message, f"numbers.{error.field}") from None
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"])
        message = str(first.get("ctx", {}).get("error") or first["msg"])
        raise XuletaError(
            BAD_NUMBERS.format(field=field, message=message), f"numbers.{field}"
        ) from None
    plain = numbers.model_dump()
    if plain["hp"] is None:
        plain["hp"] = plain["max_hp"]
    plain["hp"] = min(plain["hp"], plain["max_hp"])
    return plain


def modifier(numbers: Mapping[str, Any], ability: str) -> int:
    return ability_modifier(numbers["abilities"][ability])


def save_bonus(numbers: Mapping[str, Any], ability: str) -> int:
    """The save bonus the numbers give (``saves``) or the bare modifier."""
    return numbers["saves"].get(ability, modifier(numbers, ability))


def skill_bonus(numbers: Mapping[str, Any], skill: str) -> int:
    """The skill's bonus the numbers give, or its ability's modifier («Habilitats i la seva
    característica»)."""
    name = skill_name(skill)
    return numbers["skills"].get(name, modifier(numbers, SKILLS[name]))


def attack_named(numbers: Mapping[str, Any], name: str, who: str, field: str) -> dict:
    """The attack called ``name`` (the first when empty); ``XuletaError`` naming ``field``."""
    found = numbers["attacks"]
    if not found:
        raise XuletaError(NO_ATTACKS.format(name=who), field)
    if not name:
        return found[0]
    for attack in found:
        if attack["name"].casefold() == name.casefold():
            return attack
    known = ", ".join(a["name"] for a in found)
    raise XuletaError(NO_SUCH_ATTACK.format(name=who, attack=name, known=known), field)


def from_sheet(sheet: Mapping[str, Any]) -> dict:
    """The numbers of a character from its homologated sheet's ``check_data`` dict (the
    contract between the Xuleta's parts): its scores, saves, skills, AC, PC, speed, attacks,
    defences and spellcasting, and its state (PC lost, temporary PC, conditions, exhaustion,
    death saves, concentration)."""
    state = dict(sheet.get("state") or {})
    spells = sheet.get("spellcasting") or {}
    attacks = [
        {
            "name": a["name"],
            "bonus": a["bonus"],
            "damage": a["damage"],
            "damage_modifier": a.get("damage_modifier", 0),
            "damage_type": a["damage_type"],
            "ability": a.get("ability") or "",
            "ranged": bool(a.get("ranged")),
            "finesse": bool(a.get("finesse")),
            "light": bool(a.get("light")),
            "thrown": bool(a.get("thrown")),
            "reach_m": a.get("reach_m") or 1.5,
            "range_m": a.get("range_m"),
        }
        for a in sheet.get("attacks") or ()
    ]
    top = max_hp(sheet["max_hp"], state.get("exhaustion", 0))
    return validated(
        {
            "side": "jogadores",
            "abilities": sheet["abilities"],
            "saves": sheet.get("saves") or {},
            "skills": sheet.get("skills") or {},
            "ac": sheet["ac"],
            "max_hp": sheet["max_hp"],
            # hp_lost counts from the sheet's maximum; exhaustion 4 caps the PC now (the sheets
            # part and the rests read it so: «mai per sobre del teu màxim»).
            "hp": max(0, min(top, sheet["max_hp"] - state.get("hp_lost", 0))),
            "temp_hp": state.get("temp_hp", 0),
            "speed_m": sheet.get("speed_m", 9),
            "attacks": attacks,
            "resistances": sheet.get("resistances") or [],
            "vulnerabilities": sheet.get("vulnerabilities") or [],
            "immunities": sheet.get("immunities") or [],
            "spell_save_dc": spells.get("save_dc"),
            "spell_attack_bonus": spells.get("attack_bonus"),
            "slots": {str(k): int(v) for k, v in (spells.get("slots") or {}).items()},
            "slots_spent": {str(k): int(v) for k, v in (state.get("slots_spent") or {}).items()},
            "player_character": True,
            "conditions": [c for c in state.get("conditions") or () if c != EXHAUSTION],
            "exhaustion": state.get("exhaustion", 0),
            "death_saves": state.get("death_saves") or {},
            "stable": bool(state.get("stable")),
            "dead": bool(state.get("dead")),
            "concentration": state.get("concentration") or "",
        }
    )
