"""The whole §4.10 sequence (``gurps.combat.resolve_attack``) replayed on scripted dice, one
issue case at a time: critical hits on the table (§4.8), critical misses, the fencer's third
parry with a dagger (§4.14), who dies when (§5.4, §5.4.1), major wounds and shock (§5.1–5.2).

Every script holds exactly the dice the canon's sequence asks for (three faces per 3d roll,
one per damage die); each test ends with the script empty, so a roll too many fails on an
empty script and a roll too few leaves dice behind.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

import pytest

from gurps.checks import Outcome
from gurps.combat import (
    AttackInput,
    DefenceChoice,
    DefenceInput,
    StepNumber,
    TargetInput,
    resolve_attack,
)
from gurps.defence import ActiveDefence, RoundDefences, defence_allowance, parry
from gurps.errors import (
    DAGGER_PARRIES_EXHAUSTED,
    FENCING_PARRIES_EXHAUSTED,
    InvalidValue,
)
from gurps.house import house_death_checks
from gurps.injury import StunCause, hp_thresholds
from gurps.rolling import Modifier
from gurps.tables import CRITICAL_HEAD, CRITICAL_HIT, CRITICAL_MISS, HitEffect, MissEffect
from tests.gurps.helpers import ScriptedSource, canon_cases, canon_section, canon_table

CASES = canon_cases()

CRITICAL_HIT_HEADING = "### Tabela de Golpes Fulminantes (MB pág. 202)"
CRITICAL_HEAD_HEADING = "### Tabela de Golpes Fulminantes na Cabeça (MB pág. 202)"
CRITICAL_MISS_HEADING = "### Tabela de Erros Críticos"
LADDER = "## 5.4 Os limiares de PV"
HOUSE_DEATH = "## 5.4.1 Quem morre quando — regra de casa"

# §4.8: "todo dobro e triplo se refere ao dano básico dos dados" — the table's words.
FACTOR_WORDS = {"Dobro do dano.": 2, "Triplo do dano.": 3}
# The death check's title in the scene log.
DEATH_CHECK = "Teste de morte (HT básico)"
MAJOR_WOUND_ROLL = "Prostração (perdeu mais que HT/2)"


# --- Reading the canon ------------------------------------------------------------------------


def _totals(label: str) -> tuple[int, ...]:
    """The 3d totals of a table row's first cell: "5", "9, 10, 11", "15 a 18"."""
    if match := re.fullmatch(r"(\d+) a (\d+)", label):
        return tuple(range(int(match[1]), int(match[2]) + 1))
    return tuple(int(part) for part in label.split(", "))


def _canon_row(heading: str, total: int) -> str:
    """The canon's words for ``total`` on the 3d table under ``heading``, markdown removed."""
    for label, text in canon_table(heading):
        if total in _totals(label):
            return text.replace("*", "")
    raise AssertionError(f"no row for {total} under {heading!r}")


def _wound_multiplier(name: str) -> Fraction:
    """The §4.9 multiplier of the damage type whose row starts with ``name`` ("Corte")."""
    for kind, cell in canon_table("### Da rolagem ao PV perdido"):
        if kind.startswith(name):
            if match := re.fullmatch(r"\+(\d+)%, arredondando para baixo", cell):
                return 1 + Fraction(int(match[1]), 100)
            return Fraction(int(re.fullmatch(r"× (\d+)", cell)[1]))
    raise AssertionError(name)


def _location_penalty(word: str) -> int:
    """The §5.5 penalty to the attack for aiming at ``word`` ("cabeça")."""
    text = canon_section("## 5.5 Lesões incapacitantes")
    return int(re.search(rf"{word} \*\*(−\d+)\*\*", text)[1].replace("−", "-"))


CUT = _wound_multiplier("Corte")


# --- Building the inputs and the dice ------------------------------------------------------------


def _3d(total: int) -> list[int]:
    """Three d6 faces summing to ``total`` (3..18)."""
    first = min(6, total - 2)
    second = min(6, total - first - 1)
    return [first, second, total - first - second]


def _attack(**kwargs) -> AttackInput:
    base = {"name": "Hoplita", "skill": 12, "damage": "1d+2", "damage_type": "cut"}
    return AttackInput(**{**base, **kwargs})


