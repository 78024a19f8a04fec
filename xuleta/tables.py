"""The Xuleta's tables as data for the rules pages (issue 22, item 7): each built from the
engine's data (``xuleta.abilities``, ``xuleta.conditions``, ``xuleta.damage_types``,
``xuleta.proficiency``; the cover and the travel pace from ``xuleta.attacks`` and
``xuleta.travel``), never retyped, so the pages show what the
engine computes with, in the text's words.

Each table is a ``ruletexts.CanonTable`` (the shape every engine shares): ``key``, ``title``, ``section`` (a
``xuleta.text`` number), ``page`` ("": the text has no pages), ``columns``, ``rows`` (cells as
text), ``heading`` (the text's line the table is printed under; None for a list the site draws
from the text's prose), ``nth``, ``decided``, ``note``, ``notes``. ``all_tables()`` gives them
sorted by section; ``table(key)`` finds one. Pure Python.
"""

from __future__ import annotations

from collections.abc import Callable

from ruletexts import CanonTable
from xuleta import attacks, travel
from xuleta.abilities import (
    ABILITY_LABELS,
    DIFFICULTY_CLASSES,
    MODIFIER_TABLE,
    PROFICIENCY_TABLE,
    SKILLS,
)
from xuleta.conditions import CONDITIONS, EXHAUSTION, EXHAUSTION_LEVELS
from xuleta.damage_types import DAMAGE_TYPES
from xuleta.proficiency import SPELLCASTING_ABILITY


def signed(value: int) -> str:
    """A modifier as the text prints it: +0, +2, −5 (U+2212 minus)."""
    return f"+{value}" if value >= 0 else f"−{-value}"


def span(low: int, high: int) -> str:
    """ "1", "2–3": a row's range as printed (an en dash)."""
    return str(low) if low == high else f"{low}–{high}"


def _number(value) -> str:
    """A number as the text writes it: 4,5 (a decimal comma), 6."""
    text = f"{float(value):g}"
    return text.replace(".", ",")


def _conditions() -> CanonTable:
    rows = tuple(
        (c.label, c.summary, " ".join(c.effects))
        for c in CONDITIONS.values()
        if c.key != EXHAUSTION
    )
    exhaustion = CONDITIONS[EXHAUSTION]
    return CanonTable(
        "estats",
        "Estats",
        "1",
        "",
        ("Estat", "Què és", "Efectes"),
        rows,
        None,
        note="Si en tens dos d'iguals, compten com un de sol.",
        notes=(f"{exhaustion.label}: {exhaustion.summary} Mira la taula de nivells.",),
    )


def _exhaustion() -> CanonTable:
    return CanonTable(
        "nivells_esgotament",
        "Nivells d'esgotament",
        "1.16",
        "",
        ("Nivell", "Efecte"),
        tuple((str(level), effect) for level, effect in EXHAUSTION_LEVELS.items()),
        "Nivells d'esgotament",
        note="Va per nivells, de l'1 al 6, i s'acumula: a cada nivell pateixes el seu efecte i "
        "els de tots els anteriors.",
    )


# «Cobertura»: what covers, as the table prints it, by the combat engine's keys.
COVER_WHAT = {"half": "Almenys la meitat del cos", "three_quarters": "Gairebé tot el cos"}
TOTAL_COVER_EFFECT = "No et poden apuntar directament"


def _cover() -> CanonTable:
    rows = []
    for key, (label, bonus) in attacks.COVER.items():
        if bonus == 0:
            continue  # «Sense cobertura»: the engine's, not a row of the text
        what = COVER_WHAT.get(key, "Tot")
        effect = (
            TOTAL_COVER_EFFECT
            if bonus is None
            else f"+{bonus} a la CA i a les salvacions de Destresa"
        )
        rows.append((label, what, effect))
    return CanonTable(
        "cobertura",
        "Cobertura",
        "3.15",
        "",
        ("Cobertura", "Què et tapa", "Efecte"),
        tuple(rows),
        "Cobertura",
        nth=1,
        note="Si n'hi ha diverses, només compta la que protegeix més.",
    )


