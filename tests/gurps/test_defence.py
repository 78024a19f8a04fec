"""Defence (gurps.defence, canon §4.6–4.7, §4.3 Defesa Total, §4.14, §5c, §9 item 2)."""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps import defence as defence_module
from gurps.checks import Outcome
from gurps.defence import (
    ANIMAL_DODGE_CEILING,
    COMBAT_REFLEXES_BONUS,
    PARRY_BREAK_RULES,
    PARRY_BREAK_WEIGHT_RATIO,
    PARRY_RULES,
    RETREAT_BONUS,
    STUNNED_PENALTY,
    ActiveDefence,
    AttackKind,
    DefenceAllowance,
    NoDefenceCause,
    ParryKind,
    RoundDefences,
    WeaponQuality,
    animal_dodge,
    available_defences,
    block,
    can_defend,
    can_retreat,
    defence_allowance,
    defence_roll_passes,
    defence_rule,
    defence_total,
    dodge,
    parry,
    parry_break_chance,
    parry_rule,
    passive_defense,
    retreat_bonus,
    roll_defence,
    roll_parry_break,
    roll_unarmed_parry_injury,
    unarmed_parry_injures,
)
from gurps.errors import (
    BLOCKS_EXHAUSTED,
    BREAK_BY_QUALITY_ONLY_FOR_SWORDS,
    BREAK_CHANCE_NOT_IN_SIXTHS,
    DAGGER_ONLY_PARRIES,
    DAGGER_PARRIES_EXHAUSTED,
    DAGGER_PARRY_NEEDS_FENCING,
    DX_TOO_LOW,
    FENCING_PARRIES_EXHAUSTED,
    NEGATIVE_MOVE,
    NEGATIVE_PD,
    NEGATIVE_WEAPON_WEIGHT,
    NO_DAGGER_PARRY,
    NO_DEFENCE_CHOSEN,
    NO_RETREAT,
    ONE_DEFENCE_PER_ATTACK,
    PARRIES_EXHAUSTED,
    RETREAT_ONCE_PER_ROUND,
    SAME_DEFENCE_TWICE,
    UNKNOWN_ACTIVE_DEFENCE,
    UNKNOWN_ATTACK_KIND,
    UNKNOWN_NO_DEFENCE_CAUSE,
    UNKNOWN_PARRY_KIND,
    UNKNOWN_WEAPON_QUALITY,
    WEAPON_WEIGHT_NOT_A_NUMBER,
    WEAPON_WEIGHT_ZERO,
    InvalidValue,
    NoRollAtThreeOrLess,
    OutsideCanon,
)
from gurps.readings import READINGS_BY_KEY
from tests.gurps.helpers import ScriptedSource, canon_cases, canon_section, canon_table

PROPERTY = settings(database=None, deadline=None)
DEFENCES_HEADING = "## 4.7 As três defesas ativas"


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


# --- §4.6 the defence roll ---------------------------------------------------------------------


def test_the_defence_roll_rule_is_the_canons() -> None:
    text = canon_section("## 4.6 Defesa: passiva mais ativa").replace("**", "")
    assert "Jogada de defesa 3 ou 4 sempre passa, mesmo que o total seja 1 ou 2." in text
    assert "17 ou 18 sempre falha." in text


@PROPERTY
@given(st.sampled_from([3, 4]), st.integers(min_value=-30, max_value=40))
def test_a_defence_roll_of_3_or_4_always_passes(roll: int, total: int) -> None:
    assert defence_roll_passes(roll, total)


@PROPERTY
@given(st.sampled_from([17, 18]), st.integers(min_value=-30, max_value=40))
def test_a_defence_roll_of_17_or_18_always_fails(roll: int, total: int) -> None:
    assert not defence_roll_passes(roll, total)


@PROPERTY
@given(st.integers(min_value=5, max_value=16), st.integers(min_value=-30, max_value=40))
def test_any_other_defence_roll_passes_at_or_below_the_total(roll: int, total: int) -> None:
    assert defence_roll_passes(roll, total) == (roll <= total)


def test_the_defence_at_2_example_passes_on_a_4() -> None:
    case = canon_cases()["defence-at-2"]
    passed = defence_roll_passes(case["given"]["roll"], case["given"]["effective_level"])
    assert passed == (case["expect"]["outcome"] == "success")


