"""«(Opcional) Combate Rápido»."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sistema001.errors import Sistema001Error
from sistema001.fighters import Fighter
from sistema001.quick import (
    RULES,
    cap_modifier,
    defeated,
    fighter_fixed_defence,
    fixed_defence,
    heal,
    hit,
    hits_dealt,
    rest,
    turn_order,
)
from tests.gurps.helpers import DOCS

PROPERTY = settings(database=None, deadline=None)
CHAPTER = (DOCS / "canon" / "outro-sistema-combate.txt").read_text(encoding="utf-8")
SIX = ("mobilidade", "acuidade", "forca", "resistencia", "espirito", "astucia")


def fighter(key: str, side: str) -> Fighter:
    return Fighter(key, key.title(), dict.fromkeys(SIX, 3), dict.fromkeys(SIX, 9), 10, 10, side)


def test_the_rules_are_the_chapters():
    """Each quick-combat rule is the text's line, word for word."""
    for name, text in RULES:
        assert f"{name}: {text}" in CHAPTER


def test_fixed_defence():
    """«Defesa Fixa = Metade do Dado de Mobilidade + Mobilidade.» (odd dice: rounded down,
    reading ``fixed_defence_rounding``)"""
    assert fixed_defence(10, 4) == 9
    assert fixed_defence(9, 4) == 8
    assert fighter_fixed_defence(fighter("a", "jogadores")) == 4 + 3


def test_armour_may_give_plus_1():
    """«Armaduras ou alta Resistência podem conceder +1 na Defesa Fixa, a critério do
    Mestre.»"""
    assert fixed_defence(10, 4, armour_bonus=True) == 10


def test_each_hit_removes_1_resistencia():
    """«A Resistência funciona como o número de acertos necessários para derrotar o
    personagem. Cada acerto bem-sucedido reduz a Resistência em 1. Ao chegar a 0, o
    personagem é derrotado.»"""
    assert hit(3) == 2
    assert hit(1) == 0 and defeated(hit(1))
    assert hit(0) == 0
    assert not defeated(2)
    assert hits_dealt("acerto", False) == 1
    assert hits_dealt("falha", True) == 0


def test_graze_and_critical_in_quick_combat():
    """«Críticos: Acertos e falhas críticas funcionam exatamente como no combate normal.» A
    graze is a hit (``quick_graze_hits``); a critical hit doubles (``quick_critical_two``)."""
    assert hits_dealt("raspao", False) == 1
    assert hits_dealt("acerto", True) == 2
    with pytest.raises(Sistema001Error):
        hits_dealt("acertou", False)


def test_heal_and_rest():
    """«Cura: Cada efeito de cura, seja magia ou item, restaura 1 ponto de Resistência.» «Com
    descanso, ele recupera toda a Resistência máxima.»"""
    assert heal(1, 4) == 2
    assert heal(4, 4) == 4
    assert rest(4) == 4


def test_modifiers_are_capped_at_1():
    """«Modificadores: Bônus e penalidades de combate são limitados a no máximo +1 ou -1.»"""
    assert [cap_modifier(m) for m in (-5, -1, 0, 1, 2)] == [-1, -1, 0, 1, 1]


def test_players_act_first_without_initiative():
    """«Turnos: Jogadores agem primeiro e inimigos logo em seguida, sem rolagem de
    iniciativa.»"""
    order = turn_order([fighter("orc", "inimigos"), fighter("ana", "jogadores"),
                        fighter("lobo", "inimigos"), fighter("bia", "jogadores")])  # fmt: skip
    assert [f.key for f in order] == ["ana", "bia", "orc", "lobo"]


@PROPERTY
@given(st.integers(0, 30), st.integers(0, 10))
def test_resistencia_never_goes_below_zero_or_above_its_maximum(resistencia, hits):
    """«Ao chegar a 0, o personagem é derrotado.»"""
    after = hit(resistencia, hits)
    assert 0 <= after <= resistencia
    assert heal(after, resistencia) <= resistencia
