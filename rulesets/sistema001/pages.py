"""The sistema001's pages part (``rulesets.base.PagesPart``): its closed sets (what the fight's
API and MCP tools take), the chapter's headings, its tables, its readings (each seeded as an open
pendência), its slips (each seeded as a divergence) and, as house settings, the answers the
Árbitro may give to the readings that refuse (``rulesets.sistema001.house``). Every word comes from the engine
(``sistema001``); this module only names and orders them. Pure Python.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rulesets.sistema001 import house
from rulesets.sistema001.combat import ACTION_KINDS
from rulesets.vocabulary import ClosedSet, Term, closed_set
from sistema001 import attacks, maneuvers, objects, readings, situations, tables, turns
from sistema001.attributes import ATTRIBUTE_LABELS
from sistema001.conditions import CONDITIONS
from sistema001.damage import DAMAGE_TYPE_TEXTS
from sistema001.fighters import DAMAGE_TYPE_LABELS, SIDE_LABELS, WEAPON_KIND_LABELS
from sistema001.rolls import EDGE_LABELS

DOCUMENT = "Sistema 001, cap. 4 (Combate)"

# The chapter's one chapter and its headings, in order (the rules page anchors them).
# The headings are not numbered: the rules page groups them under the chapter without number.
CHAPTERS: tuple[tuple[str, str], ...] = (("", "4. Combate"),)
SECTION_TITLES: dict[str, str] = {
    "Iniciativa, Rodadas e Turnos de Combate": "Iniciativa, Rodadas e Turnos de Combate",
    "Efeitos": "Efeitos",
    "Ataques": "Ataques",
    "Defesas": "Defesas",
    "Resolução de Dano": "Resolução de Dano",
    "Tipos de Dano": "Tipos de Dano",
    "Críticos em Combate": "Críticos em Combate",
    "Deslocamento e Alcance em Combate": "Deslocamento e Alcance em Combate",
    "Manobras de Combate": "Manobras de Combate",
    "Situações de Combate": "Situações de Combate",
    "Condições": "Condições",
    "Quebrar e Destruir": "Quebrar e Destruir",
    "(Opcional) Combate Rápido": "(Opcional) Combate Rápido",
}


def _sets() -> tuple[ClosedSet, ...]:
    return (
        closed_set(
            "attribute",
            "Atributos",
            "Combate",
            (Term(k, v) for k, v in ATTRIBUTE_LABELS.items()),
        ),
        closed_set(
            "damage_type",
            "Tipos de dano",
            "Tipos de Dano",
            (Term(k, v, {"text": DAMAGE_TYPE_TEXTS[k]}) for k, v in DAMAGE_TYPE_LABELS.items()),
        ),
        closed_set(
            "condition",
            "Condições",
            "Condições",
            (Term(c.key, c.label, {"text": c.text}) for c in CONDITIONS.values()),
        ),
        closed_set(
            "maneuver",
            "Manobras de combate",
            "Manobras de Combate",
            (Term(m.key, m.label, {"text": m.text}) for m in maneuvers.MANEUVERS.values()),
        ),
        closed_set(
            "situation",
            "Situações de combate",
            "Situações de Combate",
            (Term(s.key, s.label, {"text": s.text}) for s in situations.SITUATIONS.values()),
        ),
        closed_set(
            "attack_kind",
            "Tipos de ataque",
            "Ataques",
            (Term(k, v) for k, v in attacks.ATTACK_KIND_LABELS.items()),
        ),
        closed_set(
            "ranged_penalty",
            "Penalidades do ataque à distância",
            "Ataques",
            (Term(p.key, p.label, {"value": p.value}) for p in attacks.RANGED_PENALTIES.values()),
        ),
        closed_set(
            "weapon_kind",
            "Tipos de arma",
            "Resolução de Dano",
            (Term(k, v) for k, v in WEAPON_KIND_LABELS.items()),
        ),
        closed_set(
            "turn_plan",
            "O que se pode fazer no turno",
            "Iniciativa, Rodadas e Turnos de Combate",
            (Term(p.key, p.label, {"actions": list(p.actions)}) for p in turns.TURN_PLANS.values()),
        ),
        closed_set(
            "action_kind",
            "Ações de um turno",
            "Iniciativa, Rodadas e Turnos de Combate",
            (
                Term(key, label, {"action_type": kind})
                for key, (label, kind) in ACTION_KINDS.items()
            ),
        ),
        closed_set("side", "Lados", "Combate", (Term(k, v) for k, v in SIDE_LABELS.items())),
        closed_set(
            "edge",
            "Vantagem e desvantagem (leitura: dois dados, o maior ou o menor)",
            "Condições",
            (Term(k, v) for k, v in EDGE_LABELS.items()),
        ),
        closed_set(
            "object_size",
            "Tabela de Tamanho",
            "Quebrar e Destruir",
            (Term(r.key, r.label, {"value": r.value_text}) for r in objects.SIZE.values()),
        ),
        closed_set(
            "object_structure",
            "Tabela de Estrutura",
            "Quebrar e Destruir",
            (Term(r.key, r.label, {"value": r.value_text}) for r in objects.STRUCTURE.values()),
        ),
        closed_set(
            "object_hardness",
            "Tabela de Dureza do Material",
            "Quebrar e Destruir",
            (
                Term(r.key, r.label, {"multiplier": r.multiplier_text})
                for r in objects.HARDNESS.values()
            ),
        ),
    )


_SETS = _sets()
# Every heading a table cites is a section of its own (its title is the heading).
SECTION_TITLES.update({t.section: t.section for t in tables.all_tables()})


class Sistema001Pages:
    """``PagesPart`` of the sistema001 (the combat chapter)."""

    document = DOCUMENT

    def vocabularies(self, table: Mapping[str, Sequence[tuple[str, str]]]) -> tuple[ClosedSet, ...]:
        """The chapter's closed sets (none of the site's own: this system has no posture, no
        bestiary kinds, and its rolls are the fight's)."""
        return _SETS

    def chapters(self) -> Sequence[tuple[str, str]]:
        return CHAPTERS

    def section_titles(self) -> Mapping[str, str]:
        return SECTION_TITLES

    def tables(self) -> Sequence:
        """The chapter's tables as ``ruletexts.CanonTable`` (``sistema001.tables``,
        built from the engine's data), sorted by section."""
        return tables.all_tables()

    def house_settings(self) -> Sequence[house.HouseSetting]:
        """The Árbitro's possible answers to the readings that refuse until he decides
        (``rulesets.sistema001.house``): one setting per answer, for a decision's
        ``house_key``."""
        return house.HOUSE_SETTINGS

    def readings(self) -> Sequence[readings.Reading]:
        return readings.READINGS

    def slips(self) -> Sequence[readings.Slip]:
        return readings.SLIPS


PAGES = Sistema001Pages()
