"""Attributes, fighters, weapons and the one attribute die («4. Combate»)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sistema001.attributes import ATTRIBUTE_LABELS, ATTRIBUTES, attribute_bonus, movement_metres
from sistema001.errors import AwaitsArbitro, Sistema001Error
from sistema001.fighters import Fighter, Weapon, unarmed
from sistema001.rolls import beats, combine_edges, passes, roll_check, roll_die
from tests.sistema001.helpers import ScriptedSource, chapter, fighter


def test_six_attributes_with_accented_labels() -> None:
    """«Mobilidade», «Acuidade», «Força», «Resistência», «Espírito», «Astúcia»: the six
    attributes, Resistência the attribute (not resistance to a damage type)."""
    assert ATTRIBUTES == ("mobilidade", "acuidade", "forca", "resistencia", "espirito", "astucia")
    assert list(ATTRIBUTE_LABELS.values()) == [
        "Mobilidade",
        "Acuidade",
        "Força",
        "Resistência",
        "Espírito",
        "Astúcia",
    ]


@pytest.mark.parametrize(
    ("value", "bonus"), [(0, 0), (4, 0), (5, 1), (9, 1), (10, 2), (14, 2), (15, 3), (27, 5)]
)
def test_bonus_one_per_multiple_of_five(value: int, bonus: int) -> None:
    """«Dano = Dano da arma + 1 para cada múltiplo de 5 em Força.»"""
    assert "1 para cada múltiplo de 5 em Força" in chapter()
    assert attribute_bonus(value) == bonus


@given(st.integers(min_value=0, max_value=1000))
def test_bonus_never_decreases(value: int) -> None:
    """«1 para cada múltiplo de 5»: a higher attribute never gives a lower bonus."""
    assert attribute_bonus(value + 1) >= attribute_bonus(value)
    assert attribute_bonus(value) * 5 <= value < (attribute_bonus(value) + 1) * 5


def test_negative_attribute_refused() -> None:
    with pytest.raises(Sistema001Error):
        attribute_bonus(-1)


@pytest.mark.parametrize(("mobilidade", "metres"), [(0, 5), (4, 5), (5, 6), (12, 7)])
def test_movement(mobilidade: int, metres: int) -> None:
    """«Uma criatura de tamanho médio desloca-se 5 metros/espaços + bônus de Mobilidade.»"""
    assert "desloca-se 5 metros/espaços + bônus de Mobilidade" in chapter()
    assert movement_metres(mobilidade) == metres


def test_fighter_takes_the_mestres_numbers() -> None:
    """The die of each attribute is the Mestre's input: the chapter cites «Dado de Mobilidade»
    and never gives its size."""
    a = fighter("a", die=12, resistances={"fogo"}, condition_immunities=["caido"])
    assert a.die("mobilidade") == 12
    assert a.resistances == frozenset({"fogo"})
    assert a.condition_immunities == frozenset({"caido"})
    assert a.lose_pv(3).pv == 7
    assert a.lose_pv(30).pv == 0 and a.lose_pv(30).down  # reading pv_floor_zero


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"attributes": {"forca": -1}}, "attributes.forca"),
        ({"pv": 11}, "pv"),
        ({"pv_max": 0, "pv": 0}, "pv_max"),
        ({"side": "neutros"}, "side"),
        ({"resistances": {"veneno"}}, "resistances"),
        ({"condition_vulnerabilities": {"tonto"}}, "condition_vulnerabilities"),
    ],
)
def test_fighter_validation_names_the_field(change: dict, field: str) -> None:
    with pytest.raises(Sistema001Error) as caught:
        fighter("a", **change)
    assert caught.value.field == field
    assert caught.value.message


def test_fighter_needs_every_die() -> None:
    with pytest.raises(Sistema001Error) as caught:
        Fighter("a", "A", {k: 1 for k in ATTRIBUTES}, {"mobilidade": 6}, 5, 5)
    assert caught.value.field == "dice.acuidade"
    assert "Acuidade" in caught.value.message


def test_unarmed_is_contusion_without_increase() -> None:
    """«Nesse caso, o dano é sempre 1 + Bônus de Força, e o tipo de dano é de contusão.» and
    «não recebem aprimoramentos de aumento de dano»."""
    assert "o tipo de dano é de contusão" in chapter()
    assert unarmed().damage_types == ("contusao",)
    with pytest.raises(Sistema001Error) as caught:
        Weapon("Cadeira", "improvisada", damage_increase=1)
    assert caught.value.field == "damage_increase"
    with pytest.raises(Sistema001Error):
        Weapon("Cadeira", "improvisada", damage_types=("corte",))


def test_weapon_default_reach_and_several_types() -> None:
    """«Armas simples têm alcance de 1 metro» and «um Sabre de Luz causa dano tipo Corte e
    Fogo»."""
    text = chapter()
    assert "Armas simples têm alcance de 1 metro" in text
    assert "um Sabre de Luz causa dano tipo Corte e Fogo" in text
    sabre = Weapon("Sabre de Luz", "corpo_a_corpo", damage_types=("corte", "fogo"))
    assert sabre.reach_m == 1 and sabre.damage_types == ("corte", "fogo")
    with pytest.raises(Sistema001Error):
        Weapon("Espada", "corpo_a_corpo")


def test_die_roll_without_edge() -> None:
    roll = roll_die(12, ScriptedSource([12]))
    assert (roll.face, roll.rerolled, roll.highest, roll.lowest) == (12, (), True, False)


def test_advantage_keeps_higher_disadvantage_lower() -> None:
    """Vantagem/Desvantagem are cited («Sofre Desvantagem ao atacar…», «recebe Vantagem nos
    testes de ataque») and not defined: reading ``edge_two_dice`` — two dice, higher/lower."""
    assert "recebe Vantagem nos testes de ataque" in chapter()
    up = roll_die(10, ScriptedSource([3, 8]), "vantagem")
    down = roll_die(10, ScriptedSource([3, 8]), "desvantagem")
    assert (up.face, up.rerolled, up.rolled) == (8, (3,), (3, 8))
    assert (down.face, down.rerolled, down.rolled) == (3, (8,), (3, 8))
    assert "vantagem" in up.text


@given(st.integers(min_value=2, max_value=100), st.integers(min_value=0, max_value=2**32))
def test_advantage_never_below_plain(faces: int, seed: int) -> None:
    up = roll_die(faces, random.Random(seed), "vantagem")
    down = roll_die(faces, random.Random(seed), "desvantagem")
    assert 1 <= down.face <= up.face <= faces
    assert sorted(up.rolled) == sorted(down.rolled)


def test_edges_cancel() -> None:
    """Reading ``edge_cancel``: Vantagem and Desvantagem cancel; several count once."""
    assert combine_edges(["vantagem", "desvantagem"]) is None
    assert combine_edges(["vantagem", "vantagem", None]) == "vantagem"
    assert combine_edges([]) is None


def test_bad_die_refused() -> None:
    with pytest.raises(Sistema001Error):
        roll_die(1, ScriptedSource([1]))
    with pytest.raises(Sistema001Error):
        roll_die(6, ScriptedSource([1]), "sorte")


def test_check_is_die_plus_attribute() -> None:
    """Reading ``test_formula``: a test is die + attribute + modificadores, like «Ataque = Dado
    de Mobilidade + Mobilidade + Modificadores»."""
    check = roll_check("forca", 8, 6, ScriptedSource([5]), modifiers=-2)
    assert check.total == 9


def test_superar_is_strictly_greater() -> None:
    """«O resultado final é o ND que precisa ser superado em um Teste de Força»."""
    assert "o ND que precisa ser superado em um Teste de Força" in chapter()
    assert beats(26, 25) and not beats(25, 25)


def test_test_comparison_awaits_the_arbitro() -> None:
    """«O alvo faz um teste de resistência, com ND e efeito de acordo com a descrição da
    vantagem ou magia.» — whether equal passes is in the missing section de Testes: refused."""
    assert "O alvo faz um teste de resistência, com ND e efeito de acordo com a descrição" in (
        chapter()
    )
    with pytest.raises(AwaitsArbitro) as caught:
        passes(10, 10)
    assert caught.value.reading == "test_pass_comparison"
    assert "Árbitro" in caught.value.message
    assert passes(10, 10, "maior_ou_igual") and not passes(10, 10, "maior")