def _defence(*choices: tuple[str, int], **kwargs) -> DefenceInput:
    base = {"name": "Alvo", "maneuver": "move_and_attack", "passive_defense": 1}
    chosen = tuple(DefenceChoice(kind, level) for kind, level in choices)
    return DefenceInput(**{**base, "choices": chosen, **kwargs})


def _target(**kwargs) -> TargetInput:
    return TargetInput(**{"ht": 10, "hp": 20, "dr": 0, "kind": "player_character", **kwargs})


# An ordinary hit at skill 12 (10: no critical), then a Dodge 5 + PD 1 = 6 that fails (12).
HIT = [*_3d(10)]
DODGE = ("dodge", 5)
FAILED_DODGE = [*_3d(12)]


def _titled(result, title: str):
    return [step for step in result.steps if step.title == title]


# --- 1. Critical hit: no defence roll, the table rolled and applied (§4.6, §4.8) ----------------


@pytest.mark.parametrize("attack_faces", [(1, 1, 1), (1, 1, 2)], ids=["3", "4"])
def test_a_critical_hit_rolls_no_defence_and_a_table_6_doubles_the_basic_dice(
    attack_faces: tuple[int, int, int],
) -> None:
    # 1d+2 cut: the die 4 → 6; the table's 6 doubles it → 12; DR 3 → 9; cut +50% → 13.
    factor = FACTOR_WORDS[_canon_row(CRITICAL_HIT_HEADING, 6)]
    source = ScriptedSource([*attack_faces, *_3d(6), 4, *_3d(10)])
    result = resolve_attack(source, _attack(), _defence(("dodge", 9)), _target(dr=3))

    assert result.attack_roll.outcome is Outcome.CRITICAL_SUCCESS
    assert result.hit and result.critical_hit and not result.defended
    # §4.6 "Contra um golpe fulminante não há defesa ativa": no defence roll at all.
    assert result.defence_rolls == () and result.defences_used == ()
    assert not any(step.dice for step in result.steps if step.number is StepNumber.DEFENCE_ROLL)
    table = result.critical_table
    assert (table.table_key, table.total) == (CRITICAL_HIT.key, 6)
    assert table.row.text == _canon_row(CRITICAL_HIT_HEADING, 6)
    assert table.effect == HitEffect.DOUBLE
    assert result.damage_dice == (4,)
    assert result.wound.rolled == factor * (4 + 2) == 12
    assert result.wound.penetrating == 12 - 3
    assert result.hp_lost == math.floor((12 - 3) * CUT) == 13
    assert result.hp_after == 20 - 13
    consequences = result.consequences
    assert consequences.shock == -13
    # 13 > HT/2: HT roll 10 against HT 10 passes — stunned, standing; and §5.2: a critical
    # hit received stuns.
    assert consequences.stun_causes == (StunCause.MAJOR_WOUND, StunCause.CRITICAL_HIT_RECEIVED)
    assert not consequences.knocked_down
    assert source.values == []


def _multiplying_rows() -> list[tuple[int, int]]:
    """(3d total, factor) of every row of the critical hit table that doubles or triples."""
    rows = []
    for label, text in canon_table(CRITICAL_HIT_HEADING):
        if text.replace("*", "") in FACTOR_WORDS:
            rows += [(total, FACTOR_WORDS[text.replace("*", "")]) for total in _totals(label)]
    return rows


@pytest.mark.parametrize(("total", "factor"), _multiplying_rows())
def test_every_double_and_triple_row_multiplies_the_dice_of_a_torso_blow(
    total: int, factor: int
) -> None:
    # 1d cr, die 3, DR 0: 3 × the factor; more than HT/2 → one HT roll (10, passed).
    source = ScriptedSource([1, 1, 1, *_3d(total), 3, *_3d(10)])
    result = resolve_attack(
        source, _attack(damage="1d", damage_type="cr"), _defence(DODGE), _target(hp=30)
    )
    assert result.critical_table.total == total
    assert result.hp_lost == factor * 3
    assert source.values == []


