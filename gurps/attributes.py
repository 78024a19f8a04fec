"""The four attributes and what comes out of them (canon §2 and §2.1; book p. 12–15, 77,
134), with the halvings of Move at 3 HP or less (§5.4, p. 126) and at ST 3 or less from
fatigue (§6.2, p. 134), and the resistance rolls: Will (§7.1, p. 20) and the list of HT rolls
(§7.2).

Each rule's words, as the canon prints them, sit beside the function that computes it
(``HIT_POINTS_RULE`` above ``hit_points``...); ``CANON_TABLES`` shows them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from gurps._validate import check_attribute, require_at_least, require_int
from gurps.encumbrance import encumbrance_row
from gurps.errors import (
    BASIC_SPEED_NOT_A_NUMBER,
    NEGATIVE_FATIGUE_LOST,
    NEGATIVE_WILL_LEVEL,
    InvalidValue,
)
from gurps.tabular import CanonTable

__all__ = [
    "ATTRIBUTE_ROLES",
    "CANON_TABLES",
    "DERIVED_RULES",
    "HT_ROLLS",
    "LOW_ST_AT",
    "STAGGERED_AT",
    "WILL_HELPS_AGAINST_SHOCK",
    "WILL_ROLLS",
    "AttributeRole",
    "DerivedRule",
    "ResistanceRoll",
    "basic_speed",
    "check_attribute",
    "effective_st",
    "fatigue_points",
    "hit_points",
    "is_staggered",
    "base_move",
    "halve",
    "low_st_from_fatigue",
    "move",
    "move_halved",
    "will",
]


@dataclass(frozen=True)
class AttributeRole:
    """One row of the §2 table: an attribute and what it governs in play, in the canon's
    words."""

    attribute: str  # "st", "dx", "iq", "ht"
    abbreviation: str
    name: str
    governs: str
    section: str = "2"
    page: str = "12–13"


ATTRIBUTE_ROLES: tuple[AttributeRole, ...] = (
    AttributeRole(
        "st",
        "ST",
        "Força",
        "Dano de arma branca, quanto se carrega, agarrar e arrastar. É também a sua Fadiga.",
    ),
    AttributeRole(
        "dx",
        "DX",
        "Destreza",
        "Quase todo combate, Furtividade, Escalada, ofício de mão. Entra na Velocidade Básica.",
    ),
    AttributeRole(
        "iq", "IQ", "Inteligência", "Todo saber, política, negociação, magia. É a base da Vontade."
    ),
    AttributeRole(
        "ht",
        "HT",
        "Vitalidade",
        "Quanto dano você aguenta. É literalmente os seus Pontos de Vida. Entra na Velocidade "
        "Básica.",
    ),
)


@dataclass(frozen=True)
class DerivedRule:
    """One row of the §2.1 table, in the canon's words: the derived value, its formula, the
    book page, and ``computed_by``, the engine function that computes it."""

    name: str
    formula: str
    page: str
    computed_by: str
    section: str = "2.1"


# §5.4 (p. 126 and 99): at 3, 2 or 1 HP, Move and Dodge are halved. README reading: 0 and
# below too.
STAGGERED_AT = 3
# §6.2 (p. 134): Move does not change until ST falls to 3; from there down, it is halved.
LOW_ST_AT = 3


HIT_POINTS_RULE = DerivedRule("Pontos de Vida (PV)", "= HT", "12", "gurps.attributes.hit_points")


def hit_points(ht: int) -> int:
    """PV = HT (§2.1, p. 12). Raises InvalidValue("ht") below 1."""
    check_attribute("ht", ht)
    return ht


FATIGUE_RULE = DerivedRule("Fadiga", "= ST", "134", "gurps.attributes.fatigue_points")


def fatigue_points(st: int) -> int:
    """Fadiga = ST (§2.1, p. 134). Raises InvalidValue("st") below 1."""
    check_attribute("st", st)
    return st


BASIC_SPEED_RULE = DerivedRule(
    "Velocidade Básica",
    "= (DX + HT) ÷ 4, sem arredondar",
    "15",
    "gurps.attributes.basic_speed",
)


def basic_speed(dx: int, ht: int) -> Fraction:
    """(DX + HT) ÷ 4, never rounded (§2.1, p. 15): DX 14, HT 13 → 27/4 (6,75).
    Raises InvalidValue("dx"/"ht") below 1."""
    check_attribute("dx", dx)
    check_attribute("ht", ht)
    return Fraction(dx + ht, 4)


def is_staggered(hp_remaining: int) -> bool:
    """True at 3 HP remaining or less, 0 and negative included (§5.4, README reading)."""
    return require_int("hp_remaining", hp_remaining) <= STAGGERED_AT


def effective_st(st: int, fatigue_lost: int) -> int:
    """ST after fatigue: ST − fatigue lost, never below 0 (§6.2, p. 134: "Fadiga negativa
    não existe"). Raises InvalidValue("st") below 1, InvalidValue("fatigue_lost") if negative."""
    check_attribute("st", st)
    require_at_least("fatigue_lost", fatigue_lost, 0, NEGATIVE_FATIGUE_LOST)
    return max(0, st - fatigue_lost)


MOVE_RULE = DerivedRule(
    "Deslocamento",
    "= Velocidade Básica − nível de Carga, arredondado para baixo",
    "77",
    "gurps.attributes.move",
)


def base_move(basic_speed: Fraction, encumbrance_level: int | None) -> int:
    """Move before any halving, in levels (hexes per turn): floor(basic speed − Carga level)
    (§2.1, p. 77). ``encumbrance_level`` None means over 10×ST: Move 0 (README reading). Never
    below 0 — a reading: the canon gives no negative Move. Raises InvalidValue("basic_speed",
    "encumbrance_level") for impossible inputs."""
    if (
        isinstance(basic_speed, bool)
        or not isinstance(basic_speed, int | Fraction)
        or basic_speed < 0
    ):
        raise InvalidValue("basic_speed", BASIC_SPEED_NOT_A_NUMBER)
    if encumbrance_level is None:
        return 0
    penalty = encumbrance_row(encumbrance_level).move_penalty
    return max(0, math.floor(basic_speed + penalty))


def low_st_from_fatigue(st: int, fatigue_lost: int) -> bool:
    """True when fatigue has brought ST down to 3 or less (§6.2, p. 134: «Deslocamento não muda
    até a ST cair a 3; daí para baixo, cai à metade»). A sheet's own ST of 3, with no fatigue
    lost, has not fallen: Move stays whole. Raises InvalidValue("st") below 1,
    InvalidValue("fatigue_lost") if negative."""
    return effective_st(st, fatigue_lost) <= LOW_ST_AT and fatigue_lost > 0


def move_halved(*, hp_remaining: int | None = None, st: int | None = None, fatigue_lost: int = 0):
    """Whether Move (and Dodge, which is Move) is halved now: at 3 HP or less (§5.4, p. 126;
    0 and below included, README reading) or at ST 3 or less from fatigue (§6.2, p. 134). Both
    at once halve once (README reading). ``st`` None: no fatigue to count."""
    staggered = hp_remaining is not None and is_staggered(hp_remaining)
    return staggered or (st is not None and low_st_from_fatigue(st, fatigue_lost))


def halve(value: int) -> int:
    """Half, rounding down: the §5.4 halving of Move and Dodge (p. 126)."""
    return value // 2


def move(
    basic_speed: Fraction,
    encumbrance_level: int | None,
    *,
    hp_remaining: int | None = None,
    st: int | None = None,
    fatigue_lost: int = 0,
) -> int:
    """Move in levels (hexes per turn): ``base_move`` halved, rounding down, once if
    ``move_halved`` (3 HP or less, §5.4; ST 3 or less from fatigue, §6.2). Raises
    InvalidValue("basic_speed", "encumbrance_level", "st", "fatigue_lost") for impossible
    inputs."""
    value = base_move(basic_speed, encumbrance_level)
    if move_halved(hp_remaining=hp_remaining, st=st, fatigue_lost=fatigue_lost):
        return halve(value)
    return value


# The defences are computed in gurps.defence (§4.6–4.7); their §2.1 rows are here, with the
# others, so the table is whole.
DODGE_RULE = DerivedRule("Esquiva", "= Deslocamento", "77 e 98", "gurps.defence.dodge")
PARRY_RULE = DerivedRule("Aparar", "= NH da arma ÷ 2, para baixo", "99", "gurps.defence.parry")
FENCING_PARRY_RULE = DerivedRule(
    "Aparar com Esgrima ou Bastão", "= NH × ⅔, para baixo", "99", "gurps.defence.parry"
)
BLOCK_RULE = DerivedRule("Bloquear", "= NH de Escudo ÷ 2, para baixo", "98", "gurps.defence.block")

DERIVED_RULES: tuple[DerivedRule, ...] = (
    HIT_POINTS_RULE,
    FATIGUE_RULE,
    BASIC_SPEED_RULE,
    MOVE_RULE,
    DODGE_RULE,
    PARRY_RULE,
    FENCING_PARRY_RULE,
    BLOCK_RULE,
)


# --- §7 Testes de resistência -------------------------------------------------------------------


def will(iq: int, strong_will: int = 0, weak_will: int = 0) -> int:
    """Vontade = IQ, plus the levels of Strong Will (4 points a level), minus the levels of
    Weak Will (§7.1, p. 20). IQ 11 with Strong Will 2 → 13. Will does not help against
    combat shock (p. 20, 95, 105).

    ``iq`` 1 or more; ``strong_will`` and ``weak_will`` in levels, 0 or more. Raises
    InvalidValue("iq"/"strong_will"/"weak_will").
    """
    check_attribute("iq", iq)
    plus = require_at_least("strong_will", strong_will, 0, NEGATIVE_WILL_LEVEL)
    minus = require_at_least("weak_will", weak_will, 0, NEGATIVE_WILL_LEVEL)
    return iq + plus - minus


# §7.1 (p. 20, 95, 105): "Vontade não ajuda contra choque de combate."
WILL_HELPS_AGAINST_SHOCK = False


@dataclass(frozen=True)
class ResistanceRoll:
    """One thing the canon says is rolled against Will (§7.1) or HT (§7.2), in its words.
    ``rule_section`` is where the rule itself is; ``page`` the book page §7 cites ("" where
    it cites none)."""

    what: str
    rule_section: str
    section: str
    page: str = ""


# §7.1 cites p. 20, 95 and 105 for the list as a whole.
WILL_PAGES = "20, 95, 105"

WILL_ROLLS: tuple[ResistanceRoll, ...] = (
    ResistanceRoll("resistir a Diplomacia", "7.1", "7.1", WILL_PAGES),
    ResistanceRoll("resistir a Lábia", "7.1", "7.1", WILL_PAGES),
    ResistanceRoll("resistir a Sex Appeal", "7.1", "7.1", WILL_PAGES),
    ResistanceRoll("resistir a Interrogatório", "7.1", "7.1", WILL_PAGES),
    ResistanceRoll("resistir a Hipnotismo", "7.1", "7.1", WILL_PAGES),
    ResistanceRoll("resistir à tentativa de dominar sua mente por magia", "7.3", "7.1", WILL_PAGES),
    ResistanceRoll("manter a mira depois de ser ferido", "4.3", "7.1", WILL_PAGES),
    ResistanceRoll(
        "manter a concentração num feitiço enquanto se defende", "4.3", "7.1", WILL_PAGES
    ),
)

HT_ROLLS: tuple[ResistanceRoll, ...] = (
    ResistanceRoll("não desmaiar a 0 PV ou menos (somando Força de Vontade)", "5.4", "7.2"),
    ResistanceRoll("não morrer a −HT", "5.4", "7.2"),
    ResistanceRoll("não cair na Prostração", "5.2", "7.2"),
    ResistanceRoll("sair do Atordoamento", "5.2", "7.2"),
    ResistanceRoll("não ser nocauteado", "5.3", "7.2"),
    ResistanceRoll("cura natural", "5.6", "7.2"),
    ResistanceRoll("veneno", "5g", "7.2"),
    ResistanceRoll("doença", "5g", "7.2"),
    ResistanceRoll("fadiga de corrida", "6.1", "7.2"),
)


CANON_TABLES: tuple[CanonTable, ...] = (
    CanonTable(
        key="attributes",
        title="Os quatro atributos e o que sai deles",
        section="2",
        page="12–13",
        columns=("Atributo", "Rege, na prática"),
        rows=tuple((f"{row.abbreviation} {row.name}", row.governs) for row in ATTRIBUTE_ROLES),
        heading="# 2. Os quatro atributos e o que sai deles",
        note="Quatro números, base 10, que é a média humana.",
    ),
    CanonTable(
        key="derived",
        title="Os derivados",
        section="2.1",
        page="12, 15, 77, 98–99, 134",
        columns=("Derivado", "Conta", "Onde está no livro"),
        rows=tuple((row.name, row.formula, f"pág. {row.page}") for row in DERIVED_RULES),
        heading="## 2.1 Os derivados",
        note="A fração da Velocidade Básica não é enfeite: ela desempata iniciativa.",
    ),
    CanonTable(
        key="resistance_rolls",
        title="Testes de resistência: Vontade e HT",
        section="7.1, 7.2",
        page=WILL_PAGES,
        columns=("Testa-se", "Para", "Regra"),
        rows=tuple(
            ("Vontade" if row.section == "7.1" else "HT", row.what, f"§{row.rule_section}")
            for row in WILL_ROLLS + HT_ROLLS
        ),
        note="Vontade = IQ + Força de Vontade − Vontade Fraca. Vontade não ajuda contra choque.",
    ),
)
