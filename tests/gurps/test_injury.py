"""Injury (gurps.injury, canon §5.1–5.6 and the unseen target of §5e) and the house rule on
who dies when (gurps.house, §5.4.1)."""

from __future__ import annotations

import math
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps.checks import Outcome
from gurps.damage import DamageType
from gurps.errors import (
    ARM_SIDE_REQUIRED,
    EYES_CRIPPLING_OUTSIDE_CANON,
    EYES_KNOCKOUT_OUTSIDE_CANON,
    HP_AFTER_ABOVE_HP_BEFORE,
    HT_TOO_LOW,
    NEGATIVE_HP_LOST,
    NEGATIVE_SKILL,
    NEGATIVE_WILL_LEVEL,
    NOT_AN_INTEGER,
    PHYSICIAN_WEEKLY_OUTSIDE_CANON,
    UNKNOWN_ARM_SIDE,
    UNKNOWN_COMBATANT_KIND,
    UNKNOWN_HIT_LOCATION,
    UNKNOWN_OUTCOME,
    UNKNOWN_STUN_KIND,
    UNKNOWN_TARGET_CONDITION,
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
    ARM_PENALTIES,
    BANDAGE_HP,
    CRIPPLING_RULES,
    DEATH_CHECK_EVERY_HP,
    FIRST_AID_CRITICAL_FAILURE_HP,
    FIRST_AID_DICE,
    FIRST_AID_MINIMUM_HP,
    FIRST_AID_TECH_LEVEL,
    HP_THRESHOLDS,
    NATURAL_HEALING_HP,
    PHYSICIAN_HEALING_BONUS,
    PHYSICIAN_MINIMUM_MEDICINE,
    PHYSICIAN_WEEKLY_HP,
    RECOVERY_MEANS,
    SHOCK_AFFECTS_ACTIVE_DEFENCES,
    STUN_SOURCES,
    UNAWARE_TARGET_HAS_ACTIVE_DEFENCE,
    ArmSide,
    HitLocation,
    InstantDeath,
    KnockoutCheck,
    MajorWound,
    StunCause,
    StunKind,
    TargetCondition,
    bandage,
    body_may_be_destroyed,
    crippling_effects,
    crippling_threshold,
    death_checks_crossed,
    first_aid,
    hit_location_penalty,
    hp_thresholds,
    instant_death,
    is_crippled,
    is_dead,
    is_major_wound,
    is_stunned_by_brain_blow,
    knockout_check,
    limb_hp_lost,
    major_wound,
    natural_healing,
    natural_healing_level,
    physician_healing_bonus,
    physician_weekly,
    shock_penalty,
    stun_causes,
    stun_recovery_level,
    turn_start_ht_roll,
    unaware_target_modifiers,
    wound_attack_penalty,
)
from gurps.readings import READINGS_BY_KEY
from tests.gurps.helpers import ScriptedSource, canon_section, canon_table

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


# --- §5.1 the attack penalty of a wound -------------------------------------------------------


def test_the_attack_penalty_is_the_hp_lost_last_round_with_its_wounds_added() -> None:
    text = canon_section("## 5.1 Choque")
    assert "PV perdidos na rodada anterior" in text and "ferimentos da mesma rodada somam" in text
    assert wound_attack_penalty([2, 3]) == -5
    assert wound_attack_penalty([]) == 0


def test_the_attack_penalty_refuses_a_negative_wound() -> None:
    with pytest.raises(InvalidValue) as caught:
        wound_attack_penalty([3, -1])
    assert (caught.value.field, caught.value.message) == ("hp_lost", NEGATIVE_HP_LOST)


# --- §5.2 what stuns, and how one leaves it --------------------------------------------------


STUN_TEXT = canon_section("## 5.2 Prostração e atordoamento")


def test_every_stun_source_is_in_the_canons_words() -> None:
    flat = STUN_TEXT.replace("**", "").lower()
    for row in STUN_SOURCES:
        assert all(word in flat for word in row.words.lower().split()), row.words
        assert (row.section, row.page) == ("5.2", "127")


def test_a_mental_stun_is_left_with_iq_and_a_physical_one_with_basic_ht() -> None:
    assert "teste de **IQ**, não de HT" in STUN_TEXT
    assert "teste de **HT básico**" in STUN_TEXT
    assert stun_recovery_level(StunKind.PHYSICAL, ht=12, iq=9) == 12
    assert stun_recovery_level("mental", ht=12, iq=9) == 9