def test_a_critical_on_3_is_not_the_books_maximum_damage() -> None:
    # §4.8's book rule ("Um 1d+2 vira 8") gave way to the table on 13/09/2026; §4.10 row 4
    # still says "3 = dano máximo" — a known slip. Table 10: normal damage; the die 1 → 3.
    book = _canon_row("## 4.8 Golpe fulminante e erro crítico", 3)
    dice, maximum = re.search(r"Um (\S+) vira (\d+)", book).groups()
    source = ScriptedSource([1, 1, 1, *_3d(10), 1])
    result = resolve_attack(source, _attack(damage=dice), _defence(DODGE), _target())
    assert result.critical_table.row.text == _canon_row(CRITICAL_HIT_HEADING, 10)
    assert result.critical_table.effect == HitEffect.NORMAL
    assert result.wound.rolled == 1 + 2 != int(maximum)
    assert result.hp_lost == math.floor(3 * CUT)
    assert source.values == []


def test_a_critical_head_shot_goes_to_the_head_table_then_the_knockout_roll() -> None:
    # Skill 15 at the head (−5 by §5.5) → 10; attack 4: critical. Head table 10: normal
    # damage to the head. 1d+2 cut, die 5 → 7; DR 2 → 5; cut → 7 HP from 12.
    penalty = _location_penalty("cabeça")
    source = ScriptedSource([1, 1, 2, *_3d(10), 5, *_3d(12), *_3d(9)])
    result = resolve_attack(
        source, _attack(skill=15, location="head"), _defence(DODGE), _target(hp=12, dr=2)
    )
    assert result.effective_level == 15 + penalty == 10
    assert result.critical_hit and result.defence_rolls == ()
    table = result.critical_table
    assert (table.table_key, table.total) == (CRITICAL_HEAD.key, 10)
    assert table.row.text == _canon_row(CRITICAL_HEAD_HEADING, 10)
    assert result.hp_lost == math.floor((7 - 2) * CUT) == 7
    assert result.hp_after == 5
    consequences = result.consequences
    assert consequences.shock == -7
    # 7 > HT/2: the HT roll (12 against 10) fails — falls, stunned.
    assert consequences.knocked_down
    assert consequences.stun_causes == (StunCause.MAJOR_WOUND, StunCause.CRITICAL_HIT_RECEIVED)
    # §5.3: a blow to the head forces an HT roll for knockout; 9 passes.
    (knockout,) = _titled(result, "Nocaute")
    assert knockout.total == 9 and knockout.level == 10
    assert not consequences.knocked_out
    assert source.values == []


@pytest.mark.parametrize("total", [12, 13])
def test_a_cutting_head_critical_of_12_or_13_takes_the_tables_fixed_hp(total: int) -> None:
    # "Cortante ou perfurante: 1 PV e a face fica marcada" / "2 PV e a face fica muito
    # marcada": no damage roll; then the head's knockout roll (9, passed).
    fixed = int(
        re.search(r"Cortante ou perfurante: (\d+) PV", _canon_row(CRITICAL_HEAD_HEADING, total))[1]
    )
    source = ScriptedSource([1, 1, 2, *_3d(total), *_3d(9)])
    result = resolve_attack(
        source, _attack(skill=15, location="head"), _defence(DODGE), _target(dr=2)
    )
    assert result.critical_table.table_key == CRITICAL_HEAD.key
    assert result.damage_dice == () and result.wound is None
    assert result.hp_lost == fixed and result.consequences.shock == -fixed
    assert result.consequences.stun_causes == (StunCause.CRITICAL_HIT_RECEIVED,)
    assert source.values == []


# --- 2. Critical miss: the table, and the attack ends (§4.8, §1.2) -----------------------------


@pytest.mark.parametrize(
    ("faces", "skill"),
    [
        ((6, 6, 6), 12),  # 18: always
        ((6, 6, 5), 12),  # 17 at 15 or less
        (tuple(_3d(CASES["crit-by-10"]["given"]["roll"])), CASES["crit-by-10"]["given"]["level"]),
    ],
    ids=["18", "17-at-12", "by-10"],
)
def test_a_critical_miss_rolls_the_miss_table_and_ends_the_attack(
    faces: tuple[int, int, int], skill: int
) -> None:
    # The table's 7: loses balance. No defence, no damage, no consequence for the target.
    source = ScriptedSource([*faces, *_3d(7)])
    result = resolve_attack(source, _attack(skill=skill), _defence(DODGE), _target(hp=12))
    assert result.attack_roll.outcome is Outcome.CRITICAL_FAILURE
    assert not result.hit and not result.critical_hit
    miss = result.critical_miss
    assert (miss.table_key, miss.total) == (CRITICAL_MISS.key, 7)
    assert miss.row.text == _canon_row(CRITICAL_MISS_HEADING, 7)
    assert miss.effect == MissEffect.LOSES_BALANCE
    assert result.defence_rolls == () and result.defences_used == ()
    assert result.damage_dice == () and result.wound is None and result.consequences is None
    assert (result.hp_lost, result.hp_after) == (0, 12)
    assert {step.number for step in result.steps} == {
        StepNumber.ATTACK_ROLL,
        StepNumber.CRITICAL_CHECK,
    }
    assert source.values == []


