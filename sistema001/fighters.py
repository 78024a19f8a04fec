"""Combatants and weapons, as the Mestre gives them (no character sheet).

Chapter «4. Combate». A ``Fighter`` holds the six attributes, each attribute's die size (the
chapter cites «Dado de Mobilidade», «Dado de Acuidade» and never gives their size: the
Mestre's input), the PV (the chapter cites «Pontos de Vida» and never says how the maximum is
computed: the Mestre's input), its side, and what it resists, is vulnerable or immune to —
damage types («Resistência ao tipo de dano») and conditions («Interação com Condições») — and
whether it is resistant/immune to mundane effects («Criaturas podem ser resistentes ou imunes
a efeitos (e danos) mundanos, mas sofrem efeitos mágicos normalmente.»).

The vocabularies the rest of the engine checks against live here: ``DAMAGE_TYPES`` («Tipos
de Dano»), ``CONDITION_KEYS`` («Lista de Condições»), ``SIDES``, ``WEAPON_KINDS``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from dice.errors import MAX_SIDES, MIN_SIDES
from sistema001.attributes import ATTRIBUTE_LABELS, ATTRIBUTES, check_value
from sistema001.errors import Sistema001Error

# --- «Tipos de Dano» ------------------------------------------------------------------------
DAMAGE_TYPE_LABELS = MappingProxyType(
    {
        "corte": "Corte",
        "perfuracao": "Perfuração",
        "contusao": "Contusão",
        "fogo": "Fogo",
        "frio": "Frio",
        "eletrico": "Elétrico",
        "quimico": "Químico",
        "sonico": "Sônico",
        "psiquico": "Psíquico",
        "magico": "Mágico",
    }
)
DAMAGE_TYPES: tuple[str, ...] = tuple(DAMAGE_TYPE_LABELS)
# «Corte», «Perfuração», «Contusão»: the physical types (reading ``bleeding_damage_type``).
PHYSICAL_DAMAGE_TYPES: tuple[str, ...] = ("corte", "perfuracao", "contusao")

# --- «Lista de Condições» -------------------------------------------------------------------
CONDITION_LABELS = MappingProxyType(
    {
        "desprevenido": "Desprevenido",
        "caido": "Caído",
        "cego": "Cego",
        "contido": "Contido",
        "invisivel": "Invisível",
        "paralisado": "Paralisado",
        "atordoado": "Atordoado",
        "desorientado": "Desorientado",
        "lento": "Lento",
        "amedrontado": "Amedrontado",
        "exaurido": "Exaurido",
        "ferido": "Ferido",
        "sangrando": "Sangrando",
        "envenenado": "Envenenado",
        "incendiado": "Incendiado",
        "atraido": "Atraído",
    }
)
CONDITION_KEYS: tuple[str, ...] = tuple(CONDITION_LABELS)

# --- sides and weapons ----------------------------------------------------------------------
SIDE_LABELS = MappingProxyType({"jogadores": "Jogadores", "inimigos": "Inimigos"})
SIDES: tuple[str, ...] = tuple(SIDE_LABELS)

WEAPON_KIND_LABELS = MappingProxyType(
    {
        "corpo_a_corpo": "Arma corpo a corpo",
        "arremesso": "Arma de arremesso",
        "disparo": "Arma de disparo ou de fogo",
        "improvisada": "Arma improvisada ou ataque desarmado",
    }
)
WEAPON_KINDS: tuple[str, ...] = tuple(WEAPON_KIND_LABELS)
# «Armas simples têm alcance de 1 metro, salvo indicado por aprimoramentos».
DEFAULT_REACH_M = 1

# --- messages -------------------------------------------------------------------------------
EMPTY_KEY = "Todo combatente precisa de uma chave."
EMPTY_NAME = "Todo combatente precisa de um nome."
MISSING_ATTRIBUTE = "Falta {label}: dê os seis atributos."
UNKNOWN_ATTRIBUTE_KEYS = (
    "Atributo desconhecido: {keys}. Use Mobilidade, Acuidade, Força, Resistência, Espírito e "
    "Astúcia."
)
MISSING_DIE = "Falta o tamanho do Dado de {label} (o Mestre o informa)."
BAD_DIE = f"O Dado de {{label}} tem de {MIN_SIDES} a {MAX_SIDES} faces."
BAD_PV_MAX = "PV máximos devem ser um número inteiro de 1 ou mais (o Mestre os informa)."
BAD_PV = "PV devem ser um número inteiro de 0 até os PV máximos."
UNKNOWN_SIDE = "Lado desconhecido «{side}»: use jogadores ou inimigos."
UNKNOWN_DAMAGE_TYPE = (
    "Tipo de dano desconhecido «{key}»: use corte, perfuração, contusão, fogo, frio, elétrico, "
    "químico, sônico, psíquico ou mágico."
)
UNKNOWN_CONDITION = "Condição desconhecida «{key}»."
EMPTY_WEAPON_NAME = "Toda arma precisa de um nome."
UNKNOWN_WEAPON_KIND = (
    "Tipo de arma desconhecido «{kind}»: use corpo a corpo, arremesso, disparo ou improvisada."
)
BAD_DAMAGE_INCREASE = "O Aumento de Dano da arma deve ser um número inteiro de 0 ou mais."
IMPROVISED_NO_INCREASE = (
    "Armas improvisadas e ataques desarmados não recebem aprimoramentos de aumento de dano."
)
IMPROVISED_CONTUSION = (
    "Armas improvisadas e ataques desarmados causam dano de contusão: «o tipo de dano é de "
    "contusão»."
)
NO_DAMAGE_TYPE = "Dê ao menos um tipo de dano da arma."
BAD_REACH = "O alcance da arma deve ser um número inteiro de metros, 1 ou mais."


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def damage_types(keys: Iterable[str], field_name: str) -> frozenset[str]:
    """``keys`` as a frozenset of damage type keys; raises ``Sistema001Error`` naming
    ``field_name`` for an unknown key."""
    found = frozenset(keys) if not isinstance(keys, str) else frozenset((keys,))
    for key in sorted(found):
        if key not in DAMAGE_TYPE_LABELS:
            raise Sistema001Error(UNKNOWN_DAMAGE_TYPE.format(key=key), field_name)
    return found


def condition_keys(keys: Iterable[str], field_name: str) -> frozenset[str]:
    """``keys`` as a frozenset of condition keys; raises ``Sistema001Error`` naming
    ``field_name`` for an unknown key."""
    found = frozenset(keys) if not isinstance(keys, str) else frozenset((keys,))
    for key in sorted(found):
        if key not in CONDITION_LABELS:
            raise Sistema001Error(UNKNOWN_CONDITION.format(key=key), field_name)
    return found


@dataclass(frozen=True, eq=True)
class Fighter:
    """One combatant, with the numbers the Mestre gives.

    - ``key``: unique in the fight; ``name``: shown.
    - ``attributes``: the six attribute keys → an int ≥ 0.
    - ``dice``: the six attribute keys → the faces of that attribute's die (2–100).
    - ``pv_max`` ≥ 1, ``pv`` in [0, pv_max] (reading ``pv_floor_zero``).
    - ``side``: ``"jogadores"`` or ``"inimigos"``.
    - ``resistances``, ``vulnerabilities``, ``immunities``: damage type keys.
    - ``condition_resistances``, ``condition_vulnerabilities``, ``condition_immunities``:
      condition keys.
    - ``mundane_immune``: resistant/immune to mundane effects; magical effects still apply.

    Mappings are copied into read-only mappings; iterables into frozensets. Raises
    ``Sistema001Error`` naming the field (``"attributes.forca"``, ``"dice.mobilidade"``,
    ``"pv"``…). Not hashable (its mappings are not): compare by ``==``, index by ``key``.
    """

    key: str
    name: str
    attributes: Mapping[str, int]
    dice: Mapping[str, int]
    pv_max: int
    pv: int
    side: str = "jogadores"
    resistances: frozenset[str] = frozenset()
    vulnerabilities: frozenset[str] = frozenset()
    immunities: frozenset[str] = frozenset()
    condition_resistances: frozenset[str] = frozenset()
    condition_vulnerabilities: frozenset[str] = frozenset()
    condition_immunities: frozenset[str] = frozenset()
    mundane_immune: bool = False

    __hash__ = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if not isinstance(self.key, str) or not self.key.strip():
            raise Sistema001Error(EMPTY_KEY, "key")
        if not isinstance(self.name, str) or not self.name.strip():
            raise Sistema001Error(EMPTY_NAME, "name")
        attributes = dict(self.attributes)
        unknown = sorted(set(attributes) - set(ATTRIBUTES))
        if unknown:
            raise Sistema001Error(
                UNKNOWN_ATTRIBUTE_KEYS.format(keys=", ".join(unknown)), "attributes"
            )
        for key in ATTRIBUTES:
            if key not in attributes:
                raise Sistema001Error(
                    MISSING_ATTRIBUTE.format(label=ATTRIBUTE_LABELS[key]), f"attributes.{key}"
                )
            check_value(key, attributes[key], f"attributes.{key}")
        dice = dict(self.dice)
        unknown = sorted(set(dice) - set(ATTRIBUTES))
        if unknown:
            raise Sistema001Error(UNKNOWN_ATTRIBUTE_KEYS.format(keys=", ".join(unknown)), "dice")
        for key in ATTRIBUTES:
            if key not in dice:
                raise Sistema001Error(
                    MISSING_DIE.format(label=ATTRIBUTE_LABELS[key]), f"dice.{key}"
                )
            faces = dice[key]
            if not _int(faces) or not MIN_SIDES <= faces <= MAX_SIDES:
                raise Sistema001Error(BAD_DIE.format(label=ATTRIBUTE_LABELS[key]), f"dice.{key}")
        if not _int(self.pv_max) or self.pv_max < 1:
            raise Sistema001Error(BAD_PV_MAX, "pv_max")
        if not _int(self.pv) or not 0 <= self.pv <= self.pv_max:
            raise Sistema001Error(BAD_PV, "pv")
        if self.side not in SIDE_LABELS:
            raise Sistema001Error(UNKNOWN_SIDE.format(side=self.side), "side")
        set_ = object.__setattr__
        set_(self, "attributes", MappingProxyType({k: attributes[k] for k in ATTRIBUTES}))
        set_(self, "dice", MappingProxyType({k: dice[k] for k in ATTRIBUTES}))
        for name in ("resistances", "vulnerabilities", "immunities"):
            set_(self, name, damage_types(getattr(self, name), name))
        for name in (
            "condition_resistances",
            "condition_vulnerabilities",
            "condition_immunities",
        ):
            set_(self, name, condition_keys(getattr(self, name), name))
        set_(self, "mundane_immune", bool(self.mundane_immune))

    def attribute(self, key: str) -> int:
        """The attribute's value (``key`` one of ``ATTRIBUTES``)."""
        return self.attributes[key]

    def die(self, key: str) -> int:
        """The faces of the attribute's die («Dado de Mobilidade» → ``die("mobilidade")``)."""
        return self.dice[key]

    def with_pv(self, pv: int) -> Fighter:
        """A copy with ``pv`` clamped to [0, pv_max] (reading ``pv_floor_zero``)."""
        return replace(self, pv=max(0, min(self.pv_max, pv)))

    def lose_pv(self, amount: int) -> Fighter:
        """A copy after «Dano final: O valor final é subtraído dos PV do alvo.» (clamped at
        0: reading ``pv_floor_zero``). ``amount`` ≥ 0."""
        if not _int(amount) or amount < 0:
            raise Sistema001Error("O dano deve ser um número inteiro de 0 ou mais.", "amount")
        return self.with_pv(self.pv - amount)

    @property
    def down(self) -> bool:
        """«Somente ao atingir 0 PV, o personagem sofre uma consequência clara»."""
        return self.pv <= 0


