"""Combat (gurps.combat): turn order, maneuvers, readiness, aim, feint, attack modifiers,
close combat, terrain, surprise and the attack sequence of §4.10 (canon §4.1–4.5, §4.10,
§4.11, §5c–5e)."""

from __future__ import annotations

import random
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps.attributes import basic_speed
from gurps.checks import Outcome
from gurps.combat import (
    ALL_OUT_ATTACK_OPTIONS,
    ATTACK_SITUATIONS,
    CANON_TABLES,
    COMBAT_SEQUENCE,
    MANEUVERS,
    TERRAINS,
    AimState,
    AnnouncedModifier,
    AttackInput,
    Combatant,
    DefenceChoice,
    DefenceInput,
    Maneuver,
    StepNumber,
    TargetInput,
    Terrain,
    TieBreak,
    WeaponClass,
    WeaponReadiness,
    acts_this_turn,
    all_out_attack,
    attack_modifiers,
    close_combat_defences,
    close_combat_modifier,
    declared_in_time,
    defences_left,
    feint,
    grapple_contest,
    maneuver_movement,
    maneuver_row,
    needs_ready_after_attack,
    resolve_attack,
    simple_turn_order,
    terrain_effects,
    terrain_move,
    tie_break,
    total_surprise_roll,
    turn_order,
)
from gurps.damage import injury
from gurps.defence import ActiveDefence
from gurps.errors import (
    AIM_TURN_REQUIRED,
    ALL_OUT_OPTION_REQUIRED,
    ALL_OUT_OPTION_WITHOUT_ALL_OUT_ATTACK,
    AMOUNT_REQUIRED,
    BASIC_SPEED_NOT_A_NUMBER,
    DEFENCE_NOT_AVAILABLE,
    DEFENCE_NOT_LEFT_BY_MANEUVER,
    DOUBLE_ATTACK_NEEDS_WEAPONS,
    DUPLICATE_ATTACK_SITUATION,
    DUPLICATE_COMBATANT_NAME,
    DUPLICATE_DECLARATION_ORDER,
    FIXED_MODIFIER,
    MODIFIER_OUT_OF_RANGE,
    NEGATIVE_AIM_TURNS,
    NEGATIVE_PD,
    NO_COMBATANTS,
    NOT_AN_ATTACK_MANEUVER,
    ONE_DEFENCE_PER_ATTACK,
    RELOAD_ONLY_WITH_READY,
    SAME_DEFENCE_TWICE,
    TURN_TOO_LOW,
    UNARMED_HAS_NO_WEAPON,
    UNKNOWN_ATTACK_SITUATION,
    UNKNOWN_COMBATANT_KIND,
    UNKNOWN_GRAPPLE_STAGE,
    UNKNOWN_MANEUVER,
    InvalidValue,
    NoRollAtThreeOrLess,
    OutsideCanon,
)
from gurps.injury import StunCause
from gurps.readings import READINGS_BY_KEY
from gurps.rolling import Modifier
from gurps.tables import CRITICAL_HEAD, CRITICAL_HIT, CRITICAL_MISS
from tests.gurps.helpers import ScriptedSource, canon_cases, canon_section, canon_table

PROPERTY = settings(database=None, deadline=None)
CASES = canon_cases()


def _signed(text: str) -> int:
    return int(text.replace("\u2212", "-").replace("+", ""))


def _faces_for(total: int) -> list[int]:
    """Three d6 faces summing to ``total`` (3..18)."""
    first = min(6, total - 2)
    second = min(6, total - first - 1)
    return [first, second, total - first - second]


# --- The canon's tables ------------------------------------------------------------------------


def test_every_table_of_the_module_names_a_canon_section_and_unique_key() -> None:
    keys = [table.key for table in CANON_TABLES]
    assert len(keys) == len(set(keys))
    headings = {table.heading for table in CANON_TABLES if table.heading}
    assert headings == {
        "## 4.3 Manobras",
        "## 4.5 Modificadores de ataque",
        "## 4.10 A sequência de combate — tabela do Mestre",
        "# 5d. Terreno e o que ele cobra",
    }


