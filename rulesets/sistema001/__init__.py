"""The sistema001: the combat chapter of another system (``docs/canon/outro-sistema-combate.txt``)
behind the ``Ruleset`` interface, with the engine ``sistema001/`` under it. Combat only: dice (the
common notation, ``rulesets.standard_dice``), combat (the fight played whole: ``combat``), pages
(the closed sets, the readings and slips: ``pages``); no checks, sheets or procedure.

``SISTEMA001_RULESET`` is built here and registered by ``rulesets.registry`` (never the reverse).
"""

from __future__ import annotations

from rulesets.base import Ruleset
from rulesets.sistema001.combat import COMBAT
from rulesets.sistema001.pages import PAGES
from rulesets.standard_dice import STANDARD_DICE
from sistema001.errors import Sistema001Error

SISTEMA001_RULESET = Ruleset(
    key="sistema001",
    label="Sistema 001 (capítulo de combate)",
    dice=STANDARD_DICE,
    combat=COMBAT,
    pages=PAGES,
    errors=(Sistema001Error,),
)