def test_a_defence_is_rolled_even_at_a_total_of_1() -> None:
    rolled = roll_defence(ScriptedSource([1, 1, 2]), 1)
    assert (rolled.total, rolled.outcome) == (4, Outcome.CRITICAL_SUCCESS)


def test_the_jurado_example_rolls_against_12_with_every_piece_of_it() -> None:
    case = canon_cases()["jurado-block"]
    given_, expect = case["given"], case["expect"]
    text = canon_section("## 4.6 Defesa: passiva mais ativa").replace("**", "")
    assert "7 + 2 + 3 = 12" in text
    value = block(given_["shield_skill"])
    total = defence_total(value, passive_defense(given_["armour_pd"], given_["shield_pd"]))
    assert (value, total) == (expect["block"], expect["block_total"])
    assert defence_roll_passes(12, total) and not defence_roll_passes(13, total)


# --- §4.7 what each defence is good against ---------------------------------------------------


def test_the_defence_rows_keep_the_canons_words() -> None:
    rows = {row[0].split()[0]: row for row in canon_table(DEFENCES_HEADING)}
    for kind, name in [
        (ActiveDefence.DODGE, "Esquiva"),
        (ActiveDefence.BLOCK, "Bloquear"),
        (ActiveDefence.PARRY, "Aparar"),
    ]:
        rule = defence_rule(kind)
        assert rule.name == name
        assert rule.valid_against_words == rows[name][1].replace("**", "")
        assert rows[name][3].startswith(rule.details_words)
        assert (rule.section, rule.page) == ("4.7", "98–99")


@pytest.mark.parametrize("attack", list(AttackKind))
def test_dodge_is_good_against_anything_the_defender_knows_is_coming(attack: AttackKind) -> None:
    assert can_defend("dodge", attack)
    assert not can_defend("dodge", attack, aware=False)


@pytest.mark.parametrize(
    ("attack", "blocks"),
    [
        (AttackKind.HAND_WEAPON, True),  # lâmina, clava, machado, lança
        (AttackKind.THROWN, True),
        (AttackKind.ARROW, True),
        (AttackKind.SLING_STONE, True),
        (AttackKind.BULLET, False),  # "Não bloqueia bala nem feixe."
        (AttackKind.BEAM, False),
        (AttackKind.MISSILE_SPELL, True),  # §4.11 item 5
        (AttackKind.UNARMED, False),  # reading block_not_against_unarmed
    ],
)
def test_block_is_good_against_the_canons_list_and_needs_a_ready_shield(
    attack: AttackKind, blocks: bool
) -> None:
    assert can_defend(ActiveDefence.BLOCK, attack, shield_ready=True) is blocks
    assert not can_defend(ActiveDefence.BLOCK, attack, shield_ready=False)


def test_the_block_list_is_the_canons() -> None:
    text = canon_section(DEFENCES_HEADING)
    assert "Não bloqueia bala nem feixe." in text
    words = defence_rule("block").valid_against_words
    assert words == "Lâmina, clava, machado, lança, arremesso, flecha, pedra de funda"


@pytest.mark.parametrize(
    ("attack", "parries"),
    [
        (AttackKind.HAND_WEAPON, True),
        (AttackKind.UNARMED, True),  # "Aparar golpe de mão limpa com arma" (p. 99)
        (AttackKind.THROWN, False),
        (AttackKind.ARROW, False),
        (AttackKind.SLING_STONE, False),
        (AttackKind.BULLET, False),
        (AttackKind.BEAM, False),
        (AttackKind.MISSILE_SPELL, False),
    ],
)
def test_parry_is_only_against_hand_weapons_and_needs_a_ready_weapon(
    attack: AttackKind, parries: bool
) -> None:
    assert can_defend(ActiveDefence.PARRY, attack, weapon_ready=True) is parries
    assert not can_defend(ActiveDefence.PARRY, attack, weapon_ready=False)


def test_a_missile_spell_is_blocked_or_dodged_but_not_parried() -> None:
    text = canon_section("### Magia de projétil: os oito conjuntos do livro").replace("**", "")
    assert "Bloquear e Esquivar valem; Aparar, não." in text
    assert available_defences("missile_spell", shield_ready=True, weapon_ready=True) == {
        ActiveDefence.BLOCK,
        ActiveDefence.DODGE,
    }


