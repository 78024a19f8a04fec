"""The registry of rulesets: GURPS is there, an unknown key is refused in Portuguese, a test's
ruleset comes and goes."""

from __future__ import annotations

import pytest

from rulesets.base import UnknownRuleset
from rulesets.gurps3e import GURPS3E_RULESET
from rulesets.registry import (
    GURPS3E,
    rule_errors,
    ruleset_choices,
    ruleset_for,
    ruleset_register,
    ruleset_unregister,
)
from tests.rulesets.minimal import KEY, MINIMAL


def test_gurps_is_registered_with_its_parts():
    assert ruleset_for(GURPS3E) is GURPS3E_RULESET
    assert GURPS3E_RULESET.checks.percent(10) == 50
    assert (GURPS3E, GURPS3E_RULESET.label) in ruleset_choices()


def test_an_unknown_key_is_refused_in_portuguese():
    with pytest.raises(UnknownRuleset) as refused:
        ruleset_for("d20")
    assert refused.value.message.startswith("Sistema de regras desconhecido: «d20».")


def test_a_tests_ruleset_is_offered_while_registered():
    ruleset_register(MINIMAL)
    try:
        assert ruleset_for(KEY) is MINIMAL
        assert (KEY, MINIMAL.label) in ruleset_choices()
    finally:
        ruleset_unregister(KEY)
    assert KEY not in dict(ruleset_choices())
    assert rule_errors()[0].__name__ == "RulesetError"