@dataclass(frozen=True)
class Weapon:
    """A weapon, as the Mestre gives it («Dano por Tipo de Arma»).

    - ``kind``: ``"corpo_a_corpo"``, ``"arremesso"``, ``"disparo"`` or ``"improvisada"``
      (improvised weapons and unarmed attacks).
    - ``damage_increase``: the «Aumento de Dano da arma», int ≥ 0; always 0 for improvised.
    - ``damage_types``: damage type keys, at least one (a weapon may deal several: «um Sabre
      de Luz causa dano tipo Corte e Fogo»); improvised: ``("contusao",)`` (given or not).
    - ``magical``: its damage is a magical effect («Natureza do Efeito»).
    - ``reach_m``: melee reach in metres, default 1 («Armas simples têm alcance de 1 metro»).

    Raises ``Sistema001Error`` naming the field.
    """

    name: str
    kind: str
    damage_increase: int = 0
    damage_types: tuple[str, ...] = ()
    magical: bool = False
    reach_m: int = DEFAULT_REACH_M

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise Sistema001Error(EMPTY_WEAPON_NAME, "name")
        if self.kind not in WEAPON_KIND_LABELS:
            raise Sistema001Error(UNKNOWN_WEAPON_KIND.format(kind=self.kind), "kind")
        if not _int(self.damage_increase) or self.damage_increase < 0:
            raise Sistema001Error(BAD_DAMAGE_INCREASE, "damage_increase")
        types = (self.damage_types,) if isinstance(self.damage_types, str) else self.damage_types
        ordered = tuple(dict.fromkeys(types))
        damage_types(ordered, "damage_types")
        if self.kind == "improvisada":
            if self.damage_increase:
                raise Sistema001Error(IMPROVISED_NO_INCREASE, "damage_increase")
            if ordered not in ((), ("contusao",)):
                raise Sistema001Error(IMPROVISED_CONTUSION, "damage_types")
            ordered = ("contusao",)
        elif not ordered:
            raise Sistema001Error(NO_DAMAGE_TYPE, "damage_types")
        if not _int(self.reach_m) or self.reach_m < 1:
            raise Sistema001Error(BAD_REACH, "reach_m")
        object.__setattr__(self, "damage_types", ordered)
        object.__setattr__(self, "magical", bool(self.magical))


def unarmed(name: str = "Desarmado") -> Weapon:
    """An unarmed attack: «o dano é sempre 1 + Bônus de Força, e o tipo de dano é de
    contusão»."""
    return Weapon(name=name, kind="improvisada")
