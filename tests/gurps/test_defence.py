from __future__ import annotations

from fractions import Fraction

import pytest

from gurps.defence import (
    COMBAT_REFLEXES_BONUS,
    PARRY_RULES,
    STUNNED_PENALTY,
    ParryKind,
    block,
    defence_total,
    dodge,
    parry,
    parry_rule,
    passive_defense,
)
from gurps.errors import NEGATIVE_PD, UNKNOWN_PARRY_KIND, InvalidValue
from tests.gurps.helpers import canon_section


def test_the_parry_adjustments_are_the_canons() -> None:
    text = canon_section("## 4.7 As três defesas ativas")
    assert "Faca apara a **−1**" in text
    assert "Arma arremessada apara a −1; faca arremessada, −2" in text
    assert "Mangual apara a −4" in text
    assert "Aparar** = ½ NH da arma (⅔ com Esgrima ou Bastão)" in text
    assert [(rule.kind, rule.fraction, rule.adjustment) for rule in PARRY_RULES] == [
        (ParryKind.NORMAL, Fraction(1, 2), 0),
        (ParryKind.FENCING, Fraction(2, 3), 0),
        (ParryKind.STAFF, Fraction(2, 3), 0),
        (ParryKind.KNIFE, Fraction(1, 2), -1),
        (ParryKind.THROWN, Fraction(1, 2), -1),
        (ParryKind.THROWN_KNIFE, Fraction(1, 2), -2),
        (ParryKind.FLAIL, Fraction(1, 2), -4),
    ]
    assert all((rule.section, rule.page) == ("4.7", "99") for rule in PARRY_RULES)


def test_combat_reflexes_and_stunned_are_the_canons() -> None:
    text = canon_section("## 4.6 Defesa: passiva mais ativa")
    assert "Atordoado: −4 em todas as defesas ativas." in text
    assert "Reflexos em Combate: +1 em cada defesa ativa." in text
    assert (COMBAT_REFLEXES_BONUS, STUNNED_PENALTY) == (1, -4)


@pytest.mark.parametrize(
    ("skill", "kind", "expected"),
    [
        (17, "normal", 8),
        (15, "fencing", 10),
        (14, ParryKind.STAFF, 9),
        (12, "knife", 5),
        (12, "thrown", 5),
        (12, "thrown_knife", 4),
        (13, "flail", 2),
    ],
)
def test_parry_is_a_share_of_the_skill_rounded_down_plus_the_kinds_adjustment(
    skill: int, kind: str, expected: int
) -> None:
    assert parry(skill, kind) == expected


def test_combat_reflexes_add_1_and_stunned_takes_4_from_every_active_defence() -> None:
    assert parry(17, combat_reflexes=True) == 9
    assert parry(17, stunned=True) == 4
    assert block(14, combat_reflexes=True, stunned=True) == 4
    assert dodge(5, combat_reflexes=True) == 6
    assert dodge(2, stunned=True) == -2  # a defence roll of 3 or 4 still passes


def test_it_refuses_an_unknown_parry_kind() -> None:
    with pytest.raises(InvalidValue) as caught:
        parry_rule("lightsaber")
    assert (caught.value.field, caught.value.message) == ("parry", UNKNOWN_PARRY_KIND)
    with pytest.raises(InvalidValue):
        parry(12, "lightsaber")


def test_the_jurado_blocks_at_7_and_rolls_against_12() -> None:
    assert block(14) == 7
    assert defence_total(block(14), passive_defense(3, 2)) == 12


def test_passive_defense_adds_armour_shield_and_magic() -> None:
    assert passive_defense(3, 2, 1) == 6


@pytest.mark.parametrize(
    ("args", "field"), [((-1,), "armour_pd"), ((0, -1), "shield_pd"), ((0, 0, -1), "magic_pd")]
)
def test_it_refuses_a_negative_passive_defense(args: tuple[int, ...], field: str) -> None:
    with pytest.raises(InvalidValue) as caught:
        passive_defense(*args)
    assert (caught.value.field, caught.value.message) == (field, NEGATIVE_PD)
