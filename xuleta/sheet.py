"""A Xuleta character's sheet: what derives from its inputs (each number with its formula and
the text's section) and the Árbitro's checks of it (what does not add up).

The sheet's data is a plain dict of INPUTS only (``rulesets.xuleta5e.sheets.SheetData`` gives
its shape and validates it)::

    {"name": str, "level": 1–20, "abilities": {"str"…"cha": 1–30},
     "proficiencies": {"skills": [the text's skill names], "saves": [ability keys]},
     "ac": int, "max_hp": int, "hit_die": 6|8|10|12, "speed_m": float, "darkvision_m": float,
     "attacks": [{"name", "damage": "1d8", "damage_type": damage_types key, "finesse", "light",
                  "thrown", "ranged", "reach_m", "range_m": [normal, long] | None,
                  "proficient"}],
     "spellcasting": None | {"class": one of SPELLCASTING_ABILITY, "slots": {"1": n…"9": n},
                             "cantrips": [..], "spells": [..]},
     "resistances": [...], "vulnerabilities": [...], "immunities": [...], "notes": str}

The state is ``rulesets.xuleta5e.sheets.StateData``'s dict (``hp_lost``, ``temp_hp``,
``exhaustion``, ``conditions`` …). Nothing here is computed twice: the bonuses are
``xuleta.proficiency``'s, the numbers under exhaustion and conditions ``xuleta.derived.derive``'s,
the maximum PC under exhaustion ``xuleta.conditions.max_hp``. Pure: no Django, no pydantic.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from xuleta import conditions as conds
from xuleta.abilities import (
    ABILITIES,
    ABILITY_LABELS,
    SKILLS,
    ability_modifier,
    proficiency_bonus,
)
from xuleta.damage_types import DAMAGE_TYPES
from xuleta.derived import DEFAULT_SPEED_M, derive
from xuleta.proficiency import (
    attack_ability,
    attack_bonus,
    spell_attack_bonus,
    spell_save_dc,
    spellcasting_ability,
)
from xuleta.readings import Reading
from xuleta.text import cite

HIT_DICE: tuple[int, ...] = (6, 8, 10, 12)
SPELL_LEVELS: tuple[str, ...] = tuple(str(n) for n in range(1, 10))
DEFAULT_DARKVISION_M = 18.0  # «Dins del seu abast (normalment 18 m)»
DEFAULT_REACH_M = 1.5
DAMAGE_DICE = re.compile(r"^\s*(\d{1,2})d(\d{1,3})\s*$|^\s*(\d{1,2})\s*$")
USUAL_DAMAGE_FACES = (4, 6, 8, 10, 12)

READINGS = (
    Reading(
        "sheet_ac_input",
        "4.2",
        "A Xuleta compara o ataque com a «classe d'armadura (CA) de l'objectiu» mas não tem "
        "tabela de armaduras: de onde vem a CA?",
        "A CA é um número da ficha, escrito pelo jogador e conferido pelo Árbitro.",
    ),
    Reading(
        "sheet_hp_hit_die_input",
        "6.1",
        "A Xuleta fala de «punts de cop» máximos e de «daus de cop» mas não tem tabela de "
        "classes: quanto valem o máximo de PC e o dado de cop?",
        "São números da ficha (o máximo de PC e o dado: d6, d8, d10 ou d12), conferidos pelo "
        "Árbitro; o total de daus de cop é o nível.",
    ),
    Reading(
        "sheet_thrown_ability",
        "3.14",
        "Uma arma llancívola llançada é «a distància» (Destresa) ou guarda a característica do "
        "corpo a corpo? A Xuleta não diz.",
        "Guarda a do corpo a corpo (Força, ou a escolha da subtil): só uma arma marcada "
        "«a distància» usa Destresa.",
    ),
    Reading(
        "sheet_finesse_choice",
        "4.2",
        "«Les armes subtils et deixen triar Força o Destresa»: qual a ficha mostra?",
        "A melhor das duas (Força num empate); o jogador pode dizer outra ao Mestre.",
    ),
)

# --- the formula lines -------------------------------------------------------------------------


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def _m(value: float) -> str:
    return f"{value:g}".replace(".", ",") + " m"


@dataclass(frozen=True)
class Number:
    """One number of the sheet: its ``value``, the ``formula`` that gives it (in the text's
    words, with the inputs filled in) and the text's ``section`` (``xuleta.text.cite``)."""

    value: Any
    formula: str
    section: str

    def as_dict(self) -> dict:
        return {"value": self.value, "formula": self.formula, "section": self.section}


