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
from gurps._validate import check_attribute, require_at_least, require_int
from gurps.encumbrance import LIFT_MULTIPLIER, Encumbrance, encumbrance, encumbrance_row
from gurps.errors import (
    DUPLICATE_WEAPON_NAME,
    EMPTY_WEAPON_NAME,
    NEGATIVE_DR,
    NEGATIVE_FATIGUE_LOST,
    NEGATIVE_HP_LOST,
    NEGATIVE_MOVE,
    NEGATIVE_PD,
    NEGATIVE_SKILL,
    InvalidValue,
)
from gurps.tables import LOSES_BALANCE_DEFENCE_PENALTY


@dataclass(frozen=True)
class Shield:
    """A readied shield: the Shield skill level (None when the sheet has no Shield skill:
    no Block, but the shield's passive defence still counts, §4.6 p. 99) and its PD."""

    skill: int | None
    pd: int


@dataclass(frozen=True)
class Weapon:
    """A weapon that can parry: its name, its skill level and its parry kind (§4.7). A bestiary
    weapon without a sheet has its Aparar as the Mestre gives it (``given_parry``); stun and
    lost balance still apply to it."""

    name: str
    skill: int
    parry: defence.ParryKind | str = "normal"
    given_parry: int | None = None


@dataclass(frozen=True)
class Given:
    """What a creature or NPC without a sheet has as the bestiary (or the Mestre) gives it
    (§5.4.1): full HP, Move, Dodge and Block. A None comes from the attributes, as on a sheet.
    The halvings at 3 HP or less (§5.4, "bicho inclusive"), stun (§5.2) and lost balance
    (§4.8) apply to these as to a sheet's."""

    hp: int | None = None
    move: int | None = None
    dodge: int | None = None
    block: int | None = None


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
    damage_resistance: int = 0
    move_halved: bool = False


def _grouped(digits: str) -> str:
    """10034 → "10.034": the canon's thousands dot (§4.11 writes "1.000 m")."""
    return f"{int(digits):,}".replace(",", ".")


def format_number(value: Fraction | int) -> str:
    """A number the Brazilian way, exact: 27/4 → "6,75", −3 → "−3", 10034 → "10.034"; a
    fraction with no finite decimal stays a fraction ("1/3")."""
    value = Fraction(value)
    sign = "\u2212" if value < 0 else ""
    value = abs(value)
    if value.denominator == 1:
        return f"{sign}{_grouped(str(value.numerator))}"
    rest = value.denominator
    for prime in (2, 5):
        while rest % prime == 0:
            rest //= prime
    if rest != 1:
        return f"{sign}{value.numerator}/{value.denominator}"
    whole, _, decimals = format(
        Decimal(value.numerator) / Decimal(value.denominator), "f"
    ).partition(".")
    return f"{sign}{_grouped(whole)},{decimals}"


def _formula(text: str, total: int, adjustments: Iterable[tuple[int, str]]) -> str:
    """``text`` followed by each "(±n reason)" and, when there is any, "= total"."""
    extra = "".join(f" ({n:+d} {reason})".replace("-", "\u2212") for n, reason in adjustments)
    return f"{text}{extra} = {format_number(total)}" if extra else text


def _defence_adjustments(
    combat_reflexes: bool, stunned: bool, off_balance: bool = False
) -> list[tuple[int, str]]:
    adjustments = []
    if combat_reflexes:
        adjustments.append((defence.COMBAT_REFLEXES_BONUS, "Reflexos em Combate"))
    if stunned:
        adjustments.append((defence.STUNNED_PENALTY, "Atordoado"))
    if off_balance:
        adjustments.append((LOSES_BALANCE_DEFENCE_PENALTY, "Perdeu o equilíbrio, §4.8"))
    return adjustments


def _adjusted(base: int, adjustments: Iterable[tuple[int, str]]) -> int:
    return base + sum(n for n, _ in adjustments)


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


