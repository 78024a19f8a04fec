"""The game's closed vocabularies, as the API and the MCP tools take them (DESIGN.md invariant
13; ``garganta_site.vocabulary`` makes enums of them). Every word comes from where the rule is:
the engine's tables (``gurps``) and the table's own sets (``sessions.models``); nothing is
written twice. ``GET /api/v1/rules/vocabularies`` publishes them all.
"""

from __future__ import annotations

from campaigns.vocabulary import Term, vocabulary
from gurps import combat as engine
from gurps import damage, defence, levels, skills, tables
from gurps.hit_locations import ARM_PENALTIES, HitLocation, Limb, LimbSide
from sessions.models import Combatant, Exploration, ExplorationTimer, Roll

MANEUVER = vocabulary(
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
)
ALL_OUT_OPTION = vocabulary(
    "all_out_option",
    "Opções do Ataque Total",
    "4.3",
    (
        Term(row.option.value, f"({row.letter}) {row.text}", {"letter": row.letter})
        for row in engine.ALL_OUT_ATTACK_OPTIONS
    ),
)
TERRAIN = vocabulary(
    "terrain",
    "Terrenos",
    "5d",
    (
        Term(row.terrain.value, row.name.split(" — ")[0], {"cost": row.cost})
        for row in engine.TERRAINS
    ),
)
HIT_LOCATION = vocabulary(
    "hit_location",
    "Onde o golpe é dirigido",
    "5.5",
    (
        Term(
            loc.value,
            loc.label,
            {"penalty": loc.penalty}
            if loc.penalty is not None
            else {"penalty_by_side": {side.value: value for side, value in ARM_PENALTIES.items()}},
        )
        for loc in HitLocation
    ),
)
ARM_SIDE = vocabulary(
    "arm_side",
    "Qual braço",
    "5.5",
    (Term("weapon", "braço da arma"), Term("other", "o outro braço")),
)
LIMB_SIDE = vocabulary(
    "limb_side",
    "Qual perna, mão ou pé",
    "5.5",
    (Term(side.value, side.label) for side in LimbSide),
)
LIMB = vocabulary(
    "limb",
    "Membros, cada um com o seu limite de incapacitação",
    "5.5",
    (Term(limb.value, limb.label, {"location": limb.location.value}) for limb in Limb),
)
ATTACK_KIND = vocabulary(
    "attack_kind",
    "O que vem contra o defensor",
    "4.7, 4.11",
    (Term(kind.value, name) for kind, name in defence.ATTACK_KIND_NAMES.items()),
)
WEAPON_CLASS = vocabulary(
    "weapon_class",
    "Classes de arma (preparo e combate de perto)",
    "4.3, 5c",
    (Term(row.weapon_class.value, row.name) for row in engine.WEAPON_CLASSES),
)
DEFENCE = vocabulary(
    "defence",
    "Defesas ativas",
    "4.7",
    (Term(rule.defence.value, rule.name) for rule in defence.DEFENCE_RULES),
)
POSTURE = vocabulary(
    "posture", "Posições", "4.3", (Term(v, label) for v, label in Combatant.Posture.choices)
)
SURPRISE = vocabulary(
    "surprise",
    "Surpresa",
    "5e",
    (Term("partial", "surpresa parcial"), Term("total", "surpresa total")),
)
COMBATANT_KIND = vocabulary(
    "combatant_kind",
    "Quem entra com números do bestiário",
    "5.4.1",
    (
        Term(Combatant.Kind.CREATURE.value, Combatant.Kind.CREATURE.label),
        Term(Combatant.Kind.NAMED_NPC.value, Combatant.Kind.NAMED_NPC.label),
    ),
)
DAMAGE_TYPE = vocabulary(
    "damage_type",
    "Tipos de dano",
    "4.9",
    (Term(kind.value, name) for kind, name in damage.DAMAGE_TYPE_NAMES.items()),
)
TABLE = vocabulary(
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
)
ROLL_KIND = vocabulary(
    "roll_kind", "Tipos de rolagem", "1.1", (Term(v, label) for v, label in Roll.Kind.choices)
)
TEST_KIND = vocabulary(
    "test_kind",
    "Contra o quê se testa",
    "1.1",
    (Term("skill", "perícia"), Term("attribute", "atributo"), Term("defence", "defesa")),
)
DANGER = vocabulary(
    "danger",
    "Níveis de perigo (Tabela A)",
    "procedimento",
    (Term(v, label) for v, label in Exploration.Danger.choices),
)
TIMER_KIND = vocabulary(
    "timer_kind",
    "Marcadores de tempo",
    "procedimento",
    (Term(v, label) for v, label in ExplorationTimer.Kind.choices),
)
CONTEST_KIND = vocabulary(
    "contest_kind",
    "Contra o quê cada lado de uma Disputa testa",
    "1.5",
    (Term("skill", "perícia"), Term("attribute", "atributo")),
)
TEST_ATTRIBUTE = vocabulary(
    "test_attribute",
    "Atributos de teste",
    "2, 7.1",
    (Term(key.value, name) for key, name in levels.ATTRIBUTE_NAMES.items()),
)
DIFFICULTY = vocabulary(
    "difficulty",
    "Dificuldade de perícia",
    "3.2",
    (Term(key.value, name) for key, name in skills.DIFFICULTY_NAMES.items()),
)
LEVEL_SOURCE = vocabulary(
    "level_source",
    "De onde vem o nível de uma rolagem",
    "3.3",
    (Term(key.value, name) for key, name in levels.LEVEL_SOURCE_NAMES.items()),
)