@dataclass(frozen=True)
class SheetNumbers:
    """Every number of a sheet under its state. ``numbers``: key → ``Number`` (``modifiers.str``,
    ``skills.Percepció``, ``saves.dex``, ``passive_perception``, ``speed``, ``max_hp``,
    ``hp``, ``ac``, ``spell_save_dc`` …); ``attacks``: per attack, its ``bonus`` and
    ``damage`` Numbers; ``edges`` (roll kind → edge), ``save_edges``, ``auto_fail``,
    ``attacked_edge``, ``reasons`` from ``xuleta.derived``; ``conditions`` (the state's,
    with what they imply) and ``exhaustion_effects``; ``readings``: the keys of the stated
    readings the numbers use."""

    numbers: dict[str, Number]
    attacks: list[dict]
    edges: dict[str, str]
    save_edges: dict[str, str]
    auto_fail: tuple[str, ...]
    attacked_edge: str
    reasons: dict[str, tuple[str, ...]]
    conditions: tuple[str, ...]
    exhaustion_effects: tuple[str, ...]
    readings: tuple[str, ...] = field(default=())

    def as_dict(self) -> dict:
        return {
            "numbers": {k: n.as_dict() for k, n in self.numbers.items()},
            "attacks": [
                {**a, "bonus": a["bonus"].as_dict(), "damage": a["damage"].as_dict()}
                for a in self.attacks
            ],
            "edges": dict(self.edges),
            "save_edges": dict(self.save_edges),
            "auto_fail": list(self.auto_fail),
            "attacked_edge": self.attacked_edge,
            "reasons": {k: list(v) for k, v in self.reasons.items()},
            "conditions": list(self.conditions),
            "exhaustion_effects": list(self.exhaustion_effects),
            "readings": list(self.readings),
        }


# --- attacks ----------------------------------------------------------------------------------


def attack_numbers(
    abilities: Mapping[str, int], level: int, attack: Mapping[str, Any]
) -> dict[str, Any]:
    """One attack's numbers: the ability it uses («Cos a cos fa servir Força; a distància,
    Destresa. Les armes subtils et deixen triar Força o Destresa»), the to-hit bonus («d20 +
    modificador + bonificació per competència (si ets competent amb l'arma)») and the damage
    modifier («hi sumes el mateix modificador que has fet servir per atacar»), each a ``Number``
    under ``bonus`` and ``damage``; plus ``ability``, ``damage_modifier`` and the attack's
    inputs as the contract's ``check_data`` gives them."""
    ranged = bool(attack.get("ranged"))
    finesse = bool(attack.get("finesse"))
    ability = attack_ability(abilities, ranged, finesse)
    proficient = bool(attack.get("proficient", True))
    bonus = attack_bonus(abilities, level, ability, proficient)
    mod = ability_modifier(abilities[ability], ability)
    why = (
        "subtil: la millor de Força i Destresa"
        if finesse
        else ("a distància: Destresa" if ranged else "cos a cos: Força")
    )
    formula = f"mod. de {ABILITY_LABELS[ability]} {_signed(mod)} ({why})"
    if proficient:
        formula += f" + competència {_signed(proficiency_bonus(level))}"
    formula += f" = {_signed(bonus)}"
    dice = attack["damage"]
    damage_formula = (
        f"{dice} {_signed(mod)[0]} {abs(mod)} (el mateix modificador que has fet servir per atacar)"
        if mod
        else f"{dice} (modificador de {ABILITY_LABELS[ability]} +0)"
    )
    if mod < 0:
        damage_formula += "; el dany mai no baixa de 0 per un modificador negatiu"
    dtype = attack["damage_type"]
    damage_formula += f", {DAMAGE_TYPES.get(dtype, dtype)}"
    range_m = attack.get("range_m")
    return {
        "name": attack["name"],
        "ability": ability,
        "bonus": Number(bonus, formula, cite("Tirada d'atac")),
        "damage": Number(
            f"{dice}{_signed(mod) if mod else ''}", damage_formula, cite("Tirades de dany")
        ),
        "damage_dice": dice,
        "damage_modifier": mod,
        "damage_type": dtype,
        "ranged": ranged,
        "finesse": finesse,
        "light": bool(attack.get("light")),
        "thrown": bool(attack.get("thrown")),
        "proficient": proficient,
        "reach_m": float(attack.get("reach_m", DEFAULT_REACH_M)),
        "range_m": list(range_m) if range_m else None,
    }


