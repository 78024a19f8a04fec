"""The audit of a sheet: line by line, what does not add up, with the computation shown.

§3.1: the points in parentheses "existem para auditar a conta da ficha". This module does that
audit for a whole sheet, from plain data: its attributes, skill and trait lines, the Árbitro's
cost table (``gurps.skill_costs.CostRow`` rows) and his skill catalogue (``CatalogueSkill``).
It never refuses anything: a finding is a warning or a note, and the Árbitro may homologate a
sheet that has warnings (the decision he records says so).

Also here: what a sheet's character gets by default in every catalogued skill ("e sem a
perícia?", §3.3), through ``gurps.skills.best_default``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from gurps import skill_costs
from gurps.errors import InvalidValue
from gurps.skill_costs import (
    ATTRIBUTE_NAMES,
    CostRow,
    Price,
    Purchase,
    format_points,
    points_text,
)
from gurps.skills import (
    DIFFICULTY_NAMES,
    DefaultUsed,
    Difficulty,
    SkillKind,
    best_default,
    general_defaults,
    weigh_defaults,
)

# Above 20 is not human (§2, p. 12–13).
HUMAN_MAXIMUM = 20

ATTRIBUTES_GROUP = "Atributos"
SKILLS_GROUP = "Perícias"
SHEET_GROUP = "Ficha"
WEAPONS_GROUP = "Armas"

ATTRIBUTE_ABOVE_20 = "{name} {value}: acima de 20 não é humano (§2, pág. 12–13)."
LEVEL_NOT_BOUGHT = "A ficha diz NH {stated}, mas {computation}. {price}"
ZERO_POINTS_WITH_DEFAULT = (
    "Listada com 0 ponto: vale o pré-definido, {computation} (§3.3); a linha não compra nada."
)
ZERO_POINTS_DEFAULT_DIFFERS = "A ficha diz NH {stated}; o pré-definido dá {level}."
ZERO_POINTS_NO_DEFAULT = (
    "Listada com 0 ponto, e a perícia não tem pré-definido que a ficha alcance: não há NH (§3.3)."
)
POINTS_LEFT_OVER = "{computation}."
NO_LEVEL_NO_POINTS = "Sem NH e sem pontos: diga um dos dois."
CATALOGUE_DIFFERS = (
    "O catálogo do Árbitro diz {name} {catalogue}; a ficha diz {sheet}. O custo acima usa o da "
    "ficha."
)
NOT_IN_CATALOGUE = "Fora do catálogo do Árbitro: confira atributo e dificuldade."
UNREAD_LINES = (
    "{count} linha(s) do texto importado não foram lidas: corrija-as na ficha ou apague a lista "
    "antes de enviar."
)
NO_ACCURACY = (
    "Arma de longo alcance sem Precisão (Prec) na ficha: apontar soma +0 no primeiro turno "
    "(§4.3, §4.11). Diga a Prec da arma."
)
TOTAL_POINTS = (
    "Pontos gastos: perícias {skills}, vantagens {advantages}, desvantagens {disadvantages}, "
    "peculiaridades {quirks} — {total} sem os atributos. O cânone não traz o custo de atributos "
    "(§2 só diz o que eles valem), e o site não o soma."
)
TOTAL_CHANGE = "Em relação à versão em vigor: {change} nessas linhas."


class Severity(StrEnum):
    WARNING = "warning"
    NOTE = "note"


SEVERITY_NAMES = {Severity.WARNING: "Aviso", Severity.NOTE: "Nota"}


class FindingCode(StrEnum):
    """What a finding is about; the API publishes these as an enum."""

    ATTRIBUTE_ABOVE_20 = "attribute_above_20"
    LEVEL_NOT_BOUGHT = "level_not_bought"
    POINTS_BUY_NO_ROW = "points_buy_no_row"
    POINTS_NOT_IN_HALVES = "points_not_in_halves"
    POINTS_LEFT_OVER = "points_left_over"
    NO_SUCH_COLUMN = "no_such_column"
    ZERO_POINTS = "zero_points"
    NO_LEVEL_NO_POINTS = "no_level_no_points"
    CATALOGUE_DIFFERS = "catalogue_differs"
    NOT_IN_CATALOGUE = "not_in_catalogue"
    UNREAD_LINES = "unread_lines"
    NO_ACCURACY = "no_accuracy"
    TOTAL_POINTS = "total_points"


@dataclass(frozen=True)
class CatalogueSkill:
    """A skill of the Árbitro's catalogue as the engine reads it: ``attribute`` ("dx") and
    ``difficulty`` None where the catalogue does not say; ``defaults`` the description's list
    ("ST−5", "DX−5"; "Arremesso"), () for a skill with none, None where the book's general rule
    applies (§3.3: by difficulty; Muito Difícil has none)."""

    name: str
    attribute: str | None
    difficulty: Difficulty | None
    defaults: tuple[str, ...] | None

    def default_list(self) -> tuple[str, ...] | None:
        """The defaults to try; None when the general rule applies but the catalogue lacks the
        attribute or the difficulty it needs (the site says so, and offers no number)."""
        if self.defaults is not None:
            return self.defaults
        if self.attribute is None or self.difficulty is None:
            return None
        return general_defaults(self.difficulty, skill_costs.skill_kind_for(self.attribute))


@dataclass(frozen=True)
class SheetSkill:
    """A skill line as a sheet (or a draft being typed) has it: ``level`` or ``points`` may be
    None while the player has given only the other one."""

    name: str
    attribute: str
    difficulty: str
    level: int | None
    points: Fraction | None


@dataclass(frozen=True)
class SheetTrait:
    name: str
    kind: str  # "advantage" | "disadvantage" | "quirk"
    points: int


@dataclass(frozen=True)
class SheetWeapon:
    """A weapon line as the audit reads it: ``ranged`` whether it shoots or throws
    (``gurps.ranged.is_ranged_weapon``), ``accuracy`` its Prec, None where the sheet has none."""

    name: str
    ranged: bool
    accuracy: int | None


@dataclass(frozen=True)
class Finding:
    """One line of the audit: ``group`` and ``what`` name the sheet's line ("Perícias",
    "Escudo"); ``message`` says what does not add up, with the computation."""

    code: FindingCode
    severity: Severity
    group: str
    what: str
    message: str

    @property
    def severity_label(self) -> str:
        return SEVERITY_NAMES[self.severity]


@dataclass(frozen=True)
class SkillAudit:
    """A skill line with the table's answer side by side: ``bought`` (what the points buy) and
    ``price`` (what the level stated costs), each None with ``bought_error``/``price_error``
    saying why the table has no answer; ``default`` for a line with 0 points."""

    line: SheetSkill
    kind: SkillKind | None
    bought: Purchase | None = None
    bought_error: str = ""
    price: Price | None = None
    price_error: str = ""
    default: DefaultUsed | None = None

    @property
    def level(self) -> int | None:
        """The NH the line gives: what it states, or what its points buy."""
        if self.line.level is not None:
            return self.line.level
        if self.bought is not None:
            return self.bought.level
        return self.default.level if self.default is not None else None

    @property
    def points(self) -> Fraction | None:
        """The points the line spends: what it states, or what its level costs."""
        if self.line.points is not None:
            return self.line.points
        return self.price.points if self.price is not None else None


@dataclass(frozen=True)
class Totals:
    skills: Fraction
    advantages: int
    disadvantages: int
    quirks: int

    @property
    def total(self) -> Fraction:
        return self.skills + self.advantages + self.disadvantages + self.quirks


@dataclass(frozen=True)
class Audit:
    findings: tuple[Finding, ...]
    skills: tuple[SkillAudit, ...]
    totals: Totals

    @property
    def warnings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is Severity.WARNING)

    @property
    def notes(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is Severity.NOTE)

    @property
    def digest(self) -> str:
        """A fingerprint of the warnings (hex SHA-256): the Árbitro homologates with the
        warnings he read, and a table changed since then gives another fingerprint."""
        text = "\n".join(f"{f.code}|{f.what}|{f.message}" for f in self.warnings)
        return hashlib.sha256(text.encode()).hexdigest()

    def for_skill(self, name: str) -> SkillAudit | None:
        """The audit of the skill line named ``name`` (any case), or None."""
        return next((s for s in self.skills if s.line.name.casefold() == name.casefold()), None)


# --- one skill line ---------------------------------------------------------------------------


def _price(line, kind, table, attribute, name) -> tuple[Price | None, str, str]:
    """What the line's level costs, or the field at fault and why the table has no answer."""
    if line.level is None:
        return None, "", ""
    try:
        price = skill_costs.points_for_level(
            attribute=attribute,
            kind=kind,
            difficulty=line.difficulty,
            level=line.level,
            table=table,
            attribute_name=name,
        )
    except InvalidValue as error:
        return None, error.field, error.message
    return price, "", ""


