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

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from dice import RandomSource

if TYPE_CHECKING:
    from procedure.asks import Ask, Cost, Resolution, Texts


class RulesetError(Exception):
    """Base of this package's errors; the message is Portuguese, for the user."""


class UnknownRuleset(RulesetError):
    """A key that no registered ruleset has."""


class RulesetLacksPart(RulesetError):
    """The campaign's ruleset has no such part (e.g. a combat-only system has no sheets)."""


class DicePart(Protocol):
    """Dice expressions in the ruleset's notation, and rolling them with the one random source
    (``dice.RandomSource``: the site's ``secrets.SystemRandom()``, the tests' seeded or scripted
    one). The expression's type is the ruleset's own (GURPS: ``gurps.dice.DiceExpression``);
    ``dice`` is the general engine every part delegates to."""

    def parse(self, text: str) -> Any:
        """The expression written in ``text``; raises a ``ValueError`` whose message is
        Portuguese (GURPS: ``InvalidDiceExpression``) for text the notation refuses."""
        ...

    def format(self, expression: Any) -> str:
        """The canonical ASCII text, which ``parse`` reads back to an equal expression."""
        ...

    def display(self, expression: Any) -> str:
        """The text shown to people (GURPS: the typographic minus, ``1d−1``)."""
        ...

    def roll(self, expression: Any, source: RandomSource) -> tuple[tuple[int, ...], int]:
        """(every face in the order rolled, the total); the total may be below the minimum the
        rules allow — the caller applies it."""
        ...

    def distribution(self, expression: Any) -> dict[int, Fraction]:
        """``{total: exact probability}``, ascending; the values sum to 1."""
        ...


class ChecksPart(Protocol):
    """A check's level or target, the roll against it, contests and the exact odds."""


class SheetsPart(Protocol):
    """The sheet's data model, what derives from it (with explanations), the Árbitro's checks."""


class CombatPart(Protocol):
    """Turn order, the turn's budget, acting, start-of-turn and timed effects.

    The tracker (``sessions.combat``) keeps the fight's state; this part says the system's
    rules on it, pure: the combatants and inputs are the system's own objects (``Any`` here),
    every die comes from the ``source`` given (``rulesets.base.DicePart``'s random source), and
    a refusal is the system's error with a Portuguese message naming the field.
    """

    # --- turn order
    def turn_order(self, combatants: Any) -> tuple[Any, ...]:
        """``combatants`` (an iterable of the system's) in the order they act each round,
        the first to act first; the same combatants give the same order whatever order they
        come in."""
        ...

    # --- the turn's budget
    def actions(self) -> tuple[str, ...]:
        """The keys of what a combatant may declare on his turn (GURPS: the maneuvers)."""
        ...

    def budget(self, action: str) -> Any:
        """What declaring ``action`` gives this turn: its movement, its attacks, the defences
        it leaves until the combatant's next turn. Raises for an unknown key."""
        ...

    # --- acting
    def plan(self, attack: Any, defence: Any, target: Any, *, preview: bool = False) -> Any:
        """One attack checked and worked out before any die (its effective level with every
        modifier); ``preview`` shows a level that could not be rolled instead of refusing."""
        ...

    def act(
        self, source: Any, attack: Any, defence: Any, target: Any, *, rolled: Any = None
    ) -> Any:
        """One attack resolved with ``source``'s dice, step by step (each step its dice and
        its text); ``rolled`` an attack roll already made (the defence chosen after it)."""
        ...

    # --- start-of-turn effects
    def start_of_turn(self, combatant: Any, round_: int) -> tuple[str, ...]:
        """The keys of the checks the start of ``combatant``'s turn in ``round_`` asks before
        he acts (none: he acts), in the order they are made."""
        ...

    # --- timed effects
    def effect_lasts(self, effect: str, since_round: int, round_: int) -> bool:
        """Whether the timed ``effect`` begun in ``since_round`` still holds in ``round_``.
        Raises for an effect the system does not time."""
        ...


class ProcedurePart(Protocol):
    """How the session procedure's asks (saves, exhaustion, disadvantage) resolve.

    The procedure (``sessao-do-mestre.txt``, the engine ``procedure/``) is written in a d20
    game's terms; this part says what they are in the campaign's system. Pure; no die.
    """

    texts: Texts  # the tracker's words that name the system (``procedure.asks.Texts``)

    def resolve_ask(self, ask: Ask) -> Resolution:
        """The roll the Mestre makes for the text's ``ask`` («teste de CON DC 12», a point of
        exhaustion, DESV), the modifier it must carry announced and the log's line."""
        ...

    def running_out(self, kind: str) -> Cost:
        """What a character without ``kind`` ("food" or "water", ``procedure.supplies``) pays
        at Descansar (the text says nothing; the system's own rule)."""
        ...

    def crafted(self, passed: bool, margin: int | None) -> int:
        """«O personagem cria munição igual ao resultado do teste»: the ammunition made by the
        roll that resolved Criar's test (``margin``: the roll's, None if it has none)."""
        ...


class PagesPart(Protocol):
    """The rules pages' chapters and tables, the readings and the published vocabularies."""


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
