"""The ``Ruleset`` interface: one object per rule system, made of parts (docs/DESIGN.md,
«Rulesets»).

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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, Protocol

from dice import RandomSource

if TYPE_CHECKING:
    from procedure.asks import Ask, Cost, Resolution, Texts
    from rulesets.vocabulary import ClosedSet


class RulesetError(Exception):
    """Base of this package's errors; ``.message`` is Portuguese, for the user, and ``.field``
    names the input at fault (``""`` when none does)."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class UnknownRuleset(RulesetError):
    """A key that no registered ruleset has."""


class RulesetLacksPart(RulesetError):
    """The campaign's ruleset has no such part (e.g. a combat-only system has no sheets)."""


# What a missing part is, in the words a user reads (``Ruleset.part``'s refusal).
PART_WORDS = {
    "checks": "testes fora do combate (rolagens de teste pelo registro da cena)",
    "sheets": "fichas de personagem",
    "procedure": "procedimento de exploração",
    "combat": "regras de combate",
    "dice": "dados próprios",
    "pages": "páginas de regras",
}
LACKS_PART = "O sistema de regras «{label}» não tem {words}."


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


# --- checks: inputs and outputs ---------------------------------------------------------------


@dataclass(frozen=True)
class CheckRequest:
    """What a request names to roll against: a ``skill`` (with the ``attribute`` and
    ``difficulty`` of a general rule, for a skill the catalogue lacks) or an ``attribute``;
    ``base_level`` the Mestre's number, for who has no sheet (or to be checked against the
    sheet's); ``kind`` of test, if said; ``label`` the line's words; ``new_skill`` when the
    caller says the skill is new (not a misspelling). Every text as sent, stripped. A d20
    ruleset's (the Xuleta's) ``dc``: the DC or AC rolled against, and ``edge``: the advantage or
    disadvantage the Mestre says; "" and None elsewhere."""

    skill: str = ""
    attribute: str = ""
    difficulty: str = ""
    base_level: int | None = None
    kind: str = ""
    label: str = ""
    new_skill: bool = False
    dc: int | None = None
    edge: str = ""
    # A d20 ruleset's light (the Xuleta's «Llum»): ``light`` the level the Mestre says for the
    # check, ``scene_light`` the scene's own (its exploration's total darkness) when he says
    # none; "" elsewhere. Only ``light`` is part of what the request asked.
    light: str = ""
    scene_light: str = ""

    def as_dict(self) -> dict:
        """What a roll keeps of the request (the non-empty names), to recognise a replay."""
        found = {
            key: value
            for key, value in (
                ("skill", " ".join(self.skill.split())),
                ("attribute", self.attribute),
                ("difficulty", self.difficulty),
                ("new_skill", self.new_skill),
                ("edge", self.edge),
                ("light", self.light),
            )
            if value
        }
        return found if self.dc is None else {**found, "dc": self.dc}


@dataclass(frozen=True)
class LevelResult:
    """The level (or target number) one check is rolled against, and whence it came.

    ``level`` before the situation's modifiers; ``kind`` one of ``ChecksPart.kinds``; ``name``
    the skill's or attribute's name; ``text`` the log's line ("DX 14 (ficha)"); ``record`` the
    plain data a roll keeps of it (``details["level"]``, the ruleset's own keys)."""

    name: str
    level: int
    kind: str
    text: str
    record: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict:
        return dict(self.record)


@dataclass(frozen=True)
class CheckResult:
    """A rolled check: the faces, the ``total`` the ruleset compares, the ``target`` (the
    effective level: the level plus the modifiers), the ``margin`` (positive passes by that
    much; its sign convention is the ruleset's, ``success`` says which way it went), the
    ``outcome`` key (one of ``ChecksPart.outcomes``) with its Portuguese label, and a ``text``
    for the log."""

    dice: tuple[int, ...]
    total: int
    target: int
    margin: int
    outcome: str
    outcome_label: str
    success: bool
    text: str = ""


@dataclass(frozen=True)
class LevelChoice:
    """One line a roll form offers for a character: what to send (``skill`` or ``attribute``),
    the level now and the chance to pass at it, in whole percent."""

    skill: str
    attribute: str
    level: LevelResult
    percent: int