def test_stun_recovery_needs_the_attribute_of_its_kind() -> None:
    with pytest.raises(InvalidValue) as caught:
        stun_recovery_level(StunKind.MENTAL, ht=12)
    assert (caught.value.field, caught.value.message) == ("iq", NOT_AN_INTEGER)
    with pytest.raises(InvalidValue) as caught:
        stun_recovery_level("dazed", ht=12)
    assert (caught.value.field, caught.value.message) == ("kind", UNKNOWN_STUN_KIND)


@pytest.mark.parametrize(
    ("hp_lost", "options", "causes"),
    [
        (6, {}, ()),
        (7, {}, (StunCause.MAJOR_WOUND,)),
        (1, {"critical_hit_received": True}, (StunCause.CRITICAL_HIT_RECEIVED,)),
        (4, {"location": "brain"}, ()),
        (5, {"location": "brain"}, (StunCause.BRAIN_BLOW,)),
        (5, {"location": "head"}, ()),
        (6, {"location": "arm", "crippled": True}, (StunCause.CRIPPLING_INJURY,)),
        (2, {"location": "eyes", "blinded": True}, (StunCause.BLINDING_INJURY,)),
        (
            7,
            {"location": "brain", "critical_hit_received": True},
            (StunCause.MAJOR_WOUND, StunCause.CRITICAL_HIT_RECEIVED, StunCause.BRAIN_BLOW),
        ),
    ],
)
def test_what_stuns_a_victim_of_ht_12(hp_lost: int, options: dict, causes: tuple) -> None:
    assert stun_causes(12, hp_lost, **options) == causes


# --- §5.4 the ladder as a table, instant death, the unseen target -----------------------------


def test_the_ladders_effects_are_the_canons_cells() -> None:
    rows = canon_table("## 5.4 Os limiares de PV")
    for (_label, effect), row in zip(rows, HP_THRESHOLDS, strict=True):
        assert effect == f"{row.effect} (pág. {row.page})"


@pytest.mark.parametrize(
    ("condition", "options", "death"),
    [
        (
            TargetCondition.HELPLESS,
            {"clearly_lethal": True},
            InstantDeath.LETHAL_ATTACK_ON_HELPLESS,
        ),
        ("unconscious", {"clearly_lethal": True}, InstantDeath.LETHAL_ATTACK_ON_HELPLESS),
        (TargetCondition.UNCONSCIOUS, {}, None),
        (TargetCondition.UNAWARE, {"clearly_lethal": True}, None),  # the sentry
        (TargetCondition.STUNNED, {"clearly_lethal": True}, None),  # still defends, at −4
        (TargetCondition.ACTIVE, {"decapitation": True}, InstantDeath.DECAPITATION),
        (TargetCondition.ACTIVE, {"throat_cut": True}, InstantDeath.THROAT_CUT),
    ],
)
def test_instant_death(condition, options: dict, death: InstantDeath | None) -> None:
    assert instant_death(condition, **options) is death


def test_instant_death_refuses_an_unknown_condition() -> None:
    with pytest.raises(InvalidValue) as caught:
        instant_death("asleep", clearly_lethal=True)
    assert (caught.value.field, caught.value.message) == ("condition", UNKNOWN_TARGET_CONDITION)


def test_the_unseen_target_is_the_canons_line_in_both_places() -> None:
    for heading in ("## 5.4 Os limiares de PV", "# 5e. Surpresa"):
        text = canon_section(heading).replace("**", "")
        bonus = re.search(r"([+−]\d+) (?:para acertar|por ela estar parada)", text)[1]
        assert "sem defesa ativa" in text or "não tem defesa ativa" in text
        hit, location = unaware_target_modifiers()
        assert hit.value == int(bonus.replace("−", "-"))
    vital = re.search(r"órgão vital a ([−+]\d+)", canon_section("# 5e. Surpresa").replace("**", ""))
    assert location.value == int(vital[1].replace("−", "-"))
    assert UNAWARE_TARGET_HAS_ACTIVE_DEFENCE is False


# --- §5.5 where to hit, and crippling ---------------------------------------------------------

