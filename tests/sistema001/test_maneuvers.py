"""«Manobras de Combate»: Agarrar, Dano Não Letal, Derrubar, Desarmar, Distrair, Empurrar."""

from __future__ import annotations

import pytest

from sistema001.errors import Sistema001Error
from sistema001.maneuvers import (
    GENERAL_RULES,
    MANEUVERS,
    ally_hits_grappler,
    declare,
    grapple_damage,
    grapple_escape,
    grappler_damage,
    resolve,
)
from tests.gurps.helpers import DOCS

CHAPTER = (DOCS / "canon" / "outro-sistema-combate.txt").read_text(encoding="utf-8")


def test_the_maneuvers_are_the_chapters():
    """Each maneuver's paragraph and each general rule is the text's, word for word."""
    assert tuple(MANEUVERS) == (
        "agarrar", "dano_nao_letal", "derrubar", "desarmar", "distrair", "empurrar",
    )  # fmt: skip
    for item in MANEUVERS.values():
        assert f"{item.label} - {item.text}" in CHAPTER
    for rule in GENERAL_RULES:
        assert f"• {rule}" in CHAPTER


def test_a_maneuver_is_a_melee_attack():
    """«Faz um ataque corpo a corpo com arma ou ataque desarmado, a depender da manobra.»"""
    assert declare("derrubar", "corpo_a_corpo").key == "derrubar"
    with pytest.raises(Sistema001Error) as error:
        declare("derrubar", "distancia")
    assert error.value.field == "kind"
    with pytest.raises(Sistema001Error):
        declare("voar", "corpo_a_corpo")


def test_a_miss_fails_the_maneuver():
    """«Se o ataque errar, a manobra falha.»"""
    for key in MANEUVERS:
        result = resolve(key, "falha", -3, False, attack_total=5)
        assert not result.succeeded and result.condition is None


def test_a_hit_replaces_the_damage_and_lasts_to_the_targets_next_turn():
    """«Se o ataque acertar, o dano é substituído pelo efeito da manobra.» «O efeito dura até o
    início do próximo turno do alvo.»"""
    result = resolve("derrubar", "acerto", 3, False)
    assert result.replaces_damage and result.target_turns == 1


def test_a_graze_is_a_hit():
    """«Ataque igual à Defesa: o ataque acerta de raspão» — a hit for a maneuver (reading
    ``maneuver_graze_hits``)."""
    result = resolve("derrubar", "raspao", 0, False)
    assert result.succeeded and "maneuver_graze_hits" in result.readings


def test_grapple_contains_and_sets_the_nd():
    """«Ao atacar, deve ter ao menos uma mão livre e o alvo fica Contido. … Além disso, esse
    vira o novo ND para o alvo Contido tentar superar.» (reading ``grapple_nd_attack_total``)"""
    with pytest.raises(Sistema001Error) as error:
        declare("agarrar", "corpo_a_corpo", free_hand=False)
    assert error.value.field == "free_hand"
    result = resolve("agarrar", "acerto", 2, False, attack_total=14)
    assert (result.condition, result.grapple_nd) == ("contido", 14)
    assert not grapple_escape(14, 14) and grapple_escape(15, 14)
    with pytest.raises(Sistema001Error):
        resolve("agarrar", "acerto", 2, False)


def test_the_grappler_deals_1_plus_forca_bonus():
    """«o atacante pode atacar o alvo contido normalmente, mas não utiliza o dano da arma,
    causando apenas dano mínimo 1 + Bônus de Força»."""
    assert [grapple_damage(f) for f in (0, 4, 5, 12)] == [1, 1, 2, 3]


def test_an_allys_bad_miss_hits_the_grappler():
    """«se um ataque falhar por margem 5 ou mais, ou resultar em falha crítica, o ataque atinge
    quem está agarrando, causando dano total, metade do dano ou dano mínimo 1, a critério do
    Mestre.»"""
    assert ally_hits_grappler("falha", -5, False)
    assert not ally_hits_grappler("falha", -4, False)
    assert ally_hits_grappler("acerto", 3, True)
    assert [grappler_damage(7, s) for s in ("total", "metade", "minimo")] == [7, 3, 1]
    with pytest.raises(Sistema001Error):
        grappler_damage(7, "dobro")


def test_nonlethal_damage_is_resolved_normally():
    """«O ataque é resolvido normalmente, mas todo dano causado é não letal. Se reduzir o alvo
    a 0 PV, ele fica inconsciente, sem risco imediato de morte.»"""
    result = resolve("dano_nao_letal", "acerto", 4, False)
    assert result.nonlethal and not result.replaces_damage


def test_trip_leaves_the_target_prone():
    """«Derrubar - O atacante tenta desequilibrar o inimigo. Se acertar, o alvo fica Caído.»"""
    assert resolve("derrubar", "acerto", 1, False).condition == "caido"


def test_disarm_needs_a_margin_of_5():
    """«Desarmar - … Se acertar e superar a Defesa por 5 ou mais, o alvo deixa a arma cair no
    chão.»"""
    assert resolve("desarmar", "acerto", 5, False).drops_weapon
    assert not resolve("desarmar", "acerto", 4, False).drops_weapon
    assert not resolve("desarmar", "raspao", 0, False).drops_weapon


def test_distract_minus_1_or_2_on_a_critical():
    """«Se acertar, o alvo sofre -1 em seu próximo teste de ataque ou defesa contra um
    atacante diferente. Se acerto crítico, a penalidade é -2.»"""
    assert resolve("distrair", "acerto", 1, False).penalty == -1
    assert resolve("distrair", "acerto", 1, True).penalty == -2


def test_push_moves_2_metres_without_a_condition():
    """«Se acertar, o alvo é empurrado até 2 metros para trás. … Empurrar não aplica condição,
    apenas reposiciona o alvo.»"""
    result = resolve("empurrar", "acerto", 1, False)
    assert (result.push_m, result.condition) == (2, None)
