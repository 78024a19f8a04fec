"""The canon's worked examples for the HP ladder (§5.4, §9 item 6) and falls (§4.12), read
from docs/cases/canon-examples.json: the numbers come from the file, never copied here."""

from __future__ import annotations

import pytest

from gurps.dice import parse_dice
from gurps.falls import FallArmour, dr_against_fall, effective_fall_height, fall_damage
from gurps.injury import hp_thresholds
from tests.gurps.helpers import canon_cases, case_registry

CASES = canon_cases()
CHECKS, checks = case_registry()

# §4.12: "Armadura de metal medieval ... uma cota de malha de RD 4 protege com 2."
ARMOUR_MATERIALS = {"cota de malha": FallArmour.METAL}
ACROBATICS = {"pass": True, "fail": False}


@checks("ladder-ht12", "ladder-ht14")
def _ladder(given: dict, expect: dict) -> None:
    ladder = hp_thresholds(given["ht"])
    for key, value in expect.items():
        got = getattr(ladder, key)
        assert (list(got) if isinstance(got, tuple) else got) == value, key


@checks("fall-6m")
def _fall_6m(given: dict, expect: dict) -> None:
    assert fall_damage(given["metres"]) == parse_dice(expect["damage"])


@checks("fall-mail")
def _fall_mail(given: dict, expect: dict) -> None:
    armour = ARMOUR_MATERIALS[given["armour"]]
    assert dr_against_fall(given["dr"], armour) == expect["dr_against_fall"]


@checks("fall-acrobatics")
def _fall_acrobatics(given: list, expect: list) -> None:
    for fall, result in zip(given, expect, strict=True):
        passed = ACROBATICS[fall["acrobatics"]]
        height = effective_fall_height(fall["metres"], acrobatics_passed=passed)
        assert height == result["effective_metres"]


@pytest.mark.parametrize("case_id", sorted(CHECKS))
def test_the_engine_gives_the_canons_numbers_for(case_id: str) -> None:
    case = CASES[case_id]
    CHECKS[case_id](case["given"], case["expect"])


def test_these_are_the_five_injury_and_fall_cases() -> None:
    assert set(CHECKS) == {
        "ladder-ht12",
        "ladder-ht14",
        "fall-6m",
        "fall-mail",
        "fall-acrobatics",
    }
    assert set(CHECKS) <= set(CASES)
