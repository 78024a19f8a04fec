"""«Condições»: the list as data, stacking, resistance/vulnerability/immunity, what each does to
a roll, movement and start-of-turn damage."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sistema001.conditions import (
    CONDITIONS,
    Context,
    active_keys,
    apply,
    modifiers,
    movement,
    start_of_turn_damage,
)
from sistema001.errors import Sistema001Error
from sistema001.fighters import CONDITION_KEYS
from sistema001.timing import until_target_turn
from tests.sistema001.helpers import chapter, fighter

MELEE = Context(attack_kind="corpo_a_corpo")
RANGED = Context(attack_kind="distancia")


def test_every_condition_quotes_the_chapter() -> None:
    """«Lista de Condições»: the sixteen conditions, each with its sentence word for word."""
    text = chapter()
    assert tuple(CONDITIONS) == CONDITION_KEYS and len(CONDITIONS) == 16
    for condition in CONDITIONS.values():
        assert condition.text in text, condition.key
        assert condition.text.startswith(condition.label + ":")


def test_same_condition_renews_duration() -> None:
    """«Condições iguais não se acumulam. Se um personagem sofrer novamente a mesma condição,
    apenas a duração é renovada»"""
    assert "Condições iguais não se acumulam" in chapter()
    first = until_target_turn("caido", "Caído", "a", round_=1, initiative=10)
    other = until_target_turn("ferido", "Ferido", "a", round_=1, initiative=10)
    again = until_target_turn("caido", "Caído", "a", round_=3, initiative=4)
    effects = apply(apply((), first), other)
    assert apply(effects, again) == (again, other)
    elsewhere = until_target_turn("caido", "Caído", "b", round_=3, initiative=4)
    assert apply(effects, elsewhere) == (first, other, elsewhere)
    # not stacking: the penalty stays −5
    assert modifiers(fighter(), ["caido", "caido"][:1], "ataque", MELEE).total == -5


def test_desprevenido_first_attack_of_that_aggressor() -> None:
    """Desprevenido: «sofre -2 na Defesa contra o primeiro ataque daquele agressor»"""
    effect = until_target_turn(
        "desprevenido", "Desprevenido", "a", round_=1, initiative=9, source="x"
    )
    a = fighter()
    assert modifiers(a, [effect], "defesa", Context(opponent="x", first_attack=True)).total == -2
    assert modifiers(a, [effect], "defesa", Context(opponent="y", first_attack=True)).total == 0
    assert modifiers(a, [effect], "defesa", Context(opponent="x")).total == 0


def test_caido() -> None:
    """Caído: «sofrendo -5 nos ataques corpo a corpo, -5 na Defesa contra ataques corpo a corpo
    e recebendo +5 na Defesa contra ataques à distância»"""
    a = fighter()
    assert modifiers(a, ["caido"], "ataque", MELEE).total == -5
    assert modifiers(a, ["caido"], "ataque", RANGED).total == 0
    assert modifiers(a, ["caido"], "defesa", MELEE).total == -5
    assert modifiers(a, ["caido"], "defesa", RANGED).total == 5


def test_cego() -> None:
    """Cego: «Tudo à sua volta é considerado em camuflagem total. Sofre -10 em testes de
    Mobilidade e Acuidade que dependam da visão.»"""
    a = fighter()
    seen = modifiers(a, ["cego"], "ataque", Context(attack_kind="distancia", depends_on_sight=True))
    assert seen.total == -10 and seen.attacks_as == "camuflagem_total"
    assert (
        modifiers(a, ["cego"], "teste", Context(attribute="forca", depends_on_sight=True)).total
        == 0
    )
    assert modifiers(a, ["cego"], "teste", Context(attribute="acuidade")).total == 0


def test_contido() -> None:
    """Contido: «Sofre Desvantagem ao atacar alvos que não sejam a fonte da contenção e sofre -5
    no ataque ao tentar atingir a própria fonte da contenção, defendendo-se normalmente»"""
    effect = until_target_turn("contido", "Contido", "a", round_=1, initiative=9, source="g")
    a = fighter()
    at_source = modifiers(a, [effect], "ataque", Context(attack_kind="corpo_a_corpo", opponent="g"))
    at_other = modifiers(a, [effect], "ataque", Context(attack_kind="corpo_a_corpo", opponent="h"))
    assert (at_source.total, at_source.edge) == (-5, None)
    assert (at_other.total, at_other.edge) == (0, "desvantagem")
    assert modifiers(a, [effect], "defesa", MELEE) == modifiers(a, [], "defesa", MELEE)


def test_invisivel() -> None:
    """Invisível: «recebe Vantagem nos testes de ataque contra alvos que não conseguem percebê-lo
    visualmente»"""
    a = fighter()
    assert modifiers(a, ["invisivel"], "ataque", MELEE).edge == "vantagem"
    assert modifiers(a, ["invisivel"], "ataque", Context(target_perceives=True)).edge is None


def test_paralisado_no_mobilidade() -> None:
    """Paralisado: «incapaz de … usar Mobilidade de qualquer forma» (reading
    ``paralysed_defence``: the Defesa is the die alone)."""
    result = modifiers(fighter(), ["paralisado"], "defesa", MELEE)
    assert result.without_attribute


def test_desorientado_cancels_with_invisivel() -> None:
    """Desorientado: «sofrendo Desvantagem em testes de ataque e de defesa» (with Invisível's
    Vantagem they cancel: reading ``edge_cancel``)."""
    a = fighter()
    assert modifiers(a, ["desorientado"], "defesa", MELEE).edge == "desvantagem"
    both = modifiers(a, ["desorientado", "invisivel"], "ataque", MELEE)
    assert both.edge is None and any("anulam" in line for line in both.lines)


def test_amedrontado_exaurido_ferido_atraido() -> None:
    """Amedrontado «sofrendo -5 em testes de ataque»; Exaurido «sofrendo -5 em testes físicos»;
    Ferido «sofrendo -2 em todos os testes»; Atraído «sofrendo -5 em testes de Astúcia e
    Acuidade» (reading ``condition_test_scope``)."""
    a = fighter()
    assert modifiers(a, ["amedrontado"], "ataque", MELEE).total == -5
    assert modifiers(a, ["amedrontado"], "defesa", MELEE).total == 0
    assert modifiers(a, ["exaurido"], "defesa", MELEE).total == -5
    assert modifiers(a, ["exaurido"], "teste", Context(attribute="astucia")).total == 0
    assert modifiers(a, ["ferido"], "teste", Context(attribute="espirito")).total == -2
    assert modifiers(a, ["atraido"], "ataque", RANGED).total == -5
    assert modifiers(a, ["atraido"], "ataque", MELEE).total == 0
    assert modifiers(a, ["atraido"], "teste", Context(attribute="astucia")).total == -5


def test_resistance_halves_vulnerability_doubles_immunity_nullifies() -> None:
    """«Resistência a uma condição reduz pela metade seus efeitos numéricos ou penalidades,
    arredondando para baixo. • Vulnerabilidade a uma condição dobra esses efeitos. • Imunidade
    a uma condição anula completamente seus efeitos mecânicos.»"""
    text = chapter()
    assert (
        "Resistência a uma condição reduz pela metade seus efeitos numéricos ou penalidades" in text
    )
    assert "Imunidade a uma condição anula completamente seus efeitos mecânicos" in text
    resistant = fighter(condition_resistances={"caido", "sangrando"})
    vulnerable = fighter(condition_vulnerabilities={"caido", "incendiado"})
    immune = fighter(condition_immunities={"caido", "desorientado", "incendiado"})
    assert modifiers(resistant, ["caido"], "ataque", MELEE).total == -2
    assert modifiers(resistant, ["caido"], "defesa", RANGED).total == 2
    assert modifiers(vulnerable, ["caido"], "ataque", MELEE).total == -10
    assert modifiers(immune, ["caido"], "ataque", MELEE).total == 0
    assert modifiers(immune, ["desorientado"], "ataque", MELEE).edge is None
    assert start_of_turn_damage(["sangrando"], resistant) == [(1, "corte")]
    assert start_of_turn_damage(["incendiado"], vulnerable) == [(4, "fogo")]
    assert start_of_turn_damage(["incendiado"], immune) == []
    assert active_keys(immune, ["caido", "ferido"]) == frozenset({"ferido"})


@given(
    st.lists(st.sampled_from(CONDITION_KEYS), max_size=6, unique=True),
    st.sampled_from(["ataque", "defesa", "teste"]),
    st.sampled_from(["corpo_a_corpo", "distancia"]),
)
def test_resistance_never_worsens(keys: list[str], roll: str, kind: str) -> None:
    """Resistance to every condition never makes a roll's modifiers further from 0 than without
    it; immunity to every one leaves 0 and no edge."""
    context = Context(attack_kind=kind, first_attack=True, depends_on_sight=True)
    plain = modifiers(fighter(), keys, roll, context)
    resisted = modifiers(fighter(condition_resistances=set(keys)), keys, roll, context)
    immune = modifiers(fighter(condition_immunities=set(keys)), keys, roll, context)
    assert abs(resisted.total) <= abs(plain.total) or resisted.total * plain.total < 0
    assert (immune.total, immune.edge, immune.without_attribute) == (0, None, False)


def test_mundane_immune_ignores_mundane_conditions() -> None:
    """«Criaturas podem ser resistentes ou imunes a efeitos (e danos) mundanos, mas sofrem
    efeitos mágicos normalmente.» and «Condições são efeitos e seguem a natureza do efeito que
    as causou.» (reading ``mundane_immune_conditions``)."""
    text = chapter()
    assert "Condições são efeitos e seguem a natureza do efeito que as causou." in text
    ghost = fighter(mundane_immune=True)
    mundane = until_target_turn("ferido", "Ferido", "a", round_=1, initiative=3)
    magical = until_target_turn("ferido", "Ferido", "a", round_=1, initiative=3, magical=True)
    assert modifiers(ghost, [mundane], "ataque", MELEE).total == 0
    assert modifiers(ghost, [magical], "ataque", MELEE).total == -2


def test_start_of_turn_damage() -> None:
    """Sangrando: «sofrendo 2 PV de dano físico no início de cada um de seus turnos»;
    Incendiado: «sofrendo 2 PV de dano de fogo no início de cada um de seus turnos»;
    Envenenado: «o veneno define os efeitos sofridos» (the Mestre's input)."""
    text = chapter()
    assert "sofrendo 2 PV de dano físico no início de cada um de seus turnos" in text
    assert "sofrendo 2 PV de dano de fogo no início de cada um de seus turnos" in text
    assert "o veneno define os efeitos sofridos" in text
    assert start_of_turn_damage(["sangrando", "incendiado", "envenenado", "caido"]) == [
        (2, "corte"),
        (2, "fogo"),
    ]
    blunt = until_target_turn(
        "sangrando", "Sangrando", "a", round_=1, initiative=3, damage=(9, "contusao")
    )
    poison = until_target_turn(
        "envenenado", "Envenenado", "a", round_=1, initiative=3, damage=(3, "quimico")
    )
    assert start_of_turn_damage([blunt, poison]) == [(2, "contusao"), (3, "quimico")]
    fire_bleed = until_target_turn(
        "sangrando", "Sangrando", "a", round_=1, initiative=3, damage=(2, "fogo")
    )
    with pytest.raises(Sistema001Error):
        start_of_turn_damage([fire_bleed])


def test_movement_halved_or_stopped() -> None:
    """Lento: «Todos os deslocamentos do personagem são reduzidos pela metade, arredondado para
    baixo.»; Exaurido: «tendo seu deslocamento reduzido à metade»; Contido and Paralisado: no
    Ações de Movimento."""
    assert "reduzidos pela metade, arredondado para baixo" in chapter()
    a = fighter()
    assert movement(a, ["lento"], 7) == 3
    assert movement(a, ["lento", "exaurido"], 7) == 1
    assert movement(a, ["contido"], 7) == 0
    assert movement(fighter(condition_immunities={"lento"}), ["lento"], 7) == 7


def test_unknown_roll_or_condition() -> None:
    with pytest.raises(Sistema001Error):
        modifiers(fighter(), ["caido"], "dano")
    with pytest.raises(Sistema001Error):
        modifiers(fighter(), ["tonto"], "ataque")