@dataclass(frozen=True)
class TableResult:
    """A roll on one of the ruleset's tables (critical miss, fright check …): the table's key
    and title, every roll's total and faces (rerolls included), the row's label, the effect's
    key, the text, the readings, and the sum the roll stores as its total."""

    table_key: str
    title: str
    rolls: tuple[int, ...]
    faces: tuple[tuple[int, ...], ...]
    row: str
    effect: str
    text: str
    readings: tuple[str, ...]
    total: int


class ChecksPart(Protocol):
    """A check's level or target, the roll against it, contests and the exact odds.

    ``sheet`` is always the plain data a homologated sheet gives its checks
    (``SheetsPart.check_data``); ``catalogue`` a zero-argument callable giving the campaign's
    skill catalogue as the ruleset reads it (called only if needed). Errors are
    ``RulesetError`` or the ruleset's own (``Ruleset.errors``), each with ``.message``."""

    kinds: Mapping[str, str]  # the test kinds a roll may have: key → Portuguese label
    outcomes: Mapping[str, str]  # outcome key → Portuguese label
    tables: Mapping[str, str]  # table key → title; {} for a ruleset without tables
    contest_kinds: tuple[str, ...]  # the kinds a contest's side may test, the default first

    def uses_sheet(self, request: CheckRequest) -> bool:
        """Whether a character's sheet gives this check's level (GURPS: not for a defence)."""
        ...

    def sheet_level(
        self, sheet: Mapping[str, Any], request: CheckRequest, catalogue: Callable[[], Any]
    ) -> LevelResult | None:
        """The level read from ``sheet``; None when the request names no line of it."""
        ...

    def given_level(self, request: CheckRequest, default_kind: str = "") -> LevelResult | None:
        """The Mestre's ``request.base_level``, named by the skill, the attribute or the label;
        None when no kind can be told (the caller asks for it)."""
        ...

    def ensure_rollable(self, level: LevelResult, modifiers: Sequence[int]) -> None:
        """Raise the ruleset's refusal when the rules forbid rolling at ``level`` plus
        ``modifiers`` (GURPS: effective level 3 or less, but a defence, §1.1)."""
        ...

    def roll(
        self, source: RandomSource, level: LevelResult, modifiers: Sequence[int]
    ) -> CheckResult:
        """Roll against ``level`` plus ``modifiers``; raises when the rules forbid the roll."""
        ...

    def contest(self, a: CheckResult, b: CheckResult) -> Literal["a", "b"] | None:
        """The winner of a contest between two rolled checks, or None on a tie."""
        ...

    def odds(self, level: int) -> Fraction:
        """The exact chance to pass at ``level``."""
        ...

    def percent(self, level: int) -> int:
        """The chance to pass at ``level`` in whole percent, as the ruleset's tables show it."""
        ...

    def choices(self, sheet: Mapping[str, Any]) -> list[LevelChoice]:
        """The lines of ``sheet`` a roll form offers, each with its level and chance."""
        ...

    def roll_table(self, key: str, source: RandomSource, options: Mapping[str, Any]) -> TableResult:
        """Roll on the table ``key`` (one of ``tables``) with its ``options``."""
        ...


# --- sheets -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetCheck:
    """One of the Árbitro's checks of a sheet: what is wrong (Portuguese) and where."""

    message: str
    field: str = ""


