"""«(Opcional) Combate Rápido»: fixed Defesa, Resistência as hits, players first.

Chapter «4. Combate». The attack is rolled as usual (``attacks.roll_attack``, with modifiers
capped at ±1: ``cap_modifier``); the Defesa is not rolled: ``fixed_defence`` = half the Dado
de Mobilidade (rounded down: reading ``fixed_defence_rounding``) + Mobilidade. The attribute
Resistência counts the hits left (``hit``, ``heal``, ``rest``, ``defeated``); players act
first, then enemies, without initiative (``turn_order``). «Críticos: Acertos e falhas
críticas funcionam exatamente como no combate normal.»

Readings (keys of ``sistema001.readings``): ``fixed_defence_rounding``, ``quick_graze_hits``
(a graze, «acerta de raspão», counts as a hit: −1 Resistência), ``quick_critical_two``
(a critical hit «dobra o dano»: −2 Resistência).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sistema001.errors import Sistema001Error
from sistema001.fighters import Fighter
from sistema001.rolls import check_faces

MODIFIER_CAP = 1  # «limitados a no máximo +1 ou -1»

RULES: tuple[tuple[str, str], ...] = (
    ("Ataque", "Rolagem normal de ataque."),
    (
        "Defesa Fixa",
        "No Combate Rápido, a defesa não é rolada. Em vez disso, usa-se um valor fixo na ficha. "
        "Defesa Fixa = Metade do Dado de Mobilidade + Mobilidade.",
    ),
    (
        "Resistência",
        "A Resistência funciona como o número de acertos necessários para derrotar o "
        "personagem. Cada acerto bem-sucedido reduz a Resistência em 1. Ao chegar a 0, o "
        "personagem é derrotado. Com descanso, ele recupera toda a Resistência máxima.",
    ),
    ("Turnos", "Jogadores agem primeiro e inimigos logo em seguida, sem rolagem de iniciativa."),
    ("Cura", "Cada efeito de cura, seja magia ou item, restaura 1 ponto de Resistência."),
    (
        "Modificadores",
        "Bônus e penalidades de combate são limitados a no máximo +1 ou -1. Armaduras ou alta "
        "Resistência podem conceder +1 na Defesa Fixa, a critério do Mestre.",
    ),
    (
        "Magias",
        "Se atingirem o alvo, causam a perda de 1 ponto de efeito, seja na rolagem ou na "
        "Resistência.",
    ),
    ("Críticos", "Acertos e falhas críticas funcionam exatamente como no combate normal."),
    (
        "Transição",
        "Contra vilões, chefes ou cenas importantes, o Mestre pode interromper o Combate Rápido "
        "e retornar ao combate normal usando rolagem normal de Defesa",
    ),
)

BAD_VALUE = "{what} deve ser um número inteiro de 0 ou mais."
BAD_OUTCOME = "Resultado desconhecido «{outcome}»: use acerto, raspão ou falha."


def _count(value: object, what: str, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Sistema001Error(BAD_VALUE.format(what=what), field)
    return value


def cap_modifier(value: int) -> int:
    """«Bônus e penalidades de combate são limitados a no máximo +1 ou -1.»"""
    if isinstance(value, bool) or not isinstance(value, int):
        raise Sistema001Error("O modificador deve ser um número inteiro.", "modifiers")
    return max(-MODIFIER_CAP, min(MODIFIER_CAP, value))


def fixed_defence(die_faces: int, mobilidade: int, *, armour_bonus: bool = False) -> int:
    """«Defesa Fixa = Metade do Dado de Mobilidade + Mobilidade.» ``die_faces``: the faces of
    the Dado de Mobilidade (half rounded down: reading ``fixed_defence_rounding``).
    ``armour_bonus``: «Armaduras ou alta Resistência podem conceder +1 na Defesa Fixa, a
    critério do Mestre»."""
    check_faces(die_faces, "die_faces")
    _count(mobilidade, "A Mobilidade", "mobilidade")
    return die_faces // 2 + mobilidade + (1 if armour_bonus else 0)


def fighter_fixed_defence(fighter: Fighter, *, armour_bonus: bool = False) -> int:
    """``fixed_defence`` of ``fighter``'s Dado de Mobilidade and Mobilidade."""
    return fixed_defence(fighter.die("mobilidade"), fighter.attribute("mobilidade"),
                         armour_bonus=armour_bonus)  # fmt: skip


def hits_dealt(outcome: str, critical: bool) -> int:
    """How many points of Resistência an attack removes: «Cada acerto bem-sucedido reduz a
    Resistência em 1»; a graze is a hit (reading ``quick_graze_hits``); a critical hit
    doubles (reading ``quick_critical_two``: «Críticos … funcionam exatamente como no combate
    normal», where the critical «dobra … o dano»); a miss removes nothing."""
    if outcome not in ("acerto", "raspao", "falha"):
        raise Sistema001Error(BAD_OUTCOME.format(outcome=outcome), "outcome")
    if outcome == "falha":
        return 0
    if outcome == "acerto" and critical:
        return 2
    return 1


def hit(resistencia: int, hits: int = 1) -> int:
    """Resistência left after ``hits`` hits: «Cada acerto bem-sucedido reduz a Resistência em
    1.» Never below 0. Magic too: «Se atingirem o alvo, causam a perda de 1 ponto de efeito,
    seja na rolagem ou na Resistência.»"""
    _count(resistencia, "A Resistência", "resistencia")
    return max(0, resistencia - _count(hits, "O número de acertos", "hits"))


def defeated(resistencia: int) -> bool:
    """«Ao chegar a 0, o personagem é derrotado.»"""
    return _count(resistencia, "A Resistência", "resistencia") == 0


def heal(resistencia: int, maximum: int) -> int:
    """«Cada efeito de cura, seja magia ou item, restaura 1 ponto de Resistência.» Never above
    the maximum (the attribute Resistência)."""
    _count(maximum, "A Resistência máxima", "maximum")
    return min(maximum, _count(resistencia, "A Resistência", "resistencia") + 1)


def rest(maximum: int) -> int:
    """«Com descanso, ele recupera toda a Resistência máxima.»"""
    return _count(maximum, "A Resistência máxima", "maximum")


def turn_order(fighters: Iterable[Fighter]) -> tuple[Fighter, ...]:
    """«Jogadores agem primeiro e inimigos logo em seguida, sem rolagem de iniciativa.» Within
    a side, the order given (the Mestre's)."""
    found: Sequence[Fighter] = tuple(fighters)
    return tuple(f for f in found if f.side == "jogadores") + tuple(
        f for f in found if f.side == "inimigos"
    )
