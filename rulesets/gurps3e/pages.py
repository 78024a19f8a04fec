"""The canon's pages part (``rulesets.base.PagesPart``): what the rules pages, the rules API and
the published vocabularies show of GURPS. Every word and number comes from ``gurps`` (the tables,
``gurps.house``, ``gurps.readings``, the engine's closed sets) or from the site's own choices the
caller passes in; this module only names and orders them. Pure Python.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gurps import combat as engine
from gurps import damage, defence, levels, readings, skills, tables
from gurps.hit_locations import ARM_PENALTIES, HitLocation, Limb, LimbSide
from gurps.house import HOUSE_SETTINGS, CombatantKind, HouseSetting
from gurps.readings import Reading
from gurps.rulebook import all_tables
from gurps.tabular import CanonTable
from rulesets.vocabulary import ClosedSet, Term, closed_set

# The canon's chapters and sections, by their headings in *Como se joga*: the rules page groups
# the tables under them and gives every section an anchor, with or without a table.
CHAPTERS: tuple[tuple[str, str], ...] = (
    ("1", "A rolagem"),
    ("2", "Os quatro atributos e o que sai deles"),
    ("3", "Perícias"),
    ("4", "Combate"),
    ("5", "Ferimento, incapacitação e morte"),
    ("6", "Fadiga"),
    ("7", "Testes de resistência"),
    ("8", "O que esta campanha faz diferente do livro"),
)
SECTION_TITLES: dict[str, str] = {
    "1.1": "Como se rola",
    "1.2": "Sucesso decisivo e falha crítica",
    "1.3": "Margem",
    "1.4": "Modificadores, e quando eles são ditos",
    "1.5": "Disputas",
    "1.6": "Quando o Mestre rola escondido",
    "2.1": "Os derivados",
    "2.2": "Carga",
    "3.1": "Como se lê uma linha de ficha",
    "3.2": "Dificuldade",
    "3.3": "Perícia que você não tem",
    "4.1": "O turno",
    "4.2": "Sequência",
    "4.3": "Manobras",
    "4.4": "O ataque: três rolagens",
    "4.5": "Modificadores de ataque",
    "4.6": "Defesa: passiva mais ativa",
    "4.7": "As três defesas ativas",
    "4.8": "Golpe fulminante e erro crítico",
    "4.9": "Dano",
    "4.10": "A sequência de combate — tabela do Mestre",
    "4.11": "Distância: o que o alcance cobra",
    "4.12": "Quedas",
    "4.13": "Os tetos de trespassar",
    "4.14": "Esgrimista com adaga — três aparadas por rodada",
    "4.15": "Falha crítica em operação mágica",
    "5.1": "Choque",
    "5.2": "Prostração e atordoamento",
    "5.3": "Nocaute",
    "5.4": "Os limiares de PV",
    "5.4.1": "Quem morre quando — regra de casa",
    "5.5": "Lesões incapacitantes",
    "5.6": "Recuperação",
    "5b": "Verificação de Pânico",
    "5c": "Combate de perto",
    "5d": "Terreno e o que ele cobra",
    "5e": "Surpresa",
    "5f": "Atacar coisa que não se defende",
    "5g": "Fogo, veneno e doença",
    "5h": "Calor e frio",
    "6.1": "O que gasta",
    "6.2": "O que a fadiga cobra",
    "6.3": "Recuperação",
    "6.4": "Por que isso é decisivo para o mago",
    "6.5": "Asfixia e fôlego",
    "7.1": "Vontade",
    "7.2": "HT",
    "7.3": "Resistir a magia",
    "8": "O que esta campanha faz diferente do livro",
}

# The kinds of combatant a client enters with the bestiary's numbers (§5.4.1): the others are
# sheets of the campaign.
_BESTIARY_KINDS = (CombatantKind.CREATURE.value, CombatantKind.NAMED_NPC.value)


def _terms(choices: Sequence[tuple[str, str]]) -> tuple[Term, ...]:
    return tuple(Term(key, label) for key, label in choices)


def _engine_sets() -> dict[str, ClosedSet]:
    """The sets whose words are the engine's, by name."""
    found = (
        closed_set(
            "maneuver",
            "Manobras",
            "4.3",
            (
                Term(
                    row.maneuver.value,
                    row.name,
                    {
                        "defences_left": sorted(
                            k.value for k in engine.defences_left(row.maneuver).allowed
                        ),
                        "defences_left_text": engine.defences_left(row.maneuver).text,
                        "attacks": row.maneuver in engine.ATTACK_MANEUVERS,
                    },
                )
                for row in engine.MANEUVERS
            ),
        ),
        closed_set(
            "all_out_option",
            "Opções do Ataque Total",
            "4.3",
            (
                Term(row.option.value, f"({row.letter}) {row.text}", {"letter": row.letter})
                for row in engine.ALL_OUT_ATTACK_OPTIONS
            ),
        ),
        closed_set(
            "terrain",
            "Terrenos",
            "5d",
            (
                Term(row.terrain.value, row.name.split(" — ")[0], {"cost": row.cost})
                for row in engine.TERRAINS
            ),
        ),
        closed_set(
            "hit_location",
            "Onde o golpe é dirigido",
            "5.5",
            (
                Term(
                    loc.value,
                    loc.label,
                    {"penalty": loc.penalty}
                    if loc.penalty is not None
                    else {
                        "penalty_by_side": {
                            side.value: value for side, value in ARM_PENALTIES.items()
                        }
                    },
                )
                for loc in HitLocation
            ),
        ),
        closed_set(
            "arm_side",
            "Qual braço",
            "5.5",
            (Term("weapon", "braço da arma"), Term("other", "o outro braço")),
        ),
        closed_set(
            "limb_side",
            "Qual perna, mão ou pé",
            "5.5",
            (Term(side.value, side.label) for side in LimbSide),
        ),
        closed_set(
            "limb",
            "Membros, cada um com o seu limite de incapacitação",
            "5.5",
            (Term(limb.value, limb.label, {"location": limb.location.value}) for limb in Limb),
        ),
        closed_set(
            "attack_kind",
            "O que vem contra o defensor",
            "4.7, 4.11",
            (Term(kind.value, name) for kind, name in defence.ATTACK_KIND_NAMES.items()),
        ),
        closed_set(
            "weapon_class",
            "Classes de arma (preparo e combate de perto)",
            "4.3, 5c",
            (Term(row.weapon_class.value, row.name) for row in engine.WEAPON_CLASSES),
        ),
        closed_set(
            "defence",
            "Defesas ativas",
            "4.7",
            (Term(rule.defence.value, rule.name) for rule in defence.DEFENCE_RULES),
        ),
        closed_set(
            "surprise",
            "Surpresa",
            "5e",
            (Term("partial", "surpresa parcial"), Term("total", "surpresa total")),
        ),
        closed_set(
            "damage_type",
            "Tipos de dano",
            "4.9",
            (Term(kind.value, name) for kind, name in damage.DAMAGE_TYPE_NAMES.items()),
        ),
        closed_set(
            "table",
            "Tabelas do cânone",
            "4.8, 4.15, 5b",
            (
                Term(
                    key,
                    table.title,
                    {
                        "dice": "3d",
                        "section": table.section,
                        "options": sorted(tables.table_options(key)),
                        "required": list(tables.TABLE_REQUIRED_OPTIONS[key]),
                    },
                )
                for key, table in tables.TABLES.items()
            ),
        ),
        closed_set(
            "test_kind",
            "Contra o quê se testa",
            "1.1",
            (Term("skill", "perícia"), Term("attribute", "atributo"), Term("defence", "defesa")),
        ),
        closed_set(
            "contest_kind",
            "Contra o quê cada lado de uma Disputa testa",
            "1.5",
            (Term("skill", "perícia"), Term("attribute", "atributo")),
        ),
        closed_set(
            "test_attribute",
            "Atributos de teste",
            "2, 7.1",
            (Term(key.value, name) for key, name in levels.ATTRIBUTE_NAMES.items()),
        ),
        closed_set(
            "difficulty",
            "Dificuldade de perícia",
            "3.2",
            (Term(key.value, name) for key, name in skills.DIFFICULTY_NAMES.items()),
        ),
        closed_set(
            "level_source",
            "De onde vem o nível de uma rolagem",
            "3.3",
            (Term(key.value, name) for key, name in levels.LEVEL_SOURCE_NAMES.items()),
        ),
    )
    return {found_set.name: found_set for found_set in found}


