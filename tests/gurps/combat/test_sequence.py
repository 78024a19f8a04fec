"""The attack sequence (gurps.combat.sequence; canon §4.10): the Mestre's table, and
``resolve_attack`` step by step and as properties."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps.checks import Outcome
from gurps.combat import (
    COMBAT_SEQUENCE,
    AnnouncedModifier,
    AttackInput,
    DefenceChoice,
    DefenceInput,
    StepNumber,
    TargetInput,
    resolve_attack,
)
from gurps.damage import injury
from gurps.errors import (
    ALL_OUT_OPTION_REQUIRED,
    ALL_OUT_OPTION_WITHOUT_ALL_OUT_ATTACK,
    DEFENCE_NOT_AVAILABLE,
    DEFENCE_NOT_LEFT_BY_MANEUVER,
    NEGATIVE_PD,
    NOT_AN_ATTACK_MANEUVER,
    ONE_DEFENCE_PER_ATTACK,
    SAME_DEFENCE_TWICE,
    UNARMED_HAS_NO_WEAPON,
    UNKNOWN_COMBATANT_KIND,
    InvalidValue,
    NoRollAtThreeOrLess,
)
from gurps.injury import StunCause
from gurps.tables import CRITICAL_HEAD, CRITICAL_HIT, CRITICAL_MISS
from tests.gurps.helpers import ScriptedSource, canon_cases, canon_table

PROPERTY = settings(database=None, deadline=None)
CASES = canon_cases()


def _faces_for(total: int) -> list[int]:
    """Three d6 faces summing to ``total`` (3..18)."""
    first = min(6, total - 2)
    second = min(6, total - first - 1)
    return [first, second, total - first - second]


def test_the_sequence_table_has_rows_0_to_10_and_keeps_row_4_as_the_canon_prints_it() -> None:
    assert [int(step.number) for step in COMBAT_SEQUENCE] == list(range(11))
    rows = canon_table("## 4.10 A sequência de combate — tabela do Mestre")
    assert "3 = dano máximo" in rows[4][2]  # the known slip: shown, never applied
    assert [row[0] for row in rows] == [str(int(step.number)) for step in COMBAT_SEQUENCE]


def _attack(**kwargs) -> AttackInput:
    base = {"name": "Hoplita", "skill": 12, "damage": "1d+2", "damage_type": "cut"}
    return AttackInput(**{**base, **kwargs})


def _defence(*choices: tuple[str, int], **kwargs) -> DefenceInput:
    base = {"name": "Cavador", "maneuver": "move_and_attack", "passive_defense": 1}
    chosen = tuple(DefenceChoice(kind, level) for kind, level in choices)
    return DefenceInput(**{**base, "choices": chosen, **kwargs})


def _target(**kwargs) -> TargetInput:
    return TargetInput(**{"ht": 10, "hp": 12, "dr": 3, "kind": "player_character", **kwargs})


def test_a_hit_that_is_parried() -> None:
    source = ScriptedSource([3, 3, 4, 2, 2, 3])
    result = resolve_attack(source, _attack(), _defence(("parry", 6)), _target())
    assert result.attack_roll.total == 10 and not result.hit and result.defended
    assert result.defence_rolls[0].effective_level == 7
    assert result.damage_dice == () and result.consequences is None
    assert source.values == []
    assert [step.number for step in result.steps][:3] == [3, 4, 5]


def test_the_gladio_hits_undefended_the_canons_damage_and_the_shock() -> None:
    case = CASES["gladio-vs-dr3"]["given"]
    # 1d+2 rolls 4 → the canon's 6; DR 3; cut +50% rounding down.
    source = ScriptedSource([3, 3, 4, 6, 5, 4, 4, 2, 2, 2])
    result = resolve_attack(source, _attack(), _defence(("dodge", 5)), _target(dr=case["dr"], ht=7))
    expected = injury(case["basic"], case["dr"], case["type"])
    assert expected == CASES["gladio-vs-dr3"]["expect"]["hp_lost"]
    assert result.hit and not result.defended
    assert result.wound.rolled == case["basic"] and result.hp_lost == expected
    assert result.hp_after == 12 - expected
    consequences = result.consequences
    assert consequences.shock == -expected
    assert consequences.stun_causes == (StunCause.MAJOR_WOUND,)  # 4 > 7/2: HT roll 6, passed
    assert not consequences.knocked_down and not consequences.dead
    assert source.values == []
    numbers = [int(step.number) for step in result.steps]
    assert numbers == sorted(numbers) and {3, 4, 5, 6, 7, 8, 9, 10} <= set(numbers)
    assert all(line for line in result.lines)


def test_a_critical_hit_makes_no_defence_roll_and_rolls_on_the_table() -> None:
    # Attack 3; table 10 (normal damage); damage 3 → 5; HT roll for the major wound.
    source = ScriptedSource([1, 1, 1, 3, 3, 4, 3, 3, 3, 3])
    result = resolve_attack(source, _attack(), _defence(("dodge", 9)), _target(dr=0))
    assert result.critical_hit and result.hit
    assert result.defence_rolls == ()
    assert result.critical_table.table_key == CRITICAL_HIT.key
    assert result.critical_table.total == 10
    assert not any(step.dice for step in result.steps if step.number is StepNumber.DEFENCE_ROLL)
    assert StunCause.CRITICAL_HIT_RECEIVED in result.consequences.stun_causes
    assert result.hp_lost == 7  # 5 cut → 7, not the maximum damage of §4.10 row 4
    assert source.values == []


def test_a_critical_hit_that_triples_the_dice_damage() -> None:
    # Attack 4; table 5 (triple); damage 4 → 6; HT roll for the major wound.
    source = ScriptedSource([1, 2, 1, 1, 2, 2, 4, 3, 3, 3])
    result = resolve_attack(
        source, _attack(damage="1d+2", damage_type="cr"), _defence(), _target(dr=0, hp=30, ht=12)
    )
    assert result.wound.basic == 18 and result.hp_lost == 18


def test_a_critical_miss_rolls_on_the_critical_miss_table_and_ends_the_attack() -> None:
    source = ScriptedSource([6, 6, 6, 3, 3, 3])
    result = resolve_attack(source, _attack(), _defence(("dodge", 9)), _target())
    assert not result.hit and result.critical_miss.table_key == CRITICAL_MISS.key
    assert result.critical_miss.total == 9
    assert result.defence_rolls == () and result.consequences is None
    assert source.values == []


def test_a_17_at_effective_16_is_a_plain_miss() -> None:
    source = ScriptedSource([6, 6, 5])
    result = resolve_attack(source, _attack(skill=16), _defence(), _target())
    assert result.attack_roll.outcome is Outcome.FAILURE and result.critical_miss is None
    assert "attack_17_at_16_plus" in result.readings


def test_a_head_critical_of_3_is_instant_death_without_a_damage_roll() -> None:
    source = ScriptedSource([1, 1, 1, 1, 1, 1])
    result = resolve_attack(source, _attack(skill=18, location="head"), _defence(), _target())
    assert result.effective_level == 13  # the head's −5 (§5.5)
    assert result.critical_table.table_key == CRITICAL_HEAD.key
    assert result.consequences.dead and result.damage_dice == ()
    assert source.values == []


def test_all_out_attack_leaves_only_the_passive_defence_in_the_sequence() -> None:
    with pytest.raises(InvalidValue) as caught:
        resolve_attack(
            ScriptedSource([]),
            _attack(),
            _defence(("dodge", 6), maneuver="all_out_attack"),
            _target(),
        )
    assert caught.value.field == "defence.choices"
    assert caught.value.message == DEFENCE_NOT_LEFT_BY_MANEUVER.format(
        maneuver="Ataque Total", defence="Esquiva"
    )
    source = ScriptedSource([3, 3, 4, 1, 1, 2])  # defence roll 4 against PD 1: passes
    result = resolve_attack(source, _attack(), _defence(maneuver="all_out_attack"), _target())
    assert result.defended and result.defence_rolls[0].effective_level == 1
    assert "defence_roll_on_passive_only" in result.readings


def test_the_feint_margin_comes_off_the_active_defence() -> None:
    source = ScriptedSource([3, 3, 4, 3, 3, 3, 1])
    result = resolve_attack(source, _attack(feint_penalty=3), _defence(("parry", 8)), _target())
    assert result.defence_rolls[0].effective_level == 1 + 8 - 3


def test_all_out_defense_rolls_a_second_different_defence_if_the_first_fails() -> None:
    source = ScriptedSource([3, 3, 4, 6, 6, 6, 2, 2, 2])
    result = resolve_attack(
        source,
        _attack(),
        _defence(("parry", 6), ("dodge", 6), maneuver="all_out_defense"),
        _target(),
    )
    assert result.defended and len(result.defence_rolls) == 2
    with pytest.raises(InvalidValue) as caught:
        resolve_attack(
            ScriptedSource([]),
            _attack(),
            _defence(("parry", 6), ("parry", 6), maneuver="all_out_defense"),
            _target(),
        )
    assert caught.value.message == SAME_DEFENCE_TWICE
    with pytest.raises(InvalidValue) as caught:
        resolve_attack(
            ScriptedSource([]), _attack(), _defence(("parry", 6), ("dodge", 6)), _target()
        )
    assert caught.value.message == ONE_DEFENCE_PER_ATTACK


def test_a_defender_who_aims_loses_the_aim_when_he_defends() -> None:
    source = ScriptedSource([3, 3, 4, 1, 1, 2])
    result = resolve_attack(source, _attack(), _defence(("dodge", 5), maneuver="aim"), _target())
    assert result.aim_spoiled
    source = ScriptedSource([3, 3, 4, 1, 1, 2])
    concentrating = resolve_attack(
        source, _attack(), _defence(("dodge", 5), maneuver="concentrate", will=12), _target()
    )
    assert concentrating.concentration_will_level == 9


def test_a_player_character_crossing_minus_ht_rolls_a_death_check() -> None:
    # 2d+10 cr rolls 22 against DR 0 from 10 HP → −12, past −HT (−10): the major wound's HT
    # roll passes (9), the death check fails (18).
    source = ScriptedSource([3, 3, 4, 6, 6, 6, 6, 6, 3, 3, 3, 6, 6, 6])
    result = resolve_attack(
        source,
        _attack(damage="2d+10", damage_type="cr"),
        _defence(("dodge", 5)),
        _target(hp=10, dr=0),
    )
    consequences = result.consequences
    assert result.hp_after == -12
    assert consequences.death_checks == 1 and consequences.dead
    assert source.values == []


def test_a_bestiary_creature_is_out_at_0_hp_with_no_death_check() -> None:
    source = ScriptedSource([3, 3, 4, 6, 6, 6, 6, 6, 3, 3, 3])
    result = resolve_attack(
        source,
        _attack(damage="2d", damage_type="cr"),
        _defence(("dodge", 5)),
        _target(hp=12, dr=0, kind="creature"),
    )
    assert result.hp_after == 0
    assert result.consequences.out_of_the_fight and result.consequences.death_checks == 0


def test_a_forced_ht_roll_at_ht_3_is_not_rolled_and_counts_as_failed() -> None:
    source = ScriptedSource([3, 3, 4, 6, 6, 6, 2])
    result = resolve_attack(
        source,
        _attack(damage="1d", damage_type="cr"),
        _defence(("dodge", 5)),
        _target(ht=3, hp=20, dr=0),
    )
    assert result.consequences.knocked_down
    assert "forced_ht_roll_at_three_or_less" in result.readings
    assert source.values == []


def test_an_eye_shot_leaves_what_the_canon_does_not_say_to_the_arbitro() -> None:
    source = ScriptedSource([1, 1, 3, 6, 6, 6, 1])
    result = resolve_attack(
        source,
        _attack(skill=18, location="eyes", damage="1d", damage_type="imp"),
        _defence(("dodge", 5)),
        _target(dr=0),
    )
    assert result.hit and result.consequences.pending


def test_no_attack_roll_at_effective_level_3_or_less() -> None:
    with pytest.raises(NoRollAtThreeOrLess):
        resolve_attack(
            ScriptedSource([]),
            _attack(skill=8, announced=(AnnouncedModifier("blind"),)),
            _defence(),
            _target(),
        )


@pytest.mark.parametrize(
    ("attack", "defence", "target", "field", "message"),
    [
        (
            _attack(maneuver="move"),
            _defence(),
            _target(),
            "attack.maneuver",
            NOT_AN_ATTACK_MANEUVER,
        ),
        (
            _attack(maneuver="all_out_attack"),
            _defence(),
            _target(),
            "attack.all_out_option",
            ALL_OUT_OPTION_REQUIRED,
        ),
        (
            _attack(all_out_option="determined"),
            _defence(),
            _target(),
            "attack.all_out_option",
            ALL_OUT_OPTION_WITHOUT_ALL_OUT_ATTACK,
        ),
        (
            _attack(attack_kind="unarmed", cheap=True),
            _defence(),
            _target(),
            "attack.cheap",
            UNARMED_HAS_NO_WEAPON,
        ),
        (
            _attack(),
            _defence(passive_defense=-1),
            _target(),
            "defence.passive_defense",
            NEGATIVE_PD,
        ),
        (
            _attack(),
            _defence(("dodge", 6), grappled=True),
            _target(),
            "defence.choices",
            DEFENCE_NOT_AVAILABLE.format(defence="Esquiva"),
        ),
        (_attack(), _defence(), _target(kind="dragon"), "target.kind", UNKNOWN_COMBATANT_KIND),
    ],
)
def test_resolve_attack_refuses_bad_input_before_any_die(
    attack: AttackInput, defence: DefenceInput, target: TargetInput, field: str, message: str
) -> None:
    with pytest.raises(InvalidValue) as caught:
        resolve_attack(ScriptedSource([]), attack, defence, target)
    assert (caught.value.field, caught.value.message) == (field, message)


def test_all_out_attack_c_adds_4_and_d_adds_2_damage() -> None:
    result = resolve_attack(
        ScriptedSource([6, 6, 4, 1, 1, 1]),
        _attack(maneuver="all_out_attack", all_out_option="determined"),
        _defence(),
        _target(),
    )
    assert result.effective_level == 16 and result.attack_roll.outcome is Outcome.SUCCESS
    assert result.modifiers[-1].value == 4
    source = ScriptedSource([3, 3, 4, 6, 6, 6, 3])
    strong = resolve_attack(
        source,
        _attack(maneuver="all_out_attack", all_out_option="strong", damage="1d", damage_type="cr"),
        _defence(),
        _target(dr=0, hp=30),
    )
    assert strong.wound.basic == 5


skills = st.integers(4, 20)


seeds = st.integers(0, 2**32 - 1)


@PROPERTY
@given(skills, seeds)
def test_a_critical_success_on_the_attack_is_always_a_hit(skill: int, seed: int) -> None:
    result = resolve_attack(
        random.Random(seed), _attack(skill=skill), _defence(("dodge", 12)), _target()
    )
    if result.attack_roll.outcome is Outcome.CRITICAL_SUCCESS:
        assert result.hit and result.critical_hit and result.defence_rolls == ()


@PROPERTY
@given(st.sampled_from([3, 4, 17, 18]), st.integers(-5, 30))
def test_a_defence_of_3_or_4_always_passes_and_17_or_18_always_fails(roll: int, level: int) -> None:
    source = ScriptedSource([3, 3, 4, *_faces_for(roll), 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    result = resolve_attack(
        source, _attack(), _defence(("dodge", level), passive_defense=0), _target(ht=12)
    )
    assert result.defended is (roll <= 4)


@PROPERTY
@given(
    seeds,
    st.sampled_from(["1d-5", "1d-3", "1d", "2d+1"]),
    st.sampled_from(["cr", "cut", "imp"]),
    st.integers(0, 10),
)
def test_damage_is_never_negative(seed: int, dice: str, kind: str, dr: int) -> None:
    result = resolve_attack(
        random.Random(seed),
        _attack(skill=20, damage=dice, damage_type=kind),
        _defence(maneuver="all_out_attack", passive_defense=0),
        _target(dr=dr, hp=100, ht=12),
    )
    assert result.hp_lost >= 0 and result.hp_after <= 100
    if result.wound is not None:
        assert result.wound.penetrating >= 0 and result.wound.hp_lost >= 0


@PROPERTY
@given(seeds, skills)
def test_the_sequence_is_deterministic_for_one_source(seed: int, skill: int) -> None:
    def run():
        return resolve_attack(
            random.Random(seed), _attack(skill=skill), _defence(("parry", 7)), _target()
        )

    assert run() == run()


@PROPERTY
@given(seeds)
def test_an_all_out_attacker_never_rolls_an_active_defence(seed: int) -> None:
    result = resolve_attack(
        random.Random(seed),
        _attack(),
        _defence(maneuver="all_out_attack", passive_defense=3),
        _target(),
    )
    for step in result.steps:
        if step.number is StepNumber.DEFENCE_ROLL and step.dice:
            assert step.level == 3


def test_a_roll_against_the_passive_defence_alone_only_fails_it_is_no_critical_failure() -> None:
    # 12 against PD 1 exceeds it by 11, but no active defence is tested (§4.6, §1.2).
    source = ScriptedSource([3, 3, 4, 4, 4, 4, 1, 1])
    result = resolve_attack(source, _attack(), _defence(maneuver="all_out_attack"), _target())
    (rolled,) = result.defence_rolls
    assert (rolled.total, rolled.effective_level) == (12, 1)
    assert rolled.outcome is Outcome.FAILURE
    step = next(s for s in result.steps if s.number == StepNumber.DEFENCE_ROLL and s.dice)
    assert "Falha crítica" not in step.text and step.outcome == Outcome.FAILURE.value


def test_an_active_defence_keeps_the_criticals_of_a_roll() -> None:
    source = ScriptedSource([3, 3, 4, 6, 6, 6, 1, 1])
    result = resolve_attack(source, _attack(), _defence(("dodge", 6)), _target())
    assert result.defence_rolls[0].outcome is Outcome.CRITICAL_FAILURE