CRIPPLING_TEXT = canon_section("## 5.5 Lesões incapacitantes").replace("**", "")


def _canon_location_penalties() -> dict[str, list[int]]:
    sentence = re.search(r"\(pág\. 203\): (.*?)\. Órgãos vitais recebem", CRIPPLING_TEXT)[1]
    found = {}
    for item in sentence.split(", "):
        name = re.match(r"\D+?(?= [−0])", item)[0]
        found[name] = [int(n.replace("−", "-")) for n in re.findall(r"−\d+|\b0\b", item)]
    return found


def test_every_location_has_the_canons_penalty() -> None:
    printed = _canon_location_penalties()
    assert list(printed) == [location.label for location in HitLocation]
    for location in HitLocation:
        if location is HitLocation.ARM:
            assert sorted(printed["braço"]) == sorted(ARM_PENALTIES.values())
            assert "conforme o lado" in CRIPPLING_TEXT
        else:
            assert printed[location.label] == [location.penalty]
            assert hit_location_penalty(location) == location.penalty


def test_the_weapon_arm_is_minus_2_and_the_other_minus_4_by_reading() -> None:
    assert hit_location_penalty("arm", arm_side=ArmSide.WEAPON) == -2
    assert hit_location_penalty("arm", arm_side="other") == -4
    assert "arm_penalty_by_side" in READINGS_BY_KEY


def test_an_arm_needs_its_side() -> None:
    with pytest.raises(InvalidValue) as caught:
        hit_location_penalty(HitLocation.ARM)
    assert (caught.value.field, caught.value.message) == ("arm_side", ARM_SIDE_REQUIRED)
    with pytest.raises(InvalidValue) as caught:
        hit_location_penalty(HitLocation.ARM, arm_side="left")
    assert (caught.value.field, caught.value.message) == ("arm_side", UNKNOWN_ARM_SIDE)


def test_hit_locations_keep_their_values() -> None:
    assert HitLocation("vitals") is HitLocation.VITALS
    assert HitLocation.TORSO == "torso"


def test_the_crippling_rules_are_the_canons_table() -> None:
    names = {location.label: location for location in HitLocation}
    rows = canon_table("## 5.5 Lesões incapacitantes")
    assert len(rows) == len(CRIPPLING_RULES)
    for (limb, threshold), rule in zip(rows, CRIPPLING_RULES, strict=True):
        printed = {names[word.lower()] for word in limb.split(" ou ")}
        assert printed == set(rule.locations)
        denominator = re.fullmatch(r"dano ≥ HT/(\d)", threshold)[1]
        assert rule.ht_fraction == Fraction(1, int(denominator))


@pytest.mark.parametrize(
    ("ht", "location", "hp_lost", "crippled"),
    [
        (10, "hand", 3, False),  # 10/3 = 3,33…: 3 does not reach it
        (10, "hand", 4, True),
        (12, "foot", 4, True),  # exactly HT/3
        (12, "foot", 3, False),
        (11, "arm", 5, False),  # 11/2 = 5,5
        (11, "leg", 6, True),
        (12, "arm", 6, True),  # exactly HT/2
        (12, "torso", 40, False),  # not a limb
    ],
)
def test_a_limb_is_crippled_when_the_damage_reaches_the_exact_fraction(
    ht: int, location: str, hp_lost: int, crippled: bool
) -> None:
    assert is_crippled(ht, location, hp_lost) is crippled


def test_the_threshold_is_exact_and_only_for_limbs() -> None:
    assert crippling_threshold(10, "hand") == Fraction(10, 3)
    assert crippling_threshold(10, "vitals") is None


def test_damage_beyond_crippling_is_lost_in_one_blow_or_a_series() -> None:
    assert "é perdido, num golpe ou numa série" in CRIPPLING_TEXT
    assert limb_hp_lost(12, "hand", 9) == 4
    assert limb_hp_lost(12, "hand", 5, limb_hp_lost_before=2) == 2
    assert limb_hp_lost(12, "hand", 5, limb_hp_lost_before=4) == 0
    assert limb_hp_lost(12, "arm", 3) == 3
    assert limb_hp_lost(12, "torso", 9) == 9


