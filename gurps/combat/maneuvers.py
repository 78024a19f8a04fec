"""The ten maneuvers (canon §4.1 and §4.3, book p. 95–96 and 104–105; summary table p. 203).

How far each moves, the four options of Ataque Total, the canon's four cells of each row and
the defences each leaves until the combatant's next turn. Distances are metres (one hex is one
metre, as §4.3 counts a step); Move is in levels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from gurps._validate import require_at_least
from gurps.combat.shared import WORDS, WORDS_F, enum_member
from gurps.defence import ActiveDefence
from gurps.errors import (
    AIM_TURN_REQUIRED,
    DOUBLE_ATTACK_NEEDS_WEAPONS,
    NEGATIVE_MOVE,
    NEGATIVE_READY_WEAPONS,
    RELOAD_ONLY_WITH_READY,
    UNKNOWN_ALL_OUT_ATTACK_OPTION,
    UNKNOWN_MANEUVER,
    InvalidValue,
)
from gurps.ranged import MAX_EXTRA_AIM_BONUS, UNAIMED_PENALTY
from gurps.tabular import signed


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
        f"{WORDS[ALL_OUT_ATTACK_DOUBLE_ATTACKS]} ataques, se tiver "
        f"{WORDS_F[ALL_OUT_ATTACK_DOUBLE_ATTACKS]} armas preparadas ou arma que não "
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
    chosen = enum_member(
        AllOutAttackOption, option, "all_out_option", UNKNOWN_ALL_OUT_ATTACK_OPTION
    )
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


_ALL_OUT_ATTACK_DOES = f"Escolha uma das {WORDS_F[len(ALL_OUT_ATTACK_OPTIONS)]}: " + "; ".join(
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
        f"Nada além de se defender. {WORDS_F[ALL_OUT_DEFENSE_ROLLS].capitalize()} jogadas de "
        "defesa diferentes contra o mesmo ataque. Máximo de "
        f"{WORDS[ALL_OUT_DEFENSE_MAX_PARRIES]} Aparar e {WORDS[ALL_OUT_DEFENSE_MAX_BLOCKS]} "
        "Bloquear no turno.",
        f"{WORDS_F[ALL_OUT_DEFENSE_ROLLS].capitalize()}, diferentes",
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
        f"{WORDS[LYING_TO_STANDING_TURNS]} turnos.",
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
    chosen = enum_member(Maneuver, value, "maneuver", UNKNOWN_MANEUVER)
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