# --- 3. The fencer with a dagger: three parries in a round, not a fourth (§4.7, §4.14) ----------


def test_a_fencer_with_a_dagger_parries_three_attacks_of_one_round_and_not_a_fourth() -> None:
    section = canon_section("## 4.14 Esgrimista com adaga — três aparadas por rodada")
    assert "**duas com a arma de esgrima**, a **⅔** do nível" in section
    assert "**uma com a adaga**, a **½** do nível em **Faca**, com o **−1**" in section
    fencing = parry(15, "fencing")  # Esgrima 15: ⅔ → 10
    dagger = parry(13, "knife")  # Faca 13: ½ → 6, −1 → 5
    assert (fencing, dagger) == (15 * 2 // 3, 13 // 2 - 1) == (10, 5)

    pd = 2
    state = RoundDefences(defence_allowance(fencer=True, fencer_with_dagger=True))
    # Three attackers in the same round; each parry rolled against PD + parry.
    for attacker, level, with_dagger, roll in (
        ("Cavador 1", fencing, False, 9),
        ("Cavador 2", fencing, False, 12),
        ("Cavador 3", dagger, True, 7),
    ):
        state.defend("parry", dagger=with_dagger)  # still allowed: checked before the dice
        source = ScriptedSource([*HIT, *_3d(roll)])
        result = resolve_attack(
            source,
            _attack(name=attacker),
            _defence(("parry", level), passive_defense=pd),
            _target(),
        )
        assert result.defended and not result.hit
        assert result.defence_rolls[0].effective_level == pd + level
        assert result.defences_used == (ActiveDefence.PARRY,)
        state = state.defend(*result.defences_used, dagger=with_dagger)
        assert source.values == []

    assert (state.parries, state.dagger_parries) == (3, 1)
    assert state.remaining("parry") == 0
    # The fourth: neither the fencing weapon (its two are spent) nor the dagger (its one).
    with pytest.raises(InvalidValue) as caught:
        state.defend("parry")
    assert caught.value.message == FENCING_PARRIES_EXHAUSTED.format(limit=2)
    with pytest.raises(InvalidValue) as caught:
        state.defend("parry", dagger=True)
    assert caught.value.message == DAGGER_PARRIES_EXHAUSTED.format(limit=1)
    # Dodge is unlimited (§4.7): the fourth attack can still be dodged.
    assert state.remaining("dodge") is None
    state.defend("dodge")


def test_only_the_defences_rolled_count_against_the_round() -> None:
    allowance = defence_allowance(fencer=True, fencer_with_dagger=True)
    # A critical hit: no defence roll, so the parry the fencer chose is not spent.
    critical = resolve_attack(
        ScriptedSource([1, 1, 2, *_3d(10), 1]),
        _attack(),
        _defence(("parry", 10)),
        _target(),
    )
    assert critical.critical_hit and critical.defences_used == ()
    # A miss: nothing to defend.
    missed = resolve_attack(
        ScriptedSource([*_3d(14)]), _attack(), _defence(("parry", 10)), _target()
    )
    assert not missed.hit and missed.defences_used == ()
    # Defesa Total: the second defence only if the first failed (17 fails, 5 passes).
    both = resolve_attack(
        ScriptedSource([*HIT, *_3d(17), *_3d(5)]),
        _attack(),
        _defence(("parry", 10), ("dodge", 6), maneuver="all_out_defense"),
        _target(),
    )
    assert both.defended and both.defences_used == (ActiveDefence.PARRY, ActiveDefence.DODGE)
    first = resolve_attack(
        ScriptedSource([*HIT, *_3d(5)]),
        _attack(),
        _defence(("parry", 10), ("dodge", 6), maneuver="all_out_defense"),
        _target(),
    )
    assert first.defences_used == (ActiveDefence.PARRY,)
    # Against the PD alone (Ataque Total): no active defence is used.
    passive = resolve_attack(
        ScriptedSource([*HIT, *_3d(4)]), _attack(), _defence(maneuver="all_out_attack"), _target()
    )
    assert passive.defended and passive.defences_used == ()
    state = RoundDefences(allowance)
    for result in (critical, missed, passive):
        if result.defences_used:
            state = state.defend(*result.defences_used)
    assert state == RoundDefences(allowance)


# --- 4. Named NPC and boss: dead at −HT, no roll (§5.4.1) ---------------------------------------


def test_the_house_rule_rows_for_named_npcs_and_creatures() -> None:
    rows = {row[0]: row[1:] for row in canon_table(HOUSE_DEATH)}
    assert rows["NPC nomeado e chefe de encontro"] == ["−HT", "Nenhum. Morre ao cruzar a linha."]
    assert rows["Bicho de bestiário — sem nome registrado"][0] == "0 PV"
    assert rows["Bicho de bestiário — sem nome registrado"][1].startswith("Nenhum.")


@pytest.mark.parametrize("kind", ["named_npc", "boss"])
def test_a_named_npc_or_boss_dies_at_minus_ht_without_a_death_check(kind: str) -> None:
    # HT 11, 3 HP; 3d cr rolls 14 → −11 = −HT: dead on crossing the line (§5.4.1), so no
    # Prostração roll for the major wound and no death check — the script ends with the damage.
    source = ScriptedSource([*HIT, *FAILED_DODGE, 5, 5, 4])
    result = resolve_attack(
        source,
        _attack(damage="3d", damage_type="cr"),
        _defence(DODGE),
        _target(ht=11, hp=3, kind=kind),
    )
    consequences = result.consequences
    assert result.hp_after == -11
    assert consequences.dead and consequences.out_of_the_fight
    assert consequences.death_checks == 0 and not _titled(result, DEATH_CHECK)
    assert consequences.ht_roll_each_turn is None
    assert source.values == []


def test_the_same_blow_on_a_player_character_rolls_the_death_check() -> None:
    source = ScriptedSource([*HIT, *FAILED_DODGE, 5, 5, 4, *_3d(10), *_3d(11)])
    result = resolve_attack(
        source,
        _attack(damage="3d", damage_type="cr"),
        _defence(DODGE),
        _target(ht=11, hp=3),
    )
    assert result.hp_after == -11
    assert result.consequences.death_checks == 1 and not result.consequences.dead
    assert source.values == []


def test_a_named_npc_one_hp_above_minus_ht_fights_on_with_the_faint_roll() -> None:
    source = ScriptedSource([*HIT, *FAILED_DODGE, 5, 5, 4, *_3d(10)])
    result = resolve_attack(
        source,
        _attack(damage="3d", damage_type="cr"),
        _defence(DODGE),
        _target(ht=11, hp=4, kind="named_npc"),
    )
    consequences = result.consequences
    assert result.hp_after == -10
    assert not consequences.dead and not consequences.out_of_the_fight
    assert consequences.ht_roll_each_turn == 11 and consequences.staggered
    assert "faint_roll_for_named_npcs" in result.readings
    assert source.values == []


# --- 5. A player character passes, then fails, his death checks (§5.4) -------------------------


def test_a_player_character_of_ht_12_passes_at_minus_12_and_dies_failing_at_minus_17() -> None:
    ladder = CASES["ladder-ht12"]
    ht = ladder["given"]["ht"]
    first, second = ladder["expect"]["death_checks_at"][:2]
    example = re.search(
        r"Para HT 12: .*arrisca morrer em (−\d+), testa de novo em (−\d+)", canon_section(LADDER)
    )
    assert (first, second) == tuple(int(n.replace("−", "-")) for n in example.groups())

    # Blow 1: 3d cr rolls 16 from 4 HP → −12. Major wound HT roll 12: passed. Death check 11:
    # passed — he still talks and fights, at 0 HP or less (HT roll each turn) and staggered.
    source = ScriptedSource([*HIT, *FAILED_DODGE, 6, 5, 5, *_3d(12), *_3d(11)])
    blow = resolve_attack(
        source, _attack(damage="3d", damage_type="cr"), _defence(DODGE), _target(ht=ht, hp=4)
    )
    assert blow.hp_after == first
    (check,) = _titled(blow, DEATH_CHECK)
    assert (check.total, check.level, check.outcome) == (11, ht, Outcome.SUCCESS.value)
    consequences = blow.consequences
    assert consequences.death_checks == 1 and not consequences.dead
    assert not consequences.out_of_the_fight and consequences.staggered
    assert consequences.ht_roll_each_turn == ht
    assert source.values == []

    # Blow 2: 1d cr rolls 5 from −12 → −17 (5 is not more than HT/2: no major wound roll).
    # The line −12 was reached before and does not count again; −17 calls one check: 13 fails.
    source = ScriptedSource([*HIT, *FAILED_DODGE, 5, *_3d(13)])
    blow = resolve_attack(
        source,
        _attack(damage="1d", damage_type="cr"),
        _defence(DODGE),
        _target(ht=ht, hp=blow.hp_after),
    )
    assert blow.hp_after == second
    assert not _titled(blow, MAJOR_WOUND_ROLL)
    (check,) = _titled(blow, DEATH_CHECK)
    assert (check.total, check.outcome) == (13, Outcome.FAILURE.value)
    assert blow.consequences.death_checks == 1
    assert blow.consequences.dead and blow.consequences.out_of_the_fight
    assert source.values == []


# --- 6. A blow of 6 or more across two bands: two checks (§5.4) ---------------------------------


def test_the_canon_says_two_bands_crossed_by_6_or_more_are_two_checks() -> None:
    text = canon_section(LADDER)
    assert "Novo teste a cada 5 PV perdidos" in text
    assert "um golpe de 6 ou mais que cruze duas faixas obriga a **dois testes**" in text


def _blow_on_pc(hp: int, damage: str, dice: list[int], after: list[int]):
    source = ScriptedSource([*HIT, *FAILED_DODGE, *dice, *after])
    result = resolve_attack(
        source,
        _attack(damage=damage, damage_type="cr"),
        _defence(DODGE),
        _target(ht=10, hp=hp),
    )
    assert source.values == []
    return result


def test_a_blow_of_6_from_minus_9_to_minus_15_calls_two_checks() -> None:
    # HT 10: lines −10 and −15. 6 > HT/2: the major wound roll (10) first, then two checks.
    result = _blow_on_pc(-9, "1d", [6], [*_3d(10), *_3d(9), *_3d(10)])
    assert result.hp_after == -15
    assert result.consequences.death_checks == 2 and not result.consequences.dead
    assert len(_titled(result, DEATH_CHECK)) == 2


def test_a_blow_of_5_crosses_one_line_only() -> None:
    # From −9 to −14: the line −10 only; 5 is not more than HT/2: no major wound roll.
    result = _blow_on_pc(-9, "1d", [5], [*_3d(9)])
    assert result.hp_after == -14 and result.consequences.death_checks == 1


def test_a_blow_from_minus_8_to_minus_21_calls_one_check_per_line_crossed() -> None:
    # "Novo teste a cada 5 PV perdidos" after −HT: −10, −15 and −20 are crossed → three.
    result = _blow_on_pc(-8, "2d+1", [6, 6], [*_3d(10), *_3d(9), *_3d(9), *_3d(9)])
    assert result.hp_after == -21
    assert result.consequences.death_checks == 3 and not result.consequences.dead


def test_the_first_failed_check_kills_and_the_second_is_not_rolled() -> None:
    result = _blow_on_pc(-9, "1d", [6], [*_3d(10), *_3d(11)])
    assert result.consequences.dead and result.consequences.death_checks == 1


def test_only_a_blow_of_6_or_more_reaches_two_lines() -> None:
    # Lines 5 apart (§5.4): no blow of 5 or less reaches two of them; from one HP above a
    # line, a blow of 6 reaches it and the next one.
    for ht in (8, 10, 12):
        lines = hp_thresholds(ht).death_checks_at
        for hp in range(10, -5 * ht, -1):
            for lost in range(6):
                assert house_death_checks("player_character", ht, hp, hp - lost) <= 1
        for line, below in zip(lines, lines[1:], strict=False):
            assert below == line - 5
            assert house_death_checks("player_character", ht, line + 1, line - 5) == 2


# --- The creature out at 0 HP, with no death check (§5.4.1) -------------------------------------


def test_a_bestiary_creature_is_out_at_0_hp_with_no_death_check() -> None:
    source = ScriptedSource([*HIT, *FAILED_DODGE, 5])
    result = resolve_attack(
        source,
        _attack(damage="1d", damage_type="cr"),
        _defence(DODGE),
        _target(hp=5, kind="creature"),
    )
    consequences = result.consequences
    assert result.hp_after == 0
    assert consequences.out_of_the_fight and consequences.death_checks == 0
    assert consequences.ht_roll_each_turn is None
    assert source.values == []


def test_a_creature_blown_to_minus_30_rolls_none_of_the_five_checks_a_pc_would() -> None:
    # 6d cr rolls 35 from 5 HP → −30; a player character would cross −10, −15, −20, −25 and
    # −30. The creature, out at 0 HP (§5.4.1), rolls nothing after its damage: not even the
    # major wound's Prostração.
    assert house_death_checks("player_character", 10, 5, -30) == 5
    source = ScriptedSource([*HIT, *FAILED_DODGE, 6, 6, 6, 6, 6, 5])
    result = resolve_attack(
        source,
        _attack(damage="6d", damage_type="cr"),
        _defence(DODGE),
        _target(hp=5, kind="creature"),
    )
    assert result.hp_after == -30
    assert result.consequences.death_checks == 0 and result.consequences.out_of_the_fight
    assert not _titled(result, DEATH_CHECK)
    assert not any("Prostração" in step.title for step in result.steps)
    assert not result.consequences.knocked_down
    assert source.values == []


# --- Major wound and shock (§5.1, §5.2) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("ht", "lost", "ht_roll", "knocked_down"),
    [
        (10, 6, 10, False),  # more than 10/2, HT roll passed: stunned all the same
        (10, 6, 11, True),  # failed: falls and is stunned
        (10, 5, None, False),  # exactly HT/2 is not more: no roll, not stunned
        (11, 6, 12, True),  # 6 > 5½
        (11, 5, None, False),
    ],
)
def test_a_major_wound_rolls_ht_stuns_either_way_and_fells_on_a_failure(
    ht: int, lost: int, ht_roll: int | None, knocked_down: bool
) -> None:
    text = canon_section("## 5.2 Prostração e atordoamento")
    assert "**Perder mais que HT/2 num único golpe** obriga a um **teste de HT imediato**" in text
    assert "**Passou:** fica em pé, e **ainda assim fica atordoado**." in text
    after = _3d(ht_roll) if ht_roll is not None else []
    source = ScriptedSource([*HIT, *FAILED_DODGE, lost, *after])
    result = resolve_attack(
        source, _attack(damage="1d", damage_type="cr"), _defence(DODGE), _target(ht=ht)
    )
    assert result.hp_lost == lost
    rolls = _titled(result, MAJOR_WOUND_ROLL)
    assert len(rolls) == (ht_roll is not None)
    if ht_roll is not None:
        assert (rolls[0].total, rolls[0].level) == (ht_roll, ht)
    consequences = result.consequences
    assert consequences.stun_causes == ((StunCause.MAJOR_WOUND,) if ht_roll else ())
    assert consequences.knocked_down is knocked_down
    assert source.values == []


