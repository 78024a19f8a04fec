"""How a roll is made at this table (gurps.rolling, canon §1.1, §1.4–1.6)."""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps import checks
from gurps.checks import Outcome, RollKind
from gurps.errors import (
    EMPTY_SKILL_NAME,
    MODIFIER_WITHOUT_REASON,
    NOT_A_MODIFIER,
    NOT_AN_INTEGER,
    UNKNOWN_OUTCOME,
    UNKNOWN_ROLL_KIND,
    InvalidValue,
    NoRollAtThreeOrLess,
)
from gurps.house import house_setting
from gurps.rolling import (
    CANON_TABLES,
    HIDDEN_FAILURE_CHOICES,
    HIDDEN_ROLL_REASONS,
    AnnouncedRoll,
    HiddenReason,
    Modifier,
    effective_level,
    hidden_roll_reason,
    is_hidden_by_book,
    require_outcome,
)
from tests.gurps.helpers import ScriptedSource, canon_section

PROPERTY = settings(database=None, deadline=None)
HIDDEN = canon_section("## 1.6 Quando o Mestre rola escondido")
MODIFIERS = canon_section("## 1.4 Modificadores, e quando eles são ditos")


def _canon_number(text: str) -> int:
    return int(text.replace("\u2212", "-"))


def test_the_canons_lock_example_nets_plus_5() -> None:
    dark, crude, net = re.search(
        r"no escuro é \*\*([−+]\d+)\*\*.*tosca é \*\*([−+]\d+)\*\*.*dão \*\*([−+]\d+)\*\*",
        MODIFIERS,
    ).groups()
    announced = [
        Modifier(_canon_number(dark), "fechadura no escuro"),
        Modifier(_canon_number(crude), "fechadura antiquada e tosca"),
    ]
    assert effective_level(12, announced) == 12 + _canon_number(net)


def test_a_modifier_needs_a_reason() -> None:
    with pytest.raises(InvalidValue) as caught:
        Modifier(-2, "  ")
    assert (caught.value.field, caught.value.message) == ("reason", MODIFIER_WITHOUT_REASON)


def test_a_modifier_value_is_a_whole_number() -> None:
    with pytest.raises(InvalidValue) as caught:
        Modifier(1.5, "meio ponto")  # type: ignore[arg-type]
    assert (caught.value.field, caught.value.message) == ("modifier", NOT_AN_INTEGER)


def test_a_bare_number_is_not_an_announced_modifier() -> None:
    with pytest.raises(InvalidValue) as caught:
        effective_level(12, [-2])  # type: ignore[list-item]
    assert (caught.value.field, caught.value.message) == ("modifiers", NOT_A_MODIFIER)


def test_an_announced_roll_keeps_only_the_modifiers_given_at_its_creation() -> None:
    given = [Modifier(-2, "apoio ruim para os pés")]
    roll = AnnouncedRoll(13, given)
    given.append(Modifier(+4, "depois do resultado"))
    assert roll.modifiers == (Modifier(-2, "apoio ruim para os pés"),)
    assert roll.effective_level == 11
    with pytest.raises(dataclasses.FrozenInstanceError):
        roll.modifiers = (Modifier(+4, "depois do resultado"),)  # type: ignore[misc]


def test_an_announced_roll_rolls_against_its_effective_level() -> None:
    roll = AnnouncedRoll(12, (Modifier(-3, "escuridão parcial"),))
    rolled = roll.roll(ScriptedSource([3, 3, 3]))
    assert rolled.announced is roll
    assert (rolled.result.total, rolled.result.effective_level) == (9, 9)
    assert rolled.result.outcome is Outcome.SUCCESS


def test_an_announced_roll_at_3_or_less_is_refused_unless_a_defence() -> None:
    with pytest.raises(NoRollAtThreeOrLess):
        AnnouncedRoll(8, (Modifier(-5, "no escuro"),)).roll(ScriptedSource([]))
    defence = AnnouncedRoll(2, kind=RollKind.DEFENCE).roll(ScriptedSource([1, 1, 2]))
    assert defence.result.outcome is Outcome.CRITICAL_SUCCESS


def test_an_announced_roll_refuses_an_unknown_kind() -> None:
    with pytest.raises(InvalidValue) as caught:
        AnnouncedRoll(12, kind="damage")  # type: ignore[arg-type]
    assert (caught.value.field, caught.value.message) == ("kind", UNKNOWN_ROLL_KIND)


@pytest.mark.parametrize(
    "skill", ["Detecção de Mentiras", "Empatia", "Observação", "Noção do Perigo"]
)
def test_the_skills_the_canon_names_for_hidden_rolls_are_hidden(skill: str) -> None:
    assert skill in HIDDEN
    assert is_hidden_by_book(skill)


def test_the_two_situations_are_the_canons() -> None:
    for row in HIDDEN_ROLL_REASONS:
        assert row.situation in HIDDEN
        assert (row.section, row.page) == ("1.6", "87")
    assert "perícia científica" in HIDDEN


def test_each_skill_falls_in_its_situation() -> None:
    assert hidden_roll_reason("Empatia").reason is HiddenReason.CHARACTER_MUST_NOT_KNOW_RESULT
    assert (
        hidden_roll_reason("Noção do Perigo").reason
        is HiddenReason.PLAYER_MUST_NOT_KNOW_SOMETHING_IS_THERE
    )


def test_a_scientific_skill_is_hidden_by_its_category_not_its_name() -> None:
    assert not is_hidden_by_book("Alquimia")
    assert is_hidden_by_book("Alquimia", scientific=True)
    row = hidden_roll_reason("Alquimia", scientific=True)
    assert row.reason is HiddenReason.CHARACTER_MUST_NOT_KNOW_RESULT


def test_case_accents_and_spacing_do_not_change_the_skill() -> None:
    assert is_hidden_by_book("  deteccao de   MENTIRAS ")
    assert not is_hidden_by_book("Lança")


def test_a_hidden_roll_needs_a_skill_name() -> None:
    with pytest.raises(InvalidValue) as caught:
        is_hidden_by_book(" ")
    assert (caught.value.field, caught.value.message) == ("skill", EMPTY_SKILL_NAME)


def test_on_a_failure_the_mestre_lies_or_says_nothing() -> None:
    for words in HIDDEN_FAILURE_CHOICES.values():
        assert words in HIDDEN
    assert f"Fixado em {house_setting('hidden_rolls_recorded').decided}." in HIDDEN


def test_the_hidden_rolls_table_follows_the_canons_order() -> None:
    (table,) = CANON_TABLES
    first = table.rows[0][1]
    assert re.search(r"\((Detecção de Mentiras, perícia científica, Empatia)\)", HIDDEN)[1] == first


def test_an_unknown_outcome_is_refused() -> None:
    assert require_outcome("critical_success") is Outcome.CRITICAL_SUCCESS
    with pytest.raises(InvalidValue) as caught:
        require_outcome("great")
    assert (caught.value.field, caught.value.message) == ("outcome", UNKNOWN_OUTCOME)


@PROPERTY
@given(
    st.integers(min_value=-30, max_value=30),
    st.lists(st.integers(min_value=-20, max_value=20), max_size=8),
)
def test_the_effective_level_is_the_base_plus_every_modifier(base: int, values: list[int]) -> None:
    announced = [Modifier(value, f"motivo {i}") for i, value in enumerate(values)]
    assert effective_level(base, announced) == checks.effective_level(base, values)
    assert AnnouncedRoll(base, announced).effective_level == base + sum(values)