def _bought(line, kind, table, attribute, name) -> tuple[Purchase | None, FindingCode | None, str]:
    """What the line's points buy, or the finding that says why they buy nothing."""
    if line.points is None or line.points == 0:
        return None, None, ""
    try:
        skill_costs.require_halves(line.points)
    except InvalidValue as error:
        return None, FindingCode.POINTS_NOT_IN_HALVES, error.message
    try:
        bought = skill_costs.level_bought(
            attribute=attribute,
            kind=kind,
            difficulty=line.difficulty,
            points=line.points,
            table=table,
            attribute_name=name,
        )
    except InvalidValue as error:
        code = FindingCode.NO_SUCH_COLUMN if error.field == "difficulty" else None
        return None, code or FindingCode.POINTS_BUY_NO_ROW, error.message
    return bought, None, ""


def _zero_points(line, entry, attributes, levels) -> tuple[DefaultUsed | None, str]:
    defaults = entry.default_list() if entry is not None else None
    default = None
    if defaults is not None:
        default = best_default(defaults=defaults, attributes=attributes, skills=levels)
    if default is None:
        return None, ZERO_POINTS_NO_DEFAULT
    message = ZERO_POINTS_WITH_DEFAULT.format(computation=default.computation)
    if line.level is not None and line.level != default.level:
        message += " " + ZERO_POINTS_DEFAULT_DIFFERS.format(stated=line.level, level=default.level)
    return default, message


