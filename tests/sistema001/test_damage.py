"""«Resolução de Dano», «Dano por Tipo de Arma», resistance, vulnerability and immunity."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sistema001.damage import (
    DAMAGE_TYPE_TEXTS,
    DamagePart,
    resolve,
    resolve_effect,
    weapon_damage,
    weapon_damage_formula,
    weapon_parts,
)
from sistema001.errors import Sistema001Error
from sistema001.fighters import DAMAGE_TYPE_LABELS, DAMAGE_TYPES, Fighter, Weapon, unarmed
from tests.gurps.helpers import DOCS

PROPERTY = settings(database=None, deadline=None)
CHAPTER = (DOCS / "canon" / "outro-sistema-combate.txt").read_text(encoding="utf-8")
SIX = ("mobilidade", "acuidade", "forca", "resistencia", "espirito", "astucia")


def fighter(**kwargs) -> Fighter:
    values = {
        "key": "alvo",
        "name": "Alvo",
        "attributes": dict.fromkeys(SIX, 5),
        "dice": dict.fromkeys(SIX, 10),
        "pv_max": 20,
        "pv": 20,
    }
    values.update(kwargs)
    return Fighter(**values)


def hit(parts, target=None, **kwargs):
    kwargs.setdefault("outcome", "acerto")
    kwargs.setdefault("critical", False)
    return resolve(parts, target or fighter(), **kwargs)


# --- «Dano por Tipo de Arma» ----------------------------------------------------------------


def test_melee_weapon_damage():
    """«Dano de Arma Corpo a Corpo: 1 + Aumento de Dano da arma + Bônus de Força.» and «Dano =
    Dano da arma + 1 para cada múltiplo de 5 em Força.»"""
    sword = Weapon("Espada", "corpo_a_corpo", damage_increase=2, damage_types=("corte",))
    assert weapon_damage(sword, 4) == 3
    assert weapon_damage(sword, 5) == 4
    assert weapon_damage(sword, 14) == 5


def test_thrown_weapon_damage():
    """«Dano de Arma de Arremesso: 1 + Aumento de Dano da arma + Bônus de Força.»"""
    knife = Weapon("Faca", "arremesso", damage_increase=1, damage_types=("perfuracao",))
    assert weapon_damage(knife, 10) == 1 + 1 + 2


def test_shooting_weapons_get_no_attribute_bonus():
    """«Dano de Arma de Disparo ou Arma de Fogo. 1 + Aumento de Dano da arma. Essas armas não
    recebem bônus natural de atributo no dano.»"""
    bow = Weapon("Arco", "disparo", damage_increase=2, damage_types=("perfuracao",))
    assert weapon_damage(bow, 0) == weapon_damage(bow, 25) == 3


def test_improvised_and_unarmed_damage():
    """«Nesse caso, o dano é sempre 1 + Bônus de Força, e o tipo de dano é de contusão.»"""
    fist = unarmed()
    assert weapon_damage(fist, 10) == 3
    assert weapon_parts(fist, 10) == (DamagePart("contusao", 3),)


def test_the_weapon_damage_is_said_with_its_formula():
    """«Dano de Arma Corpo a Corpo: 1 + Aumento de Dano da arma + Bônus de Força.» — «Dano de
    Arma de Disparo ou Arma de Fogo. 1 + Aumento de Dano da arma.» — «o dano é sempre 1 + Bônus
    de Força»: the log shows the sum, and it is the damage."""
    sword = Weapon("Espada", "corpo_a_corpo", damage_increase=1, damage_types=("corte",))
    bow = Weapon("Arco", "disparo", damage_increase=2, damage_types=("perfuracao",))
    plain = Weapon("Clava", "corpo_a_corpo", damage_types=("contusao",))
    assert weapon_damage_formula(sword, 10) == "1 + Aumento 1 + Bônus de Força 2 = 4"
    assert weapon_damage_formula(bow, 25) == "1 + Aumento 2 = 3"
    assert weapon_damage_formula(unarmed(), 5) == "1 + Bônus de Força 1 = 2"
    assert weapon_damage_formula(plain, 4) == "1 + Bônus de Força 0 = 1"
    for weapon in (sword, bow, plain, unarmed()):
        for forca in (0, 4, 5, 12, 25):
            said = weapon_damage_formula(weapon, forca)
            assert said.endswith(f"= {weapon_damage(weapon, forca)}")


def test_a_multi_type_weapon_needs_the_mestres_split():
    """«Um mesmo ataque pode causar mais de um tipo de dano simultaneamente.» — «Se o alvo for
    imune a um dos tipos, apenas essa parte do dano é anulada»: the Mestre says how the
    damage divides (reading ``multi_type_split``)."""
    saber = Weapon("Sabre de Luz", "corpo_a_corpo", 3, ("corte", "fogo"))
    with pytest.raises(Sistema001Error) as error:
        weapon_parts(saber, 5)
    assert error.value.field == "split"
    with pytest.raises(Sistema001Error):
        weapon_parts(saber, 5, (2, 2))
    assert weapon_parts(saber, 5, (3, 2)) == (DamagePart("corte", 3), DamagePart("fogo", 2))


def test_the_damage_types_are_the_chapters():
    """«Tipos de Dano»: each type's sentence is the text's."""
    assert tuple(DAMAGE_TYPE_TEXTS) == DAMAGE_TYPES
    for key, text in DAMAGE_TYPE_TEXTS.items():
        assert f"{DAMAGE_TYPE_LABELS[key]}: {text}" in CHAPTER


# --- «Comparação com a Defesa» --------------------------------------------------------------


def test_a_hit_deals_full_damage():
    """«Ataque maior que a Defesa: o ataque acerta e causa dano total.» «Dano final: O valor
    final é subtraído dos PV do alvo.»"""
    result = hit([DamagePart("corte", 7)])
    assert result.total == 7
    assert result.steps[-1] == "Dano final: 7 PV."
    assert fighter().lose_pv(result.total).pv == 13


def test_a_graze_deals_only_the_minimum_1():
    """«Ataque igual à Defesa: o ataque acerta de raspão e causa apenas o dano mínimo 1.»"""
    assert hit([DamagePart("corte", 9)], outcome="raspao").total == 1
    assert hit([DamagePart("corte", 9)], outcome="raspao", critical=True).total == 1


def test_a_graze_against_resistance_or_immunity_deals_nothing():
    """«O dano mínimo não se aplica quando: O alvo possui resistência que cancele dano mínimo.
    O alvo é imune ao tipo de dano recebido.» (reading ``graze_minimum_only``)"""
    resistant = fighter(resistances={"fogo"})
    immune = fighter(immunities={"fogo"})
    assert hit([DamagePart("fogo", 9)], resistant, outcome="raspao").total == 0
    assert hit([DamagePart("fogo", 9)], immune, outcome="raspao").total == 0
    assert "graze_minimum_only" in hit([DamagePart("fogo", 9)], outcome="raspao").readings


def test_a_miss_deals_nothing():
    """«Ataque menor que a Defesa: o ataque falha e não causa efeito.»"""
    result = hit([DamagePart("corte", 9)], outcome="falha", critical=True)
    assert result.total == 0
    assert "falha e não causa efeito" in result.steps[0]


def test_every_hit_deals_at_least_1():
    """«Todo ataque bem-sucedido causa pelo menos 1 de dano mínimo, seja armado, desarmado ou
    com armas improvisadas.»"""
    assert hit([DamagePart("contusao", 0)]).total == 1


# --- the text's fixed cases -----------------------------------------------------------------


def test_fire_resistance_example():
    """«Um ataque causa 5 de dano de fogo contra um alvo resistente a fogo. O dano final é
    reduzido para 2. Se o ataque for um acerto crítico e causar 5 de dano, o dano é dobrado
    para 10 pelo crítico e, em seguida, reduzido pela resistência, resultando em 5 de dano
    final.»"""
    target = fighter(resistances={"fogo"})
    assert hit([DamagePart("fogo", 5)], target).total == 2
    critical = hit([DamagePart("fogo", 5)], target, critical=True)
    assert critical.total == 5
    assert critical.per_type[0].before == 10


def test_resistance_cancels_the_minimum():
    """«Reduz o dano pela metade, arredondado para baixo, e cancela o dano mínimo.»"""
    result = hit([DamagePart("fogo", 1)], fighter(resistances={"fogo"}))
    assert result.total == 0
    assert result.minimum_cancelled


def test_fire_vulnerability_example():
    """«Um ataque causa 2 de dano contra um alvo vulnerável a fogo. O dano final é 4. Se o
    ataque for um acerto crítico e causar 2 de dano, o dano é dobrado para 4 pelo crítico e,
    em seguida, dobrado novamente pela vulnerabilidade a fogo, resultando em 8 de dano
    total.»"""
    target = fighter(vulnerabilities={"fogo"})
    assert hit([DamagePart("fogo", 2)], target).total == 4
    assert hit([DamagePart("fogo", 2)], target, critical=True).total == 8


def test_poison_immunity_example():
    """«Um ataque causa 6 de dano de veneno contra um alvo imune a veneno. Nenhum dano é
    aplicado.» (veneno is Químico: reading ``poison_is_chemical``)"""
    result = hit([DamagePart("quimico", 6)], fighter(immunities={"quimico"}))
    assert result.total == 0
    assert result.minimum_cancelled


def test_multiple_types_are_mitigated_separately():
    """«resistências, vulnerabilidades e imunidades são aplicadas separadamente a cada tipo.
    Se o alvo for imune a um dos tipos, apenas essa parte do dano é anulada.»"""
    target = fighter(immunities={"fogo"}, resistances={"corte"})
    result = hit([DamagePart("corte", 5), DamagePart("fogo", 4)], target)
    assert [r.after for r in result.per_type] == [2, 0]
    assert result.total == 2
    vulnerable = fighter(vulnerabilities={"fogo"})
    assert hit([DamagePart("corte", 3), DamagePart("fogo", 2)], vulnerable).total == 3 + 4


def test_reduction_comes_after_resistance_and_immunity():
    """«Redução de dano: Só ocorre quando uma Vantagem, Magia, vulnerabilidade a um tipo de
    dano (veja adiante), equipamento ou efeito indicar explicitamente. A redução é aplicada
    após resistências e imunidades.»"""
    target = fighter(resistances={"fogo"})
    result = hit([DamagePart("fogo", 10)], target, reduction=2)
    assert result.total == 10 // 2 - 2
    assert result.steps.index(next(s for s in result.steps if s.startswith("Resistência"))) < (
        result.steps.index(next(s for s in result.steps if s.startswith("Redução")))
    )


def test_the_minimum_survives_a_reduction_unless_cancelled():
    """«Todo ataque bem-sucedido causa pelo menos 1 de dano mínimo» — after a reduction too
    (reading ``minimum_after_reduction``)."""
    result = hit([DamagePart("corte", 3)], reduction=5)
    assert result.total == 1
    assert "minimum_after_reduction" in result.readings


def test_an_effect_may_cancel_the_minimum():
    """«Um efeito específico anula explicitamente o dano mínimo.»"""
    assert hit([DamagePart("corte", 3)], reduction=5, cancel_minimum=True).total == 0


def test_a_defended_area_attack_halves_with_minimum_1():
    """«Ataque em Área: Os alvos tentam esquivar, rolando a Defesa. Sucesso: reduz o dano
    pela metade, mínimo 1. Falha: sofre o dano total.»"""
    assert hit([DamagePart("fogo", 7)], area_defended=True).total == 3
    assert hit([DamagePart("fogo", 1)], area_defended=True).total == 1
    assert hit([DamagePart("fogo", 7)]).total == 7
    with pytest.raises(Sistema001Error):
        hit([DamagePart("fogo", 7)], outcome="raspao", area_defended=True)


def test_mundane_immune_creatures_take_magical_damage():
    """«Criaturas podem ser resistentes ou imunes a efeitos (e danos) mundanos, mas sofrem
    efeitos mágicos normalmente.»"""
    ghost = fighter(mundane_immune=True)
    assert hit([DamagePart("corte", 6)], ghost).total == 0
    assert hit([DamagePart("corte", 6, magical=True)], ghost).total == 6
    assert hit([DamagePart("magico", 6)], ghost).total == 6


def test_damage_is_mundane_by_default():
    """«Por padrão, todo tipo de dano é mundano. Exceto dano tipo mágico»."""
    assert not DamagePart("fogo", 1).magical
    assert DamagePart("magico", 1).magical


def test_condition_damage_uses_type_rules_without_minimum():
    """«o dano causado possui um tipo de dano definido em sua descrição, e qualquer regra,
    resistência ou imunidade relacionada a esse tipo de dano aplica-se normalmente»."""
    assert resolve_effect([DamagePart("fogo", 2)], fighter()).total == 2
    assert resolve_effect([DamagePart("fogo", 2)], fighter(resistances={"fogo"})).total == 1
    assert resolve_effect([DamagePart("fogo", 2)], fighter(immunities={"fogo"})).total == 0
    assert resolve_effect([DamagePart("fogo", 2)], fighter(vulnerabilities={"fogo"})).total == 4


def test_bad_inputs_are_refused_in_portuguese():
    with pytest.raises(Sistema001Error) as error:
        hit([DamagePart("corte", 1)], outcome="acertou")
    assert error.value.field == "outcome"
    with pytest.raises(Sistema001Error):
        hit([])
    with pytest.raises(Sistema001Error):
        DamagePart("veneno", 1)
    with pytest.raises(Sistema001Error):
        hit([DamagePart("corte", 1)], reduction=-1)


# --- properties -----------------------------------------------------------------------------

amounts = st.integers(0, 60)
types = st.sampled_from(DAMAGE_TYPES)


@PROPERTY
@given(amounts, types, st.booleans(), st.integers(0, 10))
def test_resistance_never_increases_damage(amount, type_, critical, reduction):
    """«Resistência ao tipo de dano: Reduz o dano pela metade» — never more than without."""
    plain = hit([DamagePart(type_, amount)], critical=critical, reduction=reduction)
    resisted = hit(
        [DamagePart(type_, amount)],
        fighter(resistances={type_}),
        critical=critical,
        reduction=reduction,
    )
    assert resisted.total <= plain.total


@PROPERTY
@given(amounts, types, st.booleans())
def test_vulnerability_never_decreases_and_immunity_nullifies(amount, type_, critical):
    """«Vulnerabilidade ao tipo de dano: Dobra o dano causado.» «Imunidade ao tipo de dano:
    Anula completamente o dano causado.»"""
    plain = hit([DamagePart(type_, amount)], critical=critical)
    vulnerable = hit(
        [DamagePart(type_, amount)], fighter(vulnerabilities={type_}), critical=critical
    )
    immune = hit([DamagePart(type_, amount)], fighter(immunities={type_}), critical=critical)
    assert vulnerable.total >= plain.total
    assert immune.total == 0


@PROPERTY
@given(amounts, types, st.sampled_from(("acerto", "raspao", "falha")))
def test_a_hit_deals_at_least_the_graze_and_the_graze_at_least_the_miss(amount, type_, _):
    """«Comparação com a Defesa»: acerto ≥ raspão ≥ falha for the same damage."""
    totals = [
        hit([DamagePart(type_, amount)], outcome=o).total for o in ("acerto", "raspao", "falha")
    ]
    assert totals[0] >= totals[1] >= totals[2] == 0
