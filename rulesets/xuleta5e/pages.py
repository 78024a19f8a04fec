"""The Xuleta's pages part (``rulesets.base.PagesPart``, issue 22 item 7): its closed sets (what
the API and the MCP tools take in a Xuleta campaign), the text's chapters and headings as the
site numbers them (``xuleta.text``), its tables (``xuleta.tables``, built from the engine's
data), its stated readings (``xuleta.readings.all_readings``: each seeded as an open pendência
of a campaign on the ruleset) and the campaign's house settings (owned by the procedure part,
``rulesets.xuleta5e.house``). Every word comes from the engine; this module only names and
orders them. Pure Python.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence

from rulesets.vocabulary import ClosedSet, Term, closed_set
from rulesets.xuleta5e import house
from xuleta import rolls, tables
from xuleta.abilities import ABILITY_LABELS, DIFFICULTY_CLASSES, SKILLS
from xuleta.conditions import CONDITIONS, EXHAUSTION_LEVELS
from xuleta.damage_types import DAMAGE_TYPES
from xuleta.proficiency import SPELLCASTING_ABILITY
from xuleta.readings import Reading, all_readings
from xuleta.text import CHAPTERS, SECTIONS

# The text the rules come from, as the registers name it (its title as printed).
DOCUMENT = "Xuleta — Regles ràpides"


def _optional(module: str) -> object | None:
    """An engine module another part of the issue builds (the cover's, the pace's), or None
    while it is not there."""
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def _sets() -> tuple[ClosedSet, ...]:
    found = [
        closed_set(
            "ability",
            "Características",
            "4.1",
            (Term(key, label) for key, label in ABILITY_LABELS.items()),
        ),
        closed_set(
            "skill",
            "Habilidades (perícias) e a sua característica",
            "4.11",
            (
                Term(name, name, {"ability": ability, "ability_label": ABILITY_LABELS[ability]})
                for name, ability in SKILLS.items()
            ),
        ),
        closed_set(
            "condition",
            "Estados",
            "1",
            (
                Term(c.key, c.label, {"summary": c.summary, "effects": list(c.effects)})
                for c in CONDITIONS.values()
            ),
        ),
        closed_set(
            "exhaustion_level",
            "Níveis de esgotamento (cumulativos)",
            "1.16",
            (Term(str(level), effect) for level, effect in EXHAUSTION_LEVELS.items()),
        ),
        closed_set(
            "edge",
            "Vantagem e desvantagem",
            "4.4",
            (Term(key, label) for key, label in rolls.EDGE_LABELS.items()),
        ),
        closed_set(
            "roll",
            "Tipos de rolagem de d20 (só o ataque conta o 20 e o 1 naturais)",
            "4.5",
            (Term(key, label) for key, label in rolls.ROLL_KIND_LABELS.items()),
        ),
        closed_set(
            "difficulty_class",
            "CDs habituais",
            "4.10",
            (Term(str(dc), name, {"dc": dc}) for name, dc in DIFFICULTY_CLASSES),
        ),
        closed_set(
            "damage_type",
            "Tipos de dano",
            "5.3",
            (Term(key, label) for key, label in DAMAGE_TYPES.items()),
        ),
        closed_set(
            "spellcasting_class",
            "Classes e a sua característica de conjuração",
            "7.7",
            (
                Term(name, name, {"ability": ability, "ability_label": ABILITY_LABELS[ability]})
                for name, ability in SPELLCASTING_ABILITY.items()
            ),
        ),
    ]
    attacks = _optional("xuleta.attacks")
    if attacks is not None:
        found.append(
            closed_set(
                "cover",
                "Cobertura",
                "3.15",
                (
                    Term(key, label, {"bonus": bonus})
                    for key, (label, bonus) in attacks.COVER.items()
                ),
            )
        )
    travel = _optional("xuleta.travel")
    if travel is not None:
        found.append(
            closed_set(
                "travel_pace",
                "Ritmos de viagem",
                "8.1",
                (
                    Term(p.key, p.label, {"per_day_km": p.per_day_km, "effect": p.effect})
                    for p in travel.PACES.values()
                ),
            )
        )
    return tuple(found)


class XuletaPages:
    """``PagesPart`` of the Xuleta."""

    document = DOCUMENT

    def vocabularies(self, table: Mapping[str, Sequence[tuple[str, str]]]) -> tuple[ClosedSet, ...]:
        """The Xuleta's closed sets, in the order published (``GET /api/v1/rules/vocabularies
        ?ruleset=xuleta5e``); none of the site's own (``table``): its rolls are the d20's."""
        return _sets()

    def chapters(self) -> Sequence[tuple[str, str]]:
        """``(number, title)`` of the text's eight chapters, as ``xuleta.text`` numbers them."""
        return tuple(CHAPTERS.items())

    def section_titles(self) -> Mapping[str, str]:
        """Every heading of the text by its number ("4.2" → "Tirada d'atac")."""
        return SECTIONS

    def tables(self) -> Sequence[tables.CanonTable]:
        """The text's tables from the engine's data (``xuleta.tables``), sorted by section."""
        return tables.all_tables()

    def house_settings(self) -> Sequence:
        """The campaign's house settings (``rulesets.xuleta5e.house``, the procedure part's)."""
        return house.HOUSE_SETTINGS

    def readings(self) -> Sequence[Reading]:
        """Every stated reading of the engine (``xuleta.readings.all_readings``)."""
        return all_readings()

    def slips(self) -> Sequence:
        """The text does not contradict itself where the site has read it: none."""
        return ()


PAGES = XuletaPages()
