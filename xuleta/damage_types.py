"""The damage types (Xuleta, «Dany i curació», «Tipus de dany»): «Cada dany té un tipus.
Importa perquè hi ha criatures que el resisteixen o el pateixen més.» The API's keys, and
their labels in the text's words, in the text's order."""

from __future__ import annotations

from types import MappingProxyType

from xuleta.errors import XuletaError

DAMAGE_TYPES = MappingProxyType(
    {
        "acid": "Àcid",
        "bludgeoning": "contundent",
        "slashing": "tallant",
        "cold": "fred",
        "fire": "foc",
        "force": "força",
        "necrotic": "necròtic",
        "piercing": "perforant",
        "psychic": "psíquic",
        "radiant": "radiant",
        "lightning": "llamp",
        "thunder": "tro",
        "poison": "verí",
    }
)
BAD_TYPE = "Tipo de dano desconhecido: «{key}». Os da Xuleta: {known}."


def damage_type(key: str, field: str = "damage_type") -> str:
    """The key of the damage type ``key`` names (a key, or a label in any case); raises
    ``XuletaError`` (``field``) naming the thirteen otherwise."""
    text = (key or "").strip()
    if text in DAMAGE_TYPES:
        return text
    for found, label in DAMAGE_TYPES.items():
        if label.casefold() == text.casefold():
            return found
    known = ", ".join(f"{k} ({v})" for k, v in DAMAGE_TYPES.items())
    raise XuletaError(BAD_TYPE.format(key=text, known=known), field)
