"""The tables rolled on 3d (gurps.tables; canon §4.8, §4.15, §5b)."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps.checks import NoRollAtThreeOrLess
from gurps.dice import parse_dice
from gurps.errors import (
    CRITICAL_HIT_TO_THE_HEAD,
    FRIGHT_MARGIN_REQUIRED,
    HEAD_TABLE_ONLY_FOR_THE_HEAD,
    REROLL_ONLY_SPELL_FAILURE,
    TABLE_OPTION_NOT_BOOLEAN,
    UNARMED_HAS_NO_WEAPON,
    UNKNOWN_DAMAGE_TYPE,
    UNKNOWN_HIT_LOCATION,
    UNKNOWN_TABLE,
    UNKNOWN_TABLE_OPTION,
    InvalidValue,
)
from gurps.house import CRITICAL_HIT_TREATMENT, HOUSE_SETTINGS, CriticalHitTreatment
from gurps.injury import HitLocation
from gurps.readings import READINGS_BY_KEY
from gurps.tables import (
    BASIC_DAMAGE_MULTIPLIERS,
    CANON_TABLES,
    CRITICAL_HEAD,
    CRITICAL_HIT,
    CRITICAL_MISS,
    DEMON_ROW,
    DOUBLE_AND_TRIPLE_TEXT,
    FRIGHT_CHECK,
    IMPALING_FLIES_USES_ROW,
    LIMBS,
    LOSES_BALANCE_DEFENCE_PENALTY,
    RANGED_FALL_USES_ROW,
    SHOULDER_STRAINED_MINUTES,
    SPELL_CRITICAL_FAILURE,
    TABLE_TITLES,
    TABLES,
    UNARMED_DAMAGE,
    UNARMED_TEXT,
    UNBREAKABLE_WEAPONS_TEXT,
    WEAPON_FLIES_METRES,
    WEAPON_TURNS_EXTRA_READY_TURNS,
    HeadEffect,
    HitEffect,
    MissEffect,
    TableRoll,
    fright_check,
    reroll_spell_critical_failure,
    roll_on_table,
)
from tests.gurps.helpers import CANON_PATH, ScriptedSource, canon_section, canon_table

PROPERTY = settings(database=None, deadline=None)
KEYS = ("critical_miss", "critical_hit", "critical_head", "spell_critical_failure", "fright_check")
MISS_HEADING = "### Tabela de Erros Críticos"
HIT_HEADING = "### Tabela de Golpes Fulminantes (MB pág. 202)"
HEAD_HEADING = "### Tabela de Golpes Fulminantes na Cabeça (MB pág. 202)"
SPELL_HEADING = "## 4.15 Falha crítica em operação mágica"
FRIGHT_HEADING = "# 5b. Verificação de Pânico"


def faces(total: int) -> list[int]:
    """Three d6 faces that add up to ``total`` (3..18)."""
    first = min(6, total - 2)
    second = min(6, total - first - 1)
    return [first, second, total - first - second]


def dice(*totals: int) -> ScriptedSource:
    """A source whose 3d rolls come out as ``totals``, in order."""
    return ScriptedSource([face for total in totals for face in faces(total)])


def plain(text: str) -> str:
    return " ".join(text.replace("**", "").split())


# --- The tables are the canon's ---------------------------------------------------------------


def test_there_are_the_five_tables_with_their_titles() -> None:
    assert tuple(TABLES) == KEYS
    assert set(TABLE_TITLES) == set(KEYS)
    headings = CANON_PATH.read_text(encoding="utf-8")
    for key, table in TABLES.items():
        assert TABLE_TITLES[key] == table.title
        assert table.title.lower() in table.heading.lower(), key
        assert table.heading in headings.splitlines()
    assert {table.key for table in CANON_TABLES} == {*KEYS, "attack_criticals"}


@pytest.mark.parametrize(
    ("table", "heading"),
    [
        (CRITICAL_MISS, MISS_HEADING),
        (CRITICAL_HIT, HIT_HEADING),
        (CRITICAL_HEAD, HEAD_HEADING),
        (SPELL_CRITICAL_FAILURE, SPELL_HEADING),
        (FRIGHT_CHECK, FRIGHT_HEADING),
    ],
    ids=lambda value: getattr(value, "key", ""),
)
def test_each_label_is_built_from_the_rows_totals(table, heading) -> None:
    rows = canon_table(heading)
    assert [row.label for row in table.rows] == [label for label, _ in rows]
    for row, (label, _) in zip(table.rows, rows, strict=True):
        numbers = [int(n) for n in re.findall(r"\d+", label)]
        if " a " in label:
            numbers = list(range(numbers[0], numbers[1] + 1))
        assert list(row.rolls) == numbers, label
        assert row.open_ended == label.endswith("+")


def test_every_3d_total_falls_on_exactly_one_row_of_each_table() -> None:
    for table in (CRITICAL_MISS, CRITICAL_HIT, CRITICAL_HEAD, SPELL_CRITICAL_FAILURE):
        covered = [total for row in table.rows for total in row.rolls]
        assert covered == list(range(3, 19)), table.key
    covered = [total for row in FRIGHT_CHECK.rows for total in row.rolls]
    assert covered == list(range(4, 37))
    assert FRIGHT_CHECK.rows[-1].open_ended


@PROPERTY
@given(st.integers(min_value=3, max_value=18))
def test_a_3d_total_maps_to_one_row(total: int) -> None:
    for table in (CRITICAL_MISS, CRITICAL_HIT, CRITICAL_HEAD, SPELL_CRITICAL_FAILURE):
        assert sum(row.covers(total) for row in table.rows) == 1
        assert table.row_for(total).covers(total)


@PROPERTY
@given(st.integers(min_value=4, max_value=500))
def test_a_fright_total_maps_to_one_row(total: int) -> None:
    assert sum(row.covers(total) for row in FRIGHT_CHECK.rows) == 1


def test_rows_that_send_to_another_say_so_in_the_canon() -> None:
    for table in (CRITICAL_MISS, CRITICAL_HIT):
        for row in table.rows:
            said = re.search(r"Como o (\d+)", row.text)
            assert row.same_as == (int(said[1]) if said else None), row.label
    # "como o 9" of the 14 and "use o 7" of the 16 are exceptions, not references.
    assert CRITICAL_MISS.row_for(14).same_as is None


def test_the_numbers_the_code_applies_are_the_canons_words() -> None:
    seven, thirteen = CRITICAL_MISS.row_for(7).text, CRITICAL_MISS.row_for(13).text
    for text in (seven, thirteen):
        penalty = re.search(r"toda defesa ativa a −(\d+)", text)
        assert -int(penalty[1]) == LOSES_BALANCE_DEFENCE_PENALTY
    assert "Um turno extra" in CRITICAL_MISS.row_for(8).text and WEAPON_TURNS_EXTRA_READY_TURNS == 1
    flies = CRITICAL_MISS.row_for(14).text
    assert parse_dice(re.search(r"cai a (\w+) metros", flies)[1]) == WEAPON_FLIES_METRES
    assert int(re.search(r"como o (\d+)", flies)[1]) == IMPALING_FLIES_USES_ROW
    shoulder = CRITICAL_MISS.row_for(15).text
    assert (
        int(re.search(r"inutilizado por (\d+) minutos", shoulder)[1]) == SHOULDER_STRAINED_MINUTES
    )
    fall = CRITICAL_MISS.row_for(16).text
    assert int(re.search(r"use o (\d+) no lugar", fall)[1]) == RANGED_FALL_USES_ROW
    section = plain(canon_section(MISS_HEADING))
    assert UNARMED_TEXT in section
    assert parse_dice(UNARMED_TEXT.split()[0]) == UNARMED_DAMAGE
    assert UNBREAKABLE_WEAPONS_TEXT in CRITICAL_MISS.row_for(3).text


def test_the_critical_hit_multipliers_are_the_rows_words() -> None:
    words = {HitEffect.TRIPLE: "Triplo do dano.", HitEffect.DOUBLE: "Dobro do dano."}
    for row in CRITICAL_HIT.rows:
        if row.effect in BASIC_DAMAGE_MULTIPLIERS:
            assert row.text == words[row.effect], row.label
    assert BASIC_DAMAGE_MULTIPLIERS == {HitEffect.TRIPLE: 3, HitEffect.DOUBLE: 2}
    assert DOUBLE_AND_TRIPLE_TEXT in plain(canon_section(HIT_HEADING))
    assert "Braço, perna, mão ou pé" in CRITICAL_HIT.row_for(8).text
    assert set(LIMBS) == {HitLocation.ARM, HitLocation.LEG, HitLocation.HAND, HitLocation.FOOT}


def test_the_demon_row_is_the_one_with_the_exception() -> None:
    assert "rola-se de novo" in SPELL_CRITICAL_FAILURE.row_for(DEMON_ROW).text
    assert "demônio" in SPELL_CRITICAL_FAILURE.row_for(DEMON_ROW).text


def test_this_table_uses_the_critical_hit_table_and_never_maximum_damage() -> None:
    assert "esta mesa usa a Tabela de Golpes Fulminantes" in canon_section(
        "## 4.8 Golpe fulminante e erro crítico"
    )
    assert CRITICAL_HIT_TREATMENT is CriticalHitTreatment.TABLE
    assert all("máximo" not in row.text for row in CRITICAL_HIT.rows)
    roll = roll_on_table("critical_hit", dice(3), location="arm")
    assert roll.effect == HitEffect.TRIPLE  # the table's 3, not the book's maximum damage
    decided = HOUSE_SETTINGS["critical_hit_table"].decided
    assert {t.key: t.decided for t in CANON_TABLES}["critical_hit"] == decided


# --- Critical miss: the exceptions ------------------------------------------------------------


def test_an_unbreakable_weapon_that_rolls_3_then_10_takes_the_10() -> None:
    roll = roll_on_table("critical_miss", dice(3, 10), unbreakable=True)
    assert roll.rolls == (3, 10) and roll.total == 10
    assert roll.row is CRITICAL_MISS.row_for(10)
    assert roll.effect == MissEffect.DROPS_WEAPON
    assert roll.faces == (tuple(faces(3)), tuple(faces(10)))


@pytest.mark.parametrize("second", [3, 4, 17, 18])
def test_an_unbreakable_weapon_breaks_on_a_second_weapon_breaks(second: int) -> None:
    roll = roll_on_table("critical_miss", dice(3, second), unbreakable=True)
    assert roll.rolls == (3, second)
    assert roll.effect == MissEffect.WEAPON_BREAKS
    assert "outra vez" in roll.text


@pytest.mark.parametrize("total", [3, 4, 17, 18])
def test_an_ordinary_weapon_breaks_at_once(total: int) -> None:
    roll = roll_on_table("critical_miss", dice(total))
    assert roll.rolls == (total,) and roll.effect == MissEffect.WEAPON_BREAKS


def test_17_and_18_are_like_the_3_and_say_it() -> None:
    roll = roll_on_table("critical_miss", dice(18, 12), unbreakable=True)
    assert roll.rolls == (18, 12) and roll.effect == MissEffect.WEAPON_TURNS
    assert CRITICAL_MISS.row_for(3).text in roll_on_table("critical_miss", dice(17)).text


def test_an_impaling_attack_that_hits_itself_twice_hits_itself() -> None:
    roll = roll_on_table("critical_miss", dice(5, 5), impaling=True)
    assert roll.rolls == (5, 5) and roll.effect == MissEffect.HITS_YOURSELF
    assert "duas vezes" in roll.text


def test_a_ranged_attack_that_hits_itself_once_takes_the_new_result() -> None:
    roll = roll_on_table("critical_miss", dice(5, 10), ranged=True)
    assert roll.rolls == (5, 10) and roll.effect == MissEffect.DROPS_WEAPON
    assert "critical_miss_reroll_keeps_new" in roll.readings


def test_the_6_is_like_the_5_with_its_exception_and_half_damage() -> None:
    once = roll_on_table("critical_miss", dice(6), impaling=False)
    assert once.rolls == (6,) and once.effect == MissEffect.HITS_YOURSELF_HALF
    assert once.readings == ()
    twice = roll_on_table("critical_miss", dice(6, 6), impaling=True)
    assert twice.rolls == (6, 6) and twice.effect == MissEffect.HITS_YOURSELF_HALF
    assert "critical_miss_6_like_5" in twice.readings
    mixed = roll_on_table("critical_miss", dice(6, 5), ranged=True)
    assert mixed.effect == MissEffect.HITS_YOURSELF  # the damage of the row that came out


def test_a_plain_5_hits_yourself_with_no_reroll() -> None:
    roll = roll_on_table("critical_miss", dice(5))
    assert roll.rolls == (5,) and roll.effect == MissEffect.HITS_YOURSELF


def test_the_exceptions_chain_and_stop() -> None:
    # unbreakable and impaling: breaks → reroll; hits itself → reroll; breaks again → breaks
    roll = roll_on_table("critical_miss", dice(3, 5, 4), unbreakable=True, impaling=True)
    assert roll.rolls == (3, 5, 4) and roll.effect == MissEffect.WEAPON_BREAKS


@pytest.mark.parametrize("total", [3, 4, 8, 9, 10, 11, 12, 17, 18])
def test_unarmed_every_broken_dropped_or_turning_weapon_is_1d_minus_3_to_the_hand(
    total: int,
) -> None:
    roll = roll_on_table("critical_miss", dice(total), unarmed=True)
    assert roll.rolls == (total,)
    assert roll.effect == MissEffect.HAND_OR_FOOT_DAMAGE
    assert UNARMED_TEXT in roll.text


def test_unarmed_9_is_1d_minus_3_to_the_hand() -> None:
    roll = roll_on_table("critical_miss", dice(9), unarmed=True)
    assert roll.effect == MissEffect.HAND_OR_FOOT_DAMAGE
    assert roll.text.endswith(f"{UNARMED_TEXT}.")


@pytest.mark.parametrize(
    ("total", "effect"),
    [
        (5, MissEffect.HITS_YOURSELF),
        (7, MissEffect.LOSES_BALANCE),
        (15, MissEffect.SHOULDER_STRAINED),
        (16, MissEffect.FALLS),
    ],
)
def test_unarmed_other_results_stand(total: int, effect: MissEffect) -> None:
    assert roll_on_table("critical_miss", dice(total), unarmed=True).effect == effect


def test_unarmed_14_is_a_dropped_weapon_by_reading() -> None:
    roll = roll_on_table("critical_miss", dice(14), unarmed=True)
    assert roll.effect == MissEffect.HAND_OR_FOOT_DAMAGE
    assert roll.readings == ("critical_miss_unarmed_14",)


def test_a_cheap_weapon_breaks_when_dropped() -> None:
    assert roll_on_table("critical_miss", dice(10), cheap=True).effect == MissEffect.WEAPON_BREAKS
    assert roll_on_table("critical_miss", dice(10)).effect == MissEffect.DROPS_WEAPON


def test_an_impaling_14_only_drops_the_weapon_like_the_9() -> None:
    assert roll_on_table("critical_miss", dice(14)).effect == MissEffect.WEAPON_FLIES
    impaling = roll_on_table("critical_miss", dice(14), impaling=True)
    assert impaling.effect == MissEffect.DROPS_WEAPON and impaling.readings == ()
    cheap = roll_on_table("critical_miss", dice(14), impaling=True, cheap=True)
    assert cheap.effect == MissEffect.WEAPON_BREAKS
    assert cheap.readings == ("critical_miss_14_impaling_like_9",)


def test_with_a_ranged_weapon_the_16_is_the_7() -> None:
    roll = roll_on_table("critical_miss", dice(16), ranged=True)
    assert roll.row is CRITICAL_MISS.row_for(16)
    assert roll.effect == MissEffect.LOSES_BALANCE
    assert CRITICAL_MISS.row_for(7).text in roll.text


@pytest.mark.parametrize("option", ["unbreakable", "cheap", "ranged"])
def test_unarmed_has_no_weapon(option: str) -> None:
    with pytest.raises(InvalidValue) as caught:
        roll_on_table("critical_miss", dice(10), unarmed=True, **{option: True})
    assert (caught.value.field, caught.value.message) == (option, UNARMED_HAS_NO_WEAPON)


# --- Critical hit and head ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "location", "effect"),
    [
        (3, "torso", HitEffect.KNOCKOUT),
        (3, "arm", HitEffect.TRIPLE),
        (18, "torso", HitEffect.KNOCKOUT),
        (18, "leg", HitEffect.TRIPLE),
        (3, None, HitEffect.KNOCKOUT_OR_TRIPLE),
        (8, "hand", HitEffect.LIMB_CRIPPLED),
        (12, "foot", HitEffect.LIMB_CRIPPLED),
        (14, "arm", HitEffect.LIMB_CRIPPLED),
        (14, "torso", HitEffect.NORMAL),
        (12, None, HitEffect.LIMB_CRIPPLED_OR_NORMAL),
        (5, "torso", HitEffect.TRIPLE),
        (16, None, HitEffect.DOUBLE),
        (4, None, HitEffect.BYPASSES_ARMOUR),
        (15, "torso", HitEffect.OPPONENT_DROPS_WEAPON),
    ],
)
def test_the_critical_hit_row_by_location(total, location, effect) -> None:
    roll = roll_on_table("critical_hit", dice(total), location=location)
    assert roll.rolls == (total,) and roll.effect == effect
    assert roll.text.startswith(f"Saiu {total} ({roll.row.label}): {roll.row.text}")


def test_vitals_are_not_the_torso_by_reading() -> None:
    roll = roll_on_table("critical_hit", dice(18), location="vitals")
    assert roll.effect == HitEffect.TRIPLE
    assert roll.readings == ("critical_hit_vitals_not_torso",)


def test_rows_like_the_8_repeat_its_words() -> None:
    roll = roll_on_table("critical_hit", dice(12))
    assert CRITICAL_HIT.row_for(8).text in roll.text


@pytest.mark.parametrize("location", ["head", "brain", "eyes"])
def test_a_critical_hit_to_the_head_uses_the_head_table(location: str) -> None:
    with pytest.raises(InvalidValue) as caught:
        roll_on_table("critical_hit", dice(10), location=location)
    assert (caught.value.field, caught.value.message) == ("location", CRITICAL_HIT_TO_THE_HEAD)


@pytest.mark.parametrize(
    ("total", "damage_type", "effect"),
    [
        (12, "cr", HeadEffect.DEAFENED_24_HOURS),
        (12, "cut", HeadEffect.SCARRED),
        (12, "imp", HeadEffect.SCARRED),
        (13, "cr", HeadEffect.POSSIBLY_PERMANENT_DEAFNESS),
        (13, "imp", HeadEffect.BADLY_SCARRED),
        (13, None, HeadEffect.DEAFNESS_OR_BADLY_SCARRED),
        (3, "cr", HeadEffect.INSTANT_DEATH),
        (17, "cut", HeadEffect.STUNNED),
    ],
)
def test_the_head_table_by_damage_type(total, damage_type, effect) -> None:
    roll = roll_on_table("critical_head", dice(total), damage_type=damage_type)
    assert roll.effect == effect


def test_the_head_branch_is_the_canons_words() -> None:
    crushing = roll_on_table("critical_head", dice(12), damage_type="cr")
    assert crushing.text.endswith("Golpe contundente: dano normal e surdo por 24 h.")
    cutting = roll_on_table("critical_head", dice(13), damage_type="cut")
    assert cutting.text.endswith("Golpe cortante ou perfurante: 2 PV e a face fica muito marcada.")


def test_the_head_table_is_for_the_head_only() -> None:
    with pytest.raises(InvalidValue) as caught:
        roll_on_table("critical_head", dice(10), location="torso")
    assert (caught.value.field, caught.value.message) == ("location", HEAD_TABLE_ONLY_FOR_THE_HEAD)
    assert roll_on_table("critical_head", dice(10), location="head").readings == ()
    brain = roll_on_table("critical_head", dice(10), location="brain")
    assert brain.readings == ("critical_head_brain_and_eyes",)


# --- Spell critical failure ----------------------------------------------------------------------


def test_the_18_rolls_again_only_for_the_best_intentions() -> None:
    demon = roll_on_table("spell_critical_failure", dice(18))
    assert demon.rolls == (18,) and demon.effect == "demon_attacks"
    kind = roll_on_table("spell_critical_failure", dice(18, 18, 7), best_intent=True)
    assert kind.rolls == (18, 18, 7) and kind.row is SPELL_CRITICAL_FAILURE.row_for(7)


def test_the_mestre_may_have_an_absurd_result_rolled_again() -> None:
    first = roll_on_table("spell_critical_failure", dice(13))
    again = reroll_spell_critical_failure(first, dice(9))
    assert again.rolls == (13, 9) and again.total == 9
    assert again.faces == (tuple(faces(13)), tuple(faces(9)))
    assert again.row is SPELL_CRITICAL_FAILURE.row_for(9)
    assert "mandou rolar de novo" in again.text
    same = roll_on_table("spell_critical_failure", dice(9), reroll_of=first)
    assert same == again


def test_only_a_spell_failure_is_rolled_again() -> None:
    miss = roll_on_table("critical_miss", dice(10))
    with pytest.raises(InvalidValue) as caught:
        reroll_spell_critical_failure(miss, dice(9))
    assert (caught.value.field, caught.value.message) == ("reroll_of", REROLL_ONLY_SPELL_FAILURE)


# --- Fright Check --------------------------------------------------------------------------------


def test_fright_10_plus_margin_3_is_the_row_13() -> None:
    roll = roll_on_table("fright_check", dice(10), margin_of_failure=3)
    assert roll.rolls == (10,) and roll.total == 13
    assert roll.row.label == "13" and roll.row is FRIGHT_CHECK.row_for(13)
    assert "Peculiaridade nova" in roll.text


def test_fright_is_open_ended_at_36() -> None:
    roll = roll_on_table("fright_check", dice(18), margin_of_failure=25)
    assert roll.total == 43 and roll.row.label == "36+"


@pytest.mark.parametrize("margin", [0, -2, "3", 2.0, True])
def test_fright_needs_a_margin_of_failure_of_1_or_more(margin) -> None:
    with pytest.raises(InvalidValue) as caught:
        roll_on_table("fright_check", dice(10), margin_of_failure=margin)
    assert caught.value.field == "margin_of_failure"


def test_fright_without_a_margin_is_refused() -> None:
    with pytest.raises(InvalidValue) as caught:
        roll_on_table("fright_check", dice(10))
    assert (caught.value.field, caught.value.message) == (
        "margin_of_failure",
        FRIGHT_MARGIN_REQUIRED,
    )


def test_a_fright_check_rolls_will_then_the_table() -> None:
    passed = fright_check(dice(9), 12)
    assert passed.table is None and passed.margin_of_failure is None
    failed = fright_check(dice(15, 10), 12)
    assert failed.margin_of_failure == 3
    assert failed.table.total == 13 and failed.table.rolls == (10,)
    odd = fright_check(dice(17, 10), 18)  # 17 fails at any level
    assert odd.margin_of_failure == 1 and odd.readings == ("fright_margin_at_least_1",)
    with pytest.raises(NoRollAtThreeOrLess):
        fright_check(dice(10), 3)


@PROPERTY
@given(st.integers(min_value=3, max_value=18), st.integers(min_value=1, max_value=40))
def test_a_fright_total_is_always_at_least_4(rolled: int, margin: int) -> None:
    roll = roll_on_table("fright_check", dice(rolled), margin_of_failure=margin)
    assert roll.total == rolled + margin >= 4
    assert roll.row.covers(roll.total)


# --- The entry point ---------------------------------------------------------------------------

OPTIONS = {
    "critical_miss": st.fixed_dictionaries(
        {},
        optional={name: st.booleans() for name in ("unbreakable", "cheap", "impaling", "ranged")},
    ),
    "critical_hit": st.fixed_dictionaries(
        {},
        optional={
            "location": st.sampled_from(["torso", "arm", "leg", "hand", "foot", "vitals"]),
            "damage_type": st.sampled_from(["cr", "cut", "imp"]),
        },
    ),
    "critical_head": st.fixed_dictionaries(
        {}, optional={"damage_type": st.sampled_from(["cr", "cut", "imp"])}
    ),
    "spell_critical_failure": st.fixed_dictionaries({}, optional={"best_intent": st.booleans()}),
    "fright_check": st.fixed_dictionaries({"margin_of_failure": st.integers(1, 30)}),
}


@PROPERTY
@given(st.data(), st.sampled_from(KEYS), st.integers(min_value=0, max_value=2**32))
def test_every_roll_records_its_dice_and_lands_on_its_row(data, key: str, seed: int) -> None:
    options = data.draw(OPTIONS[key])
    roll = roll_on_table(key, random.Random(seed), **options)
    assert isinstance(roll, TableRoll)
    assert (roll.table_key, roll.title) == (key, TABLE_TITLES[key])
    assert len(roll.rolls) == len(roll.faces) >= 1
    assert all(sum(three) == total for three, total in zip(roll.faces, roll.rolls, strict=True))
    assert all(3 <= total <= 18 for total in roll.rolls)
    expected_total = roll.rolls[-1] + options.get("margin_of_failure", 0)
    assert roll.total == expected_total
    assert roll.row is TABLES[key].row_for(roll.total)
    assert roll.row.text in roll.text
    assert all(reading in READINGS_BY_KEY for reading in roll.readings)
    if key == "critical_miss":
        assert len(roll.rolls) <= 3  # at most one reroll per exception


@pytest.mark.parametrize(
    ("key", "options", "field", "message"),
    [
        ("golpe", {}, "key", UNKNOWN_TABLE),
        (
            "critical_hit",
            {"unarmed": True},
            "unarmed",
            UNKNOWN_TABLE_OPTION.format(option="unarmed"),
        ),
        ("critical_miss", {"cheap": 1}, "cheap", TABLE_OPTION_NOT_BOOLEAN),
        ("spell_critical_failure", {"best_intent": "sim"}, "best_intent", TABLE_OPTION_NOT_BOOLEAN),
        ("critical_hit", {"location": "asa"}, "location", UNKNOWN_HIT_LOCATION),
        ("critical_head", {"damage_type": "fogo"}, "damage_type", UNKNOWN_DAMAGE_TYPE),
        ("critical_hit", {"damage_type": "fogo"}, "damage_type", UNKNOWN_DAMAGE_TYPE),
    ],
)
def test_it_refuses_bad_keys_and_options(key, options, field, message) -> None:
    with pytest.raises(InvalidValue) as caught:
        roll_on_table(key, dice(10), **options)
    assert (caught.value.field, caught.value.message) == (field, message)


def test_the_head_tables_fixed_hp_are_the_canons() -> None:
    # Rows 12 and 13, cutting or impaling: "1 PV e a face fica marcada", "2 PV e a face fica
    # muito marcada" — read back from the canon's own table.
    from gurps.tables import HEAD_FIXED_HP, HeadEffect
    from tests.gurps.helpers import canon_table

    rows = {
        row[0]: row[1]
        for row in canon_table("### Tabela de Golpes Fulminantes na Cabeça (MB pág. 202)")
    }
    assert f"{HEAD_FIXED_HP[HeadEffect.SCARRED]} PV e a face fica marcada" in rows["12"]
    assert f"{HEAD_FIXED_HP[HeadEffect.BADLY_SCARRED]} PV e a face fica muito marcada" in rows["13"]


@pytest.mark.parametrize("options", [{"source": 1}, {"key": "x"}])
def test_an_option_named_like_a_parameter_is_refused_not_a_crash(options) -> None:
    with pytest.raises(InvalidValue) as caught:
        roll_on_table("critical_miss", random.Random(1), **options)
    assert caught.value.field in options


def test_a_huge_fright_margin_is_refused() -> None:
    with pytest.raises(InvalidValue) as caught:
        roll_on_table("fright_check", random.Random(1), margin_of_failure=10**30)
    assert caught.value.field == "margin_of_failure"
