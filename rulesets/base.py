"""The ``Ruleset`` interface: one object per rule system, made of parts (DESIGN.md, «Rulesets»).

Each part is a ``Protocol``; a ruleset may lack any part but ``dice`` (the 001 system has combat
only), and the agnostic code asks ``ruleset.part is not None`` before it offers what the part does,
saying in Portuguese what the campaign's system does not have (``RulesetLacksPart``).

Parts and who fills them:

- ``dice``      — dice expressions and the one random source (``rulesets.base.DicePart``)
- ``checks``    — a check's level or target, the roll, the contest, the exact odds
- ``sheets``    — the sheet's data model, derive with explanations, the Árbitro's checks, the diff
- ``combat``    — turn order, the turn's budget, acting, start-of-turn and timed effects
- ``procedure`` — how the session procedure's asks resolve (natively, or as a pendência)
- ``pages``     — the rules pages' chapters and tables, the readings, the published vocabularies

Pure Python: no Django import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from rulesets.vocabulary import ClosedSet


class RulesetError(Exception):
    """Base of this package's errors; the message is Portuguese, for the user."""


class UnknownRuleset(RulesetError):
    """A key that no registered ruleset has."""


class RulesetLacksPart(RulesetError):
    """The campaign's ruleset has no such part (e.g. a combat-only system has no sheets)."""


class DicePart(Protocol):
    """Dice expressions and rolling them with the one random source."""


class ChecksPart(Protocol):
    """A check's level or target, the roll against it, contests and the exact odds."""


class SheetsPart(Protocol):
    """The sheet's data model, what derives from it (with explanations), the Árbitro's checks."""


class CombatPart(Protocol):
    """Turn order, the turn's budget, acting, start-of-turn and timed effects."""


class ProcedurePart(Protocol):
    """How the session procedure's asks (saves, exhaustion, disadvantage) resolve."""


class PagesPart(Protocol):
    """The rules pages' chapters and tables, the readings and the published vocabularies.

    What the rules pages (/regras/) and the rules API show of a system, as data: nothing here
    computes a rule. The table and setting shapes are the canon's (``gurps.tabular.CanonTable``,
    ``gurps.house.HouseSetting``, ``gurps.readings.Reading``): the pages read their attributes.
    """

    def vocabularies(self, table: Mapping[str, Sequence[tuple[str, str]]]) -> tuple[ClosedSet, ...]:
        """Every closed set the API and the MCP tools take in this system, in the order they are
        published (``GET /api/v1/rules/vocabularies``), with Portuguese labels and the canon
        section of each. ``table``: the site's own sets by name, as ``(key, label)`` choices of
        its models ("posture", "combatant_kind", "roll_kind"), for the system to publish those
        it uses under its own title and section."""
        ...

    def chapters(self) -> Sequence[tuple[str, str]]:
        """``(number, title)`` of the rules text's chapters, in order ("4", "Combate")."""
        ...

    def section_titles(self) -> Mapping[str, str]:
        """Section number → its heading ("4.3" → "Manobras"), every section of the text."""
        ...

    def tables(self) -> Sequence[Any]:
        """The text's tables, sorted by section (each with ``key``, ``title``, ``section``,
        ``decided``, ``columns``, ``rows`` … as ``gurps.tabular.CanonTable``)."""
        ...

    def house_settings(self) -> Sequence[Any]:
        """The campaign's house settings (as ``gurps.house.HouseSetting``), in order; () if
        the system has none."""
        ...

    def readings(self) -> Sequence[Any]:
        """The open readings the site uses until the Árbitro decides (as
        ``gurps.readings.Reading``: ``key``, ``section``, ``question``, ``answer``)."""
        ...


@dataclass(frozen=True)
class Ruleset:
    """One rule system: its registry key, its Portuguese label and its parts."""

    key: str
    label: str
    dice: DicePart
    checks: ChecksPart | None = None
    sheets: SheetsPart | None = None
    combat: CombatPart | None = None
    procedure: ProcedurePart | None = None
    pages: PagesPart | None = None

    def part(self, name: str) -> Any:
        """The part called ``name``; raises ``RulesetLacksPart`` (Portuguese) if it is missing."""
        found = getattr(self, name, None)
        if found is None:
            raise RulesetLacksPart(f"O sistema de regras «{self.label}» não tem a parte «{name}».")
        return found