def _explain_base_move(speed: Fraction, load: Encumbrance, given: int | None):
    """The text of Move before halving, and the readings it rests on."""
    if given is not None:
        return f"Deslocamento do bestiário {given}", []
    if load.level is None:
        return "Carga acima de 10 × ST: não se anda → 0", (
            ["lift_between_10_and_15_st"] if load.can_lift else []
        )
    exact = speed - load.level
    text = f"Velocidade Básica {format_number(speed)} − Carga {load.level} = {format_number(exact)}"
    if exact < 0:
        return text + " → 0 (não há Deslocamento negativo)", ["move_not_negative"]
    if exact.denominator != 1:
        text += f" → {math.floor(exact)}"
    return text, []


def _explain_move(
    speed: Fraction,
    load: Encumbrance,
    move: int,
    hp_remaining: int,
    low_st: bool,
    given: int | None = None,
) -> Explanation:
    text, readings = _explain_base_move(speed, load, given)
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
    adjustments: list[tuple[int, str]],
    *,
    combat_reflexes: bool,
    halved: bool,
    low_st: bool,
    given: int | None = None,
) -> Explanation:
    # Dodge is Move (§2.1): it inherits Move's halving and the readings behind it.
    readings = list(move_explanation.readings)
    if low_st:
        readings.append("dodge_follows_move_at_low_st")
    if combat_reflexes and halved:
        readings.append("combat_reflexes_after_halving")
    if given is None:
        start = f"Esquiva = Deslocamento {move}"
    else:
        start = f"Esquiva do bestiário {given}"
        if halved:
            start += f"; metade, para baixo, por {attributes.STAGGERED_AT} PV ou menos"
            start += f" = {attributes.halve(given)}"
    return Explanation(_formula(start, dodge, adjustments), "2.1, 4.6", "77, 98", tuple(readings))


def _explain_parry(
    weapon: Weapon, rule: defence.ParryRule, value: int, adjustments: list[tuple[int, str]]
) -> Explanation:
    if weapon.given_parry is not None:
        text = f"Aparar do bestiário ({weapon.name}) {weapon.given_parry}"
        return Explanation(_formula(text, value, adjustments), "4.7", "99")
    base = math.floor(weapon.skill * rule.fraction)
    if rule.fraction == Fraction(1, 2):
        text = f"NH {weapon.name} {weapon.skill} ÷ 2 = {base}"
    else:
        text = f"NH {weapon.name} {weapon.skill} × ⅔ = {base} ({rule.name})"
    own = [(rule.adjustment, rule.name)] if rule.adjustment else []
    return Explanation(_formula(text, value, own + adjustments), rule.section, rule.page)


def _check_inputs(
    st, dx, iq, ht, hp_lost, fatigue_lost, armour_pd, armour_dr, shield, weapons, given
) -> list[defence.ParryRule]:
    """Raise InvalidValue naming the first wrong field; the parry rule of each weapon."""
    for name, value in (("st", st), ("dx", dx), ("iq", iq), ("ht", ht)):
        check_attribute(name, value)
    require_at_least("hp_lost", hp_lost, 0, NEGATIVE_HP_LOST)
    require_at_least("fatigue_lost", fatigue_lost, 0, NEGATIVE_FATIGUE_LOST)
    require_at_least("armour_pd", armour_pd, 0, NEGATIVE_PD)
    require_at_least("armour_dr", armour_dr, 0, NEGATIVE_DR)
    if shield is not None:
        if shield.skill is not None:
            require_at_least("shield.skill", shield.skill, 0, NEGATIVE_SKILL)
        require_at_least("shield.pd", shield.pd, 0, NEGATIVE_PD)
    if given is not None:
        if given.hp is not None:
            check_attribute("hp", given.hp)
        if given.move is not None:
            require_at_least("move", given.move, 0, NEGATIVE_MOVE)
        for name in ("dodge", "block"):
            if getattr(given, name) is not None:
                require_int(name, getattr(given, name))
    rules = []
    for weapon in weapons:
        if not isinstance(weapon.name, str) or not weapon.name.strip():
            raise InvalidValue("weapons.name", EMPTY_WEAPON_NAME)
        require_at_least("weapons.skill", weapon.skill, 0, NEGATIVE_SKILL)
        if weapon.given_parry is not None:
            require_int("weapons.parry", weapon.given_parry)
        try:
            rules.append(defence.parry_rule(weapon.parry))
        except InvalidValue as error:
            raise InvalidValue("weapons.parry", error.message) from None
    if len({weapon.name for weapon in weapons}) != len(weapons):
        raise InvalidValue("weapons.name", DUPLICATE_WEAPON_NAME)
    return rules


