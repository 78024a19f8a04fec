"""What derives from a character's abilities, level and proficiencies under his exhaustion and
conditions: the numbers ``POST /api/v1/rules/derived`` answers for the Xuleta and the sheet
page shows, each with its formula and section (``xuleta.text``).

One place: the sheet (``xuleta.sheet``), the rules API and the checks ask ``derive``; the
bonuses come from ``xuleta.proficiency``, the edges from ``xuleta.conditions.roll_edge``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from xuleta import conditions as conds
from xuleta.abilities import (
    ABILITIES,
    ABILITY_LABELS,
    SKILLS,
    ability_key,
    proficiency_bonus,
    skill_name,
)
from xuleta.proficiency import check_bonus, modifiers, save_bonus
from xuleta.readings import Reading
from xuleta.rolls import ATTACK, CHECK, SAVE, passive

DEFAULT_SPEED_M = 9.0

READINGS = (
    Reading(
        "speed_default",
        "2.3",
        "A velocidade de quem a ficha não dá: «Et pots moure fins a la teva velocitat (gairebé "
        "sempre 9 m, 6 caselles d'1,5 m)» — a Xuleta não dá velocidade por raça ou classe.",
        "9 m, salvo o número que a ficha homologada der.",
    ),
)


@dataclass(frozen=True)
class Derived:
    """The derived numbers: ``modifiers`` (ability → n), ``proficiency_bonus``, ``skills``
    (the text's skill name → bonus, all eighteen), ``saves`` (ability → bonus),
    ``passive_perception`` (10 + Percepció's bonus, ±5 under an edge on checks),
    ``speed`` (metres, after conditions and exhaustion), ``edges`` (roll kind → edge:
    ``check``, ``save``, ``attack``), ``save_edges`` (ability → edge), ``auto_fail``
    (ability keys whose saves fail without a roll), ``attacked_edge`` (the edge of an attack
    against this creature, from its own conditions, distance unsaid), ``explanations``
    (field → formula text), ``reasons`` (roll kind → the text's lines that set its edge)."""

    modifiers: dict[str, int]
    proficiency_bonus: int
    skills: dict[str, int]
    saves: dict[str, int]
    passive_perception: int
    speed: float
    edges: dict[str, str]
    save_edges: dict[str, str]
    auto_fail: tuple[str, ...]
    attacked_edge: str
    explanations: dict[str, str] = field(default_factory=dict)
    reasons: dict[str, tuple[str, ...]] = field(default_factory=dict)


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def derive(
    abilities: Mapping[str, int],
    level: int,
    *,
    skills: Iterable[str] = (),
    saves: Iterable[str] = (),
    exhaustion: int = 0,
    conditions: Iterable[str] = (),
    speed_m: float | None = None,
) -> Derived:
    """The derived numbers of a character with ``abilities`` (the six keys, 1–30), ``level``
    (1–20), proficient in ``skills`` (the text's names) and ``saves`` (ability keys), under
    ``exhaustion`` (0–6) and ``conditions`` (keys of ``xuleta.conditions.CONDITIONS``);
    ``speed_m`` the sheet's base speed (None: 9 m, reading ``speed_default``).

    Raises ``XuletaError`` naming the field (``abilities.str``, ``level``, ``skill``,
    ``ability``, ``conditions``, ``exhaustion``, ``speed``). Sources: «Prova de
    característica», «Tirada de salvació», «Bonificació per competència», «Proves passives»,
    «Estats», «Nivells d'esgotament», «Moviment»."""
    mods = modifiers(abilities)
    bonus = proficiency_bonus(level)
    skill_set = tuple(dict.fromkeys(skill_name(s) for s in skills))
    save_set = tuple(dict.fromkeys(ability_key(a) for a in saves))
    marks = conds.condition_keys(conditions)
    level_ex = conds.exhaustion_level(exhaustion)

    skill_bonuses = {s: check_bonus(abilities, level, "", skill_set, s) for s in SKILLS}
    save_bonuses = {a: save_bonus(abilities, level, a, save_set) for a in ABILITIES}

    def edge(kind: str, ability: str = "") -> conds.EdgeReading:
        return conds.roll_edge(kind, ability=ability, conditions=marks, exhaustion=level_ex)

    check_edge = edge(CHECK)
    save_readings = {a: edge(SAVE, a) for a in ABILITIES}
    attack_edge = edge(ATTACK)
    attacked = conds.roll_edge(ATTACK, target_conditions=marks)
    perception = passive(skill_bonuses["Percepció"], check_edge.edge)
    base_speed = DEFAULT_SPEED_M if speed_m is None else float(speed_m)
    speed = conds.speed(base_speed, marks, level_ex)

    explanations = {
        f"modifiers.{a}": f"({abilities[a]} − 10) ÷ 2, arrodonint cap avall = {_signed(mods[a])}"
        for a in ABILITIES
    }
    explanations["proficiency_bonus"] = f"nivell {level}: {_signed(bonus)}"
    for s, value in skill_bonuses.items():
        ability = SKILLS[s]
        text = f"mod. de {ABILITY_LABELS[ability]} {_signed(mods[ability])}"
        if s in skill_set:
            text += f" + competència {_signed(bonus)}"
        explanations[f"skills.{s}"] = f"{text} = {_signed(value)}"
    for a, value in save_bonuses.items():
        text = f"mod. de {ABILITY_LABELS[a]} {_signed(mods[a])}"
        if a in save_set:
            text += f" + competència {_signed(bonus)}"
        explanations[f"saves.{a}"] = f"{text} = {_signed(value)}"
    shift = {"advantage": " + 5 (avantatge)", "disadvantage": " − 5 (desavantatge)"}
    explanations["passive_perception"] = (
        f"10 + Percepció {_signed(skill_bonuses['Percepció'])}"
        f"{shift.get(check_edge.edge, '')} = {perception}"
    )
    explanations["speed"] = f"{base_speed:g} m" + (
        f" → {speed:g} m ({', '.join(conds.exhaustion_effects(level_ex)) or 'estats'})"
        if speed != base_speed
        else ""
    )

    return Derived(
        modifiers=mods,
        proficiency_bonus=bonus,
        skills=skill_bonuses,
        saves=save_bonuses,
        passive_perception=perception,
        speed=speed,
        edges={CHECK: check_edge.edge, SAVE: edge(SAVE).edge, ATTACK: attack_edge.edge},
        save_edges={a: r.edge for a, r in save_readings.items()},
        auto_fail=tuple(a for a, r in save_readings.items() if r.auto_fail),
        attacked_edge=attacked.edge,
        explanations=explanations,
        reasons={
            CHECK: check_edge.reasons,
            SAVE: tuple(dict.fromkeys(x for r in save_readings.values() for x in r.reasons)),
            ATTACK: attack_edge.reasons,
            "attacked": attacked.reasons,
        },
    )
