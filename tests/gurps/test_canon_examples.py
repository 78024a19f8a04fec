"""Every worked example of the canon that this slice of the engine covers, read from
docs/cases/canon-examples.json: the numbers come from the file, never copied here."""

from __future__ import annotations

from fractions import Fraction

import pytest

from gurps.attributes import basic_speed, move
from gurps.checks import (
    Outcome,
    RollKind,
    effective_level,
    ensure_rollable,
    margin,
    percent_truncated,
    success_outcome,
    success_probability,
)
from gurps.damage import basic_damage, injury
from gurps.defence import block, defence_total, passive_defense
from gurps.derived import derive
from gurps.dice import parse_dice
from gurps.encumbrance import encumbrance_bounds, lift_max_kg
from gurps.errors import NoRollAtThreeOrLess
from gurps.skills import default_level, parse_skill_line
from tests.gurps.helpers import canon_cases, case_registry

CASES = canon_cases()
CHECKS, checks = case_registry()

# Cases of later slices (injury ladder, falls, range, magic): each must move to CHECKS when
# its module exists.
# The other slices of the engine check their cases in their own files; together they
# must cover every case of the file.
LATER: set[str] = set()


@checks("odds-9", "odds-12", "odds-14", "odds-16")
def _odds(given: dict, expect: dict) -> None:
    p = success_probability(given["level"])
    assert p == Fraction(expect["success_exact"])
    assert percent_truncated(p) == expect["success_percent_truncated"]


@checks("margin")
def _margin(given: dict, expect: dict) -> None:
    assert margin(given["roll"], given["level"]) == expect["margin"]
    assert success_outcome(given["roll"], given["level"]) == Outcome(expect["outcome"])


@checks("lock-modifiers")
def _lock_modifiers(given: dict, expect: dict) -> None:
    assert effective_level(10, given["modifiers"]) - 10 == expect["net"]


@checks("no-roll-at-3")
def _no_roll_at_3(given: dict, expect: dict) -> None:
    assert expect["refused"] is True
    with pytest.raises(NoRollAtThreeOrLess):
        ensure_rollable(given["effective_level"], RollKind(given["kind"]))


@checks("defence-at-2")
def _defence_at_2(given: dict, expect: dict) -> None:
    kind = RollKind(given["kind"])
    ensure_rollable(given["effective_level"], kind)  # a defence is never refused
    outcome = success_outcome(given["roll"], given["effective_level"], kind)
    assert outcome.is_success
    assert outcome.is_success == Outcome(expect["outcome"]).is_success


@checks("crit-17-at-16", "crit-17-at-15", "crit-by-10", "crit-5-at-15", "crit-6-at-15")
def _criticals(given: dict, expect: dict) -> None:
    assert success_outcome(given["roll"], given["level"]) == Outcome(expect["outcome"])


@checks("speed-fraction-order")
def _speed_fraction_order(given: dict, expect: dict) -> None:
    speeds = {}
    for who in ("a", "b"):
        speeds[who] = basic_speed(given[who]["dx"], given[who]["ht"])
        assert speeds[who] == Fraction(str(expect[who]["basic_speed"]))
        assert move(speeds[who], 0) == expect[who]["move"]
    # Move ties, so the full basic speed breaks the tie (§2.1, §4.10).
    assert expect["a"]["move"] == expect["b"]["move"]
    assert max(speeds, key=speeds.__getitem__) == expect["acts_first"]


@checks("jurado-block")
def _jurado_block(given: dict, expect: dict) -> None:
    value = block(given["shield_skill"])
    assert value == expect["block"]
    pd = passive_defense(given["armour_pd"], given["shield_pd"])
    assert defence_total(value, pd) == expect["block_total"]


@checks("jurado-carga")
def _jurado_carga(given: dict, expect: dict) -> None:
    st = given["st"]
    # The case assumes the load goes from (ST, 2×ST] to (2×ST, 3×ST]; try a load inside
    # each band and each band's inclusive top. DX 12 and HT 12 are assumed (speed 6).
    for before_kg, after_kg in ((Fraction(st * 3, 2), Fraction(st * 5, 2)), (2 * st, 3 * st)):
        before = derive(st=st, dx=12, iq=10, ht=12, carried_kg=before_kg)
        after = derive(st=st, dx=12, iq=10, ht=12, carried_kg=after_kg)
        assert (before.encumbrance.name, before.encumbrance.level) == (
            expect["before"]["encumbrance"],
            expect["before"]["level"],
        )
        assert (after.encumbrance.name, after.encumbrance.level) == (
            expect["after"]["encumbrance"],
            expect["after"]["level"],
        )
        assert after.dodge - before.dodge == expect["dodge_change"]


@checks("carga-bounds-st13")
def _carga_bounds(given: dict, expect: dict) -> None:
    keys = ("none_max_kg", "light_max_kg", "medium_max_kg", "heavy_max_kg", "xheavy_max_kg")
    bounds = encumbrance_bounds(given["st"])
    assert [kg for _, kg in bounds] == [expect[key] for key in keys]
    assert lift_max_kg(given["st"]) == expect["lift_max_kg"]


@checks("rastreador-climbing")
def _rastreador_climbing(given: dict, expect: dict) -> None:
    attributes = {"st": given["st"], "dx": given["dx"]}
    assert default_level(attributes, given["defaults"]) == expect["level"]


@checks("hoplita-lanca")
def _hoplita_lanca(given: dict, expect: dict) -> None:
    line = parse_skill_line(given["line"])
    assert (line.level, line.points) == (expect["level"], expect["points"])


@checks("hoplita-thrust")
def _hoplita_thrust(given: dict, expect: dict) -> None:
    row = basic_damage(given["st"])
    assert row.thrust == parse_dice(expect["thrust"])
    assert row.swing == parse_dice(expect["swing"])


@checks("lanca-vs-dr3", "gladio-vs-dr3")
def _injury(given: dict, expect: dict) -> None:
    assert injury(given["basic"], given["dr"], given["type"]) == expect["hp_lost"]


@pytest.mark.parametrize("case_id", sorted(CHECKS))
def test_the_engine_gives_the_canons_numbers_for(case_id: str) -> None:
    case = CASES[case_id]
    CHECKS[case_id](case["given"], case["expect"])


def test_every_canon_example_is_checked_once_by_some_slice() -> None:
    from tests.gurps.test_canon_examples_injury_falls import CHECKS as INJURY_FALLS
    from tests.gurps.test_canon_examples_ranged_magic import CHECKS as RANGED_MAGIC

    slices = [set(CHECKS), set(INJURY_FALLS), set(RANGED_MAGIC)]
    assert sum(len(s) for s in slices) == len(set().union(*slices)), "a case checked twice"
    assert set(CASES) == set().union(*slices) | LATER