def test_whoever_is_grappled_does_not_dodge_but_still_parries_and_blocks() -> None:
    text = canon_section("# 5c. Combate de perto").replace("**", "")
    assert "Quem está agarrado não esquiva. Aparar e bloquear seguem valendo" in text
    assert available_defences(
        "hand_weapon", shield_ready=True, weapon_ready=True, grappled=True
    ) == {ActiveDefence.BLOCK, ActiveDefence.PARRY}


@pytest.mark.parametrize("cause", list(NoDefenceCause))
def test_there_is_no_active_defence_against_a_critical_hit_backstab_ambush_or_trap(
    cause: NoDefenceCause,
) -> None:
    text = canon_section("## 4.6 Defesa: passiva mais ativa").replace("**", "")
    assert "Há ataques sem defesa ativa nenhuma: facada pelas costas, emboscada, armadilha." in text
    assert "Contra um golpe fulminante não há defesa ativa." in text
    assert "A Passiva continua valendo." in text
    assert available_defences("hand_weapon", shield_ready=True, weapon_ready=True, cause=cause) == (
        frozenset()
    )
    # passive defence still counts: the roll is against it alone
    assert defence_total(0, passive_defense(3, 2)) == 5


def test_the_defence_kinds_are_checked() -> None:
    for call, field, message in [
        (lambda: can_defend("duck", "hand_weapon"), "defence", UNKNOWN_ACTIVE_DEFENCE),
        (lambda: available_defences("catapult"), "attack", UNKNOWN_ATTACK_KIND),
        (
            lambda: available_defences("hand_weapon", cause="luck"),
            "cause",
            UNKNOWN_NO_DEFENCE_CAUSE,
        ),
    ]:
        with pytest.raises(InvalidValue) as caught:
            call()
        assert (caught.value.field, caught.value.message) == (field, message)


# --- How many a round (§4.7, §4.3, §4.14) --------------------------------------------------------

WORDS = {"uma": 1, "duas": 2, "dois": 2, "três": 3}


def _canon_round_limits() -> dict[str, int]:
    """The counts of the canon's own text: §4.7's column, §4.3's row, §4.14's list."""
    cells = {row[0].split()[0]: row[2] for row in canon_table(DEFENCES_HEADING)}
    assert cells["Esquiva"] == "Ilimitadas"
    blocks = re.fullmatch(r"(\d+) \((\d+) em Defesa Total\)", cells["Bloquear"])
    parries = re.fullmatch(
        r"(\d+) \((\d+) com duas armas, (\d+) em Defesa Total; esgrimista apara (\d+) por turno, "
        r"e quantas quiser em Defesa Total\)",
        cells["Aparar"],
    )
    manoeuvres = {row[0]: row for row in canon_table("## 4.3 Manobras")}
    all_out = manoeuvres["Defesa Total"]
    per_attack = re.search(r"(\w+) jogadas de defesa diferentes", all_out[2])[1]
    cap = re.search(r"Máximo de (\w+) Aparar e (\w+) Bloquear no turno", all_out[2])
    dagger = canon_section("## 4.14 Esgrimista com adaga — três aparadas por rodada")
    dagger = dagger.replace("**", "")
    limits = {
        "blocks": int(blocks[1]),
        "blocks_all_out": int(blocks[2]),
        "parries": int(parries[1]),
        "two_weapons": int(parries[2]),
        "parries_all_out": int(parries[3]),
        "fencer": int(parries[4]),
        "per_attack_all_out": WORDS[per_attack.lower()],
        "dagger_total": WORDS[re.search(r"apara (\w+) vezes na mesma rodada", dagger)[1]],
        "dagger_fencing": WORDS[re.search(r"(\w+) com a arma de esgrima", dagger)[1]],
        "dagger_dagger": WORDS[re.search(r"(\w+) com a adaga", dagger)[1]],
    }
    assert (WORDS[cap[1]], WORDS[cap[2]]) == (limits["parries_all_out"], limits["blocks_all_out"])
    assert limits["dagger_fencing"] + limits["dagger_dagger"] == limits["dagger_total"]
    return limits


LIMITS = _canon_round_limits()
FLAGS = [
    (all_out, fencer, two, dagger)
    for all_out in (False, True)
    for fencer in (False, True)
    for two in (False, True)
    for dagger in (False, True)
    if fencer or not dagger
]