def _level_not_bought(line, bought, price, price_error) -> str:
    said = f"NH {line.level} custaria {points_text(price.points)}." if price else price_error
    return LEVEL_NOT_BOUGHT.format(
        stated=line.level, computation=bought.computation, price=said
    ).strip()


def audit_skill(
    line: SheetSkill,
    *,
    attributes: Mapping[str, int],
    levels: Mapping[str, int],
    table: Sequence[CostRow],
    entry: CatalogueSkill | None,
) -> tuple[SkillAudit, list[Finding]]:
    """One skill line against the table (and, at 0 points, its default): the line's audit and
    its findings. ``levels`` are the sheet's skills (for a default from another skill)."""
    say = []

    def finding(code, message, severity=Severity.WARNING):
        say.append(Finding(code, severity, SKILLS_GROUP, line.name, message))

    attribute_key = line.attribute.lower()
    kind = skill_costs.skill_kind_for(attribute_key)
    name = ATTRIBUTE_NAMES[attribute_key]
    attribute = attributes[attribute_key]
    price, price_field, price_error = _price(line, kind, table, attribute, name)
    bought, code, bought_error = _bought(line, kind, table, attribute, name)
    default = None
    if line.points is not None and line.points == 0:
        default, message = _zero_points(line, entry, attributes, levels)
        finding(FindingCode.ZERO_POINTS, message)
    elif line.points is None and line.level is None:
        finding(FindingCode.NO_LEVEL_NO_POINTS, NO_LEVEL_NO_POINTS)
    elif code is not None:
        finding(code, bought_error)
    elif bought is not None and line.level is not None and bought.level != line.level:
        finding(FindingCode.LEVEL_NOT_BOUGHT, _level_not_bought(line, bought, price, price_error))
    elif bought is not None and bought.left_over:
        finding(
            FindingCode.POINTS_LEFT_OVER, POINTS_LEFT_OVER.format(computation=bought.computation)
        )
    elif bought is None and price_error:
        code = FindingCode.NO_SUCH_COLUMN if price_field == "difficulty" else None
        finding(code or FindingCode.LEVEL_NOT_BOUGHT, price_error)
    _catalogue_findings(line, entry, finding)
    audit = SkillAudit(line, kind, bought, bought_error, price, price_error, default)
    return audit, say


