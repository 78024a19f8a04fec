"""«Situações de Combate»."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sistema001.errors import AwaitsArbitro, Sistema001Error
from sistema001.fighters import Fighter
from sistema001.situations import (
    SITUATIONS,
    attack_modifiers,
    concealment_check,
    roll_sneak_attack,
    sneak_attack_nd,
)
from tests.gurps.helpers import DOCS, ScriptedSource

PROPERTY = settings(database=None, deadline=None)
CHAPTER = (DOCS / "canon" / "outro-sistema-combate.txt").read_text(encoding="utf-8")
SIX = ("mobilidade", "acuidade", "forca", "resistencia", "espirito", "astucia")


def fighter(key: str = "alvo", **attributes) -> Fighter:
    values = dict.fromkeys(SIX, 3)
    values.update(attributes)
    dice = dict.fromkeys(SIX, 10)
    dice["acuidade"] = 9
    return Fighter(key, key.title(), values, dice, 10, 10)


def test_the_situations_are_the_chapters():
    """Each situation's paragraph is the text's, word for word."""
    assert len(SITUATIONS) == 8
    for item in SITUATIONS.values():
        assert f"{item.label} - {item.text}" in CHAPTER


def test_flanking_plus_2_not_ranged():
    """«Flanqueando - … Os atacantes recebem +2 no ataque. Não se aplica a ataques à
    distância.»"""
    assert attack_modifiers(["flanqueando"], "corpo_a_corpo").attack == 2
    assert attack_modifiers(["flanqueando"], "distancia").attack == 0


def test_high_ground_plus_2():
    """«Posição Elevada - O personagem ataca a partir de um ponto mais alto que o alvo. Recebe
    +2 no ataque.»"""
    assert attack_modifiers(["posicao_elevada"], "distancia").attack == 2
    both = attack_modifiers(["posicao_elevada", "flanqueando"], "corpo_a_corpo")
    assert both.attack == 4 and len(both.lines) == 2


def test_partial_cover_plus_5_defence_against_direct_attacks():
    """«Sob Cobertura Parcial - … O alvo recebe +5 na Defesa contra ataques diretos.»
    (reading ``direct_attacks``: melee and ranged)"""
    assert attack_modifiers(["cobertura_parcial"], "distancia").defence == 5
    assert attack_modifiers(["cobertura_parcial"], "corpo_a_corpo").defence == 5
    assert attack_modifiers(["cobertura_parcial"], "area").defence == 0


def test_total_cover_refuses_direct_attacks_not_area():
    """«Sob Cobertura Total - … Não pode ser atingido por ataques diretos enquanto a cobertura
    durar. Magias em área ou explosões ainda podem afetá-lo se houver passagem para o efeito em
    área.»"""
    with pytest.raises(Sistema001Error) as error:
        attack_modifiers(["cobertura_total"], "distancia")
    assert "Cobertura Total" in error.value.message
    assert attack_modifiers(["cobertura_total"], "area").attack == 0


def test_partial_concealment_fails_on_1_or_2():
    """«Role 1d10: com 1 ou 2 o ataque falha; com 3 a 10 o ataque é rolado normalmente.»"""
    results = [concealment_check("camuflagem_parcial", ScriptedSource([f])).fails
               for f in range(1, 11)]  # fmt: skip
    assert results == [True, True] + [False] * 8


def test_total_concealment_fails_on_1_to_5():
    """«Role 1d10: com 1 a 5 o ataque falha; com 6 a 10 o ataque é rolado normalmente.»"""
    results = [concealment_check("camuflagem_total", ScriptedSource([f])).fails
               for f in range(1, 11)]  # fmt: skip
    assert results == [True] * 5 + [False] * 5


def test_the_concealment_to_roll_is_named_first():
    """«O atacante tem 50% de chance de errar automaticamente.» — with both, the total one
    (reading ``concealment_worst``)."""
    found = attack_modifiers(["camuflagem_parcial", "camuflagem_total"], "distancia")
    assert found.concealment == "camuflagem_total"
    with pytest.raises(Sistema001Error):
        concealment_check("flanqueando", ScriptedSource([1]))


def test_sneak_attack_nd():
    """«Atacante: faz um teste de Mobilidade contra metade do Dado de Acuidade + Acuidade do
    alvo.» (d9 → 4: reading ``sneak_attack_half_rounding``)"""
    assert sneak_attack_nd(fighter(acuidade=5)) == 4 + 5


def test_sneak_attack_leaves_the_target_off_guard():
    """«Em sucesso, executa o ataque furtivo.» «Alvo: fica Desprevenido contra o primeiro
    ataque e sofre -2 na Defesa apenas contra esse ataque.»"""
    thief, guard = fighter("ladra", mobilidade=4), fighter("guarda", acuidade=3)
    result = roll_sneak_attack(thief, guard, ScriptedSource([4]), "maior_ou_igual")
    assert (result.test.total, result.nd, result.succeeded) == (8, 7, True)
    assert result.condition == "desprevenido"
    failed = roll_sneak_attack(thief, guard, ScriptedSource([2]), "maior")
    assert not failed.succeeded and failed.condition is None


def test_sneak_attack_not_twice_on_the_same_target():
    """«Não funciona mais de uma vez no mesmo alvo.»"""
    with pytest.raises(Sistema001Error) as error:
        roll_sneak_attack(fighter("ladra"), fighter("guarda"), ScriptedSource([4]), "maior",
                          already_sneaked={"guarda"})  # fmt: skip
    assert error.value.field == "target"


def test_sneak_attack_awaits_the_arbitro():
    """«Em sucesso»: whether the test passes on ≥ or > is the missing «seção de Testes» —
    refused before rolling (pendência ``test_pass_comparison``)."""
    source = ScriptedSource([4])
    with pytest.raises(AwaitsArbitro):
        roll_sneak_attack(fighter("ladra"), fighter("guarda"), source, None)
    assert source.values == [4]


def test_momentary_situations_change_nothing_by_themselves():
    """«Entrada Tardia - … Rola Iniciativa normalmente, mas só passa a agir a partir da rodada
    seguinte.» (``initiative.late_entry``) — no modifier to an attack."""
    found = attack_modifiers(["entrada_tardia", "ataque_furtivo"], "corpo_a_corpo")
    assert (found.attack, found.defence) == (0, 0)
    with pytest.raises(Sistema001Error):
        attack_modifiers(["nevoa"], "corpo_a_corpo")


@PROPERTY
@given(st.integers(0, 2**32), st.sampled_from(["camuflagem_parcial", "camuflagem_total"]))
def test_concealment_rolls_one_d10(seed, key):
    """«Role 1d10»: one die of 10 faces."""
    check = concealment_check(key, random.Random(seed))
    assert 1 <= check.face <= 10
    assert check.fails == (check.face <= SITUATIONS[key].miss_on)
