"""The canon's ruleset: GURPS Classic (*Módulo Básico*) with the house rules, behind the
``Ruleset`` interface. Each part is a thin adapter over ``gurps/`` in a module of its own
(``dice``, ``checks``, ``sheets``, ``combat``, ``procedure``, ``pages``); nothing here computes a
rule — the engine does.
"""

from __future__ import annotations

import gurps.dice
from rulesets.base import Ruleset
from rulesets.gurps3e.pages import PAGES
from rulesets.registry import GURPS3E, LABELS

# The parts come in as their adapters are written; ``dice`` is the engine's module until its
# adapter (rulesets.gurps3e.dice) replaces it.
RULESET = Ruleset(key=GURPS3E, label=LABELS[GURPS3E], dice=gurps.dice, pages=PAGES)