def _expected(all_out: bool, fencer: bool, two: bool, dagger: bool) -> DefenceAllowance:
    """The canon's counts for these flags, worked out from the canon's own text."""
    if all_out:
        return DefenceAllowance(
            dodges=None,
            blocks=LIMITS["blocks_all_out"],
            parries=None if fencer else LIMITS["parries_all_out"],
            dagger_parries=None if dagger else 0,
            defences_per_attack=LIMITS["per_attack_all_out"],
        )
    if dagger:
        parries, dagger_parries = LIMITS["dagger_total"], LIMITS["dagger_dagger"]
    else:
        parries = max(
            [LIMITS["parries"]] + [LIMITS["fencer"]] * fencer + [LIMITS["two_weapons"]] * two
        )
        dagger_parries = 0
    return DefenceAllowance(
        dodges=None, blocks=LIMITS["blocks"], parries=parries, dagger_parries=dagger_parries
    )


@pytest.mark.parametrize(("all_out", "fencer", "two", "dagger"), FLAGS)
def test_the_allowance_is_the_canons_count(
    all_out: bool, fencer: bool, two: bool, dagger: bool
) -> None:
    allowance = defence_allowance(
        all_out_defense=all_out, fencer=fencer, two_weapons=two, fencer_with_dagger=dagger
    )
    assert allowance == _expected(all_out, fencer, two, dagger)


def test_the_fencer_with_a_dagger_parries_twice_with_the_sword_and_once_with_the_dagger() -> None:
    allowance = defence_allowance(fencer=True, fencer_with_dagger=True)
    assert (allowance.parries, allowance.weapon_parries, allowance.dagger_parries) == (3, 2, 1)
    state = RoundDefences(allowance).defend("parry").defend("parry").defend("parry", dagger=True)
    assert (state.parries, state.dagger_parries) == (3, 1)
    with pytest.raises(InvalidValue) as caught:
        RoundDefences(allowance).defend("parry").defend("parry").defend("parry")
    assert (caught.value.field, caught.value.message) == (
        "defence",
        FENCING_PARRIES_EXHAUSTED.format(limit=2),
    )
    with pytest.raises(InvalidValue) as caught:
        RoundDefences(allowance).defend("parry", dagger=True).defend("parry", dagger=True)
    assert (caught.value.field, caught.value.message) == (
        "dagger",
        DAGGER_PARRIES_EXHAUSTED.format(limit=1),
    )
    # ⅔ with the fencing weapon, ½ Knife −1 with the dagger (§4.14)
    assert (parry(15, "fencing"), parry(12, "knife")) == (10, 5)


def test_the_dagger_rule_is_for_whoever_has_fencing() -> None:
    with pytest.raises(InvalidValue) as caught:
        defence_allowance(fencer_with_dagger=True)
    assert (caught.value.field, caught.value.message) == (
        "fencer_with_dagger",
        DAGGER_PARRY_NEEDS_FENCING,
    )
    with pytest.raises(InvalidValue) as caught:
        RoundDefences(defence_allowance(fencer=True)).defend("parry", dagger=True)
    assert (caught.value.field, caught.value.message) == ("dagger", NO_DAGGER_PARRY)
    with pytest.raises(InvalidValue) as caught:
        allowance = defence_allowance(fencer=True, fencer_with_dagger=True)
        RoundDefences(allowance).defend("dodge", dagger=True)
    assert (caught.value.field, caught.value.message) == ("dagger", DAGGER_ONLY_PARRIES)


def test_a_second_parry_or_block_in_a_normal_turn_is_refused() -> None:
    state = RoundDefences(defence_allowance()).defend("parry").defend("block")
    with pytest.raises(InvalidValue) as caught:
        state.defend("parry")
    assert caught.value.message == PARRIES_EXHAUSTED.format(limit=1)
    with pytest.raises(InvalidValue) as caught:
        state.defend("block")
    assert caught.value.message == BLOCKS_EXHAUSTED.format(limit=1)
    # dodge is unlimited
    for _ in range(20):
        state = state.defend("dodge")
    assert (state.dodges, state.remaining("dodge"), state.remaining("parry")) == (20, None, 0)