# --- spellcasting -----------------------------------------------------------------------------


def spellcasting_numbers(
    abilities: Mapping[str, int], level: int, spellcasting: Mapping[str, Any] | None
) -> dict[str, Any] | None:
    """The spellcasting's numbers, or None without one: the class's ability («La teva
    característica de llançament depèn de la classe»), ``save_dc`` («CD de salvació = 8 +
    bonificació per competència + mod.») and ``attack_bonus`` («Atac d'encanteri =
    bonificació per competència + mod.»), both as ``Number``; ``slots`` ("1"–"9" → n, the
    sheet's), ``cantrips`` and ``spells``. Raises ``XuletaError`` for a class the text does not
    name."""
    if not spellcasting:
        return None
    ability = spellcasting_ability(spellcasting["class"])
    label = ABILITY_LABELS[ability]
    mod = ability_modifier(abilities[ability], ability)
    bonus = proficiency_bonus(level)
    dc = spell_save_dc(abilities, level, ability)
    attack = spell_attack_bonus(abilities, level, ability)
    section = cite("CD i atac d'encanteri")
    return {
        "class": spellcasting["class"],
        "ability": ability,
        "save_dc": Number(
            dc, f"8 + competència {_signed(bonus)} + mod. de {label} {_signed(mod)} = {dc}", section
        ),
        "attack_bonus": Number(
            attack,
            f"competència {_signed(bonus)} + mod. de {label} {_signed(mod)} = {_signed(attack)}",
            section,
        ),
        "slots": {k: int(v) for k, v in sorted(spellcasting.get("slots", {}).items()) if v},
        "cantrips": list(spellcasting.get("cantrips", ())),
        "spells": list(spellcasting.get("spells", ())),
    }


# --- the whole sheet --------------------------------------------------------------------------


def current_hp(max_hp: int, hp_lost: int, exhaustion: int = 0) -> int:
    """PC now: the sheet's ``max_hp`` (before exhaustion) less ``hp_lost``, never above the
    maximum under ``exhaustion`` («Punts de cop màxims a la meitat»; «mai per sobre del teu
    màxim») nor below 0. ``hp_lost`` counts from the sheet's maximum, so halving it at
    exhaustion 4 and giving it back at 3 changes no PC lost."""
    return max(0, min(conds.max_hp(max_hp, exhaustion), max_hp - hp_lost))


def _state(state: Mapping[str, Any] | None) -> dict[str, Any]:
    state = dict(state or {})
    state.setdefault("exhaustion", 0)
    state.setdefault("conditions", [])
    state.setdefault("hp_lost", 0)
    state.setdefault("temp_hp", 0)
    state.setdefault("hit_dice_spent", 0)
    state.setdefault("slots_spent", {})
    return state