def _modifiers() -> CanonTable:
    return CanonTable(
        "modificadors",
        "Modificador segons la puntuació",
        "4.1",
        "",
        ("Puntuació", "Modificador"),
        tuple((span(low, high), signed(mod)) for low, high, mod in MODIFIER_TABLE),
        "Modificador segons la puntuació",
        note="El modificador és (puntuació − 10) ÷ 2, arrodonint cap avall.",
    )


def _proficiency() -> CanonTable:
    return CanonTable(
        "competencia",
        "Bonificació per competència segons el nivell",
        "4.9",
        "",
        ("Nivell", "Bonificació"),
        tuple((span(low, high), signed(bonus)) for low, high, bonus in PROFICIENCY_TABLE),
        "Bonificació per competència segons el nivell",
        note="Mai no se suma més d'un cop a la mateixa tirada.",
    )


def _difficulty_classes() -> CanonTable:
    return CanonTable(
        "cd_habituals",
        "CD habituals",
        "4.10",
        "",
        ("Dificultat", "CD"),
        tuple((name, str(dc)) for name, dc in DIFFICULTY_CLASSES),
        "CD habituals",
    )


def _skills() -> CanonTable:
    return CanonTable(
        "habilitats",
        "Habilitats i la seva característica",
        "4.11",
        "",
        ("Habilitat", "Característica"),
        tuple((skill, ABILITY_LABELS[ability]) for skill, ability in SKILLS.items()),
        "Habilitats i la seva característica",
        note="El DM pot canviar la característica si té sentit: Atletisme amb Constitució per "
        "nedar molta estona, per exemple.",
    )


def _damage_types() -> CanonTable:
    return CanonTable(
        "tipus_dany",
        "Tipus de dany",
        "5.3",
        "",
        ("Tipus", "Clau"),
        tuple((label, key) for key, label in DAMAGE_TYPES.items()),
        None,
        note="Cada dany té un tipus. Importa perquè hi ha criatures que el resisteixen o el "
        "pateixen més.",
    )


def _spellcasting() -> CanonTable:
    return CanonTable(
        "caracteristica_llancament",
        "Característica de llançament per classe",
        "7.7",
        "",
        ("Classe", "Característica"),
        tuple((name, ABILITY_LABELS[ability]) for name, ability in SPELLCASTING_ABILITY.items()),
        None,
        notes=(
            "CD de salvació = 8 + bonificació per competència + mod. de la teva característica "
            "de llançament.",
            "Atac d'encanteri = bonificació per competència + mod. de la teva característica de "
            "llançament.",
        ),
    )


def _travel_pace() -> CanonTable:
    rows = tuple(
        (
            pace.label,
            f"{pace.per_minute_m} m",
            f"{_number(pace.per_hour_km)} km",
            f"{pace.per_day_km} km",
            pace.effect,
        )
        for pace in travel.PACES.values()
    )
    return CanonTable(
        "ritme_viatge",
        "Ritme de viatge",
        "8.1",
        "",
        ("Ritme", "Per minut", "Per hora", "Per dia", "Efecte"),
        rows,
        "Ritme de viatge",
        nth=1,
        note="Es compten unes 8 hores de viatge al dia.",
    )


BUILDERS: tuple[Callable[[], CanonTable], ...] = (
    _conditions,
    _exhaustion,
    _cover,
    _modifiers,
    _proficiency,
    _difficulty_classes,
    _skills,
    _damage_types,
    _spellcasting,
    _travel_pace,
)


def _section_key(section: str) -> tuple[int, ...]:
    return tuple(int(part) for part in section.split("."))


def all_tables() -> tuple[CanonTable, ...]:
    """Every table, sorted by section (the text's order)."""
    found = [build() for build in BUILDERS]
    return tuple(sorted(found, key=lambda t: _section_key(t.section)))


def table(key: str) -> CanonTable:
    """The table ``key``; ``KeyError`` for one there is not."""
    for found in all_tables():
        if found.key == key:
            return found
    raise KeyError(key)
