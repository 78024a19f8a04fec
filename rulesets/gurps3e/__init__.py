"""The canon's ruleset: GURPS Classic (*Módulo Básico*) with the house rules, behind the
``Ruleset`` interface. Each part is a thin adapter over ``gurps/`` in a module of its own
(``dice``, ``checks``, ``sheets``, ``combat``, ``procedure``, ``pages``); nothing here computes a
rule — the engine does.

``GURPS3E_RULESET`` is registered under ``gurps3e`` on import.
"""

from gurps.errors import GurpsError
from rulesets.base import Ruleset
from rulesets.gurps3e.checks import CHECKS
from rulesets.gurps3e.combat import COMBAT
from rulesets.gurps3e.dice import DICE
from rulesets.gurps3e.procedure import PROCEDURE
from rulesets.gurps3e.sheets import SHEETS
from rulesets.registry import GURPS3E, LABELS, ruleset_register

GURPS3E_RULESET = ruleset_register(
    Ruleset(
        key=GURPS3E,
        label=LABELS[GURPS3E],
        dice=DICE,
        checks=CHECKS,
        sheets=SHEETS,
        combat=COMBAT,
        procedure=PROCEDURE,
        errors=(GurpsError,),
    )
)
