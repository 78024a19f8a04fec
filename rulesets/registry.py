"""The registry of rulesets: the key a campaign stores (``Campaign.ruleset``) → its ``Ruleset``.

``gurps3e`` is the canon's (every campaign that existed before rulesets were declared). Tests may
register a minimal ruleset of their own with ``ruleset_register`` to prove the agnostic parts are
agnostic.
"""

from __future__ import annotations

from functools import cache

from rulesets.base import Ruleset, UnknownRuleset

GURPS3E = "gurps3e"

# key → Portuguese label, in the order the admin offers them. The adapters fill ``_RULESETS``.
LABELS: dict[str, str] = {
    GURPS3E: "GURPS Classic (Módulo Básico), com as regras da casa",
}


def ruleset_choices() -> list[tuple[str, str]]:
    """``[(key, label)]`` of every registered ruleset, for a model field's ``choices``."""
    return list(LABELS.items())


def ruleset_for(key: str) -> Ruleset:
    """The registered ruleset a campaign's ``key`` names; ``UnknownRuleset`` (Portuguese) if none.

    Minimal (branch ``procedure``): gurps3e with its procedure part only; the ``core`` branch
    fills the other parts and the registry proper.
    """
    found = _rulesets().get(key)
    if found is None:
        raise UnknownRuleset(f"Sistema de regras desconhecido: «{key}».")
    return found


@cache
def _rulesets() -> dict[str, Ruleset]:
    from rulesets.gurps3e.procedure import PROCEDURE

    # dice: the core branch's DicePart; nothing here rolls.
    return {GURPS3E: Ruleset(key=GURPS3E, label=LABELS[GURPS3E], dice=None, procedure=PROCEDURE)}  # type: ignore[arg-type]
