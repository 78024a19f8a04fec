"""The six abilities, their modifiers, the proficiency bonus, the skills and the usual DCs
(Xuleta, «Proves i tirades»: «Modificador segons la puntuació», «Bonificació per competència
segons el nivell», «Habilitats i la seva característica», «CD habituals»).

Every table is the text's, row by row, and the functions read it: «El modificador és
(puntuació − 10) ÷ 2, arrodonint cap avall» is what the table says for every score 1–30 (a
property test checks the two agree).
"""

from __future__ import annotations

import difflib
import unicodedata
from types import MappingProxyType

from xuleta.errors import XuletaError

# The six abilities: the API's keys, and their labels in the text's words.
STR, DEX, CON, INT, WIS, CHA = "str", "dex", "con", "int", "wis", "cha"
ABILITIES: tuple[str, ...] = (STR, DEX, CON, INT, WIS, CHA)
ABILITY_LABELS = MappingProxyType(
    {
        STR: "Força",
        DEX: "Destresa",
        CON: "Constitució",
        INT: "Intel·ligència",
        WIS: "Saviesa",
        CHA: "Carisma",
    }
)

# «Modificador segons la puntuació»: (lowest score, highest score, modifier), as printed.
MODIFIER_TABLE: tuple[tuple[int, int, int], ...] = (
    (1, 1, -5),
    (2, 3, -4),
    (4, 5, -3),
    (6, 7, -2),
    (8, 9, -1),
    (10, 11, 0),
    (12, 13, 1),
    (14, 15, 2),
    (16, 17, 3),
    (18, 19, 4),
    (20, 21, 5),
    (22, 23, 6),
    (24, 25, 7),
    (26, 27, 8),
    (28, 29, 9),
    (30, 30, 10),
)
MIN_SCORE, MAX_SCORE = 1, 30

# «Bonificació per competència segons el nivell»: (lowest level, highest level, bonus).
PROFICIENCY_TABLE: tuple[tuple[int, int, int], ...] = (
    (1, 4, 2),
    (5, 8, 3),
    (9, 12, 4),
    (13, 16, 5),
    (17, 20, 6),
)
MIN_LEVEL, MAX_LEVEL = 1, 20

# «Habilitats i la seva característica», in the text's order: skill → ability key.
SKILLS = MappingProxyType(
    {
        "Acrobàcies": DEX,
        "Arcà": INT,
        "Atletisme": STR,
        "Engany": CHA,
        "Història": INT,
        "Interpretació": CHA,
        "Intimidació": CHA,
        "Investigació": INT,
        "Joc de mans": DEX,
        "Medicina": WIS,
        "Natura": INT,
        "Percepció": WIS,
        "Perspicàcia": WIS,
        "Persuasió": CHA,
        "Religió": INT,
        "Sigil": DEX,
        "Supervivència": WIS,
        "Tracte amb animals": WIS,
    }
)

# «CD habituals»: (difficulty, DC), as printed.
DIFFICULTY_CLASSES: tuple[tuple[str, int], ...] = (
    ("Molt fàcil", 5),
    ("Fàcil", 10),
    ("Normal", 15),
    ("Difícil", 20),
    ("Molt difícil", 25),
    ("Gairebé impossible", 30),
)

BAD_ABILITY = "Característica desconhecida: «{key}». As conhecidas: {known}."
BAD_SCORE = "A puntuação de {label} vai de 1 a 30 (a tabela da Xuleta); veio {score}."
BAD_LEVEL = "O nível vai de 1 a 20 (a tabela da Xuleta); veio {level}."
BAD_SKILL = "Habilidade desconhecida: «{name}». As da Xuleta: {known}."
NEAREST_SKILLS = " Você quis dizer {near}?"
# How near a name must be to be offered (difflib's ratio over the folded names, 0–1), as GURPS.
NEAREST_CUTOFF = 0.6
NEAREST_COUNT = 3


def ability_key(key: str) -> str:
    """``key`` if it is one of ``ABILITIES`` (or an ability's label, any case, gives its key).
    Raises ``XuletaError`` (field ``ability``) naming the six otherwise."""
    text = (key or "").strip()
    if text in ABILITIES:
        return text
    for ability, label in ABILITY_LABELS.items():
        if text.casefold() == label.casefold():
            return ability
    known = ", ".join(f"{k} ({v})" for k, v in ABILITY_LABELS.items())
    raise XuletaError(BAD_ABILITY.format(key=text, known=known), "ability")


def ability_modifier(score: int, ability: str = "") -> int:
    """The modifier of an ability ``score`` (1–30), read off «Modificador segons la puntuació».

    Raises ``XuletaError`` (field ``abilities.<ability>`` or ``score``) outside 1–30, the
    table's rows. Xuleta, «Prova de característica»: «El modificador és (puntuació − 10) ÷ 2,
    arrodonint cap avall.»"""
    if isinstance(score, bool) or not isinstance(score, int) or not MIN_SCORE <= score <= MAX_SCORE:
        label = ABILITY_LABELS.get(ability, "uma característica")
        field = f"abilities.{ability}" if ability else "score"
        raise XuletaError(BAD_SCORE.format(label=label, score=score), field)
    for low, high, modifier in MODIFIER_TABLE:
        if low <= score <= high:
            return modifier
    raise AssertionError("the table covers 1–30")  # pragma: no cover


def proficiency_bonus(level: int) -> int:
    """The proficiency bonus at character ``level`` (1–20), read off «Bonificació per
    competència segons el nivell». Raises ``XuletaError`` (field ``level``) outside 1–20."""
    if isinstance(level, bool) or not isinstance(level, int) or not MIN_LEVEL <= level <= MAX_LEVEL:
        raise XuletaError(BAD_LEVEL.format(level=level), "level")
    for low, high, bonus in PROFICIENCY_TABLE:
        if low <= level <= high:
            return bonus
    raise AssertionError("the table covers 1–20")  # pragma: no cover


def _folded(text: str) -> str:
    """``text`` without case, accents or extra spaces: «  PERCEPCIO » and «Percepció» meet."""
    decomposed = unicodedata.normalize("NFKD", " ".join((text or "").split()).casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def skill_name(name: str) -> str:
    """The text's spelling of the skill ``name`` (case, accents and extra spaces ignored).
    Raises ``XuletaError`` (field ``skill``) listing the eighteen otherwise, the nearest names
    first (difflib, as GURPS's ``gurps.levels.nearest_skills``)."""
    wanted = _folded(name)
    by_folded = {_folded(skill): skill for skill in SKILLS}
    if wanted in by_folded:
        return by_folded[wanted]
    message = BAD_SKILL.format(name=name, known=", ".join(SKILLS))
    near = difflib.get_close_matches(wanted, list(by_folded), NEAREST_COUNT, NEAREST_CUTOFF)
    if near:
        message += NEAREST_SKILLS.format(near=" ou ".join(by_folded[n] for n in near))
    raise XuletaError(message, "skill")


def skill_ability(name: str) -> str:
    """The ability key the skill ``name`` goes with («Cada habilitat va amb una
    característica»); raises ``XuletaError`` for an unknown skill."""
    return SKILLS[skill_name(name)]
