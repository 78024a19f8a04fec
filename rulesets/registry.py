"""The registry of rulesets: the key a campaign stores (``Campaign.ruleset``) → its ``Ruleset``.

``gurps3e`` is the canon's (every campaign that existed before rulesets were declared). Tests may
register a minimal ruleset of their own with ``ruleset_register`` to prove the agnostic parts are
agnostic.
"""

from __future__ import annotations

from rulesets.base import Ruleset, RulesetError, UnknownRuleset

GURPS3E = "gurps3e"

UNKNOWN_RULESET = "Sistema de regras desconhecido: «{key}». Os conhecidos: {known}."

# key → Portuguese label, in the order the admin offers them; a key here that no adapter has
# registered yet is still offered (the label is enough for a choice).
LABELS: dict[str, str] = {
    GURPS3E: "GURPS Classic (Módulo Básico), com as regras da casa",
}

_RULESETS: dict[str, Ruleset] = {}


def ruleset_register(ruleset: Ruleset) -> Ruleset:
    """Add (or replace) ``ruleset`` under its key; returns it. The adapters call it on import;
    tests call it for a ruleset of their own (and ``ruleset_unregister`` after)."""
    _RULESETS[ruleset.key] = ruleset
    LABELS.setdefault(ruleset.key, ruleset.label)
    return ruleset


def ruleset_unregister(key: str) -> None:
    """Forget ``key`` (a test's ruleset); the canon's cannot be forgotten."""
    if key != GURPS3E:
        _RULESETS.pop(key, None)
        LABELS.pop(key, None)


def _load_builtin() -> None:
    # The canon's adapter registers itself on import; imported here, late, so that
    # ``rulesets.gurps3e`` may import this module.
    if GURPS3E not in _RULESETS:
        import rulesets.gurps3e  # noqa: F401


def ruleset_for(key: str) -> Ruleset:
    """The ruleset stored under ``key``. Raises ``UnknownRuleset`` (Portuguese) otherwise."""
    _load_builtin()
    try:
        return _RULESETS[key]
    except KeyError:
        known = ", ".join(sorted(_RULESETS))
        raise UnknownRuleset(UNKNOWN_RULESET.format(key=key, known=known)) from None


def ruleset_choices() -> list[tuple[str, str]]:
    """``[(key, label)]`` of every registered ruleset, for a model field's ``choices``."""
    _load_builtin()
    return list(LABELS.items())


def rule_errors() -> tuple[type[Exception], ...]:
    """Every exception class a registered ruleset's parts raise with a Portuguese ``.message``
    (``RulesetError`` first): what a page or the API catches beside ``ServiceError``."""
    _load_builtin()
    found: list[type[Exception]] = [RulesetError]
    for ruleset in _RULESETS.values():
        found.extend(error for error in ruleset.errors if error not in found)
    return tuple(found)


def dice_readable(text: str) -> None:
    """Refuse ``text`` unless some registered ruleset's dice read it (a request's first check,
    before its campaign is known; the service reads it again with the campaign's ruleset).
    Raises the canon's ruleset's error, with its Portuguese ``.message``."""
    _load_builtin()
    first = None
    for ruleset in (_RULESETS[GURPS3E], *(r for k, r in _RULESETS.items() if k != GURPS3E)):
        try:
            ruleset.dice.parse(text)
            return
        except rule_errors() as error:
            first = first or error
    raise first
