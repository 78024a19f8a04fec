"""The derived block of a sheet: HP, fatigue, basic speed, Carga, Move and the defences,
each with the formula that produced it (canon §2.1, §2.2, §4.6–4.7, §5.4, §6.2).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from gurps import attributes, defence
from gurps._validate import check_attribute, require_at_least
from gurps.encumbrance import LIFT_MULTIPLIER, Encumbrance, encumbrance, encumbrance_row
from gurps.errors import (
    DUPLICATE_WEAPON_NAME,
    EMPTY_WEAPON_NAME,
    NEGATIVE_FATIGUE_LOST,
    NEGATIVE_HP_LOST,
    NEGATIVE_PD,
    NEGATIVE_SKILL,
    InvalidValue,
)


@dataclass(frozen=True)
class Shield:
    """A readied shield: the Shield skill level (None when the sheet has no Shield skill:
    no Block, but the shield's passive defence still counts, §4.6 p. 99) and its PD."""

    skill: int | None
    pd: int


@dataclass(frozen=True)
class Weapon:
    """A weapon that can parry: its name, its skill level and its parry kind."""

    name: str
    skill: int
    parry: defence.ParryKind | str = "normal"


@dataclass(frozen=True)
class Explanation:
    """How a value came out, in Portuguese with the actual numbers, and where the rule is.
    ``readings`` are keys of ``gurps.readings.READINGS`` the value depends on."""

    formula: str
    section: str
    page: str
    readings: tuple[str, ...] = ()


@dataclass(frozen=True)
class NamedValue:
    name: str
    value: int


@dataclass(frozen=True)
class Derived:
    """The derived block. Move, defences and totals are in levels; ``basic_speed`` exact.

    ``explanations`` has keys "hp", "fatigue", "basic_speed", "encumbrance", "move",
    "dodge", "block", "passive_defense", "dodge_total", "block_total", and
    "parry:<weapon name>" for each weapon.
    """

    hp: int
    hp_remaining: int
    fatigue: int
    st_after_fatigue: int
    basic_speed: Fraction
    encumbrance: Encumbrance
    move: int
    dodge: int
    block: int | None
    parries: tuple[NamedValue, ...]
    passive_defense: int
    dodge_total: int
    block_total: int | None
    parries_total: tuple[NamedValue, ...]
    staggered: bool
    explanations: dict[str, Explanation]


def format_number(value: Fraction | int) -> str:
    """A number the Brazilian way, exact: 27/4 → "6,75", −3 → "−3"; a fraction with no
    finite decimal stays a fraction ("1/3")."""
    value = Fraction(value)
    sign = "\u2212" if value < 0 else ""
    value = abs(value)
    if value.denominator == 1:
        return f"{sign}{value.numerator}"
    rest = value.denominator
    for prime in (2, 5):
        while rest % prime == 0:
            rest //= prime
    if rest != 1:
        return f"{sign}{value.numerator}/{value.denominator}"
    return sign + format(Decimal(value.numerator) / Decimal(value.denominator), "f").replace(
        ".", ","
    )


def _formula(text: str, total: int, adjustments: Iterable[tuple[int, str]]) -> str:
    """``text`` followed by each "(±n reason)" and, when there is any, "= total"."""
    extra = "".join(f" ({n:+d} {reason})".replace("-", "\u2212") for n, reason in adjustments)
    return f"{text}{extra} = {format_number(total)}" if extra else text


def _defence_adjustments(combat_reflexes: bool, stunned: bool) -> list[tuple[int, str]]:
    adjustments = []
    if combat_reflexes:
        adjustments.append((defence.COMBAT_REFLEXES_BONUS, "Reflexos em Combate"))
    if stunned:
        adjustments.append((defence.STUNNED_PENALTY, "Atordoado"))
    return adjustments


def _explain_encumbrance(st: int, load: Encumbrance, fatigue_lost: int) -> Explanation:
    start = f"{format_number(load.carried_kg)} kg com ST {st}: "
    if load.level is not None:
        multiplier = encumbrance_row(load.level).multiplier
        times = "ST" if multiplier == 1 else f"{multiplier} × ST"
        text = f"até {format_number(load.max_kg)} kg ({times}) → {load.name} ({load.level})"
    elif load.can_lift:
        text = f"acima de 10 × ST, até {LIFT_MULTIPLIER} × ST ({format_number(load.max_kg)} kg) → {load.name}"
    else:
        text = f"acima de {LIFT_MULTIPLIER} × ST → {load.name}"
    readings = ("carga_uses_sheet_st",) * bool(fatigue_lost)
    if load.level is None and load.can_lift:
        readings += ("lift_between_10_and_15_st",)
    return Explanation(start + text, "2.2", "76", readings)


def _explain_move(
    speed: Fraction, load: Encumbrance, move: int, hp_remaining: int, low_st: bool
) -> Explanation:
    readings: list[str] = []
    if load.level is None:
        text = "Carga acima de 10 × ST: não se anda → 0"
        if load.can_lift:
            readings.append("lift_between_10_and_15_st")
    else:
        exact = speed - load.level
        text = f"Velocidade Básica {format_number(speed)} − Carga {load.level} = {format_number(exact)}"
        if exact < 0:
            text += " → 0 (não há Deslocamento negativo)"
            readings.append("move_not_negative")
        elif exact.denominator != 1:
            text += f" → {math.floor(exact)}"
    sections, pages, reasons = ["2.1"], ["77"], []
    if attributes.is_staggered(hp_remaining):
        reasons.append(f"{attributes.STAGGERED_AT} PV ou menos")
        sections.append("5.4")
        pages.append("126")
        if hp_remaining < 1:
            readings.append("staggered_below_1_hp")
    if low_st:
        reasons.append(f"ST {attributes.LOW_ST_AT} ou menos por fadiga")
        sections.append("6.2")
        pages.append("134")
    if len(reasons) == 2:
        readings.append("halve_once")
    if reasons:
        text += f"; metade, para baixo, por {' e '.join(reasons)} = {move}"
    return Explanation(text, ", ".join(sections), ", ".join(pages), tuple(readings))


def _explain_dodge(
    move: int,
    move_explanation: Explanation,
    dodge: int,
    *,
    combat_reflexes: bool,
    stunned: bool,
    halved: bool,
    low_st: bool,
) -> Explanation:
    # Dodge is Move (§2.1): it inherits Move's halving and the readings behind it.
    readings = list(move_explanation.readings)
    if low_st:
        readings.append("dodge_follows_move_at_low_st")
    if combat_reflexes and halved:
        readings.append("combat_reflexes_after_halving")
    adjustments = _defence_adjustments(combat_reflexes, stunned)
    text = _formula(f"Esquiva = Deslocamento {move}", dodge, adjustments)
    return Explanation(text, "2.1, 4.6", "77, 98", tuple(readings))


def _explain_parry(
    weapon: Weapon, rule: defence.ParryRule, value: int, combat_reflexes: bool, stunned: bool
) -> Explanation:
    base = math.floor(weapon.skill * rule.fraction)
    if rule.fraction == Fraction(1, 2):
        text = f"NH {weapon.name} {weapon.skill} ÷ 2 = {base}"
    else:
        text = f"NH {weapon.name} {weapon.skill} × ⅔ = {base} ({rule.name})"
    adjustments = [(rule.adjustment, rule.name)] if rule.adjustment else []
    adjustments += _defence_adjustments(combat_reflexes, stunned)
    return Explanation(_formula(text, value, adjustments), rule.section, rule.page)


def derive(
    *,
    st: int,
    dx: int,
    iq: int,
    ht: int,
    carried_kg: Fraction | Decimal | int | float | str = 0,
    hp_lost: int = 0,
    fatigue_lost: int = 0,
    combat_reflexes: bool = False,
    stunned: bool = False,
    armour_pd: int = 0,
    shield: Shield | None = None,
    weapons: Iterable[Weapon] = (),
) -> Derived:
    """Compute the derived block of a sheet in its current state.

    Carga uses the sheet's ST, not ST after fatigue (README reading). Move is halved once at
    3 HP or less (§5.4) or ST 3 or less from fatigue (§6.2); Dodge follows Move. Passive
    defence is armour plus shield; each total adds it (§4.6). Raises InvalidValue naming the
    field: "st", "dx", "iq", "ht", "carried_kg", "hp_lost", "fatigue_lost", "armour_pd",
    "shield.skill", "shield.pd", "weapons.name", "weapons.skill", "weapons.parry".
    """
    for name, value in (("st", st), ("dx", dx), ("iq", iq), ("ht", ht)):
        check_attribute(name, value)
    require_at_least("hp_lost", hp_lost, 0, NEGATIVE_HP_LOST)
    require_at_least("fatigue_lost", fatigue_lost, 0, NEGATIVE_FATIGUE_LOST)
    require_at_least("armour_pd", armour_pd, 0, NEGATIVE_PD)
    if shield is not None:
        if shield.skill is not None:
            require_at_least("shield.skill", shield.skill, 0, NEGATIVE_SKILL)
        require_at_least("shield.pd", shield.pd, 0, NEGATIVE_PD)
    weapons = tuple(weapons)
    rules = []
    for weapon in weapons:
        if not isinstance(weapon.name, str) or not weapon.name.strip():
            raise InvalidValue("weapons.name", EMPTY_WEAPON_NAME)
        require_at_least("weapons.skill", weapon.skill, 0, NEGATIVE_SKILL)
        try:
            rules.append(defence.parry_rule(weapon.parry))
        except InvalidValue as error:
            raise InvalidValue("weapons.parry", error.message) from None
    if len({weapon.name for weapon in weapons}) != len(weapons):
        raise InvalidValue("weapons.name", DUPLICATE_WEAPON_NAME)

    explanations: dict[str, Explanation] = {}

    hp = attributes.hit_points(ht)
    hp_remaining = ht - hp_lost
    staggered = attributes.is_staggered(hp_remaining)
    explanations["hp"] = Explanation(
        f"PV = HT {ht} = {hp}"
        + (f"; perdidos {hp_lost}, restam {format_number(hp_remaining)}" if hp_lost else ""),
        "2.1",
        "12",
    )

    fatigue = attributes.fatigue_points(st)
    st_after = attributes.effective_st(st, fatigue_lost)
    explanations["fatigue"] = Explanation(
        f"Fadiga = ST {st} = {fatigue}"
        + (f"; perdidos {fatigue_lost}, ST efetiva {st_after}" if fatigue_lost else ""),
        "2.1, 6.2" if fatigue_lost else "2.1",
        "134",
    )

    speed = attributes.basic_speed(dx, ht)
    explanations["basic_speed"] = Explanation(
        f"(DX {dx} + HT {ht}) ÷ 4 = {format_number(speed)}", "2.1", "15"
    )

    load = encumbrance(st, carried_kg)
    explanations["encumbrance"] = _explain_encumbrance(st, load, fatigue_lost)

    move = attributes.move(speed, load.level, hp_remaining=hp_remaining, st_after_fatigue=st_after)
    low_st = st_after <= attributes.LOW_ST_AT
    explanations["move"] = _explain_move(speed, load, move, hp_remaining, low_st)

    adjustments = _defence_adjustments(combat_reflexes, stunned)
    dodge = defence.dodge(move, combat_reflexes=combat_reflexes, stunned=stunned)
    explanations["dodge"] = _explain_dodge(
        move,
        explanations["move"],
        dodge,
        combat_reflexes=combat_reflexes,
        stunned=stunned,
        halved=staggered or low_st,
        low_st=low_st,
    )

    if shield is None:
        block = None
        explanations["block"] = Explanation("Sem escudo: não bloqueia", "4.7", "98")
        pd = defence.passive_defense(armour_pd)
    elif shield.skill is None:
        # PD "sempre protege" (§4.6); Block needs the Shield skill (§4.7).
        block = None
        explanations["block"] = Explanation(
            "Sem a perícia Escudo: não bloqueia, mas a PD do escudo conta", "4.7", "98"
        )
        pd = defence.passive_defense(armour_pd, shield.pd)
    else:
        block = defence.block(shield.skill, combat_reflexes=combat_reflexes, stunned=stunned)
        half = math.floor(shield.skill * defence.BLOCK_FRACTION)
        explanations["block"] = Explanation(
            _formula(f"NH Escudo {shield.skill} ÷ 2 = {half}", block, adjustments),
            "4.7",
            "98",
        )
        pd = defence.passive_defense(armour_pd, shield.pd)
    parts = [f"Armadura {armour_pd}"] + ([f"Escudo {shield.pd}"] if shield else [])
    explanations["passive_defense"] = Explanation(f"{' + '.join(parts)} = {pd}", "4.6", "99")

    parries = []
    for weapon, rule in zip(weapons, rules, strict=True):
        value = defence.parry(
            weapon.skill, rule.kind, combat_reflexes=combat_reflexes, stunned=stunned
        )
        explanations[f"parry:{weapon.name}"] = _explain_parry(
            weapon, rule, value, combat_reflexes, stunned
        )
        parries.append(NamedValue(weapon.name, value))

    dodge_total = defence.defence_total(dodge, pd)
    explanations["dodge_total"] = Explanation(
        f"Esquiva {format_number(dodge)} + Defesa Passiva {pd} = {format_number(dodge_total)}",
        defence.DEFENCE_SECTION,
        defence.DEFENCE_PAGE,
    )
    block_total = None if block is None else defence.defence_total(block, pd)
    explanations["block_total"] = Explanation(
        explanations["block"].formula
        if block is None
        else f"Bloquear {format_number(block)} + Defesa Passiva {pd} = {format_number(block_total)}",
        defence.DEFENCE_SECTION,
        defence.DEFENCE_PAGE,
    )

    return Derived(
        hp=hp,
        hp_remaining=hp_remaining,
        fatigue=fatigue,
        st_after_fatigue=st_after,
        basic_speed=speed,
        encumbrance=load,
        move=move,
        dodge=dodge,
        block=block,
        parries=tuple(parries),
        passive_defense=pd,
        dodge_total=dodge_total,
        block_total=block_total,
        parries_total=tuple(
            NamedValue(p.name, defence.defence_total(p.value, pd)) for p in parries
        ),
        staggered=staggered,
        explanations=explanations,
    )
