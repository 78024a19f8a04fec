"""The six attributes, their bonus and the movement they give.

Chapter «4. Combate»: the attributes are only cited — «Dado de Mobilidade + Mobilidade»,
«1 para cada múltiplo de 5 em Força», «5 metros/espaços + bônus de Mobilidade». The size of
each attribute's die is never given: the Mestre gives it per combatant (``Fighter.dice``).

«Resistência» here is always the attribute; resistance to a damage type or a condition is
``Fighter.resistances`` / ``Fighter.condition_resistances``.
"""

from __future__ import annotations

from types import MappingProxyType

from sistema001.errors import Sistema001Error

MOBILIDADE = "mobilidade"
ACUIDADE = "acuidade"
FORCA = "forca"
RESISTENCIA = "resistencia"
ESPIRITO = "espirito"
ASTUCIA = "astucia"

ATTRIBUTES: tuple[str, ...] = (MOBILIDADE, ACUIDADE, FORCA, RESISTENCIA, ESPIRITO, ASTUCIA)
ATTRIBUTE_LABELS = MappingProxyType(
    {
        MOBILIDADE: "Mobilidade",
        ACUIDADE: "Acuidade",
        FORCA: "Força",
        RESISTENCIA: "Resistência",
        ESPIRITO: "Espírito",
        ASTUCIA: "Astúcia",
    }
)

# The base movement of «uma criatura de tamanho médio», in metres (or grid spaces).
BASE_MOVEMENT_METRES = 5

NEGATIVE_ATTRIBUTE = "{label} não pode ser negativa."
NOT_AN_INTEGER = "{label} deve ser um número inteiro."
UNKNOWN_ATTRIBUTE = (
    "Atributo desconhecido «{key}»: use Mobilidade, Acuidade, Força, Resistência, Espírito ou "
    "Astúcia."
)


def label(key: str) -> str:
    """The attribute's Portuguese label («Força» for ``"forca"``); raises ``Sistema001Error``
    for an unknown key."""
    try:
        return ATTRIBUTE_LABELS[key]
    except KeyError:
        raise Sistema001Error(UNKNOWN_ATTRIBUTE.format(key=key), "attribute") from None


def check_value(key: str, value: object, field: str = "") -> int:
    """``value`` as an attribute value: an int (not a bool) of 0 or more. Raises
    ``Sistema001Error`` naming ``field`` (default: the key)."""
    name = label(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise Sistema001Error(NOT_AN_INTEGER.format(label=name), field or key)
    if value < 0:
        raise Sistema001Error(NEGATIVE_ATTRIBUTE.format(label=name), field or key)
    return value


def attribute_bonus(value: int) -> int:
    """«Bônus de <atributo>»: 1 for each whole multiple of 5 in the value (0–4 → 0, 5–9 → 1,
    10–14 → 2…). An int of 0 or more; raises ``Sistema001Error`` for a negative value.

    «Ataque Corpo a Corpo»: «Dano = Dano da arma + 1 para cada múltiplo de 5 em Força». The
    chapter states it for Força only; the same rule for the bônus de Mobilidade (movement) and
    de Acuidade (Mira Tática) is the reading ``attribute_bonus_all``.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise Sistema001Error(NOT_AN_INTEGER.format(label="O atributo"), "value")
    if value < 0:
        raise Sistema001Error(NEGATIVE_ATTRIBUTE.format(label="O atributo"), "value")
    return value // 5


def movement_metres(mobilidade: int) -> int:
    """Movement in one Ação de Movimento, in metres or grid spaces: 5 + bônus de Mobilidade.

    «Deslocamento e Alcance em Combate»: «Uma criatura de tamanho médio desloca-se 5
    metros/espaços + bônus de Mobilidade.» Other sizes are in the missing chapter
    «Representação Numérica» (reading ``movement_medium_size_only``); the bônus is the reading
    ``attribute_bonus_all``.
    """
    return BASE_MOVEMENT_METRES + attribute_bonus(mobilidade)
