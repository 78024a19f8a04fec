"""«Iniciativa», «Ordem da Rodada», «Empates de Iniciativa», «Entrada Tardia»."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sistema001.errors import Sistema001Error
from sistema001.initiative import acting, initiative_order, late_entry
from tests.sistema001.helpers import ScriptedSource, chapter, fighter


def test_initiative_is_die_plus_mobilidade_plus_modifiers() -> None:
    """«Cálculo da Iniciativa: Iniciativa = Dado de Mobilidade + Mobilidade + Modificadores»"""
    assert "Iniciativa = Dado de Mobilidade + Mobilidade + Modificadores" in chapter()
    (roll,) = initiative_order([fighter("a", mobilidade=4, die=8)], ScriptedSource([6]), {"a": 2})
    assert (roll.die.faces, roll.die.face, roll.mobilidade, roll.modifiers, roll.total) == (
        8,
        6,
        4,
        2,
        12,
    )


def test_order_is_decreasing() -> None:
    """«organize em ordem decrescente quem começa primeiro, do maior resultado ao menor.»"""
    assert "organize em ordem decrescente quem começa primeiro, do maior resultado ao menor" in (
        chapter()
    )
    fighters = [fighter("a"), fighter("b"), fighter("c")]
    order = initiative_order(fighters, ScriptedSource([2, 9, 5]))
    assert [r.fighter for r in order] == ["b", "c", "a"]


def test_tie_goes_to_higher_mobilidade() -> None:
    """«1. Age primeiro quem tiver maior Mobilidade.»"""
    assert "Age primeiro quem tiver maior Mobilidade" in chapter()
    order = initiative_order(
        [fighter("a", mobilidade=3), fighter("b", mobilidade=5)], ScriptedSource([7, 5])
    )
    assert [(r.fighter, r.total, r.tiebreak) for r in order] == [("b", 10, ()), ("a", 10, ())]


def test_still_tied_reroll_among_themselves_only() -> None:
    """«2. Se ainda houver empate, os envolvidos rolam novamente entre si.» — only they: the
    fighter not tied rolls no more dice."""
    assert "os envolvidos rolam novamente entre si" in chapter()
    fighters = [fighter("a"), fighter("b"), fighter("c")]
    # a and b tie at 10 (Mobilidade 5 both); c 12. Re-rolls: a 3, b 3 (tied again), a 8, b 2.
    source = ScriptedSource([5, 5, 7, 3, 3, 8, 2])
    order = initiative_order(fighters, source)
    assert [r.fighter for r in order] == ["c", "a", "b"]
    assert [r.tiebreak for r in order] == [(), (3, 8), (3, 2)]
    assert [r.total for r in order] == [12, 10, 10]  # the Iniciativa stays
    assert source.values == []


@given(
    st.lists(st.integers(min_value=0, max_value=8), min_size=1, max_size=6),
    st.integers(min_value=0, max_value=2**32),
)
def test_order_is_a_deterministic_permutation(mobilidades: list[int], seed: int) -> None:
    """The order holds every fighter once, is non-increasing by (total, Mobilidade), and is the
    same for the same dice."""
    fighters = [fighter(f"f{i}", mobilidade=m, die=4) for i, m in enumerate(mobilidades)]
    first = initiative_order(fighters, random.Random(seed))
    again = initiative_order(fighters, random.Random(seed))
    assert first == again
    assert sorted(r.fighter for r in first) == sorted(f.key for f in fighters)
    keys = [(r.total, r.mobilidade, r.tiebreak) for r in first]
    assert keys == sorted(keys, reverse=True)


def test_bad_inputs() -> None:
    with pytest.raises(Sistema001Error):
        initiative_order([], ScriptedSource([]))
    with pytest.raises(Sistema001Error):
        initiative_order([fighter("a"), fighter("a")], ScriptedSource([1, 1]))
    with pytest.raises(Sistema001Error) as caught:
        initiative_order([fighter("a")], ScriptedSource([1]), {"z": 1})
    assert caught.value.field == "modifiers"


def test_late_entry_rolls_normally_and_acts_next_round() -> None:
    """«Entrada Tardia - O personagem entra no combate após ele já ter começado. Rola Iniciativa
    normalmente, mas só passa a agir a partir da rodada seguinte.»"""
    assert "Rola Iniciativa normalmente, mas só passa a agir a partir da rodada seguinte" in (
        chapter()
    )
    order = initiative_order([fighter("a"), fighter("b")], ScriptedSource([9, 2]))
    entry = late_entry(order, fighter("d"), 2, ScriptedSource([6]))
    assert entry.roll.total == 11 and entry.first_round == 3
    assert [r.fighter for r in entry.order] == ["a", "d", "b"]
    entered = {"d": entry.first_round}
    assert [r.fighter for r in acting(entry.order, entered, 2)] == ["a", "b"]
    assert [r.fighter for r in acting(entry.order, entered, 3)] == ["a", "d", "b"]


def test_late_entry_tie_rolls_off_and_keeps_the_others_order() -> None:
    """«Se ainda houver empate, os envolvidos rolam novamente entre si.» — a late entrant tied
    on total and Mobilidade rolls off against each tied fighter down the order."""
    a, b = fighter("a"), fighter("b")
    order = initiative_order([a, b], ScriptedSource([4, 4, 6, 1]))  # a 9, b 9: a wins the re-roll
    assert [r.fighter for r in order] == ["a", "b"]
    # d also 9: vs a: d 2, a 5 (loses); vs b: d 7, b 7 (again), d 3, b 1 (wins).
    entry = late_entry(
        order, fighter("d"), 1, ScriptedSource([4, 2, 5, 7, 7, 3, 1]), others={"a": a, "b": b}
    )
    assert [r.fighter for r in entry.order] == ["a", "d", "b"]
    assert entry.roll.tiebreak == (2, 7, 3)
    with pytest.raises(Sistema001Error) as caught:
        late_entry(order, fighter("e"), 1, ScriptedSource([4]))
    assert caught.value.field == "others"
    with pytest.raises(Sistema001Error):
        late_entry(order, a, 1, ScriptedSource([4]))
