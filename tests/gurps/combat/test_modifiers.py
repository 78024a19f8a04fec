"""Attack modifiers (gurps.combat.modifiers; canon §4.5, §4.11, §5c–5e)."""

from __future__ import annotations

import re

import pytest

from gurps.combat import ATTACK_SITUATIONS, AnnouncedModifier, attack_modifiers
from gurps.errors import (
    AMOUNT_REQUIRED,
    DUPLICATE_ATTACK_SITUATION,
    FIXED_MODIFIER,
    MODIFIER_OUT_OF_RANGE,
    UNKNOWN_ATTACK_SITUATION,
    InvalidValue,
)
from gurps.rolling import Modifier
from tests.gurps.helpers import canon_table


def _signed(text: str) -> int:
    return int(text.replace("\u2212", "-").replace("+", ""))


def test_the_attack_modifier_table_is_read_back_into_the_validation() -> None:
    rows = canon_table("## 4.5 Modificadores de ataque")
    table_rules = [rule for rule in ATTACK_SITUATIONS if rule.section == "4.5"]
    assert [row[0] for row in rows] == [rule.name for rule in table_rules]
    for (_, cell), rule in zip(rows, table_rules, strict=True):
        if match := re.fullmatch(r"(−\d+) a (−\d+)", cell):
            mildest, worst = (_signed(n) for n in match.groups())
            assert attack_modifiers([AnnouncedModifier(rule.situation, mildest)]).total == mildest
            assert attack_modifiers([AnnouncedModifier(rule.situation, worst)]).total == worst
            for outside in (mildest + 1, worst - 1):
                with pytest.raises(InvalidValue):
                    attack_modifiers([AnnouncedModifier(rule.situation, outside)])
        elif match := re.fullmatch(r"(−\d+) ou pior", cell):
            bound = _signed(match[1])
            for value in (bound, bound - 7):
                assert attack_modifiers([AnnouncedModifier(rule.situation, value)]).total == value
            with pytest.raises(InvalidValue):
                attack_modifiers([AnnouncedModifier(rule.situation, bound + 1)])
        elif re.fullmatch(r"−\d+", cell):
            assert attack_modifiers([AnnouncedModifier(rule.situation)]).total == _signed(cell)


def test_the_announced_modifiers_add_up_with_their_reasons() -> None:
    result = attack_modifiers(
        [
            AnnouncedModifier("poor_lighting", -3),
            AnnouncedModifier("off_hand"),
            AnnouncedModifier("below_minimum_st", amount=2),
            AnnouncedModifier("wound", amount=4),
            AnnouncedModifier("figures_in_the_way", amount=2),
        ]
    )
    assert [line.value for line in result.lines] == [-3, -4, -2, -4, -8]
    assert result.total == -21
    assert all(isinstance(line, Modifier) for line in result.lines)
    assert result.lines[0].reason == "Iluminação ruim"


def test_off_hand_is_free_for_the_ambidextrous() -> None:
    assert attack_modifiers([AnnouncedModifier("off_hand")], ambidextrous=True).total == 0


@pytest.mark.parametrize(
    ("announced", "field", "message"),
    [
        ([AnnouncedModifier("fog")], "situation", UNKNOWN_ATTACK_SITUATION),
        (
            [AnnouncedModifier("blind"), AnnouncedModifier("blind")],
            "situation",
            DUPLICATE_ATTACK_SITUATION,
        ),
        ([AnnouncedModifier("wound")], "amount", AMOUNT_REQUIRED.format(situation="Ferimento")),
        (
            [AnnouncedModifier("blind", -3)],
            "modifier",
            FIXED_MODIFIER.format(situation="Cego", allowed="−6"),
        ),
        (
            [AnnouncedModifier("poor_lighting")],
            "modifier",
            MODIFIER_OUT_OF_RANGE.format(situation="Iluminação ruim", allowed="−1 a −9"),
        ),
    ],
)
def test_bad_announcements_are_refused(announced: list, field: str, message: str) -> None:
    with pytest.raises(InvalidValue) as caught:
        attack_modifiers(announced)
    assert (caught.value.field, caught.value.message) == (field, message)