def _speed(base: float, speed: float, marks: frozenset[str], exhaustion: int) -> Number:
    """The speed's ``Number``: the base and, when it changes, each condition that stops it
    («La teva velocitat és 0 i res no la pot pujar», or one that does not move) and the
    exhaustion level that halves or stops it. The value is ``xuleta.derived.derive``'s."""
    if speed == base:
        return Number(speed, f"{_m(base)} de la fitxa", cite("Moviment"))
    stops = [
        conds.CONDITIONS[k].label
        for k in conds.CONDITIONS
        if k in marks and conds.speed(base, [k]) == 0
    ]
    why = [f"{label}: velocitat 0" for label in stops]
    if exhaustion >= 5:
        why.append(f"esgotament {exhaustion}: {conds.EXHAUSTION_LEVELS[5]}")
    elif exhaustion >= 2 and not stops:
        why.append(f"esgotament {exhaustion}: {conds.EXHAUSTION_LEVELS[2]}")
    section = cite(stops[0]) if stops else cite("Nivells d'esgotament")
    return Number(speed, f"{_m(base)} → {_m(speed)} ({'; '.join(why)})", section)


def sheet_numbers(data: Mapping[str, Any], state: Mapping[str, Any] | None = None) -> SheetNumbers:
    """Every number of the sheet ``data`` (validated inputs) under ``state``, each with its
    formula and section. Raises ``XuletaError`` naming the field for a value the rules cannot
    take (the ``audit`` lists them all without raising)."""
    st = _state(state)
    abilities = data["abilities"]
    level = data["level"]
    profs = data.get("proficiencies", {})
    exhaustion = st["exhaustion"]
    marks = conds.condition_keys(st["conditions"])
    base_speed = float(data.get("speed_m", DEFAULT_SPEED_M))
    found = derive(
        abilities,
        level,
        skills=profs.get("skills", ()),
        saves=profs.get("saves", ()),
        exhaustion=exhaustion,
        conditions=marks,
        speed_m=base_speed,
    )
    numbers: dict[str, Number] = {}
    for a in ABILITIES:
        numbers[f"scores.{a}"] = Number(abilities[a], "puntuació de la fitxa", cite("Habilitats"))
        numbers[f"modifiers.{a}"] = Number(
            found.modifiers[a],
            found.explanations[f"modifiers.{a}"],
            cite("Prova de característica"),
        )
    numbers["proficiency_bonus"] = Number(
        found.proficiency_bonus,
        found.explanations["proficiency_bonus"],
        cite("Bonificació per competència"),
    )
    for s in SKILLS:
        numbers[f"skills.{s}"] = Number(
            found.skills[s], found.explanations[f"skills.{s}"], cite("Habilitats")
        )
    for a in ABILITIES:
        numbers[f"checks.{a}"] = Number(
            found.modifiers[a],
            f"mod. de {ABILITY_LABELS[a]} {_signed(found.modifiers[a])}",
            cite("Prova de característica"),
        )
        numbers[f"saves.{a}"] = Number(
            found.saves[a], found.explanations[f"saves.{a}"], cite("Tirada de salvació")
        )
    numbers["passive_perception"] = Number(
        found.passive_perception, found.explanations["passive_perception"], cite("Proves passives")
    )
    numbers["speed"] = _speed(base_speed, found.speed, marks, exhaustion)
    numbers["ac"] = Number(
        data["ac"], "CA de la fitxa (llegida: sheet_ac_input)", cite("Tirada d'atac")
    )
    base_max = data["max_hp"]
    max_now = conds.max_hp(base_max, exhaustion)
    numbers["max_hp"] = Number(
        max_now,
        f"{base_max} PC màxims de la fitxa"
        + (
            f" ÷ 2 (esgotament {exhaustion}: punts de cop màxims a la meitat) = {max_now}"
            if max_now != base_max
            else ""
        ),
        cite("Nivells d'esgotament") if max_now != base_max else cite("Dany i curació"),
    )
    hp_now = current_hp(base_max, st["hp_lost"], exhaustion)
    formula = f"{base_max} − {st['hp_lost']} perduts = {base_max - st['hp_lost']}"
    if max_now != base_max:
        formula = f"{formula}, mai per sobre del màxim ({max_now}) = {hp_now}"
    numbers["hp"] = Number(hp_now, formula, cite("Dany i curació"))
    numbers["temp_hp"] = Number(
        st["temp_hp"],
        "punts de cop temporals: es gasten abans que els de veritat",
        cite("Punts de cop temporals"),
    )
    spent = st["hit_dice_spent"]
    numbers["hit_dice"] = Number(
        max(0, level - spent),
        f"{level}d{data['hit_die']} (un per nivell) − {spent} gastats = {max(0, level - spent)}",
        cite("Descans curt"),
    )
    darkvision = float(data.get("darkvision_m", 0))
    numbers["darkvision"] = Number(
        darkvision,
        f"{_m(darkvision)}: hi veus amb llum tènue com si fos brillant, i a les fosques com si "
        "fos tènue"
        if darkvision
        else "sense visió a les fosques",
        cite("Visió a les fosques"),
    )
    attacks = [attack_numbers(abilities, level, a) for a in data.get("attacks", ())]
    casting = spellcasting_numbers(abilities, level, data.get("spellcasting"))
    readings = ["sheet_ac_input", "sheet_hp_hit_die_input"]
    if casting:
        numbers["spell_save_dc"] = casting["save_dc"]
        numbers["spell_attack_bonus"] = casting["attack_bonus"]
        for lvl, n in casting["slots"].items():
            left = max(0, n - int(st["slots_spent"].get(lvl, 0)))
            numbers[f"slots.{lvl}"] = Number(
                left,
                f"{n} espais de nivell {lvl} − {n - left} gastats = {left}",
                cite("Espais d'encanteri"),
            )
    if any(a["finesse"] for a in attacks):
        readings.append("sheet_finesse_choice")
    if any(a["thrown"] and not a["ranged"] for a in attacks):
        readings.append("sheet_thrown_ability")
    if data.get("speed_m") is None:
        readings.append("speed_default")
    if max_now != base_max:
        readings.append("exhaustion_max_hp_rounding")
    return SheetNumbers(
        numbers=numbers,
        attacks=attacks,
        edges=found.edges,
        save_edges=found.save_edges,
        auto_fail=found.auto_fail,
        attacked_edge=found.attacked_edge,
        reasons=found.reasons,
        conditions=tuple(k for k in conds.CONDITIONS if k in conds.implied(marks)),
        exhaustion_effects=conds.exhaustion_effects(exhaustion),
        readings=tuple(readings),
    )