def _catalogue_findings(line: SheetSkill, entry: CatalogueSkill | None, finding) -> None:
    if entry is None:
        finding(FindingCode.NOT_IN_CATALOGUE, NOT_IN_CATALOGUE, Severity.NOTE)
        return
    sheet_says = (line.attribute.lower(), line.difficulty)
    attribute = entry.attribute or sheet_says[0]
    difficulty = entry.difficulty or sheet_says[1]
    if (attribute, difficulty) != sheet_says:
        finding(
            FindingCode.CATALOGUE_DIFFERS,
            CATALOGUE_DIFFERS.format(
                name=entry.name,
                catalogue=_kind_text(attribute, difficulty),
                sheet=_kind_text(*sheet_says),
            ),
        )


def _kind_text(attribute: str, difficulty: str) -> str:
    try:
        name = DIFFICULTY_NAMES[Difficulty(difficulty)]
    except ValueError:
        name = difficulty
    return f"{ATTRIBUTE_NAMES.get(attribute, attribute)}/{name}"


# --- the whole sheet ----------------------------------------------------------------------------


def _totals(skills: Sequence[SkillAudit], traits: Sequence[SheetTrait]) -> Totals:
    by_kind = {"advantage": 0, "disadvantage": 0, "quirk": 0}
    for trait in traits:
        by_kind[trait.kind] = by_kind.get(trait.kind, 0) + trait.points
    return Totals(
        skills=sum((s.points or Fraction(0) for s in skills), Fraction(0)),
        advantages=by_kind["advantage"],
        disadvantages=by_kind["disadvantage"],
        quirks=by_kind["quirk"],
    )


def _signed_points(value: Fraction) -> str:
    if value == 0:
        return "nenhuma mudança"
    sign = "+" if value > 0 else "\u2212"
    return f"{sign}{points_text(abs(value))}"


def audit_sheet(
    *,
    attributes: Mapping[str, int],
    skills: Sequence[SheetSkill],
    table: Sequence[CostRow],
    catalogue: Sequence[CatalogueSkill] = (),
    traits: Sequence[SheetTrait] = (),
    weapons: Sequence[SheetWeapon] = (),
    unread_lines: int = 0,
    previous_total: Fraction | None = None,
) -> Audit:
    """Audit a sheet: attributes above 20 (§2); each skill line against the Árbitro's ``table``
    (a level the points do not buy, points that buy no row or not in halves, left-over points,
    a column the table lacks — a physical skill marked Very Hard —, 0 points where a default
    applies, a catalogue that says another attribute or difficulty); lines of an import not
    read; a ranged weapon in ``weapons`` without Prec (aiming would add +0, §4.3); and the
    sheet's points (with the change from ``previous_total``, the points of the version in
    force, when given).

    ``attributes`` maps "st"/"dx"/"iq"/"ht" to values (1 or more); ``skills`` and ``traits``
    are the sheet's lines; ``catalogue`` the Árbitro's skills (matched by name, any case).
    Returns every finding, warnings first then notes, in the sheet's order.
    """
    attributes = {key.lower(): value for key, value in attributes.items()}
    findings: list[Finding] = []
    for key, label in ATTRIBUTE_NAMES.items():
        value = attributes[key]
        if value > HUMAN_MAXIMUM:
            findings.append(
                Finding(
                    FindingCode.ATTRIBUTE_ABOVE_20,
                    Severity.WARNING,
                    ATTRIBUTES_GROUP,
                    label,
                    ATTRIBUTE_ABOVE_20.format(name=label, value=value),
                )
            )
    catalogue_by_name = {entry.name.casefold(): entry for entry in catalogue}
    levels = {s.name: s.level for s in skills if s.level is not None}
    audits = []
    for line in skills:
        entry = catalogue_by_name.get(line.name.casefold())
        audit, said = audit_skill(
            line, attributes=attributes, levels=levels, table=table, entry=entry
        )
        audits.append(audit)
        findings.extend(said)
    for weapon in weapons:
        if weapon.ranged and weapon.accuracy is None:
            findings.append(
                Finding(
                    FindingCode.NO_ACCURACY,
                    Severity.NOTE,  # a gap in the sheet, not a count that fails
                    WEAPONS_GROUP,
                    weapon.name,
                    NO_ACCURACY,
                )
            )
    if unread_lines:
        findings.append(
            Finding(
                FindingCode.UNREAD_LINES,
                Severity.WARNING,
                SHEET_GROUP,
                "Importação",
                UNREAD_LINES.format(count=unread_lines),
            )
        )
    totals = _totals(audits, traits)
    message = TOTAL_POINTS.format(
        skills=format_points(totals.skills),
        advantages=format_points(totals.advantages),
        disadvantages=format_points(totals.disadvantages),
        quirks=format_points(totals.quirks),
        total=points_text(totals.total) if totals.total >= 0 else format_points(totals.total),
    )
    if previous_total is not None:
        message += " " + TOTAL_CHANGE.format(change=_signed_points(totals.total - previous_total))
    findings.append(
        Finding(FindingCode.TOTAL_POINTS, Severity.NOTE, SHEET_GROUP, "Pontos", message)
    )
    findings.sort(key=lambda f: f.severity is not Severity.WARNING)
    return Audit(tuple(findings), tuple(audits), totals)