def test_all_out_defense_gives_two_different_defences_against_the_same_attack() -> None:
    state = RoundDefences(defence_allowance(all_out_defense=True))
    state = state.defend("parry", "block").defend("dodge", "parry").defend("block", "dodge")
    assert (state.parries, state.blocks, state.dodges) == (2, 2, 2)
    for defences, message in [
        (("parry", "parry"), SAME_DEFENCE_TWICE),
        (("parry", "block", "dodge"), ONE_DEFENCE_PER_ATTACK),
        ((), NO_DEFENCE_CHOSEN),
    ]:
        with pytest.raises(InvalidValue) as caught:
            RoundDefences(defence_allowance(all_out_defense=True)).defend(*defences)
        assert (caught.value.field, caught.value.message) == ("defence", message)
    with pytest.raises(InvalidValue) as caught:
        RoundDefences(defence_allowance()).defend("parry", "block")
    assert caught.value.message == ONE_DEFENCE_PER_ATTACK
    with pytest.raises(InvalidValue) as caught:
        state.defend("parry")
    assert caught.value.message == PARRIES_EXHAUSTED.format(limit=2)


def test_a_fencer_in_all_out_defense_parries_as_often_as_he_likes() -> None:
    state = RoundDefences(defence_allowance(all_out_defense=True, fencer=True))
    for _ in range(50):
        state = state.defend("parry")
    assert (state.parries, state.remaining("parry")) == (50, None)


@pytest.mark.parametrize(("all_out", "fencer", "two", "dagger"), FLAGS)
def test_the_allowance_can_be_used_up_to_its_limit(
    all_out: bool, fencer: bool, two: bool, dagger: bool
) -> None:
    expected = _expected(all_out, fencer, two, dagger)
    state = RoundDefences(
        defence_allowance(
            all_out_defense=all_out, fencer=fencer, two_weapons=two, fencer_with_dagger=dagger
        )
    )
    dagger_parries = expected.dagger_parries or 0
    for index in range(expected.parries if expected.parries is not None else 30):
        state = state.defend("parry", dagger=index < dagger_parries)
    for _ in range(expected.blocks):
        state = state.defend("block")
    assert state.remaining("block") == 0


flag_sets = st.sampled_from(FLAGS)
one_attack = st.tuples(
    st.lists(st.sampled_from(list(ActiveDefence)), min_size=0, max_size=3),
    st.booleans(),
    st.booleans(),
)


@PROPERTY
@given(flag_sets, st.lists(one_attack, max_size=15))
def test_the_tracker_never_allows_more_than_the_rule(
    flags: tuple[bool, bool, bool, bool], attacks: list
) -> None:
    expected = _expected(*flags)
    all_out, fencer, two, dagger = flags
    state = RoundDefences(
        defence_allowance(
            all_out_defense=all_out, fencer=fencer, two_weapons=two, fencer_with_dagger=dagger
        )
    )
    retreats = 0
    for defences, with_dagger, retreat in attacks:
        try:
            state = state.defend(*defences, dagger=with_dagger, retreat=retreat)
        except InvalidValue:
            continue
        assert 1 <= len(set(defences)) == len(defences) <= expected.defences_per_attack
        retreats += retreat
    assert retreats <= 1
    if expected.parries is not None:
        assert state.parries <= expected.parries
    assert state.blocks <= expected.blocks
    if expected.dagger_parries is not None:
        assert state.dagger_parries <= expected.dagger_parries
    if dagger and not all_out:
        assert state.parries - state.dagger_parries <= LIMITS["dagger_fencing"]


# --- Retreat (§9 item 2, p. 109) ---------------------------------------------------------------


def test_retreat_is_plus_3_once_a_round_and_not_sitting_kneeling_or_stunned() -> None:
    text = canon_section("# 9. Divergências abertas").replace("**", "")
    bonus = re.search(
        r"soma ([+−]\d+) em qualquer bloquear, aparar ou esquivar, uma vez por rodada", text
    )
    assert int(bonus[1]) == RETREAT_BONUS == retreat_bonus()
    assert "não se recua sentado, ajoelhado nem atordoado (pág. 109)" in text
    for posture in ("sitting", "kneeling", "stunned"):
        assert not can_retreat(**{posture: True})
        with pytest.raises(InvalidValue) as caught:
            retreat_bonus(**{posture: True})
        assert (caught.value.field, caught.value.message) == ("retreat", NO_RETREAT)
    state = RoundDefences(defence_allowance()).defend("dodge", retreat=True)
    assert state.retreated
    with pytest.raises(InvalidValue) as caught:
        state.defend("dodge", retreat=True)
    assert (caught.value.field, caught.value.message) == ("retreat", RETREAT_ONCE_PER_ROUND)
    assert state.defend("dodge").dodges == 2