def check_data(data: Mapping[str, Any], state: Mapping[str, Any] | None = None) -> dict:
    """What checks, fights and the procedure read of a homologated sheet and its ``state``:
    the issue's contract, a plain dict (no formulas): ``name``, ``level``, ``abilities``,
    ``modifiers``, ``proficiency_bonus``, ``checks`` (ability → bonus), ``skills`` (all
    eighteen), ``saves``, ``passive_perception``, ``ac``, ``max_hp`` (before exhaustion),
    ``hit_die``, ``hit_dice`` (= level), ``speed_m`` (base), ``darkvision_m``, ``attacks``,
    ``spellcasting`` (None or its numbers), ``resistances``, ``vulnerabilities``,
    ``immunities`` and ``state``. The bonuses are those without exhaustion or conditions
    (the caller asks ``xuleta.conditions.roll_edge`` for the edge); the passive Perception is
    the plain one (10 + bonus)."""
    st = _state(state)
    abilities = data["abilities"]
    level = data["level"]
    profs = data.get("proficiencies", {})
    plain = derive(
        abilities,
        level,
        skills=profs.get("skills", ()),
        saves=profs.get("saves", ()),
        speed_m=float(data.get("speed_m", DEFAULT_SPEED_M)),
    )
    casting = spellcasting_numbers(abilities, level, data.get("spellcasting"))
    attacks = []
    for attack in data.get("attacks", ()):
        found = attack_numbers(abilities, level, attack)
        attacks.append(
            {
                "name": found["name"],
                "ability": found["ability"],
                "bonus": found["bonus"].value,
                "damage": found["damage_dice"],
                "damage_modifier": found["damage_modifier"],
                "damage_type": found["damage_type"],
                "ranged": found["ranged"],
                "finesse": found["finesse"],
                "light": found["light"],
                "thrown": found["thrown"],
                "reach_m": found["reach_m"],
                "range_m": found["range_m"],
            }
        )
    return {
        "name": data["name"],
        "level": level,
        "abilities": {a: abilities[a] for a in ABILITIES},
        "modifiers": dict(plain.modifiers),
        "proficiency_bonus": plain.proficiency_bonus,
        "checks": dict(plain.modifiers),
        "skills": dict(plain.skills),
        "saves": dict(plain.saves),
        "passive_perception": plain.passive_perception,
        "ac": data["ac"],
        "max_hp": data["max_hp"],
        "hit_die": data["hit_die"],
        "hit_dice": level,
        "speed_m": float(data.get("speed_m", DEFAULT_SPEED_M)),
        "darkvision_m": float(data.get("darkvision_m", 0)),
        "attacks": attacks,
        "spellcasting": None
        if casting is None
        else {
            "class": casting["class"],
            "ability": casting["ability"],
            "save_dc": casting["save_dc"].value,
            "attack_bonus": casting["attack_bonus"].value,
            "slots": dict(casting["slots"]),
            "cantrips": casting["cantrips"],
            "spells": casting["spells"],
        },
        "resistances": list(data.get("resistances", ())),
        "vulnerabilities": list(data.get("vulnerabilities", ())),
        "immunities": list(data.get("immunities", ())),
        "state": st,
    }