def test_the_ten_maneuvers_are_the_canons_rows_in_order() -> None:
    rows = canon_table("## 4.3 Manobras")
    assert [row[0] for row in rows] == [row.name for row in MANEUVERS]
    assert len(MANEUVERS) == len(Maneuver) == 10


def test_a_one_metre_row_of_the_canon_moves_one_metre_whatever_the_move() -> None:
    for cells, row in zip(canon_table("## 4.3 Manobras"), MANEUVERS, strict=True):
        if cells[1] == "1 metro":
            for move in (0, 1, 5, 9):
                assert maneuver_movement(row.maneuver, move) == 1, row.name
        if cells[1] == "nenhum":
            assert maneuver_movement(row.maneuver, 7) == 0
        if cells[1] == "até o Deslocamento inteiro":
            assert maneuver_movement(row.maneuver, 7) == 7


@pytest.mark.parametrize(("move", "metres"), [(0, 2), (1, 2), (4, 2), (5, 2), (6, 3), (9, 4)])
def test_all_out_attack_moves_2_m_or_half_move_whichever_is_greater(move: int, metres: int) -> None:
    # §9 item 5: the text (2 m or half Move), not the p. 203 table; half Move rounds down.
    cell = next(row[1] for row in canon_table("## 4.3 Manobras") if row[0] == "Ataque Total")
    least = int(re.fullmatch(r"até (\d+) m, ou metade do Deslocamento, o que for maior", cell)[1])
    assert metres == max(least, move // 2)
    assert maneuver_movement("all_out_attack", move) == metres


def test_aim_moves_half_move_and_at_most_2_m_after_the_first_turn() -> None:
    assert maneuver_movement(Maneuver.AIM, 7, first_aim_turn=True) == 3
    assert maneuver_movement(Maneuver.AIM, 7, first_aim_turn=False) == 2
    assert maneuver_movement(Maneuver.AIM, 3, first_aim_turn=False) == 1
    with pytest.raises(InvalidValue) as caught:
        maneuver_movement(Maneuver.AIM, 7)
    assert (caught.value.field, caught.value.message) == ("first_aim_turn", AIM_TURN_REQUIRED)


def test_an_unknown_maneuver_is_refused() -> None:
    with pytest.raises(InvalidValue) as caught:
        maneuver_row("charge")
    assert (caught.value.field, caught.value.message) == ("maneuver", UNKNOWN_MANEUVER)


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


def test_the_sequence_table_has_rows_0_to_10_and_keeps_row_4_as_the_canon_prints_it() -> None:
    assert [int(step.number) for step in COMBAT_SEQUENCE] == list(range(11))
    rows = canon_table("## 4.10 A sequência de combate — tabela do Mestre")
    assert "3 = dano máximo" in rows[4][2]  # the known slip: shown, never applied
    assert [row[0] for row in rows] == [str(int(step.number)) for step in COMBAT_SEQUENCE]


def test_terrain_rows_follow_the_canon_and_halve_or_third_the_move() -> None:
    rows = canon_table("# 5d. Terreno e o que ele cobra")
    assert [row[0] for row in rows] == [row.name for row in TERRAINS]
    for (_, cost), row in zip(rows, TERRAINS, strict=True):
        if "pela metade" in cost:
            assert row.move_fraction == Fraction(1, 2)
        elif cost.startswith("um terço"):
            assert row.move_fraction == Fraction(1, 3)
        else:
            assert row.move_fraction is None
        if match := re.search(r"balanço a (−\d+)", cost):
            assert row.swing_modifier == _signed(match[1])


def test_every_reading_the_module_names_exists() -> None:
    for key in (
        "half_move_rounds_down",
        "terrain_move_rounds_down",
        "simple_order_tie_reroll",
        "feint_margin_is_own_margin",
        "grapple_dx_then_st",
        "grapple_tie_break",
        "attack_17_at_16_plus",
        "defence_roll_on_passive_only",
        "forced_ht_roll_at_three_or_less",
        "critical_multiplier_before_all_out_bonus",
        "critical_head_damage_when_unsaid",
        "faint_roll_for_named_npcs",
    ):
        assert key in READINGS_BY_KEY


# --- §4.2 turn order ---------------------------------------------------------------------------


def test_the_canons_example_the_fraction_of_basic_speed_breaks_the_move_tie() -> None:
    case = CASES["speed-fraction-order"]
    a, b = case["given"]["a"], case["given"]["b"]
    speeds = {who: basic_speed(v["dx"], v["ht"]) for who, v in (("a", a), ("b", b))}
    moves = {who: case["expect"][who]["move"] for who in ("a", "b")}
    fighters = [
        Combatant("b", moves["b"], speeds["b"], b["dx"], declared=1),
        Combatant("a", moves["a"], speeds["a"], a["dx"], declared=2),
    ]
    order = turn_order(fighters)
    assert order[0].name == case["expect"]["acts_first"]
    assert tie_break(order[0], order[1]) is TieBreak.BASIC_SPEED


def test_move_first_then_speed_then_dx_then_declaration() -> None:
    fast = Combatant("fast", 7, Fraction(5), 10, declared=4)
    keen = Combatant("keen", 6, Fraction(27, 4), 10, declared=3)
    deft = Combatant("deft", 6, Fraction(25, 4), 12, declared=2)
    late = Combatant("late", 6, Fraction(25, 4), 11, declared=5)
    first = Combatant("first", 6, Fraction(25, 4), 11, declared=1)
    order = turn_order([late, first, deft, keen, fast])
    assert [c.name for c in order] == ["fast", "keen", "deft", "first", "late"]
    reasons = [tie_break(x, y) for x, y in zip(order, order[1:], strict=False)]
    assert reasons == [TieBreak.MOVE, TieBreak.BASIC_SPEED, TieBreak.DX, TieBreak.DECLARATION]


def test_a_repeated_declaration_order_is_refused() -> None:
    with pytest.raises(InvalidValue) as caught:
        turn_order([Combatant("a", 5, Fraction(5), 10, 1), Combatant("b", 5, Fraction(5), 10, 1)])
    assert (caught.value.field, caught.value.message) == (
        "combatants.1.declared",
        DUPLICATE_DECLARATION_ORDER,
    )


@pytest.mark.parametrize(
    ("fighters", "field", "message"),
    [
        ([], "combatants", NO_COMBATANTS),
        ([Combatant("a", 5, 5.25, 10, 1)], "combatants.0.basic_speed", BASIC_SPEED_NOT_A_NUMBER),
    ],
)
def test_turn_order_refuses_bad_input(fighters: list, field: str, message: str) -> None:
    with pytest.raises(InvalidValue) as caught:
        turn_order(fighters)
    assert (caught.value.field, caught.value.message) == (field, message)


combatants = st.lists(
    st.tuples(
        st.integers(0, 8),
        st.fractions(min_value=0, max_value=10, max_denominator=4),
        st.integers(1, 18),
    ),
    min_size=1,
    max_size=8,
).flatmap(
    lambda rows: st.permutations(range(len(rows))).map(
        lambda order: [
            Combatant(f"c{i}", move, speed, dx, declared=order[i])
            for i, (move, speed, dx) in enumerate(rows)
        ]
    )
)


@PROPERTY
@given(combatants, st.randoms(use_true_random=False))
def test_turn_order_is_a_total_order_that_ignores_input_order(fighters, rng) -> None:
    order = turn_order(fighters)
    shuffled = list(fighters)
    rng.shuffle(shuffled)
    assert turn_order(shuffled) == order
    assert sorted(c.name for c in order) == sorted(c.name for c in fighters)
    for first, second in zip(order, order[1:], strict=False):
        key = (-first.move, -first.basic_speed, -first.dx, first.declared)
        assert key < (-second.move, -second.basic_speed, -second.dx, second.declared)


def test_the_simple_method_starts_with_the_highest_die_and_goes_round_the_table() -> None:
    result = simple_turn_order(["Ana", "Bia", "Caio"], ScriptedSource([2, 5, 3]))
    assert (result.first, result.order) == ("Bia", ("Bia", "Caio", "Ana"))
    assert [r.roll for r in result.rolls] == [2, 5, 3]


def test_the_simple_method_rerolls_only_those_tied_on_the_highest() -> None:
    source = ScriptedSource([6, 1, 6, 2, 4])
    result = simple_turn_order(["Ana", "Bia", "Caio"], source)
    assert (result.first, result.order) == ("Caio", ("Caio", "Ana", "Bia"))
    assert [(r.name, r.round) for r in result.rolls[3:]] == [("Ana", 2), ("Caio", 2)]
    assert source.values == []
    assert "simple_order_tie_reroll" in result.readings


def test_the_simple_method_refuses_a_repeated_name() -> None:
    with pytest.raises(InvalidValue) as caught:
        simple_turn_order(["Ana", "Ana"], ScriptedSource([]))
    assert caught.value.message == DUPLICATE_COMBATANT_NAME


# --- §4.3 defences left, All-Out Attack, readiness --------------------------------------------


@PROPERTY
@given(st.integers(0, 20))
def test_all_out_attack_leaves_no_active_defence(move: int) -> None:
    left = defences_left(Maneuver.ALL_OUT_ATTACK)
    assert (left.allowed, left.rolls) == (frozenset(), 0)
    assert left.text == "Nenhuma. Só a Defesa Passiva."
    assert maneuver_movement(Maneuver.ALL_OUT_ATTACK, move) >= max(2, move // 2)


def test_what_each_maneuver_leaves() -> None:
    assert defences_left("all_out_defense").rolls == 2
    assert defences_left("aim").spoils_aim
    section = canon_section("## 4.3 Manobras")
    will = _signed(re.search(r"teste de Vontade (−\d+)", section)[1])
    assert defences_left("concentrate").concentration_will_modifier == will
    reloading = defences_left("ready", reloading_missile_weapon=True)
    assert reloading.allowed == {ActiveDefence.DODGE} and reloading.dodge_cancels_reload
    assert defences_left("ready").allowed == frozenset(ActiveDefence)
    with pytest.raises(InvalidValue) as caught:
        defences_left("aim", reloading_missile_weapon=True)
    assert caught.value.message == RELOAD_ONLY_WITH_READY


def test_the_four_all_out_attack_options() -> None:
    section = canon_section("## 4.3 Manobras")
    skill = _signed(re.search(r"um ataque com (\+\d+) no NH", section)[1])
    damage = _signed(re.search(r"NH normal e \*\*(\+\d+) de dano", section)[1])
    assert all_out_attack("determined").skill_bonus == skill
    assert all_out_attack("strong").damage_bonus == damage
    assert all_out_attack("feint").feint_first
    assert [row.letter for row in ALL_OUT_ATTACK_OPTIONS] == ["a", "b", "c", "d"]
    with pytest.raises(InvalidValue) as caught:
        all_out_attack("double")
    assert caught.value.message == DOUBLE_ATTACK_NEEDS_WEAPONS
    assert all_out_attack("double", ready_weapons=2).attacks == 2
    assert all_out_attack("double", weapon_needs_no_readying=True).attacks == 2


def test_swords_and_knives_stay_ready_axes_maces_and_polearms_do_not() -> None:
    for kind in (WeaponClass.SWORD, WeaponClass.KNIFE, WeaponClass.DAGGER):
        assert WeaponReadiness(kind).after_attack().can_parry
    for kind in (WeaponClass.AXE, WeaponClass.MACE, WeaponClass.POLEARM):
        unready = WeaponReadiness(kind).after_attack()
        assert not unready.can_parry and not unready.can_attack
        assert unready.after_ready().can_parry
    with pytest.raises(OutsideCanon) as caught:
        needs_ready_after_attack("spear")
    assert caught.value.rule == "4.3"


# --- §4.3 aiming and feinting ------------------------------------------------------------------


def test_aiming_adds_accuracy_then_one_a_turn_up_to_three_and_defending_loses_it() -> None:
    aim = AimState()
    assert aim.bonus(3, 12) == -4  # unaimed
    bonuses = []
    for _ in range(5):
        aim = aim.aim()
        bonuses.append(aim.bonus(3, 12))
    assert bonuses == [3, 4, 5, 6, 6]
    assert aim.bonus(3, 12, braced=True) == 7
    assert aim.defend().bonus(3, 12, braced=True) == -4
    assert AimState().aim().bonus(13, 8) == 8  # accuracy never above the skill
    with pytest.raises(InvalidValue) as caught:
        AimState(-1)
    assert caught.value.message == NEGATIVE_AIM_TURNS


def test_a_won_feint_subtracts_the_feinters_margin() -> None:
    result = feint(ScriptedSource([3, 3, 3, 4, 4, 4]), 14, 12)
    assert (result.winner, result.defence_penalty) == ("feinter", 5)


def test_a_feint_won_while_failing_subtracts_nothing() -> None:
    result = feint(ScriptedSource([5, 5, 4, 6, 6, 5]), 12, 10)  # 14 vs 12, 17 vs 10
    assert result.winner == "feinter" and result.defence_penalty == 0


def test_a_lost_feint_subtracts_nothing() -> None:
    result = feint(ScriptedSource([6, 5, 5, 1, 2, 3]), 12, 12)
    assert (result.winner, result.defence_penalty) == ("defender", 0)


def test_a_feint_in_the_dark_or_unseen_is_worthless_and_rolls_nothing() -> None:
    for kwargs in ({"in_darkness": True}, {"defender_sees_you": False}):
        result = feint(ScriptedSource([]), 14, 10, **kwargs)
        assert result.worthless and result.defence_penalty == 0 and result.feinter is None


def test_a_feint_at_level_3_is_refused_before_any_die() -> None:
    with pytest.raises(NoRollAtThreeOrLess):
        feint(ScriptedSource([]), 3, 10)


# --- §4.5 attack modifiers ---------------------------------------------------------------------


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


# --- §5c close combat --------------------------------------------------------------------------


def test_which_weapons_attack_in_close_combat() -> None:
    section = canon_section("# 5c. Combate de perto")
    penalty = _signed(re.search(r"atacam \*\*a (−\d+)\*\*", section)[1])
    assert close_combat_modifier("knife") == close_combat_modifier("bite") == 0
    assert close_combat_modifier("short_sword") == close_combat_modifier("rapier") == penalty
    for weapon in ("spear", "polearm", "two_handed_sword"):
        assert close_combat_modifier(weapon) is None
    with pytest.raises(OutsideCanon) as caught:
        close_combat_modifier("axe")
    assert caught.value.rule == "5c"


def test_grappled_cannot_dodge() -> None:
    assert ActiveDefence.DODGE not in close_combat_defences(grappled=True)
    assert close_combat_defences(grappled=False) == frozenset(ActiveDefence)


def test_grappling_is_a_dx_contest_with_judo_or_brawling_on_a_tie() -> None:
    won = grapple_contest(ScriptedSource([2, 3, 3, 5, 5, 5]), "grab", 12, 12)
    assert won.winner == "attacker" and won.tie_break is None
    # Both 10 against 12: a tie; Judo 14 rolls 9, Brawling 11 rolls 11.
    tie = grapple_contest(
        ScriptedSource([3, 3, 4, 3, 3, 4, 3, 3, 3, 4, 4, 3]),
        "pin",
        12,
        12,
        attacker_tie_break=14,
        defender_tie_break=11,
    )
    assert tie.winner == "attacker" and tie.tie_break is not None
    no_skill = grapple_contest(ScriptedSource([3, 3, 4, 3, 3, 4]), "grab", 12, 12)
    assert no_skill.winner is None
    with pytest.raises(InvalidValue) as caught:
        grapple_contest(ScriptedSource([]), "throw", 12, 12)
    assert caught.value.message == UNKNOWN_GRAPPLE_STAGE


# --- §5d terrain and invariant 8 ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("terrain", "move", "left"),
    [
        ("bad", 5, 2),
        ("very_bad", 5, 1),
        ("very_bad", 2, 0),
        ("waist_deep_water", 7, 3),
        ("dark", 5, 5),
        ("tight", 5, 5),
    ],
)
def test_terrain_cuts_move_rounding_down(terrain: str, move: int, left: int) -> None:
    assert terrain_move(move, terrain) == left


def test_terrains_together() -> None:
    effects = terrain_effects(6, [Terrain.WAIST_DEEP_WATER, Terrain.DARK, Terrain.TIGHT])
    assert (effects.move, effects.swing_modifier) == (3, -2)
    assert effects.lighting_penalty and effects.all_combat_is_close
    with pytest.raises(OutsideCanon):
        terrain_effects(6, ["bad", "waist_deep_water"])


@pytest.mark.parametrize(
    ("declared", "first_roll", "counts"),
    [(3, 5, True), (5, 5, False), (7, 5, False), (9, None, True)],
)
def test_terrain_and_boss_count_only_if_declared_before_the_first_die(
    declared: int, first_roll: int | None, counts: bool
) -> None:
    assert declared_in_time(declared, first_roll) is counts


# --- §5e surprise ------------------------------------------------------------------------------


def test_partial_surprise_loses_the_first_turn_and_total_needs_iq() -> None:
    assert acts_this_turn("partial", 1) is False
    assert acts_this_turn("partial", 2) is True
    assert acts_this_turn("total", 3) is None
    with pytest.raises(InvalidValue) as caught:
        acts_this_turn("partial", 0)
    assert caught.value.message == TURN_TOO_LOW


def test_total_surprise_rolls_iq_plus_6_with_combat_reflexes() -> None:
    bonus = _signed(re.search(r"testa a \*\*(\+\d+)\*\*", canon_section("# 5e. Surpresa"))[1])
    check = total_surprise_roll(ScriptedSource([6, 5, 4]), 9, combat_reflexes=True)
    assert check.roll.effective_level == 9 + bonus
    assert check.acts and check.has_active_defence
    stuck = total_surprise_roll(ScriptedSource([6, 5, 4]), 9)
    assert not stuck.acts and not stuck.has_active_defence


# --- §4.10 resolve_attack ----------------------------------------------------------------------


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


# --- properties of the sequence ----------------------------------------------------------------

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


# --- §4.8 head 14: which weapon falls --------------------------------------------------------


def test_the_only_weapon_in_hand_falls_without_a_die():
    from gurps.combat import draw_dropped_weapon

    assert draw_dropped_weapon(ScriptedSource([]), 1).index == 0
    assert draw_dropped_weapon(ScriptedSource([]), 0).index is None


@pytest.mark.parametrize(
    ("in_hand", "die", "index"),
    [(2, 1, 0), (2, 3, 0), (2, 4, 1), (2, 6, 1), (3, 2, 0), (3, 3, 1), (3, 6, 2)],
)
def test_with_two_weapons_a_fair_draw_picks_which_falls(in_hand, die, index):
    from gurps.combat import draw_dropped_weapon

    drawn = draw_dropped_weapon(ScriptedSource([die]), in_hand)
    assert (drawn.index, drawn.die) == (index, die)


def test_more_than_three_weapons_in_hand_is_the_mestres_draw():
    from gurps.combat import draw_dropped_weapon
    from gurps.errors import OutsideCanon

    with pytest.raises(OutsideCanon):
        draw_dropped_weapon(ScriptedSource([]), 4)