def _explain_hp_and_fatigue(
    ht: int, hp: int, hp_lost: int, st: int, fatigue_lost: int, given_hp: int | None
) -> dict[str, Explanation]:
    start = f"PV = HT {ht} = {hp}" if given_hp is None else f"PV do bestiário {hp}"
    lost = f"; perdidos {hp_lost}, restam {format_number(hp - hp_lost)}" if hp_lost else ""
    st_after = attributes.effective_st(st, fatigue_lost)
    return {
        "hp": Explanation(start + lost, "2.1", "12"),
        "fatigue": Explanation(
            f"Fadiga = ST {st} = {attributes.fatigue_points(st)}"
            + (f"; perdidos {fatigue_lost}, ST efetiva {st_after}" if fatigue_lost else ""),
            "2.1, 6.2" if fatigue_lost else "2.1",
            "134",
        ),
    }


def _block(
    shield: Shield | None, given: int | None, armour_pd: int, cr: bool, adjust
) -> tuple[int | None, int, Explanation]:
    """Block, PD and the Block's explanation (§4.6–4.7): a shield's PD counts even without
    the Shield skill; a bestiary Block is the Mestre's number."""
    pd = defence.passive_defense(armour_pd, shield.pd if shield else 0)
    if given is not None:
        adjustments = adjust(False)
        value = _adjusted(given, adjustments)
        text = _formula(f"Bloquear do bestiário {given}", value, adjustments)
        return value, pd, Explanation(text, "4.7", "98")
    if shield is None:
        return None, pd, Explanation("Sem escudo: não bloqueia", "4.7", "98")
    if shield.skill is None:
        # PD "sempre protege" (§4.6); Block needs the Shield skill (§4.7).
        text = "Sem a perícia Escudo: não bloqueia, mas a PD do escudo conta"
        return None, pd, Explanation(text, "4.7", "98")
    adjustments = adjust(cr)
    half = math.floor(shield.skill * defence.BLOCK_FRACTION)
    value = _adjusted(half, adjustments)
    text = _formula(f"NH Escudo {shield.skill} ÷ 2 = {half}", value, adjustments)
    return value, pd, Explanation(text, "4.7", "98")


def _parries(
    weapons: tuple[Weapon, ...], rules: list[defence.ParryRule], cr: bool, adjust
) -> tuple[list[NamedValue], dict[str, Explanation]]:
    values, how = [], {}
    for weapon, rule in zip(weapons, rules, strict=True):
        if weapon.given_parry is not None:
            adjustments = adjust(False)
            value = _adjusted(weapon.given_parry, adjustments)
        else:
            adjustments = adjust(cr)
            value = _adjusted(defence.parry(weapon.skill, rule.kind), adjustments)
        how[f"parry:{weapon.name}"] = _explain_parry(weapon, rule, value, adjustments)
        values.append(NamedValue(weapon.name, value))
    return values, how


def _totals(dodge: int, block: int | None, block_how: Explanation, pd: int):
    return {
        "dodge_total": Explanation(
            f"Esquiva {format_number(dodge)} + Defesa Passiva {pd} = "
            f"{format_number(defence.defence_total(dodge, pd))}",
            defence.DEFENCE_SECTION,
            defence.DEFENCE_PAGE,
        ),
        "block_total": Explanation(
            block_how.formula
            if block is None
            else f"Bloquear {format_number(block)} + Defesa Passiva {pd} = "
            f"{format_number(defence.defence_total(block, pd))}",
            defence.DEFENCE_SECTION,
            defence.DEFENCE_PAGE,
        ),
    }


