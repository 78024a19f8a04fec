"""The canon's ruleset: GURPS Classic (*Módulo Básico*) with the house rules, behind the
``Ruleset`` interface. Each part is a thin adapter over ``gurps/`` in a module of its own
(``dice``, ``checks``, ``sheets``, ``combat``, ``procedure``, ``pages``); nothing here computes a
rule — the engine does.

``GURPS3E_RULESET`` is built here and registered by ``rulesets.registry``, which imports this
package (never the reverse: an adapter knows nothing of the registry).
"""

from __future__ import annotations

from gurps.errors import GurpsError
from gurps.house import WORLD_ACTIONS_PER_WEEK
from rulesets.base import Ruleset
from rulesets.gurps3e.checks import CHECKS
from rulesets.gurps3e.combat import COMBAT
from rulesets.gurps3e.dice import DICE
from rulesets.gurps3e.pages import PAGES
from rulesets.gurps3e.procedure import PROCEDURE
from rulesets.gurps3e.sheets import SHEETS

GURPS3E_RULESET = Ruleset(
    key="gurps3e",
    label="GURPS Classic (Módulo Básico), com as regras da casa",
    dice=DICE,
    checks=CHECKS,
    sheets=SHEETS,
    combat=COMBAT,
    procedure=PROCEDURE,
    pages=PAGES,
    errors=(GurpsError,),
    world_actions_per_week=WORLD_ACTIONS_PER_WEEK,
)
