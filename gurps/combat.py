"""Combat: the turn and the attack (canon §4.1–4.5, §4.10–4.11, §5c–5e; book p. 95–105, 201).

Turn order, the ten maneuvers and the defences they leave, weapon readiness, aiming, the
feint, the attack modifiers, close combat, terrain, surprise, and the attack sequence of the
Mestre's table (§4.10) as data and as ``resolve_attack``. Distances are metres (one hex is
one metre, as §4.3 counts a step); Move, skills and defences are levels.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from fractions import Fraction
from typing import Literal

from gurps._validate import check_attribute, require_at_least, require_int
from gurps.attributes import is_staggered
from gurps.checks import (
    NO_ROLL_AT_OR_BELOW,
    OUTCOME_NAMES,
    Outcome,
    RollKind,
    SuccessRoll,
    ensure_rollable,
    quick_contest,
    roll_success,
)
from gurps.damage import DAMAGE_TYPE_NAMES, DamageType, Wound, wound, wound_multiplier
from gurps.defence import (
    STUNNED_PENALTY,
    ActiveDefence,
    AttackKind,
    available_defences,
    defence_rule,
    roll_defence,
)
from gurps.dice import DiceExpression, RandomSource, parse_dice
from gurps.errors import (
    AIM_TURN_REQUIRED,
    ALL_OUT_OPTION_REQUIRED,
    ALL_OUT_OPTION_WITHOUT_ALL_OUT_ATTACK,
    AMOUNT_NOT_USED,
    AMOUNT_REQUIRED,
    BAD_DAMAGE,
    BASIC_SPEED_NOT_A_NUMBER,
    CLOSE_COMBAT_NOT_IN_CANON,
    DEFENCE_NOT_AVAILABLE,
    DEFENCE_NOT_LEFT_BY_MANEUVER,
    DOUBLE_ATTACK_NEEDS_WEAPONS,
    DUPLICATE_ATTACK_SITUATION,
    DUPLICATE_COMBATANT_NAME,
    DUPLICATE_DECLARATION_ORDER,
    EMPTY_COMBATANT_NAME,
    FIXED_MODIFIER,
    MODIFIER_OUT_OF_RANGE,
    NEGATIVE_AIM_TURNS,
    NEGATIVE_DR,
    NEGATIVE_FEINT_PENALTY,
    NEGATIVE_HP_LOST,
    NEGATIVE_MOVE,
    NEGATIVE_PD,
    NEGATIVE_READY_WEAPONS,
    NEGATIVE_WILL_LEVEL,
    NO_COMBATANTS,
    NOT_A_MODIFIER,
    NOT_AN_ATTACK_MANEUVER,
    ONE_DEFENCE_PER_ATTACK,
    READINESS_NOT_IN_CANON,
    RELOAD_ONLY_WITH_READY,
    SAME_DEFENCE_TWICE,
    TERRAIN_MOVE_STACKING_NOT_IN_CANON,
    TURN_TOO_LOW,
    UNARMED_HAS_NO_WEAPON,
    UNKNOWN_ALL_OUT_ATTACK_OPTION,
    UNKNOWN_ATTACK_KIND,
    UNKNOWN_ATTACK_SITUATION,
    UNKNOWN_GRAPPLE_STAGE,
    UNKNOWN_HIT_LOCATION,
    UNKNOWN_MANEUVER,
    UNKNOWN_SURPRISE,
    UNKNOWN_TERRAIN,
    UNKNOWN_WEAPON_CLASS,
    InvalidDiceExpression,
    InvalidValue,
    OutsideCanon,
)
from gurps.house import (
    HOUSE_SETTINGS,
    CombatantKind,
    death_rule,
    house_death_checks,
    is_out_of_the_fight,
)
from gurps.injury import (
    STUN_SOURCES,
    UNAWARE_TARGET_HIT_BONUS,
    ArmSide,
    HitLocation,
    KnockoutCheck,
    StunCause,
    body_may_be_destroyed,
    crippling_effects,
    hit_location_penalty,
    is_crippled,
    is_dead,
    is_major_wound,
    knockout_check,
    limb_hp_lost,
    major_wound,
    shock_penalty,
    stun_causes,
    turn_start_ht_roll,
)
from gurps.ranged import (
    FIGURE_IN_THE_WAY_PENALTY,
    MAX_EXTRA_AIM_BONUS,
    UNAIMED_PENALTY,
    aim_bonus,
)
from gurps.rolling import Modifier
from gurps.tables import (
    BASIC_DAMAGE_MULTIPLIERS,
    CRITICAL_HEAD,
    CRITICAL_HIT,
    CRITICAL_MISS,
    HEAD_FIXED_HP,
    HEAD_LOCATIONS,
    HeadEffect,
    HitEffect,
    TableRoll,
    roll_on_table,
)
from gurps.tabular import CanonTable, signed

# The canon's words for the numbers it spells out in prose (masculine, feminine).
_WORDS = {1: "um", 2: "dois", 3: "três", 4: "quatro"}
_WORDS_F = {1: "uma", 2: "duas", 3: "três", 4: "quatro"}


def _enum(kind, value, field: str, message: str):
    """``value`` as a member of the StrEnum ``kind``, or InvalidValue(field, message)."""
    try:
        return kind(value)
    except ValueError:
        raise InvalidValue(field, message) from None


# =============================================================================================
# §4.2 Sequência — turn order (p. 95; house tie-break fixed on 10/09/2026, §4.10 row 0)
# =============================================================================================

# §4.2 and §8: "nesta mesa desempata a DX maior e, persistindo, a ordem de declaração
# (fixado em 10/09/2026)" — the house setting "turn_order_tie_break".
TURN_ORDER_TIE_BREAK_DECIDED = HOUSE_SETTINGS["turn_order_tie_break"].decided


@dataclass(frozen=True)
class Combatant:
    """One combatant as turn order reads it. ``move`` in levels (metres per turn);
    ``basic_speed`` exact (a Fraction, never rounded: §2.1); ``dx`` 1 or more; ``declared``
    the order in which the combatant declared (any int, lower declared first, unique in a
    combat). Any object with these five attributes will do for ``turn_order``."""

    name: str
    move: int
    basic_speed: Fraction
    dx: int
    declared: int


class TieBreak(StrEnum):
    """What put one combatant before the next in the realistic order (§4.2)."""

    MOVE = "move"
    BASIC_SPEED = "basic_speed"
    DX = "dx"
    DECLARATION = "declaration"


TIE_BREAK_NAMES: dict[TieBreak, str] = {
    TieBreak.MOVE: "Deslocamento",
    TieBreak.BASIC_SPEED: "Velocidade Básica cheia",
    TieBreak.DX: "DX maior",
    TieBreak.DECLARATION: "ordem de declaração",
}


def _check_combatant(index: int, combatant: Combatant) -> None:
    field = f"combatants.{index}"
    name = getattr(combatant, "name", None)
    if not isinstance(name, str) or not name.strip():
        raise InvalidValue(f"{field}.name", EMPTY_COMBATANT_NAME)
    require_at_least(f"{field}.move", combatant.move, 0, NEGATIVE_MOVE)
    speed = combatant.basic_speed
    if isinstance(speed, bool) or not isinstance(speed, int | Fraction) or speed < 0:
        raise InvalidValue(f"{field}.basic_speed", BASIC_SPEED_NOT_A_NUMBER)
    check_attribute(f"{field}.dx", combatant.dx)
    require_int(f"{field}.declared", combatant.declared)


def _order_key(combatant: Combatant) -> tuple:
    return (-combatant.move, -Fraction(combatant.basic_speed), -combatant.dx, combatant.declared)


def turn_order(combatants: Iterable[Combatant]) -> tuple[Combatant, ...]:
    """The realistic turn order (§4.2, p. 95; §4.10 row 0; house tie-break fixed on
    10/09/2026): Move descending; tie, the full Basic Speed with its fraction; tie, the
    higher DX; tie, the order of declaration (lower ``declared`` first).

    The declaration order is unique, so this is a total order: the same combatants give the
    same tuple whatever order they come in. Inputs: ``Combatant`` (or any object with
    ``name``, ``move``, ``basic_speed``, ``dx``, ``declared``). Returns the same objects,
    first to act first. Raises InvalidValue("combatants") for none,
    InvalidValue("combatants.<i>.<attribute>") for a bad value, and
    InvalidValue("combatants.<i>.declared") for a repeated declaration order.
    """
    entries = tuple(combatants)
    if not entries:
        raise InvalidValue("combatants", NO_COMBATANTS)
    seen: set[int] = set()
    for index, combatant in enumerate(entries):
        _check_combatant(index, combatant)
        if combatant.declared in seen:
            raise InvalidValue(f"combatants.{index}.declared", DUPLICATE_DECLARATION_ORDER)
        seen.add(combatant.declared)
    return tuple(sorted(entries, key=_order_key))


def tie_break(first: Combatant, second: Combatant) -> TieBreak:
    """Which rule of §4.2 puts ``first`` before ``second`` (two combatants adjacent in
    ``turn_order``): Move if they differ, else Basic Speed, else DX, else declaration.
    Raises nothing for valid combatants."""
    if first.move != second.move:
        return TieBreak.MOVE
    if first.basic_speed != second.basic_speed:
        return TieBreak.BASIC_SPEED
    if first.dx != second.dx:
        return TieBreak.DX
    return TieBreak.DECLARATION


@dataclass(frozen=True)
class InitiativeRoll:
    """One 1d of the simple method: ``name``'s ``roll`` (1–6) in round ``round`` (1, or more
    for a re-roll among those tied on the highest)."""

    name: str
    roll: int
    round: int


@dataclass(frozen=True)
class SimpleTurnOrder:
    """The simple method's outcome: every die rolled, who starts, and the order of play
    (the starter, then around the table in seating order)."""

    rolls: tuple[InitiativeRoll, ...]
    first: str
    order: tuple[str, ...]
    section: str = "4.2"
    page: str = "95"
    readings: tuple[str, ...] = ("simple_order_tie_reroll",)


def simple_turn_order(seating: Sequence[str], source: RandomSource) -> SimpleTurnOrder:
    """The book's other method (§4.2, p. 95): the Mestre rolls 1d for each character; the
    highest starts, and play goes on around the table.

    ``seating``: the characters' names in the order they sit around the table (unique,
    non-empty). A tie on the highest die is re-rolled among the tied only, until one is
    highest (reading "simple_order_tie_reroll": the canon does not say). This table plays the
    realistic method (``turn_order``); this one is here because the canon prints both.
    Raises InvalidValue("seating") for no names, a blank or a repeated name.
    """
    names = tuple(seating)
    if not names:
        raise InvalidValue("seating", NO_COMBATANTS)
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise InvalidValue("seating", EMPTY_COMBATANT_NAME)
    if len(set(names)) != len(names):
        raise InvalidValue("seating", DUPLICATE_COMBATANT_NAME)
    rolls: list[InitiativeRoll] = []
    contenders, round_number = names, 1
    while True:
        this_round = [InitiativeRoll(n, source.randint(1, 6), round_number) for n in contenders]
        rolls.extend(this_round)
        best = max(r.roll for r in this_round)
        contenders = tuple(r.name for r in this_round if r.roll == best)
        if len(contenders) == 1:
            break
        round_number += 1
    start = names.index(contenders[0])
    return SimpleTurnOrder(tuple(rolls), contenders[0], names[start:] + names[:start])


# =============================================================================================
# §4.3 Manobras (p. 95–96 and 104–105; summary table p. 203)
# =============================================================================================


class Maneuver(StrEnum):
    MOVE = "move"  # Deslocamento
    MOVE_AND_ATTACK = "move_and_attack"  # Avançar e Atacar
    ALL_OUT_ATTACK = "all_out_attack"  # Ataque Total
    ALL_OUT_DEFENSE = "all_out_defense"  # Defesa Total
    AIM = "aim"  # Apontar
    READY = "ready"  # Preparar
    CONCENTRATE = "concentrate"  # Concentrar
    CHANGE_POSITION = "change_position"  # Mudança de Posição
    WAIT = "wait"  # Aguardar
    FEINT = "feint"  # Finta


ALL_ACTIVE_DEFENCES = frozenset(ActiveDefence)


# The metres of a step (Avançar e Atacar, Defesa Total, Preparar, ...): "1 metro".
STEP_METRES = 1
# Ataque Total: "até 2 m, ou metade do Deslocamento, o que for maior" (§9 item 5: the text).
ALL_OUT_ATTACK_MIN_METRES = 2
# Apontar: "metade do Deslocamento, máx. 2 m depois do primeiro turno".
AIM_MAX_METRES_AFTER_FIRST_TURN = 2
HALF = Fraction(1, 2)
# Concentrar: "defender exige teste de Vontade −3".
CONCENTRATION_WILL_MODIFIER = -3
# Mudança de Posição: "Deitado para em pé leva dois turnos."
LYING_TO_STANDING_TURNS = 2
# Defesa Total: "Duas jogadas de defesa diferentes"; "Máximo de dois Aparar e dois Bloquear".
ALL_OUT_DEFENSE_ROLLS = 2
ALL_OUT_DEFENSE_MAX_PARRIES = 2
ALL_OUT_DEFENSE_MAX_BLOCKS = 2
# The defences that are left, as the canon writes them.
ANY_DEFENCE_TEXT = "Qualquer uma"


class AllOutAttackOption(StrEnum):
    """The four options of Ataque Total (§4.3, p. 105)."""

    DOUBLE = "double"  # (a) dois ataques
    FEINT = "feint"  # (b) finta e depois ataque
    DETERMINED = "determined"  # (c) +4 no NH
    STRONG = "strong"  # (d) +2 de dano


@dataclass(frozen=True)
class AllOutAttackRow:
    """One option of Ataque Total: its letter and text, the number of attacks, and what it
    adds to the skill (levels) and to the damage roll (HP of basic damage)."""

    option: AllOutAttackOption
    letter: str
    text: str
    attacks: int
    skill_bonus: int = 0
    damage_bonus: int = 0
    feint_first: bool = False
    section: str = "4.3"
    page: str = "105"


ALL_OUT_ATTACK_DOUBLE_ATTACKS = 2
ALL_OUT_ATTACK_SKILL_BONUS = 4
ALL_OUT_ATTACK_DAMAGE_BONUS = 2

ALL_OUT_ATTACK_OPTIONS: tuple[AllOutAttackRow, ...] = (
    AllOutAttackRow(
        AllOutAttackOption.DOUBLE,
        "a",
        f"{_WORDS[ALL_OUT_ATTACK_DOUBLE_ATTACKS]} ataques, se tiver "
        f"{_WORDS_F[ALL_OUT_ATTACK_DOUBLE_ATTACKS]} armas preparadas ou arma que não "
        "precisa repreparar",
        attacks=ALL_OUT_ATTACK_DOUBLE_ATTACKS,
    ),
    AllOutAttackRow(
        AllOutAttackOption.FEINT, "b", "finta e depois ataque", attacks=1, feint_first=True
    ),
    AllOutAttackRow(
        AllOutAttackOption.DETERMINED,
        "c",
        f"um ataque com {signed(ALL_OUT_ATTACK_SKILL_BONUS)} no NH",
        attacks=1,
        skill_bonus=ALL_OUT_ATTACK_SKILL_BONUS,
    ),
    AllOutAttackRow(
        AllOutAttackOption.STRONG,
        "d",
        f"um ataque com NH normal e {signed(ALL_OUT_ATTACK_DAMAGE_BONUS)} de dano",
        attacks=1,
        damage_bonus=ALL_OUT_ATTACK_DAMAGE_BONUS,
    ),
)


def all_out_attack(
    option: AllOutAttackOption | str,
    *,
    ready_weapons: int = 1,
    weapon_needs_no_readying: bool = False,
) -> AllOutAttackRow:
    """The chosen option of Ataque Total (§4.3, p. 105): (a) two attacks, (b) feint then
    attack, (c) one attack at +4 skill, (d) one attack at normal skill and +2 damage.

    (a) needs two ready weapons (``ready_weapons`` ≥ 2) or a weapon that needs no readying
    after an attack (``weapon_needs_no_readying``; see ``needs_ready_after_attack``). Raises
    InvalidValue("all_out_option") for an unknown option or for (a) without the weapons,
    InvalidValue("ready_weapons") if negative.
    """
    chosen = _enum(AllOutAttackOption, option, "all_out_option", UNKNOWN_ALL_OUT_ATTACK_OPTION)
    ready = require_at_least("ready_weapons", ready_weapons, 0, NEGATIVE_READY_WEAPONS)
    row = next(row for row in ALL_OUT_ATTACK_OPTIONS if row.option is chosen)
    if row.attacks > 1 and ready < row.attacks and not weapon_needs_no_readying:
        raise InvalidValue("all_out_option", DOUBLE_ATTACK_NEEDS_WEAPONS)
    return row


@dataclass(frozen=True)
class ManeuverRow:
    """One maneuver of §4.3: the canon's four cells, and the same rules as numbers.

    Movement: ``step_m`` metres if set; else ``move_fraction`` of Move (rounded down,
    reading "half_move_rounds_down"), at least ``at_least_m``, and at most
    ``max_m_after_first_turn`` after the first turn (Apontar). Defences: ``active_rolls``
    active defence rolls against one attack (0: passive defence only; 2: two different).
    """

    maneuver: Maneuver
    name: str
    movement: str
    does: str
    defence: str
    step_m: int | None = None
    move_fraction: Fraction | None = None
    at_least_m: int = 0
    max_m_after_first_turn: int | None = None
    active_rolls: int = 1
    spoils_aim: bool = False
    concentration_will_modifier: int | None = None
    section: str = "4.3"
    page: str = "95–96 e 104–105"


def _step_text(metres: int) -> str:
    return f"{metres} metro" if metres == 1 else f"{metres} metros"


_ALL_OUT_ATTACK_DOES = f"Escolha uma das {_WORDS_F[len(ALL_OUT_ATTACK_OPTIONS)]}: " + "; ".join(
    f"({row.letter}) {row.text}" for row in ALL_OUT_ATTACK_OPTIONS
)

MANEUVERS: tuple[ManeuverRow, ...] = (
    ManeuverRow(
        Maneuver.MOVE,
        "Deslocamento",
        "até o Deslocamento inteiro",
        "Só anda.",
        ANY_DEFENCE_TEXT,
        move_fraction=Fraction(1),
    ),
    ManeuverRow(
        Maneuver.MOVE_AND_ATTACK,
        "Avançar e Atacar",
        _step_text(STEP_METRES),
        "Um ataque com arma preparada. Pode atacar e depois andar.",
        ANY_DEFENCE_TEXT,
        step_m=STEP_METRES,
    ),
    ManeuverRow(
        Maneuver.ALL_OUT_ATTACK,
        "Ataque Total",
        f"até {ALL_OUT_ATTACK_MIN_METRES} m, ou metade do Deslocamento, o que for maior",
        _ALL_OUT_ATTACK_DOES,
        "Nenhuma. Só a Defesa Passiva.",
        move_fraction=HALF,
        at_least_m=ALL_OUT_ATTACK_MIN_METRES,
        active_rolls=0,
    ),
    ManeuverRow(
        Maneuver.ALL_OUT_DEFENSE,
        "Defesa Total",
        _step_text(STEP_METRES),
        f"Nada além de se defender. {_WORDS_F[ALL_OUT_DEFENSE_ROLLS].capitalize()} jogadas de "
        "defesa diferentes contra o mesmo ataque. Máximo de "
        f"{_WORDS[ALL_OUT_DEFENSE_MAX_PARRIES]} Aparar e {_WORDS[ALL_OUT_DEFENSE_MAX_BLOCKS]} "
        "Bloquear no turno.",
        f"{_WORDS_F[ALL_OUT_DEFENSE_ROLLS].capitalize()}, diferentes",
        step_m=STEP_METRES,
        active_rolls=ALL_OUT_DEFENSE_ROLLS,
    ),
    ManeuverRow(
        Maneuver.AIM,
        "Apontar",
        f"metade do Deslocamento, máx. {AIM_MAX_METRES_AFTER_FIRST_TURN} m depois do "
        "primeiro turno",
        "Mira arma de longo alcance já preparada. Primeiro turno: soma a Precisão da arma. "
        f"Cada turno a mais: +1, até {signed(MAX_EXTRA_AIM_BONUS)}.",
        f"{ANY_DEFENCE_TEXT} — mas defender estraga a mira e some com tudo o que foi acumulado",
        move_fraction=HALF,
        max_m_after_first_turn=AIM_MAX_METRES_AFTER_FIRST_TURN,
        spoils_aim=True,
    ),
    ManeuverRow(
        Maneuver.READY,
        "Preparar",
        _step_text(STEP_METRES),
        "Saca, engatilha, recarrega, apanha o escudo.",
        f"{ANY_DEFENCE_TEXT}, com a ressalva abaixo",
        step_m=STEP_METRES,
    ),
    ManeuverRow(
        Maneuver.CONCENTRATE,
        "Concentrar",
        _step_text(STEP_METRES),
        "Feitiço ou tarefa mental.",
        f"{ANY_DEFENCE_TEXT}, mas defender exige teste de Vontade "
        f"{signed(CONCENTRATION_WILL_MODIFIER)} para não perder a concentração",
        step_m=STEP_METRES,
        concentration_will_modifier=CONCENTRATION_WILL_MODIFIER,
    ),
    ManeuverRow(
        Maneuver.CHANGE_POSITION,
        "Mudança de Posição",
        "nenhum",
        "De pé, ajoelhado, deitado. Deitado para em pé leva "
        f"{_WORDS[LYING_TO_STANDING_TURNS]} turnos.",
        ANY_DEFENCE_TEXT,
        step_m=0,
    ),
    ManeuverRow(
        Maneuver.WAIT,
        "Aguardar",
        _step_text(STEP_METRES),
        "Não faz nada até o inimigo entrar no alcance; então ataca (ataque normal, não total).",
        ANY_DEFENCE_TEXT,
        step_m=STEP_METRES,
    ),
    ManeuverRow(
        Maneuver.FEINT,
        "Finta",
        _step_text(STEP_METRES),
        "Disputa Rápida da sua arma contra a arma ou escudo do inimigo (ou a DX dele). Se "
        "você vence, a sua margem é subtraída da defesa ativa dele no seu próximo ataque.",
        ANY_DEFENCE_TEXT,
        step_m=STEP_METRES,
    ),
)

# The notes under the table (§4.3), the ones that are rules of readiness, reloading, aiming
# and feinting; their numbers live beside the functions that use them.
MANEUVER_NOTES: tuple[str, ...] = (
    "Espada e faca nunca ficam despreparadas. Machado, maça e arma de haste ficam: depois de "
    "golpear, gasta-se um turno preparando. Não se apara com machado no mesmo turno em que se "
    "atacou com ele. (pág. 97 e 104)",
    "Recarregando arma de projétil, a única defesa é Esquiva — e esquivar cancela o turno de "
    "recarga. (pág. 95)",
    f"Sem apontar, arma de longo alcance ataca a {signed(UNAIMED_PENALTY)}. (pág. 95)",
    "A finta vale por uma rodada, e só o seu ataque aproveita o redutor, não o dos aliados. "
    "Finta no escuro ou contra quem não te vê não vale nada. (pág. 96 e 105)",
)


def maneuver_row(value: Maneuver | str) -> ManeuverRow:
    """The §4.3 row of ``value`` ("move", "all_out_attack", ...); else
    InvalidValue("maneuver")."""
    chosen = _enum(Maneuver, value, "maneuver", UNKNOWN_MANEUVER)
    return next(row for row in MANEUVERS if row.maneuver is chosen)


def maneuver_movement(
    maneuver: Maneuver | str, move: int, *, first_aim_turn: bool | None = None
) -> int:
    """The most metres a combatant with ``move`` (levels, 0 or more) may move in the
    maneuver (§4.3, p. 95–96 and 104–105).

    Deslocamento: the whole Move. Avançar e Atacar, Defesa Total, Preparar, Concentrar,
    Aguardar, Finta: 1 m. Mudança de Posição: none. Ataque Total: 2 m or half Move, whichever
    is greater (§9 item 5: the book's text, not its p. 203 table; the 2 m hold even at Move
    0 or 1, as the text says). Apontar: half Move, at most 2 m after the first turn
    (``first_aim_turn`` required). Half Move rounds down (reading "half_move_rounds_down").
    Raises InvalidValue("maneuver"), InvalidValue("move") if negative, and
    InvalidValue("first_aim_turn") for Apontar without it.
    """
    row = maneuver_row(maneuver)
    level = require_at_least("move", move, 0, NEGATIVE_MOVE)
    if row.step_m is not None:
        return row.step_m
    assert row.move_fraction is not None
    metres = max(math.floor(level * row.move_fraction), row.at_least_m)
    if row.max_m_after_first_turn is not None:
        if first_aim_turn is None:
            raise InvalidValue("first_aim_turn", AIM_TURN_REQUIRED)
        if not first_aim_turn:
            metres = min(metres, row.max_m_after_first_turn)
    return metres


@dataclass(frozen=True)
class DefencesLeft:
    """The defences a maneuver leaves until the combatant's next turn (§4.1, §4.3).

    ``allowed``: the active defences that may be chosen; ``rolls``: how many active defence
    rolls against one attack (0: passive defence only, which always protects; 2: Defesa Total,
    two different ones). ``spoils_aim``: defending loses all the aim accumulated.
    ``concentration_will_modifier``: defending needs a Will roll at this modifier to keep
    concentrating. ``dodge_cancels_reload``: reloading, dodging cancels the reload. ``text``:
    the canon's cell.
    """

    maneuver: Maneuver
    allowed: frozenset[ActiveDefence]
    rolls: int
    spoils_aim: bool
    concentration_will_modifier: int | None
    dodge_cancels_reload: bool
    text: str
    section: str = "4.3"
    page: str = "95"


# §4.3 note (p. 95): "Recarregando arma de projétil, a única defesa é Esquiva".
RELOADING_DEFENCES = frozenset({ActiveDefence.DODGE})


def defences_left(
    maneuver: Maneuver | str, *, reloading_missile_weapon: bool = False
) -> DefencesLeft:
    """What ``maneuver`` leaves to defend with (§4.1 and §4.3, p. 95): Ataque Total none —
    only the passive defence; Defesa Total two different active defences against the same
    attack; Apontar any, but defending spoils the aim; Concentrar any, but defending needs a
    Will roll at −3; Preparar while reloading a missile weapon (``reloading_missile_weapon``)
    only Dodge, and dodging cancels the reload; the others any one.

    Raises InvalidValue("maneuver"), and InvalidValue("reloading_missile_weapon") when
    reloading is claimed for a maneuver other than Preparar.
    """
    row = maneuver_row(maneuver)
    if reloading_missile_weapon and row.maneuver is not Maneuver.READY:
        raise InvalidValue("reloading_missile_weapon", RELOAD_ONLY_WITH_READY)
    allowed = ALL_ACTIVE_DEFENCES if row.active_rolls else frozenset()
    if reloading_missile_weapon:
        allowed = RELOADING_DEFENCES
    return DefencesLeft(
        maneuver=row.maneuver,
        allowed=allowed,
        rolls=row.active_rolls,
        spoils_aim=row.spoils_aim,
        concentration_will_modifier=row.concentration_will_modifier,
        dodge_cancels_reload=reloading_missile_weapon,
        text=MANEUVER_NOTES[1] if reloading_missile_weapon else row.defence,
    )


# =============================================================================================
# §4.3 notes and §5c: weapon classes — readiness (p. 97, 104) and close combat
# =============================================================================================


class WeaponClass(StrEnum):
    SWORD = "sword"
    SHORT_SWORD = "short_sword"
    RAPIER = "rapier"
    TWO_HANDED_SWORD = "two_handed_sword"
    KNIFE = "knife"
    DAGGER = "dagger"
    AXE = "axe"
    MACE = "mace"
    POLEARM = "polearm"
    SPEAR = "spear"
    PUNCH = "punch"
    ELBOW = "elbow"
    BITE = "bite"


class Readiness(StrEnum):
    NEVER_UNREADY = "never_unready"  # "nunca ficam despreparadas"
    UNREADY_AFTER_ATTACK = "unready_after_attack"  # "depois de golpear, gasta-se um turno"


class CloseCombatUse(StrEnum):
    ATTACKS = "attacks"  # "Faca, adaga, soco, cotovelada e mordida, sim."
    PENALISED = "penalised"  # "Espada curta e rapieira atacam a −4."
    CANNOT = "cannot"  # "Lança, arma de haste e espada de duas mãos não atacam de perto."


# §4.3 (p. 97, 104): an unready weapon takes one Ready turn.
READY_TURNS_AFTER_ATTACK = 1
# §5c: "Espada curta e rapieira atacam a −4."
CLOSE_COMBAT_PENALTY = -4


@dataclass(frozen=True)
class WeaponClassRow:
    """What the canon says of a kind of weapon: whether it becomes unready after an attack
    (§4.3 note, p. 97 and 104) and whether it attacks in close combat (§5c). None where the
    canon says nothing: the functions then raise OutsideCanon."""

    weapon_class: WeaponClass
    name: str
    readiness: Readiness | None
    close_combat: CloseCombatUse | None
    section: str = "4.3, 5c"
    page: str = "97 e 104"


_N, _U = Readiness.NEVER_UNREADY, Readiness.UNREADY_AFTER_ATTACK
_YES, _PEN, _NO = CloseCombatUse.ATTACKS, CloseCombatUse.PENALISED, CloseCombatUse.CANNOT

WEAPON_CLASSES: tuple[WeaponClassRow, ...] = (
    WeaponClassRow(WeaponClass.SWORD, "espada", _N, None),
    WeaponClassRow(WeaponClass.SHORT_SWORD, "espada curta", _N, _PEN),
    WeaponClassRow(WeaponClass.RAPIER, "rapieira", _N, _PEN),
    WeaponClassRow(WeaponClass.TWO_HANDED_SWORD, "espada de duas mãos", _N, _NO),
    WeaponClassRow(WeaponClass.KNIFE, "faca", _N, _YES),
    # §4.14 counts the dagger among the knives ("o −1 que toda faca sofre ao aparar").
    WeaponClassRow(WeaponClass.DAGGER, "adaga", _N, _YES, section="4.3, 4.14, 5c"),
    WeaponClassRow(WeaponClass.AXE, "machado", _U, None),
    WeaponClassRow(WeaponClass.MACE, "maça", _U, None),
    WeaponClassRow(WeaponClass.POLEARM, "arma de haste", _U, _NO),
    WeaponClassRow(WeaponClass.SPEAR, "lança", None, _NO),
    WeaponClassRow(WeaponClass.PUNCH, "soco", None, _YES),
    WeaponClassRow(WeaponClass.ELBOW, "cotovelada", None, _YES),
    WeaponClassRow(WeaponClass.BITE, "mordida", None, _YES),
)


def weapon_class(value: WeaponClass | str) -> WeaponClassRow:
    """The row of ``value`` ("sword", "axe", ...); else InvalidValue("weapon_class")."""
    chosen = _enum(WeaponClass, value, "weapon_class", UNKNOWN_WEAPON_CLASS)
    return next(row for row in WEAPON_CLASSES if row.weapon_class is chosen)


def needs_ready_after_attack(value: WeaponClass | str) -> bool:
    """True if the weapon becomes unready after an attack and takes a Ready turn (axe, mace,
    polearm); False for swords and knives, which never become unready (§4.3 note, p. 97 and
    104). Raises InvalidValue("weapon_class") and OutsideCanon("4.3") for a weapon the canon
    does not class (spear, punch, elbow, bite)."""
    row = weapon_class(value)
    if row.readiness is None:
        raise OutsideCanon("4.3", READINESS_NOT_IN_CANON.format(weapon=row.name))
    return row.readiness is Readiness.UNREADY_AFTER_ATTACK


@dataclass(frozen=True)
class WeaponReadiness:
    """A weapon in hand, ready or not (§4.3 note, p. 97 and 104; §4.7: to parry the weapon
    must be ready). Immutable: each event returns the new state."""

    weapon_class: WeaponClass
    ready: bool = True

    def after_attack(self) -> WeaponReadiness:
        """The state after attacking with it: unready for an axe, mace or polearm, still
        ready for a sword or knife. Raises OutsideCanon("4.3") for an unclassed weapon."""
        if needs_ready_after_attack(self.weapon_class):
            return WeaponReadiness(self.weapon_class, ready=False)
        return self

    def after_ready(self) -> WeaponReadiness:
        """The state after a Ready maneuver (one turn): ready."""
        return WeaponReadiness(self.weapon_class, ready=True)

    @property
    def can_attack(self) -> bool:
        return self.ready

    @property
    def can_parry(self) -> bool:
        """False while unready: no parry with an axe in the turn one attacked with it (§4.3),
        nor with any unready weapon (§4.7 "Precisa da arma preparada")."""
        return self.ready


# =============================================================================================
# §4.3 and §4.11: aiming (p. 95, 201)
# =============================================================================================


@dataclass(frozen=True)
class AimState:
    """Turns spent aiming a ready ranged weapon (§4.3, §4.11). Immutable: ``aim()`` adds a
    turn, ``defend()`` loses everything accumulated (p. 95). Raises InvalidValue("turns")
    if negative."""

    turns: int = 0

    def __post_init__(self) -> None:
        require_at_least("turns", self.turns, 0, NEGATIVE_AIM_TURNS)

    def aim(self) -> AimState:
        return AimState(self.turns + 1)

    def defend(self) -> AimState:
        """Defending spoils the aim: back to no turns aimed (§4.3, §4.11, p. 95)."""
        return AimState(0)

    def bonus(
        self,
        accuracy: int,
        skill: int,
        *,
        beyond_half_damage: bool = False,
        braced: bool = False,
    ) -> int:
        """The attack modifier now (``gurps.ranged.aim_bonus``): unaimed −4; first turn +Acc
        (never above ``skill``); then +1, +2, +3; ``braced`` +1 if there was time to aim."""
        return aim_bonus(
            self.turns, accuracy, skill, beyond_half_damage=beyond_half_damage, braced=braced
        )


# =============================================================================================
# §4.3 Finta (p. 96 and 105)
# =============================================================================================


@dataclass(frozen=True)
class FeintResult:
    """A feint's quick contest (§4.3, p. 96 and 105). ``feinter`` and ``defender`` are the
    two rolls (None when the feint is worthless and nothing is rolled); ``winner`` "feinter",
    "defender" or None (a tie, or nothing rolled); ``defence_penalty`` the levels subtracted
    from the defender's active defence against the feinter's next attack only, for one round
    (0 if the feint failed or was worthless)."""

    feinter: SuccessRoll | None
    defender: SuccessRoll | None
    winner: Literal["feinter", "defender"] | None
    defence_penalty: int
    worthless: bool
    section: str = "4.3"
    page: str = "96 e 105"
    readings: tuple[str, ...] = ("feint_margin_is_own_margin",)


def feint(
    source: RandomSource,
    skill: int,
    defender_level: int,
    *,
    defender_sees_you: bool = True,
    in_darkness: bool = False,
) -> FeintResult:
    """A feint (§4.3, p. 96 and 105): a quick contest (§1.5) of your weapon ``skill`` against
    the foe's weapon or shield skill, or his DX (``defender_level``, whichever he uses). If
    you win, your margin is subtracted from his active defence against your next attack only
    — not your allies' — for one round. "A sua margem" is your margin of success (§1.3); if
    you win while failing, there is none to subtract (reading "feint_margin_is_own_margin").

    In the dark, or against someone who cannot see you, the feint is worth nothing: no die is
    rolled. Raises NoRollAtThreeOrLess before any die if either level is 3 or less (§1.1).
    """
    if in_darkness or not defender_sees_you:
        return FeintResult(None, None, None, 0, worthless=True)
    ensure_rollable(skill, RollKind.SKILL)
    ensure_rollable(defender_level, RollKind.SKILL)
    mine = roll_success(source, skill)
    his = roll_success(source, defender_level)
    winner = quick_contest(mine, his)
    if winner == "a":
        return FeintResult(mine, his, "feinter", max(0, mine.margin), worthless=False)
    return FeintResult(mine, his, "defender" if winner == "b" else None, 0, worthless=False)


# =============================================================================================
# §4.8 cabeça 14: "a vítima deixa cair a arma (com duas, sorteia-se qual)"
# =============================================================================================

# The weapons in hand a fair draw on 1d covers (each gets the same number of faces).
DROPPED_WEAPON_DRAW_MAX = 3
DROPPED_WEAPON_DRAW_TOO_MANY = (
    "A tabela da cabeça diz «com duas, sorteia-se qual»; com mais de três armas na mão o "
    "sorteio fica com o Mestre."
)


@dataclass(frozen=True)
class DroppedWeaponDraw:
    """Which of the weapons in hand falls (§4.8, head table 14; also the critical hit table's
    15 "a arma do oponente cai"). ``index`` into the weapons in hand; ``die`` the 1d of the
    draw, None when there was nothing to draw (one weapon) or no weapon (``index`` None)."""

    index: int | None
    die: int | None
    section: str = "4.8"
    page: str = "202"


def draw_dropped_weapon(source: RandomSource, in_hand: int) -> DroppedWeaponDraw:
    """The weapon that falls, out of ``in_hand`` weapons in hand (§4.8: "com duas,
    sorteia-se qual"): none with 0, the only one with 1 (no die), and with 2 or 3 a fair draw
    on 1d — the faces split evenly (1–3 / 4–6; 1–2 / 3–4 / 5–6). Raises
    InvalidValue("in_hand") if negative and OutsideCanon("4.8") above 3 (no even split)."""
    count = require_at_least("in_hand", in_hand, 0, NEGATIVE_READY_WEAPONS)
    if count == 0:
        return DroppedWeaponDraw(None, None)
    if count == 1:
        return DroppedWeaponDraw(0, None)
    if count > DROPPED_WEAPON_DRAW_MAX:
        raise OutsideCanon("4.8", DROPPED_WEAPON_DRAW_TOO_MANY)
    _faces, die = DiceExpression(1).roll(source)
    return DroppedWeaponDraw((die - 1) // (6 // count), die)


# =============================================================================================
# §5c Combate de perto
# =============================================================================================

# §5c: "Quem está agarrado não esquiva. Aparar e bloquear seguem valendo."
GRAPPLED_DEFENCES = frozenset({ActiveDefence.PARRY, ActiveDefence.BLOCK})
# §5c: "Para sair, é preciso evadir-se do inimigo e ultrapassá-lo — não basta andar."
LEAVING_CLOSE_COMBAT_NEEDS_EVADING = True


def close_combat_modifier(value: WeaponClass | str) -> int | None:
    """The attack modifier of a weapon in close combat — two in the same hex (§5c): knife,
    dagger, punch, elbow, bite 0; short sword and rapier −4; None for spear, polearm and
    two-handed sword, which do not attack there. Raises InvalidValue("weapon_class") and
    OutsideCanon("5c") for a weapon §5c does not name (sword, axe, mace)."""
    row = weapon_class(value)
    if row.close_combat is None:
        raise OutsideCanon("5c", CLOSE_COMBAT_NOT_IN_CANON.format(weapon=row.name))
    if row.close_combat is CloseCombatUse.CANNOT:
        return None
    return CLOSE_COMBAT_PENALTY if row.close_combat is CloseCombatUse.PENALISED else 0


def close_combat_defences(*, grappled: bool) -> frozenset[ActiveDefence]:
    """The active defences in close combat (§5c): a grappled combatant cannot dodge; parry
    and block still count, with a weapon that serves there."""
    return GRAPPLED_DEFENCES if grappled else ALL_ACTIVE_DEFENCES


class GrappleStage(StrEnum):
    """§5c: "Agarrar e imobilizar ... são Disputa de DX e depois de ST" (reading
    "grapple_dx_then_st": grabbing is the DX contest, pinning the ST contest after it)."""

    GRAB = "grab"  # agarrar: DX
    PIN = "pin"  # imobilizar: ST


@dataclass(frozen=True)
class GrappleResult:
    """A grapple contest: the stage, the two rolls, the tie-break rolls if there was a tie
    and both had Judo or Brawling, and the winner ("attacker", "defender" or None)."""

    stage: GrappleStage
    attacker: SuccessRoll
    defender: SuccessRoll
    tie_break: tuple[SuccessRoll, SuccessRoll] | None
    winner: Literal["attacker", "defender"] | None
    section: str = "5c"
    readings: tuple[str, ...] = ("grapple_dx_then_st", "grapple_tie_break")


def grapple_contest(
    source: RandomSource,
    stage: GrappleStage | str,
    attacker_level: int,
    defender_level: int,
    *,
    attacker_tie_break: int | None = None,
    defender_tie_break: int | None = None,
) -> GrappleResult:
    """A quick contest to grab (DX against DX) or to pin (ST against ST) in close combat
    (§5c; reading "grapple_dx_then_st"): grappling and pinning are not skills.

    ``attacker_level``/``defender_level``: DX for ``stage`` "grab", ST for "pin".
    ``*_tie_break``: each side's Judo or Brawling level (the better one), or None. On a tie,
    when both have one, a quick contest of those decides; otherwise — or if that ties too —
    nobody won (§1.5; reading "grapple_tie_break"). Raises InvalidValue("stage") and
    NoRollAtThreeOrLess before any die for a level of 3 or less (§1.1).
    """
    chosen = _enum(GrappleStage, stage, "stage", UNKNOWN_GRAPPLE_STAGE)
    levels = [attacker_level, defender_level]
    has_tie_break = attacker_tie_break is not None and defender_tie_break is not None
    if has_tie_break:
        levels += [attacker_tie_break, defender_tie_break]
    for level in levels:
        ensure_rollable(level, RollKind.SKILL)
    mine = roll_success(source, attacker_level)
    his = roll_success(source, defender_level)
    winner = quick_contest(mine, his)
    tie_rolls = None
    if winner is None and has_tie_break:
        assert attacker_tie_break is not None and defender_tie_break is not None
        tie_rolls = (
            roll_success(source, attacker_tie_break),
            roll_success(source, defender_tie_break),
        )
        winner = quick_contest(*tie_rolls)
    named = {"a": "attacker", "b": "defender", None: None}[winner]
    return GrappleResult(chosen, mine, his, tie_rolls, named)  # type: ignore[arg-type]


# =============================================================================================
# §5d Terreno e o que ele cobra, and invariant 8 (declared before the first die)
# =============================================================================================


class Terrain(StrEnum):
    BAD = "bad"  # Ruim
    VERY_BAD = "very_bad"  # Muito ruim
    DARK = "dark"  # Escuro
    TIGHT = "tight"  # Aperto
    WAIST_DEEP_WATER = "waist_deep_water"  # Água pela cintura


# §5d: "arma de balanço a −2" in waist-deep water.
WAIST_DEEP_WATER_SWING_MODIFIER = -2


@dataclass(frozen=True)
class TerrainRow:
    """One row of §5d: the canon's two cells and their rules. ``move_fraction``: what is left
    of Move (rounded down, reading "terrain_move_rounds_down"); ``swing_modifier``: attack
    modifier for swinging weapons; ``falls_on_critical_failure``: a critical failure of any
    movement is a fall; ``lighting_penalty``: the §4.5 lighting modifier applies to
    everything, except with Blind Fighting; ``all_combat_is_close``: no backing off or going
    round, every fight is close combat (§5c). The canon cites no book page."""

    terrain: Terrain
    name: str
    cost: str
    move_fraction: Fraction | None = None
    swing_modifier: int = 0
    falls_on_critical_failure: bool = False
    lighting_penalty: bool = False
    all_combat_is_close: bool = False
    section: str = "5d"
    page: str = ""


TERRAINS: tuple[TerrainRow, ...] = (
    TerrainRow(
        Terrain.BAD,
        "Ruim — pedra solta, raiz, entulho",
        "Deslocamento pela metade",
        move_fraction=HALF,
    ),
    TerrainRow(
        Terrain.VERY_BAD,
        "Muito ruim — lama funda, gelo, encosta",
        "um terço, e queda em falha crítica de qualquer movimento",
        move_fraction=Fraction(1, 3),
        falls_on_critical_failure=True,
    ),
    TerrainRow(
        Terrain.DARK,
        "Escuro",
        # The canon's "(§4.14)" is a known slip (canon README): §4.14 is the fencer's dagger.
        "redutor de iluminação em tudo, salvo quem tem Combate às Cegas (§4.14)",
        lighting_penalty=True,
    ),
    TerrainRow(
        Terrain.TIGHT,
        "Aperto — galeria de um hex",
        "não há como recuar nem rodear; todo combate vira de perto",
        all_combat_is_close=True,
    ),
    TerrainRow(
        Terrain.WAIST_DEEP_WATER,
        "Água pela cintura",
        f"Deslocamento pela metade, e arma de balanço a {signed(WAIST_DEEP_WATER_SWING_MODIFIER)}",
        move_fraction=HALF,
        swing_modifier=WAIST_DEEP_WATER_SWING_MODIFIER,
    ),
)


def terrain(value: Terrain | str) -> TerrainRow:
    """The §5d row of ``value`` ("bad", "very_bad", "dark", "tight", "waist_deep_water");
    else InvalidValue("terrain")."""
    chosen = _enum(Terrain, value, "terrain", UNKNOWN_TERRAIN)
    return next(row for row in TERRAINS if row.terrain is chosen)


@dataclass(frozen=True)
class TerrainEffects:
    """What the declared terrains cost together (§5d): ``move`` in levels after them,
    the swing modifier, and the three flags of ``TerrainRow``."""

    terrains: tuple[Terrain, ...]
    move: int
    swing_modifier: int
    falls_on_critical_failure: bool
    lighting_penalty: bool
    all_combat_is_close: bool
    section: str = "5d"
    readings: tuple[str, ...] = ("terrain_move_rounds_down",)


def terrain_move(move: int, value: Terrain | str) -> int:
    """Move (levels, 0 or more) on terrain ``value`` (§5d): bad and waist-deep water half,
    very bad a third, rounding down (reading "terrain_move_rounds_down"); the others leave it.
    Raises InvalidValue("move"/"terrain")."""
    row = terrain(value)
    level = require_at_least("move", move, 0, NEGATIVE_MOVE)
    if row.move_fraction is None:
        return level
    return math.floor(level * row.move_fraction)


def terrain_effects(move: int, terrains: Iterable[Terrain | str]) -> TerrainEffects:
    """Everything the declared ``terrains`` cost together, for a combatant of ``move``
    (§5d). Only terrains declared before the first die count (``declared_in_time``). Raises
    InvalidValue("move"/"terrain"), and OutsideCanon("5d") for two terrains that both cut
    Move (the canon does not say whether they multiply)."""
    rows = tuple(dict.fromkeys(terrain(value) for value in terrains))
    level = require_at_least("move", move, 0, NEGATIVE_MOVE)
    cutting = [row for row in rows if row.move_fraction is not None]
    if len(cutting) > 1:
        raise OutsideCanon("5d", TERRAIN_MOVE_STACKING_NOT_IN_CANON)
    return TerrainEffects(
        terrains=tuple(row.terrain for row in rows),
        move=terrain_move(level, cutting[0].terrain) if cutting else level,
        swing_modifier=sum(row.swing_modifier for row in rows),
        falls_on_critical_failure=any(row.falls_on_critical_failure for row in rows),
        lighting_penalty=any(row.lighting_penalty for row in rows),
        all_combat_is_close=any(row.all_combat_is_close for row in rows),
    )


def declared_in_time(declared_at: int, first_roll_at: int | None) -> bool:
    """Whether a terrain or an encounter boss counts (invariant 8; §5d, §5.4.1): only if
    declared before the first die of the combat. ``declared_at`` and ``first_roll_at`` are
    positions in the scene's log (any ints, one sequence); ``first_roll_at`` None: no die
    rolled yet, so a declaration now is in time. Raises InvalidValue("declared_at" /
    "first_roll_at") for a non-int."""
    declared = require_int("declared_at", declared_at)
    if first_roll_at is None:
        return True
    return declared < require_int("first_roll_at", first_roll_at)


# =============================================================================================
# §5e Surpresa
# =============================================================================================


class Surprise(StrEnum):
    PARTIAL = "partial"  # sabe que há inimigo, mas não de onde vem
    TOTAL = "total"  # não sabia de nada


# §5e: "Quem tem Reflexos em Combate testa a +6."
COMBAT_REFLEXES_SURPRISE_BONUS = 6
# §5e: partial surprise "Perde o primeiro turno".
PARTIAL_SURPRISE_TURNS_LOST = 1


def acts_this_turn(surprise: Surprise | str, turn: int) -> bool | None:
    """Whether a surprised side acts on its ``turn`` (1 = the first) without a roll (§5e):
    partial surprise loses the first turn and acts from the second; total surprise needs an
    IQ roll each turn (``total_surprise_roll``), so None. Raises InvalidValue("surprise")
    and InvalidValue("turn") below 1."""
    kind = _enum(Surprise, surprise, "surprise", UNKNOWN_SURPRISE)
    number = require_at_least("turn", turn, 1, TURN_TOO_LOW)
    if kind is Surprise.TOTAL:
        return None
    return number > PARTIAL_SURPRISE_TURNS_LOST


@dataclass(frozen=True)
class SurpriseRoll:
    """One turn's IQ roll under total surprise (§5e): passed, the character starts to act;
    failed, stays still and has no active defence (the passive one still protects, §4.6)."""

    roll: SuccessRoll
    acts: bool
    has_active_defence: bool
    section: str = "5e"


def total_surprise_roll(
    source: RandomSource, iq: int, *, combat_reflexes: bool = False
) -> SurpriseRoll:
    """The IQ roll a totally surprised character makes each turn to start acting (§5e; a
    mental stun, §5.2): IQ, +6 with Combat Reflexes. Raises InvalidValue("iq") below 1 and
    NoRollAtThreeOrLess at an effective 3 or less (§1.1)."""
    check_attribute("iq", iq)
    level = iq + (COMBAT_REFLEXES_SURPRISE_BONUS if combat_reflexes else 0)
    roll = roll_success(source, level, RollKind.ATTRIBUTE)
    passed = roll.outcome.is_success
    return SurpriseRoll(roll, acts=passed, has_active_defence=passed)


# §5e: "Alvo parado que não te vê: +4 para acertar, sem defesa ativa, e órgão vital a −3.
# Não é morte automática." The same rule as §5.4's sentry: gurps.injury holds it
# (UNAWARE_TARGET_HIT_BONUS, unaware_target_modifiers, instant_death); the attack takes it as
# the situation UNSEEN_STATIONARY_TARGET and the defence as no active defence.


# =============================================================================================
# §4.5 Modificadores de ataque (p. 97), with the few of §4.11, §5c, §5d and §5e
# =============================================================================================


class AttackSituation(StrEnum):
    # §4.5, in the canon's order
    POOR_LIGHTING = "poor_lighting"
    TOTAL_DARKNESS = "total_darkness"
    BAD_FOOTING = "bad_footing"
    AWKWARD_POSITION = "awkward_position"
    BLIND = "blind"
    SUDDENLY_BLIND = "suddenly_blind"
    CRAWLING = "crawling"
    CROUCHING_OR_SITTING = "crouching_or_sitting"
    OFF_HAND = "off_hand"
    LARGE_SHIELD = "large_shield"
    BELOW_MINIMUM_ST = "below_minimum_st"
    WOUND = "wound"
    # §4.11, §5c, §5d, §5e
    UNAIMED_RANGED = "unaimed_ranged"
    FIGURES_IN_THE_WAY = "figures_in_the_way"
    TARGET_LOW = "target_low"
    CLOSE_COMBAT_WEAPON = "close_combat_weapon"
    SWING_IN_WAIST_DEEP_WATER = "swing_in_waist_deep_water"
    UNSEEN_STATIONARY_TARGET = "unseen_stationary_target"


@dataclass(frozen=True)
class SituationRule:
    """One attack modifier: its name (the canon's "Situação" cell) and how its number is
    found. Exactly one of: ``fixed`` (that modifier; ``zero_if_ambidextrous`` for the off
    hand); a range ``mildest`` … ``worst`` (``worst`` None: "ou pior", no limit) which the
    Mestre announces; or ``per_unit`` times an announced amount (points of ST, HP lost,
    figures). ``unit`` is the canon's words after the per-unit number; ``text`` replaces the
    generated cell where the canon writes it in words."""

    situation: AttackSituation
    name: str
    fixed: int | None = None
    mildest: int | None = None
    worst: int | None = None
    per_unit: int | None = None
    unit: str = ""
    zero_if_ambidextrous: bool = False
    text: str | None = None
    section: str = "4.5"
    page: str = "97"

    @property
    def is_range(self) -> bool:
        return self.mildest is not None

    @property
    def modifier_text(self) -> str:
        """The "Modificador" cell: "−10", "−1 a −9", "−2 ou pior", "−1 por ponto de
        diferença", "−4, e nenhum se for ambidestro"."""
        if self.text is not None:
            return self.text
        if self.per_unit is not None:
            return f"{signed(self.per_unit)} {self.unit}"
        if self.mildest is not None:
            if self.worst is None:
                return f"{signed(self.mildest)} ou pior"
            return f"{signed(self.mildest)} a {signed(self.worst)}"
        assert self.fixed is not None
        if self.zero_if_ambidextrous:
            return f"{signed(self.fixed)}, e nenhum se for ambidestro"
        return signed(self.fixed)


_S = AttackSituation
ATTACK_SITUATIONS: tuple[SituationRule, ...] = (
    SituationRule(_S.POOR_LIGHTING, "Iluminação ruim", mildest=-1, worst=-9),
    SituationRule(_S.TOTAL_DARKNESS, "Escuridão total", fixed=-10),
    SituationRule(_S.BAD_FOOTING, "Apoio ruim para os pés", mildest=-2),
    SituationRule(_S.AWKWARD_POSITION, "Atacante em posição estranha", mildest=-2),
    SituationRule(_S.BLIND, "Cego", fixed=-6),
    SituationRule(_S.SUDDENLY_BLIND, "Subitamente cego", fixed=-10),
    SituationRule(_S.CRAWLING, "Rastejando", fixed=-4),
    SituationRule(_S.CROUCHING_OR_SITTING, "Agachado ou sentado", fixed=-2),
    SituationRule(
        _S.OFF_HAND, "Ataque precipitado (mão errada)", fixed=-4, zero_if_ambidextrous=True
    ),
    SituationRule(_S.LARGE_SHIELD, "Atacar usando escudo grande", fixed=-2),
    SituationRule(
        _S.BELOW_MINIMUM_ST,
        "ST abaixo da ST mínima da arma",
        per_unit=-1,
        unit="por ponto de diferença",
    ),
    # §4.5 and §5.1: minus the HP lost in the previous round; wounds of one round add up.
    SituationRule(
        _S.WOUND,
        "Ferimento",
        per_unit=-1,
        text="redutor igual aos PV perdidos na rodada anterior",
    ),
    SituationRule(
        _S.UNAIMED_RANGED,
        "Sem apontar, arma de longo alcance",
        fixed=UNAIMED_PENALTY,
        section="4.11",
        page="95",
    ),
    SituationRule(
        _S.FIGURES_IN_THE_WAY,
        "Figura no caminho",
        per_unit=FIGURE_IN_THE_WAY_PENALTY,
        unit="por cada uma",
        section="4.11",
        page="201",
    ),
    SituationRule(
        _S.TARGET_LOW,
        "Alvo agachado, deitado ou só com a cabeça de fora",
        mildest=-2,
        worst=-7,
        section="4.11",
        page="201",
    ),
    SituationRule(
        _S.CLOSE_COMBAT_WEAPON,
        "Espada curta ou rapieira, de perto",
        fixed=CLOSE_COMBAT_PENALTY,
        section="5c",
        page="",
    ),
    SituationRule(
        _S.SWING_IN_WAIST_DEEP_WATER,
        "Arma de balanço na água pela cintura",
        fixed=WAIST_DEEP_WATER_SWING_MODIFIER,
        section="5d",
        page="",
    ),
    SituationRule(
        _S.UNSEEN_STATIONARY_TARGET,
        "Alvo parado que não te vê",
        fixed=UNAWARE_TARGET_HIT_BONUS,
        section="5e",
        page="",
    ),
)


def attack_situation(value: AttackSituation | str) -> SituationRule:
    """The rule of ``value``; else InvalidValue("situation")."""
    chosen = _enum(AttackSituation, value, "situation", UNKNOWN_ATTACK_SITUATION)
    return next(row for row in ATTACK_SITUATIONS if row.situation is chosen)


@dataclass(frozen=True)
class AnnouncedModifier:
    """A situation the Mestre announces before the attack roll (§1.4). ``modifier``: the
    announced number, for a range ("−1 a −9", "−2 ou pior"); ``amount``: how many, for a
    per-unit row (points of ST below the minimum, HP lost in the previous round, figures in
    the way), 1 or more. Fixed rows need neither."""

    situation: AttackSituation | str
    modifier: int | None = None
    amount: int | None = None


@dataclass(frozen=True)
class AttackModifiers:
    """The announced attack modifiers, one ``gurps.rolling.Modifier`` each (the reason is the
    situation's name), and their sum (levels)."""

    lines: tuple[Modifier, ...]
    total: int


def _announced_value(rule: SituationRule, announced: AnnouncedModifier, ambidextrous: bool):
    name = rule.name
    if rule.per_unit is None and announced.amount is not None:
        raise InvalidValue("amount", AMOUNT_NOT_USED.format(situation=name))
    if rule.per_unit is not None:
        if announced.modifier is not None:
            raise InvalidValue(
                "modifier", FIXED_MODIFIER.format(situation=name, allowed=rule.modifier_text)
            )
        amount = announced.amount
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
            raise InvalidValue("amount", AMOUNT_REQUIRED.format(situation=name))
        return rule.per_unit * amount
    if rule.is_range:
        value = announced.modifier
        assert rule.mildest is not None
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or value > rule.mildest
            or (rule.worst is not None and value < rule.worst)
        ):
            raise InvalidValue(
                "modifier", MODIFIER_OUT_OF_RANGE.format(situation=name, allowed=rule.modifier_text)
            )
        return value
    assert rule.fixed is not None
    value = 0 if rule.zero_if_ambidextrous and ambidextrous else rule.fixed
    if announced.modifier is not None and announced.modifier != value:
        raise InvalidValue("modifier", FIXED_MODIFIER.format(situation=name, allowed=signed(value)))
    return value


def attack_modifiers(
    announced: Iterable[AnnouncedModifier], *, ambidextrous: bool = False
) -> AttackModifiers:
    """Sum the situations the Mestre announced before the attack roll (§1.4; §4.5, p. 97;
    §4.11, p. 95 and 201; §5c; §5d; §5e). All are cumulative (§1.1).

    Ranges accept only a value inside them: poor lighting −1 to −9, bad footing and awkward
    position −2 or worse, a low target −2 to −7. Per-unit rows take the ``amount``: below the
    weapon's minimum ST −1 per point, wound −1 per HP lost in the previous round, −4 per
    figure in the way. The off hand is −4, 0 if ``ambidextrous``. Fixed rows take no number
    (or their own). Raises InvalidValue("situation") for an unknown or repeated situation,
    InvalidValue("modifier") for a value outside the row's range, InvalidValue("amount") for
    a missing or bad amount.
    """
    lines: list[Modifier] = []
    seen: set[AttackSituation] = set()
    for item in announced:
        rule = attack_situation(item.situation)
        if rule.situation in seen:
            raise InvalidValue("situation", DUPLICATE_ATTACK_SITUATION)
        seen.add(rule.situation)
        value = _announced_value(rule, item, ambidextrous)
        lines.append(Modifier(value, rule.name))
    return AttackModifiers(tuple(lines), sum(line.value for line in lines))


# =============================================================================================
# §4.10 A sequência de combate — tabela do Mestre
# =============================================================================================


class StepNumber(IntEnum):
    """The rows of the Mestre's table (§4.10), by their number."""

    TURN_ORDER = 0
    MANEUVER = 1
    MODIFIERS = 2
    ATTACK_ROLL = 3
    CRITICAL_CHECK = 4
    DEFENCE_ROLL = 5
    DAMAGE_ROLL = 6
    DAMAGE_RESISTANCE = 7
    WOUNDING = 8
    HP_LOST = 9
    CONSEQUENCES = 10


@dataclass(frozen=True)
class CombatStep:
    """One row of the §4.10 table, in the canon's words (the cells are the canon's text,
    row 4's known slip included: see ``COMBAT_SEQUENCE_NOTES``)."""

    number: StepNumber
    who: str
    what: str
    roll: str
    if_fails: str
    section: str = "4.10"


_DASH = "—"

COMBAT_SEQUENCE: tuple[CombatStep, ...] = (
    CombatStep(
        StepNumber.TURN_ORDER,
        "Todos",
        "Ordem do turno. Deslocamento decrescente; desempata Velocidade Básica cheia; "
        "persistindo, DX maior; persistindo, ordem de declaração "
        f"(fixado em {TURN_ORDER_TIE_BREAK_DECIDED}).",
        _DASH,
        _DASH,
    ),
    CombatStep(
        StepNumber.MANEUVER,
        "Combatente",
        "Declara a manobra. Ela vale até o próximo turno dele e decide as defesas que ele terá.",
        _DASH,
        _DASH,
    ),
    CombatStep(
        StepNumber.MODIFIERS,
        "Mestre",
        "Anuncia os modificadores de ataque (iluminação, apoio, posição, ferimento da rodada "
        "anterior).",
        _DASH,
        _DASH,
    ),
    CombatStep(
        StepNumber.ATTACK_ROLL,
        "Atacante",
        "Jogada de ataque.",
        "3d6 ≤ NH efetivo da arma",
        "Errou. Fim do golpe.",
    ),
    CombatStep(
        StepNumber.CRITICAL_CHECK,
        _DASH,
        "Checa crítico. 3 = dano máximo, sem defesa. 4, 5 ou 6 (conforme NH) = acerto sem "
        "defesa. 17 ou 18 = Tabela de Erros Críticos.",
        _DASH,
        _DASH,
    ),
    CombatStep(
        StepNumber.DEFENCE_ROLL,
        "Defensor",
        "Jogada de defesa. Escolhe uma defesa ativa entre as que a manobra dele permite; soma "
        "a Defesa Passiva.",
        "3d6 ≤ (PD + defesa ativa)",
        "Foi atingido.",
    ),
    CombatStep(StepNumber.DAMAGE_ROLL, "Atacante", "Rola o dano da arma.", "dados da arma", _DASH),
    CombatStep(
        StepNumber.DAMAGE_RESISTANCE,
        _DASH,
        "Subtrai a RD do alvo.",
        _DASH,
        "Se não sobra nada, não houve ferimento.",
    ),
    CombatStep(
        StepNumber.WOUNDING,
        _DASH,
        "Multiplica pelo tipo: contusão ×1, corte +50%, perfuração ×2.",
        _DASH,
        _DASH,
    ),
    CombatStep(StepNumber.HP_LOST, "Defensor", "Perde os PV.", _DASH, _DASH),
    CombatStep(
        StepNumber.CONSEQUENCES,
        "Defensor",
        "Consequências, na ordem: Choque · Prostração e Atordoamento se perdeu mais que HT/2 "
        "num golpe · Nocaute se foi golpe na cabeça ou órgão vital · limiares de PV da seção "
        "5.4.",
        "testes de HT",
        _DASH,
    ),
)

COMBAT_SEQUENCE_NOTES: tuple[str, ...] = (
    "A linha 4 ainda diz que um 3 provoca dano máximo; desde 13/09/2026 (§4.8) esta mesa usa "
    "a Tabela de Golpes Fulminantes, e o dano máximo deixou de valer. O site segue a §4.8.",
)


# =============================================================================================
# §4.10 as a function: one attack, steps 3 to 10
# =============================================================================================

# The maneuvers that attack (§4.3): Avançar e Atacar, Ataque Total, Aguardar.
ATTACK_MANEUVERS = frozenset({Maneuver.MOVE_AND_ATTACK, Maneuver.ALL_OUT_ATTACK, Maneuver.WAIT})
# "Ataque perfurante ou de longo alcance" (§4.8): the attacks that are not hand-to-hand.
RANGED_ATTACK_KINDS = frozenset(
    {
        AttackKind.THROWN,
        AttackKind.ARROW,
        AttackKind.SLING_STONE,
        AttackKind.BULLET,
        AttackKind.BEAM,
        AttackKind.MISSILE_SPELL,
    }
)


@dataclass(frozen=True)
class AttackInput:
    """The attacker's side of one attack, everything said before the dice (§1.4).

    ``name``: the attacker, for the log. ``skill``: the weapon skill (NH), levels. ``damage``:
    the weapon's damage dice at the attacker's ST (``gurps.damage.weapon_damage(...).
    expression``, or text such as "1d+2"); ``damage_type`` "cr", "cut" or "imp".
    ``maneuver``: Avançar e Atacar, Ataque Total (with ``all_out_option``) or Aguardar.
    ``announced``: the §4.5 situations (``attack_modifiers``; ``ambidextrous`` for the off
    hand); ``modifiers``: any other announced modifier with its reason (range, aim,
    shock…: ``gurps.ranged.range_modifier``, ``AimState.bonus``,
    ``gurps.injury.shock_penalty``). ``location`` where the blow is aimed (its §5.5 penalty
    is added; ``arm_side`` for an arm). ``attack_kind``: what comes at the defender
    (``gurps.defence.AttackKind``). ``feint_penalty``: the margin of the attacker's own feint
    against this defender (``FeintResult.defence_penalty``). ``thrust``: a golpe de ponta
    (the §4.13 torso cap); ``beam``: beam, fireball or lightning. ``unbreakable`` and
    ``cheap``: the weapon, for the critical miss table.
    """

    name: str
    skill: int
    damage: DiceExpression | str
    damage_type: DamageType | str
    maneuver: Maneuver | str = Maneuver.MOVE_AND_ATTACK
    all_out_option: AllOutAttackOption | str | None = None
    announced: tuple[AnnouncedModifier, ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    ambidextrous: bool = False
    location: HitLocation | str = HitLocation.TORSO
    arm_side: ArmSide | str | None = None
    attack_kind: AttackKind | str = AttackKind.HAND_WEAPON
    feint_penalty: int = 0
    thrust: bool = False
    beam: bool = False
    unbreakable: bool = False
    cheap: bool = False


@dataclass(frozen=True)
class DefenceChoice:
    """An active defence the defender will use if the attack hits, and its level (from
    ``gurps.defence.dodge``/``parry``/``block``, with Combat Reflexes, stun, retreat…)."""

    defence: ActiveDefence | str
    level: int


@dataclass(frozen=True)
class DefenceInput:
    """The defender's side (§4.6). ``maneuver``: his own last maneuver, which decides what he
    has (§4.1). ``passive_defense``: PD, 0 or more. ``choices``: the active defence he
    chooses — one; two different in Defesa Total; none to roll against the PD alone.
    ``aware``: False when he does not know the attack comes (surprise, backstab, the unseen
    target of §5e): no active defence. ``grappled``: no Dodge (§5c).
    ``reloading_missile_weapon``: Preparar while reloading: only Dodge. ``will``: his Will,
    for the Will−3 roll of Concentrar. How many defences are left in the round
    (``gurps.defence.RoundDefences``, before the dice; record afterwards only
    ``AttackResolution.defences_used``) and whether his weapon is ready
    (``WeaponReadiness.can_parry``) are the caller's to check."""

    name: str
    maneuver: Maneuver | str
    passive_defense: int
    choices: tuple[DefenceChoice, ...] = ()
    aware: bool = True
    grappled: bool = False
    reloading_missile_weapon: bool = False
    will: int | None = None


@dataclass(frozen=True)
class TargetInput:
    """The body the blow lands on. ``ht`` 1 or more; ``hp`` remaining before the blow (may be
    0 or negative); ``dr`` at the location hit, 0 or more; ``kind`` for the house rule of
    §5.4.1 ("creature", "named_npc", "boss", "player_character" — a boss only if declared
    before the first die, ``declared_in_time``); ``strong_will``/``weak_will`` levels for the
    turn-start HT roll at 0 HP; ``limb_hp_lost_before``: what the limb hit took earlier in the
    fight (§5.5)."""

    ht: int
    hp: int
    dr: int
    kind: CombatantKind | str
    strong_will: int = 0
    weak_will: int = 0
    limb_hp_lost_before: int = 0


@dataclass(frozen=True)
class SequenceStep:
    """One step of the attack as the scene log shows it: its ``number`` in the §4.10 table,
    a short ``title``, and a Portuguese ``text`` line with the numbers. For a roll: the
    ``dice`` faces, their ``total`` (for damage, with the weapon's modifier), the ``level``
    rolled against and the ``outcome`` (a ``gurps.checks.Outcome`` value, or None). ``table``
    for a roll on a §4.8 table; ``readings`` the keys of ``gurps.readings`` it depends on."""

    number: StepNumber
    title: str
    text: str
    dice: tuple[int, ...] = ()
    total: int | None = None
    level: int | None = None
    outcome: str | None = None
    table: TableRoll | None = None
    readings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Consequences:
    """Step 10 (§4.10; §5.1–5.5; §5.4.1). ``shock``: the modifier to IQ, DX and their skills
    on the victim's next turn (0 or negative). ``stun_causes``: why he is stunned (empty: he
    is not). ``knocked_down``: fell from a failed major-wound roll. ``knocked_out``:
    unconscious. ``crippled``: the limb hit is crippled. ``drops_weapon``. ``staggered``: at
    3 HP or less, Move and Dodge halved. ``ht_roll_each_turn``: at 0 HP or less, the level of
    the HT roll at the start of each of his turns (None above 0). ``death_checks``: how many
    were rolled. ``dead``: certainly dead. ``out_of_the_fight``: out under §5.4.1 (a bestiary
    creature at 0 HP is dead, or fled if its species flees). ``body_may_be_destroyed`` at
    −10 × HT. ``pending``: what the canon does not settle here, for the Árbitro."""

    shock: int = 0
    stun_causes: tuple[StunCause, ...] = ()
    knocked_down: bool = False
    knocked_out: bool = False
    crippled: bool = False
    drops_weapon: bool = False
    staggered: bool = False
    ht_roll_each_turn: int | None = None
    death_checks: int = 0
    dead: bool = False
    out_of_the_fight: bool = False
    body_may_be_destroyed: bool = False
    pending: tuple[str, ...] = ()

    @property
    def stunned(self) -> bool:
        return bool(self.stun_causes)


@dataclass(frozen=True)
class AttackResolution:
    """One attack from the attack roll to its consequences (§4.10 steps 3–10), every step
    kept for the scene log (``steps``, in order; ``lines`` their text).

    ``effective_level`` and ``modifiers``: what the attack was rolled against and why.
    ``hit``: the blow landed. ``critical_hit``/``critical_table``: a critical success and its
    roll on the critical hit (or head) table; ``critical_miss``: the critical miss table roll.
    ``defence_rolls`` (empty after a critical hit or a miss); ``defended``. ``damage_dice``
    and ``wound`` (``gurps.damage.Wound``, None when no damage was rolled); ``hp_lost`` and
    ``hp_after`` in HP. ``consequences`` (None when the blow did not land). For the
    defender's maneuver: ``aim_spoiled`` (he defended while aiming), ``reload_cancelled`` (he
    dodged while reloading), ``concentration_will_level`` (he defended while concentrating:
    the Will−3 roll to make, None otherwise or if his Will is not given).
    ``defences_used``: the active defences actually rolled, in order — empty after a miss, a
    critical hit (no defence roll, §4.8) or a roll against the PD alone; in Defesa Total the
    second only if the first failed. Only these count against the round's allowance: record
    them with ``RoundDefences.defend(*defences_used, dagger=...)`` (§4.7, §4.14).
    """

    attacker: str
    defender: str
    steps: tuple[SequenceStep, ...]
    effective_level: int
    modifiers: tuple[Modifier, ...]
    attack_roll: SuccessRoll
    hit: bool
    critical_hit: bool
    critical_table: TableRoll | None
    critical_miss: TableRoll | None
    defence_rolls: tuple[SuccessRoll, ...]
    defended: bool
    damage_dice: tuple[int, ...]
    wound: Wound | None
    hp_lost: int
    hp_after: int
    consequences: Consequences | None
    aim_spoiled: bool = False
    reload_cancelled: bool = False
    concentration_will_level: int | None = None
    defences_used: tuple[ActiveDefence, ...] = ()
    section: str = "4.10"

    @property
    def lines(self) -> tuple[str, ...]:
        """Each step's Portuguese line, in order."""
        return tuple(step.text for step in self.steps)

    @property
    def readings(self) -> tuple[str, ...]:
        """Every reading the result depends on, each once."""
        keys = [key for step in self.steps for key in step.readings]
        if self.wound is not None:
            keys.extend(self.wound.readings)
        return tuple(dict.fromkeys(keys))


def _prefixed(prefix: str, call, *args, **kwargs):
    """``call(*args, **kwargs)``, with any InvalidValue's field put under ``prefix``."""
    try:
        return call(*args, **kwargs)
    except InvalidValue as error:
        raise InvalidValue(f"{prefix}.{error.field}", error.message) from None


@dataclass(frozen=True)
class _Plan:
    """Everything checked and worked out before the first die."""

    level: int
    modifiers: tuple[Modifier, ...]
    damage: DiceExpression
    damage_type: DamageType
    damage_bonus: int
    location: HitLocation
    attack_kind: AttackKind
    choices: tuple[tuple[ActiveDefence, int], ...]
    defence_maneuver: ManeuverRow
    kind: CombatantKind


def _attack_plan(attack: AttackInput) -> tuple[int, tuple[Modifier, ...], int]:
    """(effective level, modifiers, damage bonus) of the attack; raises InvalidValue."""
    skill = require_int("skill", attack.skill)
    row = maneuver_row(attack.maneuver)
    if row.maneuver not in ATTACK_MANEUVERS:
        raise InvalidValue("maneuver", NOT_AN_ATTACK_MANEUVER)
    option = None
    if row.maneuver is Maneuver.ALL_OUT_ATTACK:
        if attack.all_out_option is None:
            raise InvalidValue("all_out_option", ALL_OUT_OPTION_REQUIRED)
        chosen = _enum(
            AllOutAttackOption,
            attack.all_out_option,
            "all_out_option",
            UNKNOWN_ALL_OUT_ATTACK_OPTION,
        )
        option = next(found for found in ALL_OUT_ATTACK_OPTIONS if found.option is chosen)
    elif attack.all_out_option is not None:
        raise InvalidValue("all_out_option", ALL_OUT_OPTION_WITHOUT_ALL_OUT_ATTACK)
    announced = attack_modifiers(attack.announced, ambidextrous=attack.ambidextrous)
    modifiers = list(announced.lines)
    for modifier in attack.modifiers:
        if not isinstance(modifier, Modifier):
            raise InvalidValue("modifiers", NOT_A_MODIFIER)
        modifiers.append(modifier)
    location = _enum(HitLocation, attack.location, "location", UNKNOWN_HIT_LOCATION)
    penalty = hit_location_penalty(location, arm_side=attack.arm_side)
    if penalty:
        modifiers.append(Modifier(penalty, f"alvo: {location.label}"))
    if option is not None and option.skill_bonus:
        modifiers.append(Modifier(option.skill_bonus, f"Ataque Total ({option.letter})"))
    level = skill + sum(modifier.value for modifier in modifiers)
    return level, tuple(modifiers), option.damage_bonus if option is not None else 0


def _defence_plan(
    defence: DefenceInput, attack_kind: AttackKind
) -> tuple[ManeuverRow, tuple[tuple[ActiveDefence, int], ...]]:
    row = maneuver_row(defence.maneuver)
    require_at_least("passive_defense", defence.passive_defense, 0, NEGATIVE_PD)
    if defence.will is not None:
        check_attribute("will", defence.will)
    left = defences_left(row.maneuver, reloading_missile_weapon=defence.reloading_missile_weapon)
    available = available_defences(
        attack_kind,
        shield_ready=True,
        weapon_ready=True,
        grappled=defence.grappled,
        aware=defence.aware,
    )
    choices: list[tuple[ActiveDefence, int]] = []
    for choice in defence.choices:
        kind = defence_rule(choice.defence).defence
        level = require_int("level", choice.level)
        name = defence_rule(kind).name
        if kind not in left.allowed:
            raise InvalidValue(
                "choices",
                DEFENCE_NOT_LEFT_BY_MANEUVER.format(maneuver=row.name, defence=name),
            )
        if kind not in available:
            raise InvalidValue("choices", DEFENCE_NOT_AVAILABLE.format(defence=name))
        if any(kind is seen for seen, _ in choices):
            raise InvalidValue("choices", SAME_DEFENCE_TWICE)
        choices.append((kind, level))
    if len(choices) > max(left.rolls, 1):
        raise InvalidValue("choices", ONE_DEFENCE_PER_ATTACK)
    return row, tuple(choices)


def _target_plan(target: TargetInput) -> CombatantKind:
    check_attribute("ht", target.ht)
    require_int("hp", target.hp)
    require_at_least("dr", target.dr, 0, NEGATIVE_DR)
    require_at_least("strong_will", target.strong_will, 0, NEGATIVE_WILL_LEVEL)
    require_at_least("weak_will", target.weak_will, 0, NEGATIVE_WILL_LEVEL)
    require_at_least("limb_hp_lost_before", target.limb_hp_lost_before, 0, NEGATIVE_HP_LOST)
    death_rule(target.kind)  # raises InvalidValue("kind") for an unknown kind
    return CombatantKind(target.kind)


def _plan(attack: AttackInput, defence: DefenceInput, target: TargetInput) -> _Plan:
    level, modifiers, damage_bonus = _prefixed("attack", _attack_plan, attack)
    damage_type = _prefixed("attack", wound_multiplier, attack.damage_type).damage_type
    attack_kind = _enum(AttackKind, attack.attack_kind, "attack.attack_kind", UNKNOWN_ATTACK_KIND)
    if isinstance(attack.damage, DiceExpression):
        damage = attack.damage
    else:
        try:
            damage = parse_dice(attack.damage)
        except InvalidDiceExpression:
            raise InvalidValue("attack.damage", BAD_DAMAGE) from None
    require_at_least("attack.feint_penalty", attack.feint_penalty, 0, NEGATIVE_FEINT_PENALTY)
    if attack_kind is AttackKind.UNARMED and (attack.unbreakable or attack.cheap):
        field = "unbreakable" if attack.unbreakable else "cheap"
        raise InvalidValue(f"attack.{field}", UNARMED_HAS_NO_WEAPON)
    row, choices = _prefixed("defence", _defence_plan, defence, attack_kind)
    kind = _prefixed("target", _target_plan, target)
    # §1.1: no attack roll at effective level 3 or less — refused before any die.
    ensure_rollable(level, RollKind.SKILL)
    return _Plan(
        level=level,
        modifiers=modifiers,
        damage=damage,
        damage_type=damage_type,
        damage_bonus=damage_bonus,
        location=HitLocation(attack.location),
        attack_kind=attack_kind,
        choices=choices,
        defence_maneuver=row,
        kind=kind,
    )


def _faces(dice: Sequence[int]) -> str:
    return "+".join(str(face) for face in dice)


def _number(value: int) -> str:
    return str(value).replace("-", "\u2212")


def _roll_text(title: str, roll: SuccessRoll, against: str) -> str:
    return (
        f"{title}: 3d6 = {_faces(roll.dice)} = {roll.total} contra {against} — "
        f"{OUTCOME_NAMES[roll.outcome]}."
    )


def _roll_step(
    number: StepNumber, title: str, roll: SuccessRoll, against: str, *readings: str
) -> SequenceStep:
    return SequenceStep(
        number,
        title,
        _roll_text(title, roll, against),
        dice=roll.dice,
        total=roll.total,
        level=roll.effective_level,
        outcome=roll.outcome.value,
        readings=readings,
    )


def _ht_roll(source: RandomSource, ht: int, title: str) -> tuple[SequenceStep, bool]:
    """A forced HT roll of step 10; at HT 3 or less none is made and it counts as failed
    (reading "forced_ht_roll_at_three_or_less")."""
    if ht <= NO_ROLL_AT_OR_BELOW:
        text = f"{title}: HT {ht} — não se rola com 3 ou menos (§1.1); conta como falho."
        step = SequenceStep(
            StepNumber.CONSEQUENCES,
            title,
            text,
            level=ht,
            outcome=Outcome.FAILURE.value,
            readings=("forced_ht_roll_at_three_or_less",),
        )
        return step, False
    roll = roll_success(source, ht, RollKind.ATTRIBUTE)
    return (
        _roll_step(StepNumber.CONSEQUENCES, title, roll, f"HT {ht}"),
        roll.outcome.is_success,
    )


def _note(number: StepNumber, title: str, text: str, *readings: str) -> SequenceStep:
    return SequenceStep(number, title, text, readings=readings)


def _modifiers_text(skill: int, modifiers: Sequence[Modifier]) -> str:
    parts = [f"NH {skill}"] + [f"{m.reason} {signed(m.value)}" for m in modifiers]
    return ", ".join(parts)


def resolve_attack(
    source: RandomSource, attack: AttackInput, defence: DefenceInput, target: TargetInput
) -> AttackResolution:
    """Run one attack through steps 3–10 of the Mestre's table (§4.10; §4.4–4.9, §4.13,
    §5.1–5.5, §5.4.1), every die from ``source``, and keep each step for the scene log.

    3. Attack roll: 3d6 against the weapon skill plus every announced modifier (§1.4: all in
       the input, none after), the hit location's penalty (§5.5) and Ataque Total (c)'s +4.
       A miss ends it.
    4. Critical check (§4.8, §1.2): a critical success is a critical hit — no active defence,
       no defence roll at all, and a roll on the Tabela de Golpes Fulminantes (or the head
       table for an attack aimed at the head, brain or eyes) through
       ``gurps.tables.roll_on_table``. This table uses the table, never the book's maximum
       damage (house setting "critical_hit_table"; §4.10 row 4's "3 = dano máximo" is a known
       slip). A critical failure rolls on the Tabela de Erros Críticos, and the attack ends.
       A 17 at effective 16+ is a plain miss (reading "attack_17_at_16_plus").
    5. Defence roll: 3d6 against PD plus the active defence his maneuver leaves and he chose
       (two different in Defesa Total: the second only if the first fails), minus the
       attacker's feint margin; 3 or 4 always pass, 17 or 18 always fail (§4.6). With no
       active defence he rolls against the PD alone (reading "defence_roll_on_passive_only").
    6–9. Damage roll (Ataque Total (d) +2 after the table's double or triple of the dice,
       reading "critical_multiplier_before_all_out_bonus"), DR (none if the table says it
       passes the armour), wound multiplier and the caps of §4.13 (``gurps.damage.wound``),
       the limb's crippling cap (§5.5), HP lost. Head table 3: instant death, no damage
       rolled; 12 and 13 cutting or impaling: 1 and 2 HP.
    10. Consequences, in order: shock; major wound (HT roll: knocked down if failed) and
       every cause of stun (§5.2: a critical hit received stuns); knockout (§5.3, and the
       tables' knockouts); the HP thresholds (§5.4) under the house rule of §5.4.1 — death
       checks rolled for a player character. A forced HT roll at HT 3 or less is not rolled
       and counts as failed (reading "forced_ht_roll_at_three_or_less"). What the canon does
       not settle (the eyes' knockout and crippling) goes to ``Consequences.pending``.

    Everything is checked before the first die: InvalidValue("attack.<field>",
    "defence.<field>", "target.<field>") for bad input, NoRollAtThreeOrLess for an attack at
    effective level 3 or less (§1.1). Returns an ``AttackResolution``.
    """
    plan = _plan(attack, defence, target)
    steps: list[SequenceStep] = []

    def finish(**kwargs) -> AttackResolution:
        base = {
            "attacker": attack.name,
            "defender": defence.name,
            "effective_level": plan.level,
            "modifiers": plan.modifiers,
            "critical_hit": False,
            "critical_table": None,
            "critical_miss": None,
            "defence_rolls": (),
            "defended": False,
            "damage_dice": (),
            "wound": None,
            "hp_lost": 0,
            "hp_after": target.hp,
            "consequences": None,
        }
        base.update(kwargs)
        return AttackResolution(steps=tuple(steps), **base)

    # --- 3. Jogada de ataque
    roll = roll_success(source, plan.level, RollKind.SKILL)
    against = f"NH efetivo {_number(plan.level)} ({_modifiers_text(attack.skill, plan.modifiers)})"
    readings = ("attack_17_at_16_plus",) if roll.total == 17 and plan.level >= 16 else ()
    steps.append(
        _roll_step(StepNumber.ATTACK_ROLL, f"Ataque de {attack.name}", roll, against, *readings)
    )

    # --- 4. Checa crítico
    if roll.outcome is Outcome.CRITICAL_FAILURE:
        miss = roll_on_table(
            CRITICAL_MISS.key,
            source,
            unarmed=plan.attack_kind is AttackKind.UNARMED,
            unbreakable=attack.unbreakable,
            cheap=attack.cheap,
            impaling=plan.damage_type is DamageType.IMPALING,
            ranged=plan.attack_kind in RANGED_ATTACK_KINDS,
        )
        steps.append(_table_step(miss))
        return finish(attack_roll=roll, hit=False, critical_miss=miss)
    if not roll.outcome.is_success:
        steps.append(_note(StepNumber.ATTACK_ROLL, "Errou", "Errou. Fim do golpe."))
        return finish(attack_roll=roll, hit=False)
    critical = roll.outcome is Outcome.CRITICAL_SUCCESS
    table = None
    if critical:
        key = CRITICAL_HEAD.key if plan.location in HEAD_LOCATIONS else CRITICAL_HIT.key
        table = roll_on_table(key, source, location=plan.location, damage_type=plan.damage_type)
        steps.append(_table_step(table))
    else:
        steps.append(
            _note(StepNumber.CRITICAL_CHECK, "Sem crítico", "Sem golpe fulminante: acertou.")
        )

    # --- 5. Jogada de defesa
    defence_rolls: list[SuccessRoll] = []
    defended = False
    used: list[ActiveDefence] = []
    if critical:
        steps.append(
            _note(
                StepNumber.DEFENCE_ROLL,
                "Sem defesa",
                "Golpe fulminante: sem defesa ativa, e não se rola defesa (§4.6, §4.8).",
            )
        )
    else:
        pd = defence.passive_defense
        rounds = plan.choices or ((None, 0),)
        for kind, level in rounds:
            if kind is None:
                total, against = pd, f"Defesa Passiva {pd}"
                title, why = f"Defesa de {defence.name}", ("defence_roll_on_passive_only",)
            else:
                active = level - attack.feint_penalty
                total = pd + active
                name = defence_rule(kind).name
                feint = f", finta −{attack.feint_penalty}" if attack.feint_penalty else ""
                against = f"PD {pd} + {name} {_number(level)}{feint} = {_number(total)}"
                title, why = f"{name} de {defence.name}", ()
                used.append(kind)
            result = roll_defence(source, total)
            defence_rolls.append(result)
            steps.append(_roll_step(StepNumber.DEFENCE_ROLL, title, result, against, *why))
            if result.outcome.is_success:
                defended = True
                break
    row = plan.defence_maneuver
    flags = {
        "defences_used": tuple(used),
        "aim_spoiled": row.spoils_aim and bool(used),
        "reload_cancelled": defence.reloading_missile_weapon and ActiveDefence.DODGE in used,
        "concentration_will_level": (
            defence.will + row.concentration_will_modifier
            if used and row.concentration_will_modifier is not None and defence.will is not None
            else None
        ),
    }
    if defended:
        steps.append(_note(StepNumber.DEFENCE_ROLL, "Defendeu", "Defendeu: o golpe não passou."))
        return finish(
            attack_roll=roll,
            hit=False,
            defence_rolls=tuple(defence_rolls),
            defended=True,
            **flags,
        )
    if defence_rolls:
        steps.append(_note(StepNumber.DEFENCE_ROLL, "Atingido", "Foi atingido."))

    # --- 6–9. Dano, RD, multiplicador, PV perdidos
    blow = _Blow.of(table)
    damage_dice: tuple[int, ...] = ()
    wounded = None
    pending: list[str] = []
    if blow.instant_death:
        hp_lost = 0
    elif blow.fixed_hp is not None:
        hp_lost = blow.fixed_hp
        steps.append(
            _note(
                StepNumber.HP_LOST,
                "PV perdidos",
                f"Tabela da cabeça: {hp_lost} PV, sem rolar dano.",
            )
        )
    else:
        damage_dice, rolled = plan.damage.roll(source)
        basic = rolled * blow.multiplier + plan.damage_bonus
        text = f"Dano {plan.damage.display}: {_faces(damage_dice) or '0'} → {_number(rolled)}"
        if blow.multiplier != 1:
            text += f"; ×{blow.multiplier} pela tabela = {_number(rolled * blow.multiplier)}"
        if plan.damage_bonus:
            text += f"; Ataque Total {signed(plan.damage_bonus)} = {_number(basic)}"
        readings = (
            ("critical_multiplier_before_all_out_bonus",)
            if (blow.multiplier != 1 and plan.damage_bonus)
            else ()
        ) + (("critical_head_damage_when_unsaid",) if blow.damage_unsaid else ())
        steps.append(
            SequenceStep(
                StepNumber.DAMAGE_ROLL,
                "Dano",
                text + ".",
                dice=damage_dice,
                total=rolled,
                readings=readings,
            )
        )
        dr = 0 if blow.bypasses_armour else target.dr
        wounded = wound(
            basic,
            dr,
            plan.damage_type,
            location=plan.location,
            ht=target.ht,
            thrust=attack.thrust,
            beam=attack.beam,
        )
        dr_text = (
            f"RD {target.dr}, ultrapassada pela tabela" if blow.bypasses_armour else f"RD {dr}"
        )
        passed = wounded.penetrating
        steps.append(
            _note(
                StepNumber.DAMAGE_RESISTANCE,
                "RD",
                f"{dr_text}: passam {passed}."
                + ("" if passed else " Não sobrou nada: não houve ferimento."),
            )
        )
        steps.append(
            _note(
                StepNumber.WOUNDING,
                "Multiplicador",
                f"{DAMAGE_TYPE_NAMES[plan.damage_type].capitalize()} "
                f"×{_fraction_text(wounded.multiplier)}: {wounded.multiplied}.",
            )
        )
        hp_lost = wounded.hp_lost
        lines = []
        if wounded.cap is not None and wounded.lost_to_cap:
            lines.append(f"teto de trespassar {wounded.cap} (§4.13)")
        try:
            limb = limb_hp_lost(
                target.ht,
                plan.location,
                hp_lost,
                limb_hp_lost_before=target.limb_hp_lost_before,
            )
        except OutsideCanon as error:
            _pending(steps, pending, error)
            limb = hp_lost
        if limb != hp_lost:
            lines.append("o que passa do necessário para incapacitar o membro se perde (§5.5)")
            hp_lost = limb
        extra = f" ({'; '.join(lines)})" if lines else ""
        steps.append(
            _note(StepNumber.HP_LOST, "PV perdidos", f"{defence.name} perde {hp_lost} PV{extra}.")
        )
    hp_after = target.hp - hp_lost

    # --- 10. Consequências
    consequences = _consequences(source, steps, plan, target, blow, critical, hp_lost, pending)
    return finish(
        attack_roll=roll,
        hit=True,
        critical_hit=critical,
        critical_table=table,
        defence_rolls=tuple(defence_rolls),
        damage_dice=damage_dice,
        wound=wounded,
        hp_lost=hp_lost,
        hp_after=hp_after,
        consequences=consequences,
        **flags,
    )


# Head table rows that do not speak of damage (reading "critical_head_damage_when_unsaid").
_HEAD_DAMAGE_UNSAID = (
    HeadEffect.KNOCKOUT,
    HeadEffect.BLINDED_BOTH_EYES,
    HeadEffect.BLINDED_ONE_EYE,
)


@dataclass(frozen=True)
class _Blow:
    """What the critical hit table (or the head table) does to this blow."""

    multiplier: int = 1
    bypasses_armour: bool = False
    fixed_hp: int | None = None
    instant_death: bool = False
    knockout: bool = False
    blinded: bool = False
    crippled: bool = False
    drops_weapon: bool = False
    damage_unsaid: bool = False

    @classmethod
    def of(cls, table: TableRoll | None) -> _Blow:
        if table is None:
            return cls()
        effect = table.effect
        if table.table_key == CRITICAL_HIT.key:
            return cls(
                multiplier=BASIC_DAMAGE_MULTIPLIERS.get(effect, 1),
                bypasses_armour=effect == HitEffect.BYPASSES_ARMOUR,
                knockout=effect == HitEffect.KNOCKOUT,
                crippled=effect == HitEffect.LIMB_CRIPPLED,
                drops_weapon=effect == HitEffect.OPPONENT_DROPS_WEAPON,
            )
        return cls(
            fixed_hp=HEAD_FIXED_HP.get(effect),
            instant_death=effect == HeadEffect.INSTANT_DEATH,
            knockout=effect == HeadEffect.KNOCKOUT,
            blinded=effect in (HeadEffect.BLINDED_BOTH_EYES, HeadEffect.BLINDED_ONE_EYE),
            drops_weapon=effect == HeadEffect.DROPS_WEAPON,
            damage_unsaid=effect in _HEAD_DAMAGE_UNSAID,
        )


def _table_step(roll: TableRoll) -> SequenceStep:
    """Step 4's roll on a §4.8 table (every reroll's faces kept, in order)."""
    if roll.table_key == CRITICAL_MISS.key:
        title, house = "Erro crítico", ""
    else:
        # House setting "critical_hit_table" (§4.8): the table, never the maximum damage.
        title = "Golpe fulminante"
        house = f" (regra da casa, {HOUSE_SETTINGS['critical_hit_table'].decided})"
    return SequenceStep(
        StepNumber.CRITICAL_CHECK,
        title,
        f"{title} — {roll.title}{house}: {roll.text}",
        dice=tuple(face for faces in roll.faces for face in faces),
        total=roll.total,
        table=roll,
        readings=roll.readings,
    )


def _pending(steps: list[SequenceStep], pending: list[str], error: OutsideCanon) -> None:
    """Record, once, what the canon does not settle (for the Árbitro), as a step-10 line."""
    if error.message not in pending:
        pending.append(error.message)
        steps.append(_note(StepNumber.CONSEQUENCES, "Pendência", error.message))


def _fraction_text(value: Fraction) -> str:
    """×1, ×1,5, ×2, ×3 as the page writes them."""
    return f"{float(value):g}".replace(".", ",")


_STUN_WORDS = {source.cause: source.words for source in STUN_SOURCES}


def _consequences(
    source: RandomSource,
    steps: list[SequenceStep],
    plan: _Plan,
    target: TargetInput,
    blow: _Blow,
    critical: bool,
    hp_lost: int,
    pending: list[str],
) -> Consequences:
    """Step 10 of §4.10, appending its lines to ``steps``."""
    ht, where = target.ht, plan.location
    hp_after = target.hp - hp_lost
    step10 = StepNumber.CONSEQUENCES

    def outside(error: OutsideCanon) -> None:
        _pending(steps, pending, error)

    # Choque (§5.1)
    shock = shock_penalty(hp_lost)
    if shock:
        steps.append(
            _note(
                step10,
                "Choque",
                f"Choque: {signed(shock)} em IQ e DX, e nas perícias baseadas nelas, só no "
                "próximo turno; a defesa ativa não muda (§5.1).",
            )
        )

    # Prostração e atordoamento (§5.2), with the limb crippled (§5.5)
    knocked_down = False
    if is_major_wound(ht, hp_lost):
        step, passed = _ht_roll(source, ht, "Prostração (perdeu mais que HT/2)")
        steps.append(step)
        knocked_down = major_wound(passed).knocked_down
    crippled = blow.crippled
    try:
        before = target.limb_hp_lost_before
        crippled = crippled or (
            is_crippled(ht, where, before + hp_lost) and not is_crippled(ht, where, before)
        )
    except OutsideCanon as error:
        outside(error)
    drops_weapon = blow.drops_weapon
    if crippled:
        effects = crippling_effects(where)
        knocked_down = knocked_down or effects.knocked_down
        drops_weapon = drops_weapon or effects.drops_what_it_holds
        steps.append(
            _note(step10, "Incapacitado", f"{where.label.capitalize()} incapacitado (§5.5).")
        )
    if drops_weapon:
        steps.append(_note(step10, "Arma", "A vítima deixa cair a arma."))
    causes = stun_causes(
        ht,
        hp_lost,
        location=where,
        critical_hit_received=critical,
        crippled=crippled,
        blinded=blow.blinded,
    )
    if causes:
        why = "; ".join(_STUN_WORDS[cause] for cause in causes)
        fell = "Cai no chão e fica atordoado" if knocked_down else "Atordoado"
        steps.append(
            _note(
                step10,
                "Atordoado",
                f"{fell} ({why}): {signed(STUNNED_PENALTY)} em todas as defesas ativas; no "
                "início do próximo turno, teste de HT para agir (§5.2).",
            )
        )

    # Nocaute (§5.3) and the tables' knockouts (§4.8)
    knocked_out = False
    if blow.knockout:
        knocked_out = True
        steps.append(
            _note(
                step10,
                "Nocaute",
                "Nocaute pela tabela: inconsciente; teste de HT a cada 30 min para acordar.",
            )
        )
    elif not blow.instant_death:
        try:
            check = knockout_check(ht, hp_lost, where, plan.damage_type)
        except OutsideCanon as error:
            outside(error)
            check = KnockoutCheck.NONE
        if check is KnockoutCheck.AUTOMATIC:
            knocked_out = True
            steps.append(
                _note(
                    step10,
                    "Nocaute",
                    "Golpe no cérebro que tira mais que HT/2: nocaute automático (§5.3).",
                )
            )
        elif check is KnockoutCheck.HT_ROLL:
            step, passed = _ht_roll(source, ht, "Nocaute")
            steps.append(step)
            knocked_out = not passed

    # Limiares de PV (§5.4) under the house rule (§5.4.1)
    rule = death_rule(plan.kind)
    dead, checks = blow.instant_death, 0
    if dead:
        steps.append(_note(step10, "Morte", "Morte instantânea (tabela da cabeça)."))
        out = True
    elif rule.death_checks:
        if is_dead(ht, hp_after):
            dead = True
            steps.append(_note(step10, "Morte", "−5 × HT: morte automática (§5.4)."))
        else:
            for _ in range(house_death_checks(plan.kind, ht, target.hp, hp_after)):
                step, passed = _ht_roll(source, ht, "Teste de morte (HT básico)")
                steps.append(step)
                checks += 1
                if not passed:
                    dead = True
                    steps.append(_note(step10, "Morte", "Falhou o teste de morte: morre (§5.4)."))
                    break
        out = dead
    else:
        out = is_out_of_the_fight(plan.kind, ht, hp_after)
        if out and plan.kind is CombatantKind.CREATURE:
            steps.append(
                _note(
                    step10,
                    "Fora da luta",
                    "Bicho de bestiário a 0 PV: morto — ou em fuga, "
                    "se o `06` diz que a espécie foge; fora da luta, e não volta (§5.4.1).",
                )
            )
        elif out:
            dead = True
            steps.append(_note(step10, "Morte", "NPC nomeado ou chefe a −HT: morre (§5.4.1)."))
    staggered = not out and is_staggered(hp_after)
    each_turn = None
    if not out:
        each_turn = turn_start_ht_roll(
            ht, hp_after, strong_will=target.strong_will, weak_will=target.weak_will
        )
    if staggered:
        steps.append(
            _note(step10, "Cambaleando", "3 PV ou menos: Deslocamento e Esquiva à metade (§5.4).")
        )
    if each_turn is not None:
        steps.append(
            _note(
                step10,
                "Desmaio",
                f"0 PV ou menos: teste de HT ({each_turn}) no início de cada turno; falhando, "
                "desmaia (§5.4).",
                *(() if rule.death_checks else ("faint_roll_for_named_npcs",)),
            )
        )
    body = body_may_be_destroyed(ht, hp_after)
    if body:
        steps.append(_note(step10, "Corpo", "−10 × HT: o corpo pode ter sido destruído (§5.4)."))
    return Consequences(
        shock=shock,
        stun_causes=causes,
        knocked_down=knocked_down,
        knocked_out=knocked_out,
        crippled=crippled,
        drops_weapon=drops_weapon,
        staggered=staggered,
        ht_roll_each_turn=each_turn,
        death_checks=checks,
        dead=dead,
        out_of_the_fight=out,
        body_may_be_destroyed=body,
        pending=tuple(pending),
    )


# =============================================================================================
# The tables the rules pages show, built from the data above
# =============================================================================================


def _readiness_cell(row: WeaponClassRow) -> str:
    if row.readiness is None:
        return "o cânone não diz"
    if row.readiness is Readiness.NEVER_UNREADY:
        return "nunca fica despreparada"
    return f"{_WORDS[READY_TURNS_AFTER_ATTACK]} turno preparando"


def _close_combat_cell(row: WeaponClassRow) -> str:
    if row.close_combat is None:
        return "o cânone não diz"
    if row.close_combat is CloseCombatUse.CANNOT:
        return "não ataca"
    if row.close_combat is CloseCombatUse.PENALISED:
        return f"ataca a {signed(CLOSE_COMBAT_PENALTY)}"
    return "ataca"


def _where(rule: SituationRule) -> str:
    return f"§{rule.section}" + (f" (pág. {rule.page})" if rule.page else "")


CANON_TABLES: tuple[CanonTable, ...] = (
    CanonTable(
        key="maneuvers",
        title="Manobras",
        section=MANEUVERS[0].section,
        page=MANEUVERS[0].page,
        columns=("Manobra", "Movimento", "O que faz", "Defesa que sobra"),
        rows=tuple((row.name, row.movement, row.does, row.defence) for row in MANEUVERS),
        heading="## 4.3 Manobras",
        notes=MANEUVER_NOTES,
    ),
    CanonTable(
        key="weapon_classes",
        title="Armas: preparar de novo e combate de perto",
        section="4.3",
        page="97 e 104",
        columns=("Arma", "Depois de golpear", "De perto"),
        rows=tuple(
            (row.name.capitalize(), _readiness_cell(row), _close_combat_cell(row))
            for row in WEAPON_CLASSES
        ),
        notes=(
            MANEUVER_NOTES[0],
            "Quem está agarrado não esquiva. Aparar e bloquear seguem valendo, com a arma que "
            "serve ali. Para sair, é preciso evadir-se do inimigo e ultrapassá-lo — não basta "
            "andar. (§5c)",
            "Agarrar e imobilizar não são perícia: são Disputa de DX e depois de ST, com Judô "
            "ou Briga entrando como desempate. (§5c)",
        ),
    ),
    CanonTable(
        key="attack_modifiers",
        title="Modificadores de ataque",
        section="4.5",
        page="97",
        columns=("Situação", "Modificador"),
        rows=tuple(
            (rule.name, rule.modifier_text) for rule in ATTACK_SITUATIONS if rule.section == "4.5"
        ),
        heading="## 4.5 Modificadores de ataque",
        note="O modificador é declarado antes dos dados, sempre (§1.4).",
    ),
    CanonTable(
        key="attack_modifiers_elsewhere",
        title="Outros modificadores de ataque",
        section="4.5",
        page="",
        columns=("Situação", "Modificador", "Onde"),
        rows=tuple(
            (rule.name, rule.modifier_text, _where(rule))
            for rule in ATTACK_SITUATIONS
            if rule.section != "4.5"
        ),
        note="Os que o cânone dá fora da tabela da §4.5: tiro, combate de perto, terreno, "
        "surpresa.",
    ),
    CanonTable(
        key="combat_sequence",
        title="A sequência de combate — tabela do Mestre",
        section="4.10",
        page="",
        columns=("#", "Quem", "O que acontece", "Rolagem", "Se falha"),
        rows=tuple(
            (str(int(step.number)), step.who, step.what, step.roll, step.if_fails)
            for step in COMBAT_SEQUENCE
        ),
        heading="## 4.10 A sequência de combate — tabela do Mestre",
        decided=TURN_ORDER_TIE_BREAK_DECIDED,
        notes=COMBAT_SEQUENCE_NOTES,
    ),
    CanonTable(
        key="terrain",
        title="Terreno e o que ele cobra",
        section="5d",
        page="",
        columns=("Terreno", "O que custa"),
        rows=tuple((row.name, row.cost) for row in TERRAINS),
        heading="# 5d. Terreno e o que ele cobra",
        notes=(
            "O Mestre de Cena declara o terreno antes do primeiro dado, como declara o chefe de "
            "encontro. Terreno declarado depois não vale.",
            "«Combate às Cegas (§4.14)» é um deslize conhecido do cânone: a §4.14 é a do "
            "esgrimista com adaga.",
        ),
    ),
    CanonTable(
        key="surprise",
        title="Surpresa",
        section="5e",
        page="",
        columns=("Surpresa", "O que acontece"),
        rows=(
            (
                "Parcial — o lado atacado sabe que há inimigo, mas não de onde vem",
                "Perde o primeiro turno; a partir do segundo age normalmente.",
            ),
            (
                "Total — não sabia de nada",
                "Testa IQ a cada turno para começar a agir; enquanto falhar, fica parado e não "
                "tem defesa ativa. Quem tem Reflexos em Combate testa a "
                f"{signed(COMBAT_REFLEXES_SURPRISE_BONUS)}.",
            ),
        ),
        note=(
            f"Alvo parado que não te vê: {signed(UNAWARE_TARGET_HIT_BONUS)} para acertar, sem "
            f"defesa ativa, e órgão vital a {signed(HitLocation.VITALS.penalty)}. Não é morte "
            "automática — isso exige alvo "
            "indefeso ou inconsciente, e atordoado não basta (§5.4)."
        ),
    ),
)