# --- "e sem a perícia?" ---------------------------------------------------------------------------

NO_DEFAULT_LISTED = "Sem pré-definido: a descrição da perícia não dá nenhum (§3.3)."
NO_DEFAULT_VERY_HARD = "Sem pré-definido: Muito Difícil não tem a regra geral (§3.3)."
NO_SOURCE_ON_SHEET = "Sem pré-definido que a ficha alcance: {considered}."
CATALOGUE_INCOMPLETE = (
    "Sem número: o catálogo do Árbitro ainda não diz {missing} desta perícia, e a regra geral "
    "(§3.3) depende disso."
)


@dataclass(frozen=True)
class DefaultAnswer:
    """One catalogued skill for one sheet: ``has_skill`` with the sheet's ``level``, or the
    best ``default`` (None with ``reason`` when none is offered)."""

    skill: CatalogueSkill
    has_skill: bool
    level: int | None
    default: DefaultUsed | None
    reason: str
    general_rule: bool


def _no_default_reason(entry: CatalogueSkill, considered: tuple[str, ...]) -> str:
    if entry.defaults is None and (entry.attribute is None or entry.difficulty is None):
        missing = [
            word
            for word, value in (
                ("o atributo", entry.attribute),
                ("a dificuldade", entry.difficulty),
            )
            if value is None
        ]
        return CATALOGUE_INCOMPLETE.format(missing=" nem ".join(missing))
    if entry.defaults is None and entry.difficulty is Difficulty.VH:
        return NO_DEFAULT_VERY_HARD
    if entry.defaults is not None and not entry.defaults:
        return NO_DEFAULT_LISTED
    return NO_SOURCE_ON_SHEET.format(considered="; ".join(considered))


def sheet_defaults(
    *,
    attributes: Mapping[str, int],
    skills: Mapping[str, int],
    catalogue: Sequence[CatalogueSkill],
) -> tuple[DefaultAnswer, ...]:
    """ "E sem a perícia?": for every catalogued skill, the sheet's own level when it has the
    skill, else the best default (§3.3) with which default was used — from an attribute
    (above 20 counts as 20) or from another skill on the sheet — or why there is none.
    ``skills`` maps the sheet's skill names (any case) to their levels."""
    levels = {name.casefold(): level for name, level in skills.items()}
    answers = []
    for entry in catalogue:
        general = entry.defaults is None
        if entry.name.casefold() in levels:
            level = levels[entry.name.casefold()]
            answers.append(DefaultAnswer(entry, True, level, None, "", general))
            continue
        defaults = entry.default_list()
        used, considered = None, ()
        if defaults is not None:
            used, considered = weigh_defaults(
                defaults=defaults, attributes=attributes, skills=skills
            )
        reason = "" if used is not None else _no_default_reason(entry, considered)
        level = used.level if used is not None else None
        answers.append(DefaultAnswer(entry, False, level, used, reason, general))
    return tuple(answers)
