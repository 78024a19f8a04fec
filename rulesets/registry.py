"""The registry of rulesets: the key a campaign stores (``Campaign.ruleset``) → its ``Ruleset``.

``gurps3e`` is the canon's (every campaign that existed before rulesets were declared). Tests may
register a minimal ruleset of their own with ``ruleset_register`` to prove the agnostic parts are
agnostic.
"""

from __future__ import annotations

from rulesets.base import Ruleset, UnknownRuleset

GURPS3E = "gurps3e"

# key → Portuguese label, in the order the admin offers them. The adapters fill ``_RULESETS``.
LABELS: dict[str, str] = {
    GURPS3E: "GURPS Classic (Módulo Básico), com as regras da casa",
}

UNKNOWN_RULESET = "Sistema de regras desconhecido: «{key}». Os conhecidos: {known}."

_RULESETS: dict[str, Ruleset] = {}


def _builtin() -> None:
    """Register the canon's ruleset on first use (its adapters import the engine; the registry
    itself stays importable by the models without it)."""
    if GURPS3E not in _RULESETS:
        from rulesets.gurps3e import RULESET  # noqa: PLC0415  (lazy: see the docstring)

        _RULESETS.setdefault(GURPS3E, RULESET)


def ruleset_register(ruleset: Ruleset) -> None:
    """Register ``ruleset`` under its key (a later one with the same key replaces it)."""
    _builtin()
    _RULESETS[ruleset.key] = ruleset
    LABELS[ruleset.key] = ruleset.label


def ruleset_for(key: str) -> Ruleset:
    """The ruleset registered as ``key``; ``UnknownRuleset`` (Portuguese, naming the known keys)
    if none is."""
    _builtin()
    try:
        return _RULESETS[key]
    except KeyError:
        known = ", ".join(_RULESETS)
        raise UnknownRuleset(UNKNOWN_RULESET.format(key=key, known=known)) from None


def ruleset_choices() -> list[tuple[str, str]]:
    """``[(key, label)]`` of every registered ruleset, for a model field's ``choices``."""
    return [(key, label) for key, label in LABELS.items() if key == GURPS3E or key in _RULESETS]