def test_the_eyes_have_no_crippling_number_in_the_canon() -> None:
    with pytest.raises(OutsideCanon) as caught:
        limb_hp_lost(12, "eyes", 3)
    assert (caught.value.rule, caught.value.message) == ("5.5", EYES_CRIPPLING_OUTSIDE_CANON)


def test_what_a_crippled_limb_does() -> None:
    assert "Mão incapacitada larga o que segurava" in CRIPPLING_TEXT
    assert "Perna incapacitada derruba a vítima" in CRIPPLING_TEXT
    hand, leg = crippling_effects("hand"), crippling_effects(HitLocation.LEG)
    assert (hand.drops_what_it_holds, hand.knocked_down) == (True, False)
    assert (leg.drops_what_it_holds, leg.knocked_down) == (False, True)
    assert hand.stunned and hand.lasts_until_end_of_fight
    with pytest.raises(InvalidValue) as caught:
        crippling_effects("torso")
    assert caught.value.field == "location"


# --- §5.6 recovery --------------------------------------------------------------------------------

RECOVERY_ROWS = canon_table("## 5.6 Recuperação")


def test_the_recovery_numbers_are_in_the_canons_cells() -> None:
    bandage_row, aid_row, natural_row, physician_row = (row[1] for row in RECOVERY_ROWS)
    assert bandage_row.startswith(f"{BANDAGE_HP} PV, e nunca mais")
    assert aid_row.startswith(f"{FIRST_AID_DICE.display} PV, mínimo {FIRST_AID_MINIMUM_HP}.")
    assert f"Falha crítica: −{-FIRST_AID_CRITICAL_FAILURE_HP} PV" in aid_row
    assert f"Passou: {NATURAL_HEALING_HP} PV." in natural_row
    assert RECOVERY_ROWS[3][0] == f"Médico com NH {PHYSICIAN_MINIMUM_MEDICINE}+ em Medicina"
    assert physician_row.startswith(f"+{PHYSICIAN_HEALING_BONUS} nos testes de cura")
    weekly = re.search(
        r"sucesso dá (\d) PV extra, decisivo dá (\d), falha crítica custa (\d) PV", physician_row
    )
    assert (
        PHYSICIAN_WEEKLY_HP[Outcome.SUCCESS],
        PHYSICIAN_WEEKLY_HP[Outcome.CRITICAL_SUCCESS],
        -PHYSICIAN_WEEKLY_HP[Outcome.CRITICAL_FAILURE],
    ) == tuple(int(n) for n in weekly.groups())
    assert [row.section for row in RECOVERY_MEANS] == ["5.6"] * 4


def test_first_aid_is_at_the_canons_tech_level_of_section_9() -> None:
    assert RECOVERY_ROWS[1][0] == f"Primeiros Socorros, NT {FIRST_AID_TECH_LEVEL}"
    assert f"**NT {FIRST_AID_TECH_LEVEL}**" in canon_section("# 9. Divergências abertas")


def test_a_bandage_gives_1_hp_and_never_more() -> None:
    assert (bandage(5), bandage(1), bandage(0)) == (1, 1, 0)
    assert bandage(5, first_aid_given=True) == 0


@pytest.mark.parametrize(
    ("outcome", "faces", "bandaged", "hp_lost", "change", "spoiled"),
    [
        (Outcome.SUCCESS, [6], False, 8, 3, False),  # 1d−3
        (Outcome.SUCCESS, [2], False, 8, 1, False),  # minimum 1
        (Outcome.SUCCESS, [6], True, 8, 2, False),  # the bandage already gave 1
        (Outcome.SUCCESS, [3], True, 8, 0, False),
        (Outcome.SUCCESS, [6], False, 2, 2, False),  # never more than was lost
        (Outcome.CRITICAL_SUCCESS, [], False, 7, 7, False),  # every HP
        (Outcome.FAILURE, [], False, 7, 0, False),
        (Outcome.CRITICAL_FAILURE, [], False, 7, -2, True),
    ],
)
def test_first_aid(outcome, faces, bandaged, hp_lost, change, spoiled) -> None:
    source = ScriptedSource(faces)
    result = first_aid(outcome, source, hp_lost=hp_lost, bandaged=bandaged)
    assert (result.hp_change, result.bandages_spoiled) == (change, spoiled)
    assert source.values == []  # the die is rolled only when it counts


