"""«Quebrar e Destruir»: the ND Estrutural, structural damage, wear and the seven examples."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sistema001 import objects
from sistema001.errors import Sistema001Error
from sistema001.objects import (
    EXAMPLES,
    HARDNESS,
    SIZE,
    STRUCTURE,
    check_target,
    collapsed,
    destroyed_without_rolls,
    dissipated,
    minimum_damage,
    must_stop,
    spend_ammunition,
    strength_test_breaks,
    strike,
    structural_nd,
    total_wear,
    wear,
)
from tests.gurps.helpers import DOCS

PROPERTY = settings(database=None, deadline=None)
CHAPTER = (DOCS / "canon" / "outro-sistema-combate.txt").read_text(encoding="utf-8")


def _table_rows(title: str) -> list[list[str]]:
    """The tab-separated rows under the chapter's line ``title`` (header dropped)."""
    lines = CHAPTER.splitlines()
    start = lines.index(title)
    rows = []
    for line in lines[start + 1 :]:
        if "\t" in line:
            rows.append(line.split("\t"))
        elif rows and line.strip():
            break
    return rows[1:]


def test_the_three_tables_are_the_chapters_cell_by_cell():
    """«Tabela de Tamanho», «Tabela de Estrutura», «Tabela de Dureza do Material»: the data
    is the text's, row for row."""
    size = [[r.label, r.value_text, r.examples] for r in SIZE.values()]
    assert size == _table_rows("Tabela de Tamanho")
    structure = [[r.label, r.value_text, r.examples] for r in STRUCTURE.values()]
    assert structure == _table_rows("Tabela de Estrutura")
    hardness = [[r.label, r.multiplier_text, r.examples] for r in HARDNESS.values()]
    assert hardness == _table_rows("Tabela de Dureza do Material")


def test_structural_nd_formula():
    """«ND Estrutural = (Tamanho + Estrutura) × Dureza.»"""
    assert structural_nd("normal", "simples", "madeira_leve") == (15 + 10) * 1
    assert structural_nd("grande", "fortificada", "metal_macico") == (20 + 20) * 3
    assert structural_nd(15, 10, Fraction(4)) == 100


def test_half_hardness_rounds_down():
    """«Vidro, cerâmica e materiais frágeis ×0,5» — (5 + 10) × 0,5 = 7,5: rounded down
    (reading ``object_half_hardness_rounding``)."""
    assert structural_nd("pequeno", "simples", "fragil") == 7
    assert structural_nd("mini", "simples", "fragil") == 5


def test_open_ended_rows_take_the_mestres_value():
    """«Colossal 30+», «Militar 30+»: 30 unless the Mestre gives more (reading
    ``object_open_ended_values``); other rows have one value."""
    assert objects.size_value("colossal") == 30
    assert objects.size_value("colossal", 40) == 40
    assert objects.structure_value("militar", 35) == 35
    with pytest.raises(Sistema001Error) as error:
        objects.size_value("colossal", 25)
    assert error.value.field == "size"
    with pytest.raises(Sistema001Error):
        objects.size_value("normal", 16)


def test_new_materials_and_the_mestres_adjustment():
    """«Mestres e autores são incentivados a criar novos materiais e multiplicadores» and «O
    Mestre pode ajustá-lo conforme a situação, a importância do obstáculo»."""
    assert structural_nd("normal", "simples", Fraction(3, 2)) == 37
    assert structural_nd("normal", "simples", "madeira_leve", adjustment=-5) == 20
    assert structural_nd("mini", "natural", "madeira_leve", adjustment=-50) == 0
    with pytest.raises(Sistema001Error) as error:
        structural_nd("normal", "simples", "adamantio")
    assert error.value.field == "hardness"
    with pytest.raises(Sistema001Error) as error:
        structural_nd("enorme", "simples", "madeira_leve")
    assert "Tamanho desconhecido" in error.value.message


def test_minimum_damage_is_a_fifth_rounded_down():
    """«Dano mínimo = ND Estrutural ÷ 5, arredondado para baixo.»"""
    assert [minimum_damage(nd) for nd in (0, 4, 5, 24, 25, 29, 90)] == [0, 0, 1, 4, 5, 5, 18]


def test_damage_below_the_minimum_is_dissipated():
    """«Se o dano for menor que esse valor, ele é totalmente dissipado pela estrutura e pelo
    material. O impacto não gera desgaste acumulável.»"""
    assert strike(90, 17) == 90
    assert dissipated(90, 17)
    assert strike(strike(90, 17), 17) == 90


def test_damage_at_or_above_the_minimum_reduces_the_nd():
    """«Se o dano atingir ou superar esse mínimo, o ND Estrutural é reduzido pelo valor do
    dano causado.»"""
    assert strike(90, 18) == 72
    assert strike(90, 30) == 60
    assert not dissipated(90, 18)


def test_the_structure_collapses_at_zero():
    """«Causando dano suficiente para reduzir o ND Estrutural até que ele colapse» — at ND 0
    (reading ``object_collapse_at_zero``)."""
    assert strike(25, 30) == 0
    assert collapsed(strike(25, 30))
    assert not collapsed(strike(25, 5))