def _move_and_dodge(
    speed, load, given, how, hp_remaining, halved, st, fatigue_lost, combat_reflexes, adjust
) -> tuple[int, int]:
    """Move (§2.1, halved by §5.4 or §6.2) and Dodge (= Move, or the bestiary's, halved the
    same way), writing their explanations into ``how``."""
    low_st = attributes.low_st_from_fatigue(st, fatigue_lost)
    base = given.move if given.move is not None else attributes.base_move(speed, load.level)
    move = attributes.halve(base) if halved else base
    how["move"] = _explain_move(speed, load, move, hp_remaining, low_st, given.move)
    if given.dodge is None:
        adjustments = adjust(combat_reflexes)
        dodge = _adjusted(defence.dodge(move), adjustments)
    else:
        adjustments = adjust(False)
        dodge = _adjusted(attributes.halve(given.dodge) if halved else given.dodge, adjustments)
    how["dodge"] = _explain_dodge(
        move,
        how["move"],
        dodge,
        adjustments,
        combat_reflexes=combat_reflexes and given.dodge is None,
        halved=halved,
        low_st=low_st,
        given=given.dodge,
    )
    return move, dodge


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
    armour_dr: int = 0,
    shield: Shield | None = None,
    weapons: Iterable[Weapon] = (),
    off_balance: bool = False,
    given: Given | None = None,
) -> Derived:
    """The derived block of a sheet — or of any combatant — in its current state: the sheet
    page, the sheets API and the combat card all ask this one function. Levels in and out;
    ``carried_kg`` in kg; ``basic_speed`` exact.

    Carga uses the sheet's ST (README reading). Move is halved once at 3 HP or less (§5.4) or
    at ST 3 or less from fatigue (§6.2); Dodge follows Move (§2.1). Active defences: +1 Combat
    Reflexes, −4 stunned (§4.6), −2 ``off_balance`` (§4.8). PD is armour plus shield, added to
    each total (§4.6); ``armour_dr`` the worn armour's DR. ``given``: a creature's bestiary
    numbers. Raises InvalidValue naming the field (st, dx, iq, ht, carried_kg, hp_lost,
    fatigue_lost, armour_pd, armour_dr, shield.*, hp, move, dodge, block, weapons.*).
    """
    weapons = tuple(weapons)
    given = given or Given()
    rules = _check_inputs(
        st, dx, iq, ht, hp_lost, fatigue_lost, armour_pd, armour_dr, shield, weapons, given
    )
    hp = given.hp if given.hp is not None else attributes.hit_points(ht)
    hp_remaining = hp - hp_lost
    how = _explain_hp_and_fatigue(ht, hp, hp_lost, st, fatigue_lost, given.hp)
    speed = attributes.basic_speed(dx, ht)
    how["basic_speed"] = Explanation(
        f"(DX {dx} + HT {ht}) ÷ 4 = {format_number(speed)}", "2.1", "15"
    )
    load = encumbrance(st, carried_kg)
    how["encumbrance"] = _explain_encumbrance(st, load, fatigue_lost)
    halved = attributes.move_halved(hp_remaining=hp_remaining, st=st, fatigue_lost=fatigue_lost)

    def adjust(cr: bool) -> list[tuple[int, str]]:
        return _defence_adjustments(cr, stunned, off_balance)

    move, dodge = _move_and_dodge(
        speed, load, given, how, hp_remaining, halved, st, fatigue_lost, combat_reflexes, adjust
    )
    block, pd, how["block"] = _block(shield, given.block, armour_pd, combat_reflexes, adjust)
    parts = [f"Armadura {armour_pd}"] + ([f"Escudo {shield.pd}"] if shield else [])
    how["passive_defense"] = Explanation(f"{' + '.join(parts)} = {pd}", "4.6", "99")
    parries, parry_how = _parries(weapons, rules, combat_reflexes, adjust)
    how.update(parry_how)
    how.update(_totals(dodge, block, how["block"], pd))
    return Derived(
        hp=hp,
        hp_remaining=hp_remaining,
        fatigue=attributes.fatigue_points(st),
        st_after_fatigue=attributes.effective_st(st, fatigue_lost),
        basic_speed=speed,
        encumbrance=load,
        move=move,
        dodge=dodge,
        block=block,
        parries=tuple(parries),
        passive_defense=pd,
        dodge_total=defence.defence_total(dodge, pd),
        block_total=None if block is None else defence.defence_total(block, pd),
        parries_total=tuple(
            NamedValue(p.name, defence.defence_total(p.value, pd)) for p in parries
        ),
        staggered=attributes.is_staggered(hp_remaining),
        explanations=how,
        damage_resistance=armour_dr,
        move_halved=halved,
    )