_ENGINE_SETS = _engine_sets()

# The published order (as the API always listed them): the engine's sets and, where they fall,
# the site's own sets this system publishes.
_ORDER = (
    "maneuver",
    "all_out_option",
    "terrain",
    "hit_location",
    "arm_side",
    "limb_side",
    "limb",
    "attack_kind",
    "weapon_class",
    "defence",
    "posture",
    "surprise",
    "combatant_kind",
    "damage_type",
    "table",
    "roll_kind",
    "test_kind",
    "contest_kind",
    "test_attribute",
    "difficulty",
    "level_source",
)


class Gurps3ePages:
    """``PagesPart`` of GURPS Classic with the house rules."""

    def vocabularies(self, table: Mapping[str, Sequence[tuple[str, str]]]) -> tuple[ClosedSet, ...]:
        """The engine's closed sets and three of the site's (the combatant's posture §4.3, the
        bestiary's kinds of combatant §5.4.1, the kinds of roll §1.1), in the published order;
        ``KeyError`` if ``table`` lacks one of the three."""
        own = {
            "posture": closed_set("posture", "Posições", "4.3", _terms(table["posture"])),
            "combatant_kind": closed_set(
                "combatant_kind",
                "Quem entra com números do bestiário",
                "5.4.1",
                _terms([(k, v) for k, v in table["combatant_kind"] if k in _BESTIARY_KINDS]),
            ),
            "roll_kind": closed_set(
                "roll_kind", "Tipos de rolagem", "1.1", _terms(table["roll_kind"])
            ),
        }
        return tuple({**_ENGINE_SETS, **own}[name] for name in _ORDER)

    def chapters(self) -> Sequence[tuple[str, str]]:
        return CHAPTERS

    def section_titles(self) -> Mapping[str, str]:
        return SECTION_TITLES

    def tables(self) -> Sequence[CanonTable]:
        return all_tables()

    def house_settings(self) -> Sequence[HouseSetting]:
        return tuple(HOUSE_SETTINGS.values())

    def readings(self) -> Sequence[Reading]:
        # Read at run time: the engine's modules keep adding readings as they load.
        return readings.READINGS


PAGES = Gurps3ePages()
