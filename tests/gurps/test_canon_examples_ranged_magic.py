"""The canon's worked examples for distance and magic (§4.11, §6.4), read from
docs/cases/canon-examples.json: the numbers come from the file, never copied here."""

from __future__ import annotations

import pytest

from gurps.magic import spell_casting
from gurps.ranged import aim_bonus, missile_damage, range_modifier, range_row
from tests.gurps.helpers import canon_cases, case_registry

CASES = canon_cases()
CHECKS, checks = case_registry()


@checks("range-9m", "range-5m-running")
def _range(given: dict, expect: dict) -> None:
    assert range_modifier(given["distance_m"], given["speed_mps"]) == expect["modifier"]
    if "row_m" in expect:
        assert range_row(given["distance_m"], given["speed_mps"]).max_m == expect["row_m"]


@checks("acc-capped")
def _acc_capped(given: dict, expect: dict) -> None:
    first_turn = aim_bonus(1, given["accuracy"], given["skill"])
    assert first_turn == expect["aim_bonus_first_turn"]


@checks("mana-floor-9")
def _mana_floor_9(given: dict, expect: dict) -> None:
    casting = spell_casting(given["floor"], given["spell_cost"], magery=1)
    assert casting.effective_level_bonus == expect["effective_level_bonus"]
    assert casting.fatigue_cost == expect["fatigue_cost"]


@checks("explosive-fireball")
def _explosive_fireball(given: dict, expect: dict) -> None:
    assert str(missile_damage("Bola de Fogo Explosiva", given["energy"])) == expect["damage"]


@pytest.mark.parametrize("case_id", sorted(CHECKS))
def test_the_engine_gives_the_canons_numbers_for(case_id: str) -> None:
    case = CASES[case_id]
    CHECKS[case_id](case["given"], case["expect"])


def test_these_cases_are_the_distance_and_magic_ones_of_the_file() -> None:
    assert set(CHECKS) <= set(CASES)
    assert {CASES[case_id]["section"] for case_id in CHECKS} == {"4.11", "6.4"}
