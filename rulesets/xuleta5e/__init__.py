"""The Xuleta (``docs/canon/xuleta-5e-ca.txt``, a d20 quick-rules sheet in Catalan) behind the
``Ruleset`` interface, with the engine ``xuleta/`` under it (issue 22). Each part in its module:
dice (the common notation, ``rulesets.standard_dice``), checks, sheets, combat (a fight played
whole, as the sistema001's), procedure (the session procedure's asks resolved natively) and
pages; a module whose part is not built holds None.

``XULETA5E_RULESET`` is built here and registered by ``rulesets.registry`` (never the reverse).
"""

from __future__ import annotations

import dice
from rulesets.base import Ruleset
from rulesets.standard_dice import StandardDice
from rulesets.xuleta5e.checks import CHECKS
from rulesets.xuleta5e.combat import COMBAT, ROLL_KINDS
from rulesets.xuleta5e.pages import PAGES
from rulesets.xuleta5e.procedure import PROCEDURE
from rulesets.xuleta5e.sheets import SHEETS
from xuleta.errors import XuletaError

KEY = "xuleta5e"
LABEL = "Xuleta (d20, regles ràpides)"


class XuletaDice(StandardDice):
    """The common notation (1d20, 2d8+3, 4d6k3); an unreadable text refused as this system's
    error (one of ``Ruleset.errors``, with its Portuguese ``.message``)."""

    def parse(self, text: str) -> dice.Expression:
        try:
            return super().parse(text)
        except dice.InvalidDice as error:
            raise XuletaError(str(error), "expression") from None


XULETA5E_RULESET = Ruleset(
    key=KEY,
    label=LABEL,
    dice=XuletaDice(),
    checks=CHECKS,
    sheets=SHEETS,
    combat=COMBAT,
    procedure=PROCEDURE,
    pages=PAGES,
    errors=(XuletaError,),
    roll_kinds={**ROLL_KINDS, "group": "Prova de grup"},
)
