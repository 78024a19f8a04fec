"""«Duração dos Efeitos» and «Duração das Condições»: when an effect ends, across late entries
and ties.

A fight is simulated turn by turn: at the start of each turn every active effect is checked
with ``timing.expired`` and removed when it has ended, as the integration does.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sistema001.errors import Sistema001Error
from sistema001.timing import (
    TimedEffect,
    active,
    end_of_scene,
    expired,
    for_rounds,
    until_target_turn,
)
from tests.sistema001.helpers import chapter

EXPIRY = (
    "Quando um efeito possui duração, ele começa no turno em que é aplicado e termina "
    "imediatamente antes do turno que possui a mesma Iniciativa, após transcorrer a quantidade "
    "indicada de rodadas."
)


def run(rounds: dict[int, list[tuple[str, int]]], effect: TimedEffect) -> tuple[int, str] | None:
    """The (round, fighter) of the turn at whose start ``effect`` ends, given each round's
    order as (fighter, Iniciativa) highest first; ``None`` if it never ends. Turns before the
    application are skipped."""
    for round_, order in sorted(rounds.items()):
        for index, (fighter, initiative) in enumerate(order):
            if (round_, index) <= (effect.applied_round, effect.applied_turn_index):
                continue
            if expired(effect, round_, initiative, fighter, index):
                return round_, fighter
    return None


ORDER = [("a", 15), ("b", 12), ("c", 8)]


def test_the_rule_is_quoted_verbatim() -> None:
    assert EXPIRY in chapter()


def test_ends_before_same_initiative_after_the_rounds() -> None:
    """«termina imediatamente antes do turno que possui a mesma Iniciativa, após transcorrer a
    quantidade indicada de rodadas.» — applied by b (12) in round 1 for 2 rounds: active through
    round 2 and a's turn of round 3, ends right before b's turn in round 3."""
    effect = for_rounds("bencao", "Bênção", "a", round_=1, initiative=12, rounds=2, turn_index=1)
    rounds = {r: ORDER for r in range(1, 6)}
    assert run(rounds, effect) == (3, "b")


def test_one_full_cycle_whatever_the_order() -> None:
    """«Isso faz com que o efeito atravesse um ciclo completo de combate, independentemente da
    ordem de iniciativa.» — for 1 round, every other turn happens exactly once with it."""
    assert "atravesse um ciclo completo de combate, independentemente da ordem de iniciativa" in (
        chapter()
    )
    for index, (applier, initiative) in enumerate(ORDER):
        effect = for_rounds(
            "x", "X", "c", round_=1, initiative=initiative, rounds=1, turn_index=index
        )
        assert run({1: ORDER, 2: ORDER, 3: ORDER}, effect) == (2, applier)


def test_tie_ends_before_the_first_tied_turn() -> None:
    """«antes do turno que possui a mesma Iniciativa» with a tie (b and c both 12): the effect
    applied in c's turn ends before b's, the first turn with Iniciativa 12 (reading
    ``expiry_same_initiative_missing``)."""
    order = [("a", 15), ("b", 12), ("c", 12), ("d", 3)]
    effect = for_rounds("x", "X", "a", round_=1, initiative=12, rounds=1, turn_index=2)
    assert run({1: order, 2: order}, effect) == (2, "b")


def test_late_entrant_with_higher_initiative_does_not_end_it() -> None:
    """A late entrant («só passa a agir a partir da rodada seguinte») with a higher Iniciativa
    acts in the ending round before the effect ends: the effect still ends before the turn with
    its Iniciativa."""
    effect = for_rounds("x", "X", "a", round_=1, initiative=12, rounds=1, turn_index=1)
    with_entrant = [("a", 15), ("z", 14), ("b", 12), ("c", 8)]
    assert run({1: ORDER, 2: with_entrant}, effect) == (2, "b")


def test_late_entrant_tied_first_ends_it() -> None:
    """A late entrant tied at the same Iniciativa and placed first of the tie: the effect ends
    before the entrant's turn, the first with the same Iniciativa."""
    effect = for_rounds("x", "X", "a", round_=1, initiative=12, rounds=1, turn_index=1)
    with_entrant = [("a", 15), ("z", 12), ("b", 12), ("c", 8)]
    assert run({1: ORDER, 2: with_entrant}, effect) == (2, "z")


def test_missing_initiative_ends_before_the_next_lower() -> None:
    """The turn with that Iniciativa no longer exists (b left): the effect ends before the
    first turn below it (reading ``expiry_same_initiative_missing``); with none below, at the
    start of the next round."""
    effect = for_rounds("x", "X", "a", round_=1, initiative=12, rounds=1, turn_index=1)
    assert run({1: ORDER, 2: [("a", 15), ("c", 8)]}, effect) == (2, "c")
    assert run({1: ORDER, 2: [("a", 15)], 3: [("a", 15)]}, effect) == (3, "a")


