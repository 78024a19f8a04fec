"""The registry of rulesets: the key a campaign stores (``Campaign.ruleset``) → its ``Ruleset``.

``gurps3e`` is the canon's (every campaign that existed before rulesets were declared). Tests may
register a minimal ruleset of their own with ``ruleset_register`` to prove the agnostic parts are
agnostic.
"""

from __future__ import annotations

GURPS3E = "gurps3e"

# key → Portuguese label, in the order the admin offers them. The adapters fill ``_RULESETS``.
LABELS: dict[str, str] = {
    GURPS3E: "GURPS Classic (Módulo Básico), com as regras da casa",
}


def ruleset_choices() -> list[tuple[str, str]]:
    """``[(key, label)]`` of every registered ruleset, for a model field's ``choices``."""
    return list(LABELS.items())
