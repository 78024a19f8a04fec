"""The general dice engine (``dice``): reading, writing, rolling and the exact distribution."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

import dice
from dice import InvalidDice, Pool, parse
from dice.errors import DICE_COUNT, KEEP_COUNT, NO_SIDES, NO_TERM, SIDES, TOO_MANY_FACES
from rulesets.standard_dice import STANDARD_DICE
from tests.gurps.helpers import ScriptedSource


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("1d8+3", (Pool(1, 8), 3)),
        ("1d20", (Pool(1, 20),)),
        ("d20", (Pool(1, 20),)),
        ("2d20kh1", (Pool(2, 20, 1),)),
        ("4d6kh3", (Pool(4, 6, 3),)),
        ("2d20kl1", (Pool(2, 20, 1, lowest=True),)),
        ("2D20KL1", (Pool(2, 20, 1, lowest=True),)),
        ("3d6−2", (Pool(3, 6), -2)),
        (" 1d20 + 5 - 1d4 ", (Pool(1, 20), 5, Pool(1, 4, negative=True))),
        ("-1d4", (Pool(1, 4, negative=True),)),
        ("7", (7,)),
        ("−3", (-3,)),
        ("100d100", (Pool(100, 100),)),
    ],
)
def test_it_reads_general_expressions(text: str, terms: tuple) -> None:
    assert parse(text).terms == terms


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("0d6", DICE_COUNT),
        ("101d6", DICE_COUNT),
        ("1d0", SIDES),
        ("1d1", SIDES),
        ("1d101", SIDES),
        ("d", NO_SIDES),
        ("3d", NO_SIDES),
        ("1d6kh2", KEEP_COUNT.format(keep=2, count=1)),
        ("2d20kl0", KEEP_COUNT.format(keep=0, count=2)),
        ("2d6+", NO_TERM),
    ],
)
def test_it_refuses_bad_expressions_in_portuguese(text: str, reason: str) -> None:
    with pytest.raises(InvalidDice) as caught:
        parse(text)
    assert (caught.value.text, caught.value.reason) == (text, reason)
    assert str(caught.value) == f"Expressão de dados inválida «{text}»: {reason}"


@pytest.mark.parametrize(
    "text", ["", "   ", "x", "1.5d6", "1d6 kh1", "1 d6", "2d20kh", "1d6++1", "1d6x", "3d6d6"]
)
def test_it_refuses_other_text(text: str) -> None:
    with pytest.raises(InvalidDice) as caught:
        parse(text)
    assert caught.value.text == text
    assert str(caught.value).startswith("Expressão de dados inválida")


def test_it_refuses_more_terms_than_the_limit() -> None:
    with pytest.raises(InvalidDice):
        parse("+".join(["1"] * (dice.MAX_TERMS + 1)))
    assert parse("+".join(["1"] * dice.MAX_TERMS)).constant == dice.MAX_TERMS


def test_it_refuses_numbers_too_long_to_read() -> None:
    for text in ("1d6+" + "9" * 5000, "1" * 10 + "d6"):
        with pytest.raises(InvalidDice):
            parse(text)
    assert parse("1d6+999999999").constant == 999_999_999


def test_a_pool_built_in_code_is_checked() -> None:
    with pytest.raises(InvalidDice):
        Pool(0, 6)
    with pytest.raises(InvalidDice):
        Pool(2, 6, keep=3)
    with pytest.raises(InvalidDice):
        Pool(2, 6, lowest=True)
    with pytest.raises(InvalidDice):
        dice.Expression(())


@pytest.mark.parametrize(
    ("text", "canonical", "display"),
    [
        ("2d20KH1 + 5", "2d20kh1+5", "2d20kh1+5"),
        ("d8−1", "1d8-1", "1d8−1"),
        ("-1d4+2d6kl1-0", "-1d4+2d6kl1+0", "−1d4+2d6kl1+0"),
        ("-1", "-1", "−1"),
    ],
)
def test_it_writes_the_canonical_form(text: str, canonical: str, display: str) -> None:
    assert (str(parse(text)), parse(text).display) == (canonical, display)


def test_a_roll_draws_each_die_in_order_from_the_source() -> None:
    rolled = dice.roll(parse("4d6kh3+1d4-2"), ScriptedSource([3, 6, 1, 6, 4]))
    assert rolled.faces == (3, 6, 1, 6, 4)
    assert rolled.pools[0].kept == (0, 1, 3)
    assert rolled.total == 3 + 6 + 6 + 4 - 2


def test_keep_lowest_keeps_the_earlier_die_of_a_tie() -> None:
    rolled = dice.roll(parse("3d20kl1"), ScriptedSource([5, 2, 2]))
    assert (rolled.pools[0].kept, rolled.total) == ((1,), 2)


def test_a_subtracted_pool_subtracts() -> None:
    assert dice.roll(parse("10-1d4"), ScriptedSource([3])).total == 7


def test_a_seeded_source_gives_the_same_roll() -> None:
    expression = parse("4d6kh3")
    assert dice.roll(expression, random.Random(7)) == dice.roll(expression, random.Random(7))


def test_the_distribution_of_3d6_counts_216_ways() -> None:
    counts = dice.counts(parse("3d6"))
    assert list(counts.values()) == [1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1]
    assert dice.outcomes(parse("3d6")) == 216
    assert dice.chance_at_most(parse("3d6"), 10) == Fraction(108, 216)


def test_the_distribution_of_a_constant_is_certain() -> None:
    assert dice.distribution(parse("-4")) == {-4: Fraction(1)}


def test_4d6_keep_3_has_its_known_mean() -> None:
    # 15869/1296 ≈ 12.24, the textbook figure for 4d6 drop the lowest.
    mean = sum(total * p for total, p in dice.distribution(parse("4d6kh3")).items())
    assert mean == Fraction(15869, 1296)


def test_every_face_order_is_enumerated_for_2d20kh1() -> None:
    counts = Counter(max(a, b) for a, b in product(range(1, 21), repeat=2))
    assert dice.counts(parse("2d20kh1")) == dict(sorted(counts.items()))


def test_the_engine_is_pure_and_loads_icepool_only_for_odds() -> None:
    # The bottom layer: no Django, no ruleset; icepool (~0.27 s to import) waits for the odds.
    code = (
        "import sys, dice; dice.roll(dice.parse('4d6kh3'), __import__('random').Random(1)); "
        "print(sorted(m for m in ('django', 'gurps', 'icepool') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_standard_dice_part_is_the_engine_as_it_is() -> None:
    part = STANDARD_DICE
    expression = part.parse("2d20kh1 + 3")
    assert (part.format(expression), part.display(part.parse("1d4-1"))) == ("2d20kh1+3", "1d4−1")
    assert part.roll(expression, ScriptedSource([7, 15])) == ((7, 15), 18)
    assert part.distribution(part.parse("1d2"))[2] == Fraction(1, 2)


def test_the_exact_distribution_of_too_many_dice_is_refused_not_computed_for_minutes() -> None:
    with pytest.raises(InvalidDice) as caught:
        dice.distribution(parse("100d100kh50"))
    assert caught.value.reason == TOO_MANY_FACES
    assert sum(dice.distribution(parse("100d6")).values()) == 1  # at the limit: 600
