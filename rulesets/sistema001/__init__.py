"""The sistema001: the combat chapter of another system (``docs/canon/outro-sistema-combate.txt``)
behind the ``Ruleset`` interface, with the engine ``sistema001/`` under it. Combat only: dice (the
common notation, ``rulesets.standard_dice``), combat (the fight played whole: ``combat``), pages
(the closed sets, the readings and slips: ``pages``); no checks, sheets or procedure.

``SISTEMA001_RULESET`` is built here and registered by ``rulesets.registry`` (never the reverse).
"""

from __future__ import annotations

import dice
from rulesets.base import Ruleset
from rulesets.sistema001.combat import COMBAT, ROLL_KINDS
from rulesets.sistema001.pages import PAGES
from rulesets.standard_dice import StandardDice
from sistema001.errors import Sistema001Error


class Sistema001Dice(StandardDice):
    """The common notation; an unreadable text refused as this system's error (one of
    ``Ruleset.errors``, with its Portuguese ``.message``), which the site's edges catch."""

    def parse(self, text: str) -> dice.Expression:
        try:
            return super().parse(text)
        except dice.InvalidDice as error:
            raise Sistema001Error(str(error), "expression") from None


SISTEMA001_RULESET = Ruleset(
    key="sistema001",
    label="Sistema 001 (capítulo de combate)",
    dice=Sistema001Dice(),
    combat=COMBAT,
    pages=PAGES,
    errors=(Sistema001Error,),
    roll_kinds=ROLL_KINDS,
)
