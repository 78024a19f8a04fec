"""The registry of rulesets: the key a campaign stores (``Campaign.ruleset``) → its ``Ruleset``.

``gurps3e`` is the canon's (every campaign that existed before rulesets were declared);
``sistema001`` the combat chapter of another system (issue 23); ``xuleta5e`` the Xuleta, a d20
quick-rules sheet (issue 22). Tests may
register a minimal ruleset of their own with ``ruleset_register`` (and ``ruleset_unregister`` it
after) to prove the agnostic parts are agnostic.

The agnostic code asks this module, never an engine (docs/DESIGN.md, «Rulesets»): the built-in
adapters are imported here, so asking for a key is enough.
"""

from __future__ import annotations

from rulesets.base import Ruleset, RulesetError, UnknownRuleset
from rulesets.gurps3e import GURPS3E_RULESET
from rulesets.sistema001 import SISTEMA001_RULESET
from rulesets.xuleta5e import XULETA5E_RULESET

GURPS3E = GURPS3E_RULESET.key
SISTEMA001 = SISTEMA001_RULESET.key
XULETA5E = XULETA5E_RULESET.key

UNKNOWN_RULESET = "Sistema de regras desconhecido: «{key}». Os conhecidos: {known}."

_RULESETS: dict[str, Ruleset] = {
    GURPS3E: GURPS3E_RULESET,
    XULETA5E: XULETA5E_RULESET,
    SISTEMA001: SISTEMA001_RULESET,
}
BUILT_IN = frozenset(_RULESETS)

# key → Portuguese label, in the order the admin offers them.
LABELS: dict[str, str] = {key: ruleset.label for key, ruleset in _RULESETS.items()}


def ruleset_register(ruleset: Ruleset) -> Ruleset:
    """Add (or replace) ``ruleset`` under its key; returns it. Tests call it for a ruleset of
    their own (and ``ruleset_unregister`` after)."""
    _RULESETS[ruleset.key] = ruleset
    LABELS[ruleset.key] = ruleset.label
    return ruleset


def ruleset_unregister(key: str) -> None:
    """Forget ``key`` (a test's ruleset); the built-in ones cannot be forgotten."""
    if key not in BUILT_IN:
        _RULESETS.pop(key, None)
        LABELS.pop(key, None)


def ruleset_for(key: str) -> Ruleset:
    """The ruleset stored under ``key``. Raises ``UnknownRuleset`` (Portuguese, naming the known
    keys) otherwise."""
    try:
        return _RULESETS[key]
    except KeyError:
        known = ", ".join(sorted(_RULESETS))
        raise UnknownRuleset(UNKNOWN_RULESET.format(key=key, known=known)) from None


def ruleset_choices() -> list[tuple[str, str]]:
    """``[(key, label)]`` of every registered ruleset, gurps3e first, for a model field's
    ``choices``."""
    return list(LABELS.items())


def house_setting(key: str, ruleset_key: str | None = None):
    """The house setting (a departure from the book, with its decision) called ``key`` in the
    ruleset ``ruleset_key`` — or in any registered ruleset's pages when None — or None."""
    rulesets = [ruleset_for(ruleset_key)] if ruleset_key else list(_RULESETS.values())
    for ruleset in rulesets:
        if ruleset.pages is None:
            continue
        for setting in ruleset.pages.house_settings():
            if setting.key == key:
                return setting
    return None


def rule_errors() -> tuple[type[Exception], ...]:
    """Every exception class a registered ruleset's parts raise with a Portuguese ``.message``
    (``RulesetError`` first): what a page or the API catches beside ``ServiceError``."""
    found: list[type[Exception]] = [RulesetError]
    for ruleset in _RULESETS.values():
        found.extend(error for error in ruleset.errors if error not in found)
    return tuple(found)


def dice_readable(text: str) -> None:
    """Refuse ``text`` unless some registered ruleset's dice read it (a request's first check,
    before its campaign is known; the service reads it again with the campaign's ruleset).
    Raises the canon's ruleset's error, with its Portuguese ``.message``."""
    first = None
    for ruleset in (_RULESETS[GURPS3E], *(r for k, r in _RULESETS.items() if k != GURPS3E)):
        try:
            ruleset.dice.parse(text)
            return
        except rule_errors() as error:
            first = first or error
    raise first