# --- the Árbitro's checks -----------------------------------------------------------------------

_SPEED_SQUARE_M = 1.5


def audit(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What does not add up in a valid sheet ``data`` (the shape's and the values' refusals
    are ``validate``'s): ``[(field, Portuguese message)]``, [] when nothing. A finding is a
    warning the Árbitro reads before he homologates, not a refusal. Each names the text's line
    it is checked against, or the reading it rests on."""
    found: list[tuple[str, str]] = []
    abilities, level = data["abilities"], data["level"]
    con = ability_modifier(abilities["con"], "con")
    die = data["hit_die"]
    low, high = max(level, level * (1 + con)), level * (die + con)
    if not low <= data["max_hp"] <= high:
        found.append(
            (
                "max_hp",
                f"{data['max_hp']} PC máximos não cabem em {level} daus de cop d{die} com o mod. "
                f"de Constitució {_signed(con)} (de {low} a {high}, um dau por nível): confira "
                "(leitura sheet_hp_hit_die_input).",
            )
        )
    speed = float(data.get("speed_m", DEFAULT_SPEED_M))
    if speed != DEFAULT_SPEED_M:
        found.append(
            (
                "speed_m",
                f"Velocidade {_m(speed)}: a Xuleta diz «gairebé sempre 9 m» ({cite('Moviment')}); "
                "diga de onde vem.",
            )
        )
    if (speed / _SPEED_SQUARE_M) != int(speed / _SPEED_SQUARE_M):
        found.append(("speed_m", f"Velocidade {_m(speed)} não é um número de caselles d'1,5 m."))
    darkvision = float(data.get("darkvision_m", 0))
    if darkvision and darkvision != DEFAULT_DARKVISION_M:
        found.append(
            (
                "darkvision_m",
                f"Visão no escuro de {_m(darkvision)}: a Xuleta diz «normalment 18 m» "
                f"({cite('Visió a les fosques')}).",
            )
        )
    names: dict[str, int] = {}
    for index, attack in enumerate(data.get("attacks", ())):
        where = f"attacks.{index}"
        name = attack["name"]
        if name.casefold() in names:
            found.append(
                (
                    f"{where}.name",
                    f"Dois ataques chamados «{name}»: o combate os escolhe pelo nome.",
                )
            )
        names[name.casefold()] = index
        if attack.get("finesse") and attack.get("ranged"):
            found.append(
                (
                    f"{where}.finesse",
                    f"«{name}» é subtil e a distância: «Les armes subtils et deixen triar Força o "
                    "Destresa» e «a distància, Destresa» — confira qual vale.",
                )
            )
        reach = attack.get("range_m")
        if (attack.get("ranged") or attack.get("thrown")) and not reach:
            found.append(
                (
                    f"{where}.range_m",
                    f"«{name}» é a distância ou llancívola e não diz o abast (normal, llarg).",
                )
            )
        if reach and not (attack.get("ranged") or attack.get("thrown")):
            found.append(
                (
                    f"{where}.range_m",
                    f"«{name}» é corpo a corpo e não é llancívola, mas tem abast a distância.",
                )
            )
        if reach and reach[0] > reach[1]:
            found.append(
                (
                    f"{where}.range_m",
                    f"«{name}»: o abast normal ({_m(reach[0])}) passa do llarg ({_m(reach[1])}).",
                )
            )
        dice = DAMAGE_DICE.match(attack["damage"])
        if dice and dice[2] and int(dice[2]) not in USUAL_DAMAGE_FACES:
            found.append(
                (
                    f"{where}.damage",
                    f"«{name}» tira d{dice[2]}: as armas tiram d4, d6, d8, d10 ou d12.",
                )
            )
    casting = data.get("spellcasting")
    if casting:
        slots = {k: v for k, v in casting.get("slots", {}).items() if v}
        if casting.get("spells") and not slots:
            found.append(
                (
                    "spellcasting.slots",
                    "Tem encanteris e nenhum espai: «Els encanteris de nivell 1 a 9 gasten un espai "
                    "del seu nivell o superior».",
                )
            )
        for lvl in slots:
            lower = [k for k in SPELL_LEVELS if int(k) < int(lvl) and not casting["slots"].get(k)]
            if lower:
                found.append(
                    (
                        f"spellcasting.slots.{lvl}",
                        f"Espais de nivell {lvl} sem nenhum de nivell {', '.join(lower)}: confira a "
                        "tabela da classe.",
                    )
                )
                break
    sets = {k: set(data.get(k, ())) for k in ("resistances", "vulnerabilities", "immunities")}
    for key in sorted(sets["immunities"] & (sets["resistances"] | sets["vulnerabilities"])):
        found.append(
            (
                "immunities",
                f"Imune a {DAMAGE_TYPES[key]} e também resistente ou vulnerável: a immunitat "
                "já anula o dano («amb immunitat, res»).",
            )
        )
    return found


# --- the diff between two versions -------------------------------------------------------------

SHEET_GROUP, ABILITIES_GROUP, PROFICIENCIES_GROUP = "Fitxa", "Característiques", "Competències"
ATTACKS_GROUP, SPELLS_GROUP, DAMAGE_GROUP, NOTES_GROUP = (
    "Atacs",
    "Encanteris",
    "Dany",
    "Notas",
)
_PLAIN_WORDS = (
    ("name", "Nom"),
    ("level", "Nivell"),
    ("ac", "CA"),
    ("max_hp", "PC màxims"),
    ("hit_die", "Dau de cop"),
    ("speed_m", "Velocitat"),
    ("darkvision_m", "Visió a les fosques"),
)
_SETS = (
    ("resistances", "Resistència"),
    ("vulnerabilities", "Vulnerabilitat"),
    ("immunities", "Immunitat"),
)


def _show(key: str, value: Any) -> str:
    if value is None or value == "":
        return ""
    if key == "hit_die":
        return f"d{value}"
    if isinstance(value, float):
        return _m(value)
    return str(value)


def _attack_text(attack: Mapping[str, Any]) -> str:
    kind = DAMAGE_TYPES.get(attack.get("damage_type"), attack.get("damage_type"))
    parts = [f"{attack.get('damage')} {kind}"]
    for key, word in (
        ("finesse", "subtil"),
        ("light", "lleugera"),
        ("thrown", "llancívola"),
        ("ranged", "a distància"),
    ):
        if attack.get(key):
            parts.append(word)
    reach = attack.get("range_m")
    if reach:
        parts.append(f"abast {_m(reach[0])}/{_m(reach[1])}")
    if float(attack.get("reach_m", DEFAULT_REACH_M)) != DEFAULT_REACH_M:
        parts.append(f"abast cos a cos {_m(float(attack['reach_m']))}")
    if not attack.get("proficient", True):
        parts.append("sense competència")
    return ", ".join(parts)


def changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[tuple[str, str, str, str]]:
    """What changed from the sheet ``before`` to ``after``: ``(group, what, before, after)``
    per line of the sheet, in its order, "" for a line that was not there or is gone (the
    history and the Árbitro's queue show them as GURPS's version diff)."""
    found: list[tuple[str, str, str, str]] = []

    def add(group: str, what: str, old: str, new: str) -> None:
        if old != new:
            found.append((group, what, old, new))

    for key, label in _PLAIN_WORDS[:2]:
        add(SHEET_GROUP, label, _show(key, before.get(key)), _show(key, after.get(key)))
    old_scores, new_scores = before.get("abilities") or {}, after.get("abilities") or {}
    for key in ABILITIES:
        add(
            ABILITIES_GROUP,
            ABILITY_LABELS[key],
            _show(key, old_scores.get(key)),
            _show(key, new_scores.get(key)),
        )
    old_prof, new_prof = before.get("proficiencies") or {}, after.get("proficiencies") or {}
    for name in SKILLS:
        add(
            PROFICIENCIES_GROUP,
            name,
            "competent" if name in (old_prof.get("skills") or ()) else "",
            "competent" if name in (new_prof.get("skills") or ()) else "",
        )
    for key in ABILITIES:
        add(
            PROFICIENCIES_GROUP,
            f"Salvació de {ABILITY_LABELS[key]}",
            "competent" if key in (old_prof.get("saves") or ()) else "",
            "competent" if key in (new_prof.get("saves") or ()) else "",
        )
    for key, label in _PLAIN_WORDS[2:]:
        add(SHEET_GROUP, label, _show(key, before.get(key)), _show(key, after.get(key)))
    old_attacks = {a["name"]: a for a in before.get("attacks") or ()}
    new_attacks = {a["name"]: a for a in after.get("attacks") or ()}
    for name in [*new_attacks, *(n for n in old_attacks if n not in new_attacks)]:
        add(
            ATTACKS_GROUP,
            name,
            _attack_text(old_attacks[name]) if name in old_attacks else "",
            _attack_text(new_attacks[name]) if name in new_attacks else "",
        )
    old_cast, new_cast = before.get("spellcasting") or {}, after.get("spellcasting") or {}
    add(SPELLS_GROUP, "Classe", old_cast.get("class", ""), new_cast.get("class", ""))
    old_slots, new_slots = old_cast.get("slots") or {}, new_cast.get("slots") or {}
    for lvl in SPELL_LEVELS:
        add(
            SPELLS_GROUP,
            f"Espais de nivell {lvl}",
            str(old_slots[lvl]) if old_slots.get(lvl) else "",
            str(new_slots[lvl]) if new_slots.get(lvl) else "",
        )
    for key, label in (("cantrips", "Trucs"), ("spells", "Encanteris")):
        add(
            SPELLS_GROUP,
            label,
            ", ".join(old_cast.get(key) or ()),
            ", ".join(new_cast.get(key) or ()),
        )
    for key, label in _SETS:
        add(
            DAMAGE_GROUP,
            label,
            ", ".join(DAMAGE_TYPES.get(k, k) for k in before.get(key) or ()),
            ", ".join(DAMAGE_TYPES.get(k, k) for k in after.get(key) or ()),
        )
    add(NOTES_GROUP, "Notas", before.get("notes") or "", after.get("notes") or "")
    return found


def diff(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """``changes`` as one Portuguese line each: «Força: 15 → 16», «Sigil (novo): competent»,
    «Arc curt (retirado): 1d6 perforant, a distància …»; [] when nothing changed."""
    lines = []
    for _, what, old, new in changes(before, after):
        if old and new:
            lines.append(f"{what}: {old} → {new}")
        elif new:
            lines.append(f"{what} (novo): {new}")
        else:
            lines.append(f"{what} (retirado): {old}")
    return lines
