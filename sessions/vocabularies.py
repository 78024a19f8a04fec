"""The closed vocabularies the API and the MCP tools take (docs/DESIGN.md,
invariant 13 (Closed sets are published); ``campaigns.vocabulary`` makes enums of them), asked of
the campaign's ruleset: the system's own sets come from its pages part (``PagesPart.vocabularies``),
the session procedure's from the table's models here. Nothing is written twice.
``GET /api/v1/rules/vocabularies?ruleset=`` publishes one ruleset's.

The API's schema is one for the site: its fields take the default ruleset's sets, read as this
module's attributes in capitals (``vocabularies.MANEUVER`` is the "maneuver" set of ``gurps3e``).
"""

from __future__ import annotations

from functools import cache

from campaigns.vocabulary import Term, Vocabulary
from rulesets.registry import GURPS3E, ruleset_for
from sessions.models import Combatant, Exploration, ExplorationTimer, Roll

DEFAULT_RULESET = GURPS3E

# The site's own closed sets a ruleset may publish (``PagesPart.vocabularies``'s ``table``).
TABLE_CHOICES: dict[str, list[tuple[str, str]]] = {
    "posture": Combatant.Posture.choices,
    "combatant_kind": Combatant.Kind.choices,
    "roll_kind": Roll.Kind.choices,
}

# The session procedure's sets: the same whatever the system.
PROCEDURE = (
    Vocabulary(
        "danger",
        "Níveis de perigo (Tabela A)",
        "procedimento",
        tuple(Term(v, label) for v, label in Exploration.Danger.choices),
    ),
    Vocabulary(
        "timer_kind",
        "Marcadores de tempo",
        "procedimento",
        tuple(Term(v, label) for v, label in ExplorationTimer.Kind.choices),
    ),
)


@cache
def vocabularies(ruleset: str = DEFAULT_RULESET) -> dict[str, Vocabulary]:
    """Every closed set a campaign of ``ruleset`` takes, by name, in the published order: the
    system's (none if it has no pages part), then the procedure's. ``UnknownRuleset``
    (Portuguese) for a key no ruleset has."""
    pages = ruleset_for(ruleset).pages
    own = pages.vocabularies(TABLE_CHOICES) if pages is not None else ()
    found = [Vocabulary(s.name, s.title, s.section, s.terms) for s in own]
    return {v.name: v for v in (*found, *PROCEDURE)}


def __getattr__(name: str) -> Vocabulary:
    """``MANEUVER`` → the default ruleset's "maneuver" set (the site's one API schema)."""
    if name.isupper():
        found = vocabularies().get(name.lower())
        if found is not None:
            return found
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