# --- Animal dodge (§4.7) ------------------------------------------------------------------------


def test_the_animal_dodge_ceiling_is_the_canons() -> None:
    text = canon_section(DEFENCES_HEADING)
    found = re.search(
        r"Animal esquiva com metade do Deslocamento ou metade da DX, o que for maior, teto (\d+)\.",
        text,
    )
    assert int(found[1]) == ANIMAL_DODGE_CEILING


@pytest.mark.parametrize(
    ("move", "dx", "expected"),
    [(14, 12, 7), (6, 15, 7), (24, 10, 10), (7, 9, 4), (0, 1, 0), (40, 40, 10)],
)
def test_an_animal_dodges_at_half_move_or_half_dx_rounded_down_up_to_10(
    move: int, dx: int, expected: int
) -> None:
    assert animal_dodge(move, dx) == expected


@PROPERTY
@given(st.integers(min_value=0, max_value=60), st.integers(min_value=1, max_value=40))
def test_an_animal_dodge_is_never_above_the_ceiling(move: int, dx: int) -> None:
    value = animal_dodge(move, dx)
    assert value <= ANIMAL_DODGE_CEILING
    assert value == min(ANIMAL_DODGE_CEILING, max(move // 2, dx // 2))
    assert animal_dodge(move, dx, combat_reflexes=True, stunned=True) == value - 3


def test_an_animal_dodge_refuses_bad_input() -> None:
    with pytest.raises(InvalidValue) as caught:
        animal_dodge(-1, 10)
    assert (caught.value.field, caught.value.message) == ("move", NEGATIVE_MOVE)
    with pytest.raises(InvalidValue) as caught:
        animal_dodge(5, 0)
    assert (caught.value.field, caught.value.message) == ("dx", DX_TOO_LOW)


# --- Weapons breaking on a parry (§4.7, p. 74 and 99) -------------------------------------------


def test_the_break_chances_are_the_canons() -> None:
    text = canon_section(DEFENCES_HEADING).replace("**", "")
    found = re.search(
        r"Quebra de arma ao aparar: (\d+)/(\d+) de chance se a arma que vem pesa (\d+) vezes ou "
        r"mais que a sua\. Espada barata: (\d+)/(\d+)\. Espada de qualidade superior: "
        r"(\d+)/(\d+)\. Espada de altíssima qualidade: nunca\. \(pág\. 74 e 99\)",
        text,
    )
    n = [int(group) for group in found.groups()]
    assert PARRY_BREAK_WEIGHT_RATIO == n[2]
    assert {rule.quality: rule.chance for rule in PARRY_BREAK_RULES} == {
        WeaponQuality.STANDARD: Fraction(n[0], n[1]),
        WeaponQuality.CHEAP: Fraction(n[3], n[4]),
        WeaponQuality.FINE: Fraction(n[5], n[6]),
        WeaponQuality.VERY_FINE: 0,
    }
    assert all((rule.section, rule.page) == ("4.7", "74 e 99") for rule in PARRY_BREAK_RULES)


@pytest.mark.parametrize(
    ("incoming", "own", "quality", "chance"),
    [
        (3, 1, "standard", Fraction(1, 3)),
        ("4,5", Fraction(3, 2), "standard", Fraction(1, 3)),
        (2.9, 1, "standard", 0),
        (6, 1, "cheap", Fraction(2, 3)),
        (6, 1, "fine", Fraction(1, 6)),
        (60, 1, "very_fine", 0),
        (2, 1, "cheap", 0),  # reading parry_break_weight_and_quality
    ],
)
def test_a_parrying_sword_breaks_by_weight_and_quality(
    incoming: object, own: object, quality: str, chance: Fraction
) -> None:
    assert parry_break_chance(incoming, own, quality=quality, sword=True) == chance


def test_only_a_swords_quality_has_a_break_chance_in_the_canon() -> None:
    assert parry_break_chance(3, 1) == Fraction(1, 3)
    with pytest.raises(OutsideCanon) as caught:
        parry_break_chance(9, 1, quality="cheap")
    assert (caught.value.rule, caught.value.message) == ("4.7", BREAK_BY_QUALITY_ONLY_FOR_SWORDS)


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        ({"incoming_kg": -1, "own_kg": 1}, "incoming_kg", NEGATIVE_WEAPON_WEIGHT),
        ({"incoming_kg": 1, "own_kg": "um"}, "own_kg", WEAPON_WEIGHT_NOT_A_NUMBER),
        ({"incoming_kg": 1, "own_kg": 0}, "own_kg", WEAPON_WEIGHT_ZERO),
        ({"incoming_kg": 1, "own_kg": 1, "quality": "rusty"}, "quality", UNKNOWN_WEAPON_QUALITY),
    ],
)
def test_the_break_chance_refuses_bad_input(kwargs: dict, field: str, message: str) -> None:
    with pytest.raises(InvalidValue) as caught:
        parry_break_chance(**kwargs)
    assert (caught.value.field, caught.value.message) == (field, message)


