"""Injury (gurps.injury, canon §5.1–5.4) and the house rule on who dies when (gurps.house,
§5.4.1)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps.damage import DamageType
from gurps.errors import (
    EYES_KNOCKOUT_OUTSIDE_CANON,
    HP_AFTER_ABOVE_HP_BEFORE,
    HT_TOO_LOW,
    NEGATIVE_HP_LOST,
    NEGATIVE_WILL_LEVEL,
    UNKNOWN_COMBATANT_KIND,
    UNKNOWN_HIT_LOCATION,
    InvalidValue,
    OutsideCanon,
)
from gurps.house import (
    HOUSE_DEATH_RULE_DECIDED,
    HOUSE_DEATH_RULES,
    CombatantKind,
    DeathLine,
    death_rule,
    house_death_checks,
    is_out_of_the_fight,
    out_of_the_fight_at,
)
from gurps.injury import (
    DEATH_CHECK_EVERY_HP,
    HP_THRESHOLDS,
    SHOCK_AFFECTS_ACTIVE_DEFENCES,
    HitLocation,
    KnockoutCheck,
    MajorWound,
    body_may_be_destroyed,
    death_checks_crossed,
    hp_thresholds,
    is_dead,
    is_major_wound,
    is_stunned_by_brain_blow,
    knockout_check,
    major_wound,
    shock_penalty,
    turn_start_ht_roll,
)
from tests.gurps.helpers import canon_section, canon_table

PROPERTY = settings(database=None, deadline=None)
hts = st.integers(min_value=1, max_value=30)
hps = st.integers(min_value=-400, max_value=30)


def _ht_multiple(label: str) -> tuple[int, int]:
    """(fixed, HT multiple) of a ladder row as the canon writes it."""
    if match := re.fullmatch(r"−(\d+) × HT", label):
        return 0, -int(match[1])
    if label == "−HT":
        return 0, -1
    if label == "0 ou menos":
        return 0, 0
    numbers = [int(n) for n in re.findall(r"\d+", label)]
    assert label == "3, 2 ou 1" and numbers == [3, 2, 1], label
    return max(numbers), 0


def test_the_hp_ladder_is_the_canons_table_row_by_row() -> None:
    rows = canon_table("## 5.4 Os limiares de PV")
    assert len(rows) == len(HP_THRESHOLDS)
    for (label, effect), row in zip(rows, HP_THRESHOLDS, strict=True):
        assert label == row.label
        assert _ht_multiple(label) == (row.fixed, row.ht_multiple), label
        pages = re.findall(r"\(pág\. ([^)]+)\)", effect)
        assert pages[-1] == row.page, label
        assert row.section == "5.4"


def test_the_canons_worked_ladder_for_ht_12_is_the_engines() -> None:
    text = canon_section("## 5.4 Os limiares de PV")
    sentence = re.search(
        r"Para HT (\d+): cambaleia em (\d+) PV, arrisca desmaiar em (\d+), "
        r"arrisca morrer em (−\d+), testa de novo em ([−\d, ]+), e morre sem "
        r"teste em (−\d+)\.",
        text,
    )
    assert sentence, "the canon's HT 12 example moved"
    ladder = hp_thresholds(int(sentence[1]))
    assert ladder.staggered_at_or_below == int(sentence[2])
    assert ladder.ht_roll_each_turn_at_or_below == int(sentence[3])
    again = [int(n.replace("−", "-")) for n in sentence[5].split(", ")]
    first = int(sentence[4].replace("−", "-"))
    assert ladder.death_checks_at[: 1 + len(again)] == (first, *again)
    assert ladder.dead_at == int(sentence[6].replace("−", "-"))


def test_a_new_death_check_comes_every_5_hp_as_the_canon_says() -> None:
    text = canon_section("## 5.4 Os limiares de PV")
    assert f"Novo teste a cada {DEATH_CHECK_EVERY_HP} PV perdidos" in text


def test_hp_thresholds_for_ht_12() -> None:
    ladder = hp_thresholds(12)
    assert ladder.death_checks_at == (-12, -17, -22, -27, -32, -37, -42, -47, -52, -57)
    assert (ladder.dead_at, ladder.body_may_be_destroyed_at) == (-60, -120)


def test_a_death_check_line_on_minus_5_ht_is_death_not_a_check() -> None:
    assert hp_thresholds(10).death_checks_at == (-10, -15, -20, -25, -30, -35, -40, -45)
    assert hp_thresholds(10).dead_at == -50


def test_hp_thresholds_refuse_ht_0() -> None:
    with pytest.raises(InvalidValue) as caught:
        hp_thresholds(0)
    assert (caught.value.field, caught.value.message) == ("ht", HT_TOO_LOW)


@pytest.mark.parametrize(
    ("hp_before", "hp_after", "checks"),
    [
        (5, -11, 0),  # not yet at −HT
        (5, -12, 1),  # reaches −HT
        (-11, -17, 2),  # a blow of 6 crossing two bands: two checks
        (-12, -16, 0),  # −12 already checked; −17 not reached
        (-12, -17, 1),
        (-16, -21, 1),  # 5 HP, one line
        (-16, -22, 2),  # 6 HP reaching −17 and −22: two checks
        (-18, -24, 1),  # 6 HP, but only −22 in between
        (-11, -28, 4),  # −12, −17, −22, −27
        (0, -70, 10),  # every line down to −57; death itself is automatic
        (-20, -20, 0),  # no damage, no check
    ],
)
def test_death_checks_crossed_counts_each_line_reached(
    hp_before: int, hp_after: int, checks: int
) -> None:
    assert death_checks_crossed(12, hp_before, hp_after) == checks


def test_death_checks_refuse_a_blow_that_heals() -> None:
    with pytest.raises(InvalidValue) as caught:
        death_checks_crossed(12, -5, -3)
    assert (caught.value.field, caught.value.message) == ("hp_after", HP_AFTER_ABOVE_HP_BEFORE)


def test_death_is_automatic_at_minus_5_times_ht() -> None:
    assert not is_dead(14, -69)
    assert is_dead(14, -70)
    assert not body_may_be_destroyed(14, -139)
    assert body_may_be_destroyed(14, -140)


def test_the_turn_start_roll_adds_strong_will_and_subtracts_weak_will() -> None:
    assert turn_start_ht_roll(12, 1) is None
    assert turn_start_ht_roll(12, 0) == 12
    assert turn_start_ht_roll(12, -5, strong_will=2) == 14
    assert turn_start_ht_roll(12, -5, weak_will=3) == 9


def test_the_turn_start_roll_refuses_negative_will_levels() -> None:
    with pytest.raises(InvalidValue) as caught:
        turn_start_ht_roll(12, 0, strong_will=-1)
    assert (caught.value.field, caught.value.message) == ("strong_will", NEGATIVE_WILL_LEVEL)


def test_shock_is_minus_the_hp_lost_and_spares_the_active_defences() -> None:
    assert shock_penalty(3) == -3
    assert shock_penalty(0) == 0
    assert SHOCK_AFFECTS_ACTIVE_DEFENCES is False


def test_shock_refuses_negative_hp_lost() -> None:
    with pytest.raises(InvalidValue) as caught:
        shock_penalty(-1)
    assert (caught.value.field, caught.value.message) == ("hp_lost", NEGATIVE_HP_LOST)


@pytest.mark.parametrize(
    ("ht", "hp_lost", "major"), [(12, 6, False), (12, 7, True), (11, 5, False), (11, 6, True)]
)
def test_a_major_wound_is_more_than_half_ht_in_one_blow(ht: int, hp_lost: int, major: bool) -> None:
    assert is_major_wound(ht, hp_lost) is major


def test_a_major_wound_stuns_either_way_and_knocks_down_on_a_failed_roll() -> None:
    assert major_wound(True) == MajorWound(stunned=True, knocked_down=False)
    assert major_wound(False) == MajorWound(stunned=True, knocked_down=True)


def test_a_brain_blow_of_more_than_a_third_of_ht_stuns() -> None:
    assert not is_stunned_by_brain_blow(12, 4)
    assert is_stunned_by_brain_blow(12, 5)


@pytest.mark.parametrize(
    ("hp_lost", "location", "damage_type", "check"),
    [
        (0, "head", "cut", KnockoutCheck.HT_ROLL),  # even if the DR absorbed it all
        (6, "brain", "imp", KnockoutCheck.HT_ROLL),
        (7, "brain", "imp", KnockoutCheck.AUTOMATIC),
        (3, "vitals", "cr", KnockoutCheck.HT_ROLL),
        (3, "vitals", "imp", KnockoutCheck.NONE),
        (9, "torso", "cr", KnockoutCheck.NONE),
        (9, "leg", "cut", KnockoutCheck.NONE),
    ],
)
def test_knockout_check(
    hp_lost: int, location: str, damage_type: str, check: KnockoutCheck
) -> None:
    assert knockout_check(12, hp_lost, location, damage_type) is check


def test_a_blow_to_the_eyes_is_outside_the_canon_for_knockout() -> None:
    with pytest.raises(OutsideCanon) as caught:
        knockout_check(12, 3, HitLocation.EYES, DamageType.IMPALING)
    assert (caught.value.rule, caught.value.message) == ("5.3", EYES_KNOCKOUT_OUTSIDE_CANON)


def test_knockout_refuses_an_unknown_location() -> None:
    with pytest.raises(InvalidValue) as caught:
        knockout_check(12, 3, "tail", "cr")
    assert (caught.value.field, caught.value.message) == ("location", UNKNOWN_HIT_LOCATION)


# --- §5.4.1, the house rule (gurps.house) -------------------------------------------------------


def test_the_house_death_rule_is_the_canons_table_row_by_row() -> None:
    lines = {"0 PV": DeathLine.ZERO, "−HT": DeathLine.MINUS_HT}
    rows = canon_table("## 5.4.1 Quem morre quando — regra de casa")
    assert len(rows) == len(HOUSE_DEATH_RULES)
    for (who, dies_at, checks), rule in zip(rows, HOUSE_DEATH_RULES, strict=True):
        assert who == rule.who
        expected = DeathLine.FULL_LADDER if dies_at.startswith("escada completa") else None
        assert (lines.get(dies_at) or expected) is rule.dies_at, who
        assert rule.death_checks is {"Todos.": True}.get(checks, False), who
        assert checks.startswith("Nenhum") is not rule.death_checks, who
        assert (rule.section, rule.decided) == ("5.4.1", HOUSE_DEATH_RULE_DECIDED)


def test_the_house_rule_was_fixed_on_the_date_the_canon_gives() -> None:
    text = canon_section("## 5.4.1 Quem morre quando — regra de casa")
    assert f"Fixado em {HOUSE_DEATH_RULE_DECIDED}." in text


@pytest.mark.parametrize(
    ("kind", "out_at"),
    [
        (CombatantKind.CREATURE, 0),
        (CombatantKind.NAMED_NPC, -12),
        (CombatantKind.BOSS, -12),
        (CombatantKind.PLAYER_CHARACTER, -60),
    ],
)
def test_who_dies_when(kind: CombatantKind, out_at: int) -> None:
    assert out_of_the_fight_at(kind, 12) == out_at
    assert is_out_of_the_fight(kind, 12, out_at)
    assert not is_out_of_the_fight(kind, 12, out_at + 1)


def test_only_player_characters_make_death_checks() -> None:
    assert house_death_checks("player_character", 12, -11, -17) == 2
    for kind in ("creature", "named_npc", "boss"):
        assert house_death_checks(kind, 12, -11, -17) == 0
    assert death_rule("boss").who == "NPC nomeado e chefe de encontro"


def test_the_house_rule_refuses_an_unknown_kind() -> None:
    with pytest.raises(InvalidValue) as caught:
        death_rule("minion")
    assert (caught.value.field, caught.value.message) == ("kind", UNKNOWN_COMBATANT_KIND)


# --- properties ---------------------------------------------------------------------------------


@PROPERTY
@given(st.integers(min_value=-50, max_value=200))
def test_hp_lost_is_never_negative(hp_lost: int) -> None:
    if hp_lost < 0:
        with pytest.raises(InvalidValue):
            shock_penalty(hp_lost)
        with pytest.raises(InvalidValue):
            is_major_wound(12, hp_lost)
    else:
        assert shock_penalty(hp_lost) == -hp_lost <= 0


@PROPERTY
@given(hts, hps, st.integers(min_value=0, max_value=300), st.integers(min_value=0, max_value=50))
def test_death_checks_are_never_negative_and_never_fall_as_damage_rises(
    ht: int, hp_before: int, damage: int, more: int
) -> None:
    fewer = death_checks_crossed(ht, hp_before, hp_before - damage)
    assert fewer >= 0
    assert death_checks_crossed(ht, hp_before, hp_before - damage - more) >= fewer


@PROPERTY
@given(hts, hps, st.integers(min_value=0, max_value=300), st.sampled_from(list(CombatantKind)))
def test_the_house_rule_never_asks_more_checks_than_the_book(
    ht: int, hp_before: int, damage: int, kind: CombatantKind
) -> None:
    book = death_checks_crossed(ht, hp_before, hp_before - damage)
    assert 0 <= house_death_checks(kind, ht, hp_before, hp_before - damage) <= book