def test_first_aid_refuses_an_unknown_outcome_and_negative_hp() -> None:
    with pytest.raises(InvalidValue) as caught:
        first_aid("great", ScriptedSource([]), hp_lost=3)
    assert (caught.value.field, caught.value.message) == ("outcome", UNKNOWN_OUTCOME)
    with pytest.raises(InvalidValue) as caught:
        first_aid(Outcome.SUCCESS, ScriptedSource([]), hp_lost=-1)
    assert (caught.value.field, caught.value.message) == ("hp_lost", NEGATIVE_HP_LOST)


def test_natural_healing_is_an_ht_roll_a_day_plus_1_under_a_good_physician() -> None:
    assert natural_healing_level(11) == 11
    assert natural_healing_level(11, physician_medicine=12) == 12
    assert natural_healing_level(11, physician_medicine=11) == 11
    assert (natural_healing(Outcome.SUCCESS), natural_healing("failure")) == (1, 0)
    assert natural_healing(Outcome.CRITICAL_FAILURE) == 0


def test_the_physicians_weekly_roll() -> None:
    assert physician_weekly(Outcome.SUCCESS, medicine_level=12) == 1
    assert physician_weekly(Outcome.CRITICAL_SUCCESS, medicine_level=14) == 2
    assert physician_weekly(Outcome.CRITICAL_FAILURE, medicine_level=12) == -1
    assert physician_weekly(Outcome.FAILURE, medicine_level=12) == 0


def test_the_weekly_roll_below_medicine_12_is_outside_the_canon() -> None:
    with pytest.raises(OutsideCanon) as caught:
        physician_weekly(Outcome.SUCCESS, medicine_level=11)
    assert (caught.value.rule, caught.value.message) == ("5.6", PHYSICIAN_WEEKLY_OUTSIDE_CANON)
    with pytest.raises(InvalidValue) as caught:
        physician_healing_bonus(-1)
    assert (caught.value.field, caught.value.message) == ("physician_medicine", NEGATIVE_SKILL)


# --- properties of §5.5 and §5.6 ---------------------------------------------------------------

limbs = st.sampled_from([HitLocation.HAND, HitLocation.FOOT, HitLocation.ARM, HitLocation.LEG])


@PROPERTY
@given(hts, limbs, st.integers(min_value=0, max_value=100), st.integers(min_value=0, max_value=40))
def test_a_limb_never_takes_more_than_its_crippling_threshold(
    ht: int, location: HitLocation, hp_lost: int, before: int
) -> None:
    threshold = crippling_threshold(ht, location)
    taken = limb_hp_lost(ht, location, hp_lost, limb_hp_lost_before=before)
    assert 0 <= taken <= hp_lost
    assert before + taken <= max(before, math.ceil(threshold))
    assert before + taken < threshold + 1 or taken == 0
    if taken < hp_lost:  # something was lost: the limb is crippled
        assert is_crippled(ht, location, before + taken)


@PROPERTY
@given(
    st.sampled_from(list(Outcome)),
    st.integers(min_value=1, max_value=6),
    st.booleans(),
    st.integers(min_value=0, max_value=60),
)
def test_first_aid_never_heals_more_than_was_lost(
    outcome: Outcome, face: int, bandaged: bool, hp_lost: int
) -> None:
    change = first_aid(outcome, ScriptedSource([face]), hp_lost=hp_lost, bandaged=bandaged)
    assert FIRST_AID_CRITICAL_FAILURE_HP <= change.hp_change <= hp_lost


def test_hp_lost_after_adds_a_loss_and_never_recovers_past_full():
    from gurps.injury import hp_lost_after

    assert hp_lost_after(3, -2) == 5
    assert hp_lost_after(3, 2) == 1
    assert hp_lost_after(3, 5) == 0  # §5.6: what comes back is what was lost
    assert hp_lost_after(0, -15) == 15  # below 0 HP: the §5.4 ladder, the Mestre's rolls


@pytest.mark.parametrize("change", [1.5, "1", True])
def test_hp_lost_after_refuses_a_change_that_is_not_an_integer(change):
    from gurps.errors import InvalidValue
    from gurps.injury import hp_lost_after

    with pytest.raises(InvalidValue):
        hp_lost_after(3, change)
