"""«O que se pode fazer no turno», «Tipos de Ação» and the conditions that restrict a turn."""

from __future__ import annotations

import pytest

from sistema001.errors import Sistema001Error
from sistema001.turns import ACTION_TYPES, TURN_PLANS, check_turn
from tests.sistema001.helpers import chapter


def test_three_plans() -> None:
    """«1 Ação de Movimento + 1 Ação de Execução, ou • 2 Ações de Movimento, ou • 1 Ação
    Completa»"""
    text = chapter()
    for phrase in (
        "1 Ação de Movimento + 1 Ação de Execução",
        "2 Ações de Movimento",
        "1 Ação Completa",
    ):
        assert phrase in text
    assert {k: p.actions for k, p in TURN_PLANS.items()} == {
        "movimento_execucao": ("movimento", "execucao"),
        "dois_movimentos": ("movimento", "movimento"),
        "completa": ("completa",),
    }


def test_action_lists_are_the_texts_bullets() -> None:
    """«Tipos de Ação»: each bullet of the chapter, word for word."""
    text = chapter()
    for action in ACTION_TYPES.values():
        assert action.description in text
        for example in action.examples:
            assert f"• {example}" in text


def test_no_converting_actions() -> None:
    """«Não é possível “converter” Ações, apenas escolher uma das opções. Ações Livres podem
    ocorrer adicionalmente»"""
    assert "Não é possível “converter” Ações, apenas escolher uma das opções." in chapter()
    check_turn("movimento_execucao", [], ["movimento", "execucao", "livre", "livre"])
    with pytest.raises(Sistema001Error) as caught:
        check_turn("dois_movimentos", [], ["execucao"])
    assert caught.value.field == "actions"
    with pytest.raises(Sistema001Error):
        check_turn("movimento_execucao", [], ["execucao", "execucao"])


def test_a_refused_conversion_names_the_plan_to_use() -> None:
    """«Cada personagem escolhe uma das seguintes combinações de ações: 1 Ação de Movimento + 1
    Ação de Execução, ou 2 Ações de Movimento, ou 1 Ação Completa. Não é possível “converter”
    Ações, apenas escolher uma das opções.» — the refusal says which option holds the actions,
    in the ``plan`` field's words."""
    with pytest.raises(Sistema001Error) as caught:
        check_turn("completa", [], ["execucao"])
    said = caught.value.message
    assert "«1 Ação Completa» não tem Ação de Execução" in said
    assert (
        'escolha o plano «1 Ação de Movimento + 1 Ação de Execução» (plan: "movimento_execucao")'
        in said
    )
    with pytest.raises(Sistema001Error) as caught:
        check_turn("movimento_execucao", [], ["execucao", "execucao"])
    said = caught.value.message
    assert "Nenhum plano tem estas ações (2 × Ação de Execução)" in said
    assert all(f'(plan: "{key}")' in said for key in TURN_PLANS)


def test_full_action_not_combined() -> None:
    """«Ação Completa não pode ser combinada com outras ações, exceto ações livres.»"""
    assert (
        "Ação Completa não pode ser combinada com outras ações, exceto ações livres." in chapter()
    )
    check_turn("completa", [], ["completa", "livre"])
    with pytest.raises(Sistema001Error):
        check_turn("completa", [], ["completa", "movimento"])


def test_contido_no_movement() -> None:
    """Contido: «não podendo realizar Ações de Movimento, mas podendo realizar Ações de
    Execução»."""
    assert "não podendo realizar Ações de Movimento, mas podendo realizar Ações de Execução" in (
        chapter()
    )
    with pytest.raises(Sistema001Error) as caught:
        check_turn("dois_movimentos", ["contido"])
    assert caught.value.field == "plan" and "Contido" in caught.value.message
    allowed = check_turn("movimento_execucao", ["contido"], ["execucao"])
    assert allowed.allowed == ("execucao",)
    with pytest.raises(Sistema001Error):
        check_turn("movimento_execucao", ["contido"], ["movimento"])


def test_paralisado_neither() -> None:
    """Paralisado: «incapaz de realizar Ações de Execução, Ações de Movimento ou usar
    Mobilidade de qualquer forma»."""
    assert "incapaz de realizar Ações de Execução, Ações de Movimento ou usar Mobilidade" in (
        chapter()
    )
    for plan in TURN_PLANS:
        with pytest.raises(Sistema001Error) as caught:
            check_turn(plan, ["paralisado"])
        assert "Paralisado" in caught.value.message


def test_atordoado_one_action() -> None:
    """Atordoado: «podendo realizar apenas 1 Ação em seu turno, seja de Execução ou de
    Movimento.» (reading ``stunned_one_action``: not the Ação Completa)."""
    assert "podendo realizar apenas 1 Ação em seu turno, seja de Execução ou de Movimento" in (
        chapter()
    )
    assert check_turn("movimento_execucao", ["atordoado"]).max_actions == 1
    check_turn("movimento_execucao", ["atordoado"], ["execucao", "livre"])
    with pytest.raises(Sistema001Error) as caught:
        check_turn("movimento_execucao", ["atordoado"], ["movimento", "execucao"])
    assert caught.value.field == "actions"
    with pytest.raises(Sistema001Error):
        check_turn("completa", ["atordoado"])


def test_unknown_plan_or_condition() -> None:
    with pytest.raises(Sistema001Error):
        check_turn("tres_movimentos", [])
    with pytest.raises(Sistema001Error):
        check_turn("completa", ["tonto"])