def test_condition_lasts_until_second_consecutive_target_turn() -> None:
    """«Quando a origem não especificar duração, a condição permanece ativa até o início do
    segundo turno consecutivo do alvo, garantindo um turno completo de efeito.»"""
    assert "até o início do segundo turno consecutivo do alvo, garantindo um turno completo" in (
        chapter()
    )
    rounds = {r: ORDER for r in range(1, 6)}
    # a (15) knocks c (8) down in round 1: c's round-1 turn is its full turn; ends at round 2.
    before = until_target_turn("caido", "Caído", "c", round_=1, initiative=15, turn_index=0)
    assert run(rounds, before) == (2, "c")
    # c (8) knocks a (15) down in round 1: a's next turn is round 2 (full), ends at round 3.
    after = until_target_turn("caido", "Caído", "a", round_=1, initiative=8, turn_index=2)
    assert run(rounds, after) == (3, "a")
    # Applied in the target's own turn: that turn does not count (condition_target_turn_count).
    own = until_target_turn("caido", "Caído", "b", round_=1, initiative=12, turn_index=1)
    assert run(rounds, own) == (3, "b")


def test_maneuver_until_next_target_turn() -> None:
    """«O efeito dura até o início do próximo turno do alvo.»"""
    assert "O efeito dura até o início do próximo turno do alvo." in chapter()
    rounds = {r: ORDER for r in range(1, 4)}
    effect = until_target_turn(
        "caido", "Caído", "c", round_=1, initiative=15, turn_index=0, target_turns=1
    )
    assert run(rounds, effect) == (1, "c")
    effect = until_target_turn(
        "caido", "Caído", "a", round_=1, initiative=8, turn_index=2, target_turns=1
    )
    assert run(rounds, effect) == (2, "a")


def test_target_turns_with_ties_and_late_entrant_target() -> None:
    """Ties: the target tied with the applier, after it in the order, has its turn this round.
    A late-entrant target (not in this round's order) first acts next round: ``order`` says
    so."""
    order = [("a", 12), ("b", 12)]
    rounds = {r: order for r in range(1, 5)}
    effect = until_target_turn("caido", "Caído", "b", round_=1, initiative=12, turn_index=0)
    assert run(rounds, effect) == (2, "b")
    entrant = until_target_turn(
        "caido", "Caído", "z", round_=1, initiative=12, turn_index=0, order=["a", "b"]
    )
    assert entrant.target_first_round == 2
    with_z = [("a", 12), ("b", 12), ("z", 5)]
    assert run({1: order, 2: with_z, 3: with_z, 4: with_z}, entrant) == (3, "z")


def test_target_gone_ends_after_its_last_possible_round() -> None:
    effect = until_target_turn("caido", "Caído", "c", round_=1, initiative=15, turn_index=0)
    assert run({1: [("a", 15)], 2: [("a", 15)], 3: [("a", 15)], 4: [("a", 15)]}, effect) == (
        4,
        "a",
    )


@given(
    st.lists(st.integers(min_value=0, max_value=20), min_size=1, max_size=6),
    st.integers(min_value=0, max_value=5),
    st.integers(min_value=1, max_value=4),
)
def test_rounds_effect_sees_each_other_turn_rounds_times(
    initiatives: list[int], applier: int, rounds: int
) -> None:
    """Whatever the order and ties, a «rounds»-round effect ends in round applied + rounds, and
    between its application and its end every turn with a different Iniciativa happens exactly
    ``rounds`` times."""
    order = sorted(((f"f{i}", v) for i, v in enumerate(initiatives)), key=lambda x: -x[1])
    applier %= len(order)
    effect = for_rounds(
        "x", "X", "f0", round_=1, initiative=order[applier][1], rounds=rounds, turn_index=applier
    )
    seen: dict[str, int] = {}
    ended = None
    for round_ in range(1, rounds + 3):
        for index, (fighter, initiative) in enumerate(order):
            if (round_, index) <= (1, applier):
                continue
            if expired(effect, round_, initiative, fighter, index):
                ended = (round_, initiative)
                break
            seen[fighter] = seen.get(fighter, 0) + 1
        if ended:
            break
    assert ended == (1 + rounds, order[applier][1])
    for fighter, initiative in order:
        if initiative != order[applier][1]:
            assert seen.get(fighter, 0) == rounds


def test_active_splits_kept_and_ended() -> None:
    one = for_rounds("x", "X", "a", round_=1, initiative=12, rounds=1)
    two = for_rounds("y", "Y", "a", round_=1, initiative=12, rounds=2)
    kept, ended = active([one, two], 2, 12, "b", 1)
    assert kept == (two,) and ended == (one,)


def test_end_of_scene() -> None:
    """«Toda condição termina automaticamente ao final da cena ou combate, salvo indicação
    explícita em contrário.»"""
    assert "Toda condição termina automaticamente ao final da cena ou combate" in chapter()
    plain = until_target_turn("caido", "Caído", "a", round_=1, initiative=5)
    lasting = until_target_turn(
        "envenenado", "Envenenado", "a", round_=1, initiative=5, beyond_scene=True
    )
    assert end_of_scene([plain]) == ()
    assert end_of_scene([plain, lasting]) == (lasting,)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"ends": "mesma_iniciativa", "rounds": 0}, "rounds"),
        ({"ends": "depois"}, "ends"),
        ({"target_turns": 0}, "target_turns"),
        ({"target": ""}, "target"),
        ({"damage": (2, "veneno")}, "damage"),
    ],
)
def test_effect_validation(change: dict, field: str) -> None:
    base = {"key": "x", "label": "X", "target": "a", "applied_round": 1, "applied_initiative": 3}
    with pytest.raises(Sistema001Error) as caught:
        TimedEffect(**{**base, **change})
    assert caught.value.field == field