@pytest.mark.parametrize(
    ("chance", "die", "breaks"),
    [
        (Fraction(1, 3), 2, True),
        (Fraction(1, 3), 3, False),
        (Fraction(2, 3), 4, True),
        (Fraction(2, 3), 5, False),
        (Fraction(1, 6), 1, True),
        (Fraction(1, 6), 2, False),
    ],
)
def test_the_break_is_rolled_on_1d(chance: Fraction, die: int, breaks: bool) -> None:
    rolled = roll_parry_break(ScriptedSource([die]), chance)
    assert (rolled.die, rolled.breaks) == (die, breaks)


def test_a_weapon_that_never_breaks_rolls_nothing() -> None:
    rolled = roll_parry_break(ScriptedSource([]), Fraction(0))
    assert (rolled.die, rolled.breaks) == (None, False)


@pytest.mark.parametrize("chance", [Fraction(1, 4), Fraction(-1, 6), Fraction(7, 6), "x", True])
def test_a_break_chance_must_be_in_sixths(chance: object) -> None:
    with pytest.raises(InvalidValue) as caught:
        roll_parry_break(ScriptedSource([1]), chance)
    assert (caught.value.field, caught.value.message) == ("chance", BREAK_CHANCE_NOT_IN_SIXTHS)


# --- Parrying a bare-handed blow (§4.7, p. 99) ---------------------------------------------------


def test_parrying_a_bare_handed_blow_may_injure_the_attacker() -> None:
    text = canon_section(DEFENCES_HEADING).replace("**", "")
    assert "role de novo contra o NH da arma; passando, rola dano normal. (pág. 99)" in text
    assert unarmed_parry_injures(12, 12) and not unarmed_parry_injures(13, 12)
    rolled = roll_unarmed_parry_injury(ScriptedSource([6, 6, 1]), 12)
    assert (rolled.roll.total, rolled.injures) == (13, False)
    assert roll_unarmed_parry_injury(ScriptedSource([3, 3, 4]), 12).injures
    with pytest.raises(NoRollAtThreeOrLess):
        roll_unarmed_parry_injury(ScriptedSource([]), 3)


# --- The readings, the tables and the import order ------------------------------------------------


def test_every_reading_the_module_names_exists() -> None:
    named = set(re.findall(r"reading\s+``(\w+)``", inspect.getsource(defence_module)))
    assert named >= {
        "two_weapons_parries_any_hand",
        "animal_dodge_rounds_down",
        "dodge_almost_anything",
        "unaware_no_active_defence",
        "block_not_against_unarmed",
        "thrown_weapon_parry_is_the_parrying_weapon",
        "parry_break_weight_and_quality",
    }
    assert named <= READINGS_BY_KEY.keys()


def test_the_defence_tables_are_in_the_rulebook() -> None:
    keys = {table.key for table in defence_module.CANON_TABLES}
    assert keys == {"active_defences", "parry_break", "fencer_with_dagger"}
    table = next(t for t in defence_module.CANON_TABLES if t.key == "active_defences")
    assert table.heading == DEFENCES_HEADING
    assert [list(row) for row in table.rows] == [
        [cell.replace("**", "") for cell in row] for row in canon_table(DEFENCES_HEADING)
    ]


def test_the_module_imports_alone() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import gurps.defence"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