def test_shock_next_turn_equals_the_hp_lost() -> None:
    # §5.1's example: "Perdeu 3 PV: −3 em IQ, DX e em toda perícia baseada nelas".
    example = re.search(r"Perdeu (\d+) PV: (−\d+) em IQ, DX", canon_section("## 5.1 Choque"))
    lost, penalty = int(example[1]), int(example[2].replace("−", "-"))
    source = ScriptedSource([*HIT, *FAILED_DODGE, lost])
    blow = resolve_attack(
        source, _attack(damage="1d", damage_type="cr"), _defence(DODGE), _target(ht=10)
    )
    assert blow.hp_lost == lost and blow.consequences.shock == penalty
    assert not blow.consequences.stunned  # 3 is not more than HT/2
    (line,) = _titled(blow, "Choque")
    assert "só no próximo turno" in line.text
    assert source.values == []

    # His next turn: his attack (a DX-based skill) carries the shock. 11 would hit at 13;
    # at 13 − 3 = 10 it misses.
    source = ScriptedSource([*_3d(11)])
    answer = resolve_attack(
        source,
        _attack(name="Alvo", skill=13, modifiers=(Modifier(blow.consequences.shock, "choque"),)),
        _defence(("dodge", 5), name="Hoplita"),
        _target(),
    )
    assert answer.effective_level == 13 + penalty == 10
    assert not answer.hit and answer.attack_roll.total == 11
    assert source.values == []