class SheetsPart(Protocol):
    """The sheet's data model, what derives from it (with explanations), the Árbitro's checks.

    A ruleset with its own tables (GURPS) stores its sheets in them and has ``data_model =
    None``; any other keeps a version's (and a state's) data as JSON validated by its pydantic
    ``data_model`` (and ``state_model``)."""

    data_model: Any  # a pydantic model class, or None for a ruleset with its own tables
    state_model: Any  # the same for the character's state

    def validate(self, data: Mapping[str, Any]) -> dict:
        """``data`` validated by ``data_model`` and returned as plain JSON; raises
        ``RulesetError`` naming the field."""
        ...

    def check_data(self, data: Mapping[str, Any], state: Mapping[str, Any]) -> dict:
        """What the checks read of a homologated sheet and its state (``ChecksPart``'s sheet)."""
        ...

    def derive(self, data: Mapping[str, Any], state: Mapping[str, Any]) -> Mapping[str, Any]:
        """The numbers that derive from the sheet, each with its explanation."""
        ...

    def audit(self, data: Mapping[str, Any]) -> list[SheetCheck]:
        """The Árbitro's checks of a sheet; [] when nothing is wrong."""
        ...

    def diff(self, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
        """What changed between two versions, one Portuguese line each."""
        ...

    def state_change(
        self, sheet: Mapping[str, Any] | None, state: Mapping[str, Any], hp: int, fatigue: int
    ) -> dict:
        """The state's points after the Mestre's change outside a fight (``hp``, ``fatigue``:
        signed, negative lost): ``{"hp_lost", "fatigue_lost"}``. ``sheet`` is
        ``check_data``'s (None when the character has no homologated sheet)."""
        ...


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


@dataclass(frozen=True)
class Step:
    """One line of a fight's log, as a combat part that plays the fight whole (``native``)
    answers it: ``text``; ``roll`` when a die was rolled (``kind``, ``label``, ``dice`` every
    face in the order rolled, ``total``, ``details``); ``who`` the fighter who rolled it."""

    text: str
    who: str = ""
    roll: dict | None = None


@dataclass(frozen=True)
class Played:
    """What a native combat part answers each call (``sessions.native_combat`` stores it): the
    fight's new ``state`` (plain JSON), its log's ``steps`` in order, and a summary ``text``."""

    state: dict
    steps: tuple[Step, ...]
    text: str


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
    """The rules pages' chapters and tables, the readings and the published vocabularies.

    What the rules pages (/regras/) and the rules API show of a system, as data: nothing here
    computes a rule. The table and setting shapes are every engine's (``ruletexts.CanonTable``,
    ``ruletexts.HouseSetting``; a reading as ``gurps.readings.Reading``): the pages read their attributes.
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
        ``decided``, ``columns``, ``rows`` … as ``ruletexts.CanonTable``)."""
        ...

    def house_settings(self) -> Sequence[Any]:
        """The campaign's house settings (as ``ruletexts.HouseSetting``), in order; () if
        the system has none."""
        ...

    def readings(self) -> Sequence[Any]:
        """The open readings the site uses until the Árbitro decides (as
        ``gurps.readings.Reading``: ``key``, ``section``, ``question``, ``answer``)."""
        ...

    # The text the system's rules come from, as the registers name it; "" for the canon (*Como se
    # joga*). Optional: the registers read it with ``getattr``.
    document: str

    def slips(self) -> Sequence[Any]:
        """Optional: the text's own slips (where it contradicts itself), each with ``key``,
        ``section``, ``text`` (as printed), ``against`` and ``followed`` (what the site
        follows): the registers seed each as a divergence. () for none."""
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
    # The campaign's world actions a character spends each week (the weeks are every ruleset's;
    # the number is the ruleset's house rule: A Garganta's three, §8 and `02` §11).
    world_actions_per_week: int = 3
    # The ruleset's own exception classes (besides ``RulesetError``), each with a Portuguese
    # ``.message``: what the agnostic code catches at its edges along with ``ServiceError``.
    errors: tuple[type[Exception], ...] = ()
    # The kinds of roll the ruleset's parts write besides its checks' (``ChecksPart.kinds``):
    # key → Portuguese label (the sistema001's fight: iniciativa, ataque, defesa…).
    roll_kinds: Mapping[str, str] = field(default_factory=dict)

    def roll_kind_label(self, kind: str) -> str:
        """The Portuguese label of a roll's ``kind`` as this ruleset names it (its checks' kinds,
        then its other parts' ``roll_kinds``); the key itself for one it does not name."""
        if self.checks is not None and kind in self.checks.kinds:
            return self.checks.kinds[kind]
        return self.roll_kinds.get(kind, kind)

    def part(self, name: str) -> Any:
        """The part called ``name``; raises ``RulesetLacksPart`` (Portuguese) if it is missing."""
        found = getattr(self, name, None)
        if found is None:
            words = PART_WORDS.get(name, f"a parte «{name}»")
            raise RulesetLacksPart(LACKS_PART.format(label=self.label, words=words))
        return found