def test_a_strength_test_must_exceed_the_nd():
    """«O resultado final é o ND que precisa ser superado em um Teste de Força para quebrar
    diretamente a estrutura»."""
    assert strength_test_breaks(26, 25)
    assert not strength_test_breaks(25, 25)


def test_wear_lowers_the_nd_until_a_test_can_pass():
    """«Causando dano suficiente para reduzir o ND Estrutural até que ele colapse ou se torne
    possível passar no teste.»"""
    nd = strike(25, 10)
    assert nd == 15 and strength_test_breaks(16, nd)


def test_objects_in_use_are_not_direct_targets():
    """«Objetos empunhados, vestidos ou de qualquer forma utilizados ativamente por uma
    criatura não podem ser alvos diretos de tentativas de destruição.»"""
    check_target(in_use=False)
    with pytest.raises(Sistema001Error) as error:
        check_target(in_use=True)
    assert error.value.field == "in_use"
    assert "desarmar" in error.value.message


def test_attacks_up_to_resistencia_cost_nothing():
    """«Um personagem pode atacar uma estrutura corpo a corpo um número de vezes igual à sua
    Resistência, sem sofrer penalidades adicionais.»"""
    assert [wear(n, 3) for n in (1, 2, 3)] == [0, 0, 0]


def test_wear_beyond_the_limit_grows_1_2_3():
    """«o primeiro ataque além do limite causa 1 PV, o segundo causa 2 PV, o terceiro causa 3
    PV, e assim por diante.»"""
    assert [wear(n, 3) for n in (4, 5, 6, 7)] == [1, 2, 3, 4]
    assert total_wear(7, 3) == 1 + 2 + 3 + 4
    assert total_wear(2, 3) == 0


@PROPERTY
@given(st.integers(0, 40), st.integers(0, 20))
def test_total_wear_is_the_sum_of_each_attacks_wear(attacks: int, resistencia: int):
    """«Cada ataque adicional além do limite causa perda de PV, de forma crescente»."""
    expected = sum(wear(n, resistencia) for n in range(1, attacks + 1))
    assert total_wear(attacks, resistencia) == expected


def test_zero_pv_stops_the_attempt():
    """«Se o personagem chegar a 0 PV devido a esse desgaste, ele é forçado a interromper
    imediatamente a tentativa de destruição.»"""
    assert must_stop(0)
    assert not must_stop(1)


def test_ranged_attacks_spend_ammunition():
    """«Cada ataque consome munição, que é destruída no impacto e não pode ser reutilizada. O
    limite da ação passa a ser a munição disponível, não o corpo do personagem.»"""
    assert spend_ammunition(3) == 2
    with pytest.raises(Sistema001Error) as error:
        spend_ammunition(0)
    assert error.value.field == "ammunition"


def test_destruction_with_time_needs_no_rolls():
    """«Se não houver impedimento narrativo relevante, como inimigos, risco iminente ou pressão
    de tempo, a destruição acontece automaticamente com tempo suficiente»."""
    assert destroyed_without_rolls(impediment=False)
    assert not destroyed_without_rolls(impediment=True)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_the_seven_examples(example):
    """«Exemplos de Objetos e Estruturas»: each example's ND and dano mínimo as printed."""
    assert example.computed_nd() == example.nd
    assert minimum_damage(example.computed_nd()) == example.minimum
    assert f"{example.name}\n\nTamanho: {SIZE[example.size].label} = {example.size_value}." in (
        CHAPTER
    )
    assert f"= {example.nd}.\n\nDano mínimo = {example.minimum}." in CHAPTER


def test_the_palisade_uses_heavy_wood_times_two():
    """«Muro de paliçada … Dureza: Madeira pesada = ×2. … ND = 35 × 1,5 = 70.» The table
    says ×2 and 35 × 2 = 70: the engine uses ×2; the «1,5» is a slip."""
    palisade = next(e for e in EXAMPLES if e.key == "muro_palicada")
    assert "ND = 35 × 1,5 = 70." in CHAPTER
    assert HARDNESS[palisade.hardness].multiplier == 2
    assert structural_nd("grande", "estruturada", "madeira_pesada") == 70
    assert palisade.slip


def test_the_bow_and_sword_examples_contradict_the_size_table():
    """«Espada de metal — Tamanho: Pequeno = 5» and «Arco e flecha de madeira — Tamanho:
    Pequeno = 5», while the table puts «espada comum» and «Arco» in Médio 10: the examples
    as printed reproduce their numbers, the table gives more; both are noted slips."""
    assert "espada comum" in SIZE["medio"].examples and "Arco" in SIZE["medio"].examples
    sword = next(e for e in EXAMPLES if e.key == "espada")
    bow = next(e for e in EXAMPLES if e.key == "arco")
    assert structural_nd("medio", sword.structure, sword.hardness) == 50
    assert structural_nd("medio", bow.structure, bow.hardness) == 20
    assert sword.slip and bow.slip


@PROPERTY
@given(st.integers(0, 500), st.integers(0, 200))
def test_a_strike_never_raises_the_nd(nd: int, damage: int):
    """«o ND Estrutural é reduzido pelo valor do dano causado» — never raised, never below
    0."""
    after = strike(nd, damage)
    assert 0 <= after <= nd
    assert after == nd or after == max(0, nd - damage)
