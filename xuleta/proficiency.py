"""The bonuses a character adds to a d20: ability modifier plus, where proficient, the
proficiency bonus (Xuleta, «Proves i tirades»: «Prova de característica», «Tirada d'atac»,
«Tirada de salvació», «Bonificació per competència», «Proves passives»; «Llançar encanteris»:
«CD i atac d'encanteri»).

``abilities`` is always a mapping of the six keys (``xuleta.abilities.ABILITIES``) to scores
1–30; ``level`` the character level 1–20. «Mai no se suma més d'un cop a la mateixa tirada»: a
bonus here adds the proficiency bonus at most once, whatever the caller says twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from xuleta.abilities import (
    ABILITIES,
    ABILITY_LABELS,
    CHA,
    DEX,
    INT,
    STR,
    WIS,
    ability_key,
    ability_modifier,
    proficiency_bonus,
    skill_ability,
    skill_name,
)
from xuleta.errors import XuletaError
from xuleta.rolls import NONE, passive

MISSING_ABILITY = "Falta a puntuação de {label} ({key})."

# «La teva característica de llançament depèn de la classe: Intel·ligència (mag), Saviesa
# (clergue, druida, explorador) o Carisma (bard, bruixot, fetiller, paladí).»
SPELLCASTING_ABILITY = MappingProxyType(
    {
        "mag": INT,
        "clergue": WIS,
        "druida": WIS,
        "explorador": WIS,
        "bard": CHA,
        "bruixot": CHA,
        "fetiller": CHA,
        "paladí": CHA,
    }
)
BAD_CLASS = "Classe sem conjuração na Xuleta: «{name}». As que a Xuleta nomeia: {known}."
SPELL_DC_BASE = 8


def modifiers(abilities: Mapping[str, int]) -> dict[str, int]:
    """``{ability key: modifier}`` for the six, in ``ABILITIES`` order. Raises ``XuletaError``
    (field ``abilities.<key>``) for a missing ability or a score outside 1–30."""
    found = {}
    for key in ABILITIES:
        if key not in abilities:
            raise XuletaError(
                MISSING_ABILITY.format(label=ABILITY_LABELS[key], key=key), f"abilities.{key}"
            )
        found[key] = ability_modifier(abilities[key], key)
    return found


def check_bonus(
    abilities: Mapping[str, int],
    level: int,
    ability: str,
    proficient_skills: Iterable[str] = (),
    skill: str = "",
) -> int:
    """The bonus of an ability check: the ability's modifier, plus the proficiency bonus when
    ``skill`` (one of the text's skills; its ability is the table's unless ``ability`` is
    given — «El DM pot canviar la característica si té sentit») is among ``proficient_skills``.
    «Si la prova fa servir una habilitat en què ets competent, també hi sumes la bonificació
    per competència.»"""
    bonus = 0
    if skill:
        skill = skill_name(skill)
        ability = ability_key(ability) if ability else skill_ability(skill)
        proficient = {skill_name(s) for s in proficient_skills}
        if skill in proficient:
            bonus = proficiency_bonus(level)
    else:
        ability = ability_key(ability)
    return modifiers(abilities)[ability] + bonus


def save_bonus(
    abilities: Mapping[str, int], level: int, ability: str, proficient_saves: Iterable[str] = ()
) -> int:
    """The bonus of a saving throw of ``ability``: its modifier, plus the proficiency bonus if
    ``ability`` is among ``proficient_saves``. «Si la teva classe et dona competència en aquesta
    salvació, hi sumes la bonificació per competència.»"""
    ability = ability_key(ability)
    proficient = {ability_key(a) for a in proficient_saves}
    bonus = proficiency_bonus(level) if ability in proficient else 0
    return modifiers(abilities)[ability] + bonus


def attack_ability(abilities: Mapping[str, int], ranged: bool, finesse: bool = False) -> str:
    """The ability an attack uses: «Cos a cos fa servir Força; a distància, Destresa. Les armes
    subtils et deixen triar Força o Destresa» — the better of the two for a finesse weapon."""
    if finesse:
        mods = modifiers(abilities)
        return DEX if mods[DEX] > mods[STR] else STR
    return DEX if ranged else STR


def attack_bonus(abilities: Mapping[str, int], level: int, ability: str, proficient: bool) -> int:
    """«d20 + modificador + bonificació per competència (si ets competent amb l'arma)»."""
    return modifiers(abilities)[ability_key(ability)] + (
        proficiency_bonus(level) if proficient else 0
    )


def passive_score(
    abilities: Mapping[str, int],
    level: int,
    skill: str = "Percepció",
    proficient_skills: Iterable[str] = (),
    edge: str = NONE,
) -> int:
    """A passive check (the Percepció passiva by default): 10 + the check's bonus, ±5 with an
    edge (``xuleta.rolls.passive``)."""
    return passive(check_bonus(abilities, level, "", proficient_skills, skill), edge)


def spellcasting_ability(class_name: str) -> str:
    """The ability key of a class's spellcasting, by the text's list; raises ``XuletaError``
    (field ``spellcasting.class``) for a class the text does not name."""
    wanted = (class_name or "").strip().casefold()
    for name, ability in SPELLCASTING_ABILITY.items():
        if name.casefold() == wanted:
            return ability
    known = ", ".join(SPELLCASTING_ABILITY)
    raise XuletaError(BAD_CLASS.format(name=class_name, known=known), "spellcasting.class")


def spell_save_dc(abilities: Mapping[str, int], level: int, ability: str) -> int:
    """«CD de salvació = 8 + bonificació per competència + mod. de la teva característica de
    llançament.»"""
    return SPELL_DC_BASE + proficiency_bonus(level) + modifiers(abilities)[ability_key(ability)]


def spell_attack_bonus(abilities: Mapping[str, int], level: int, ability: str) -> int:
    """«Atac d'encanteri = bonificació per competència + mod. de la teva característica de
    llançament.»"""
    return proficiency_bonus(level) + modifiers(abilities)[ability_key(ability)]
