"""Rests: the short rest's hit dice and the long rest (Xuleta, «§6 Descansar»).

Pure: every function takes the character's numbers (``check_data``'s ``max_hp``, ``hit_die``,
``hit_dice``, ``modifiers``) and his state (the ``state_model`` dict: ``hp_lost``, ``temp_hp``,
``exhaustion``, ``conditions``, ``hit_dice_spent``, ``slots_spent``, ``death_saves``,
``stable``, ``dead``, ``last_long_rest``, ``ate_and_drank``), and returns a NEW state dict (the
one given is never changed) with what happened. Dice only from ``source`` (``randint``).

Time is counted in minutes on the campaign's clock (``procedure.clock``: an exploration's
elapsed minutes, or a number the Mestre gives); ``last_long_rest`` holds the minute a long rest
ended, as text (``"1440"``), "" for never.

Errors: ``XuletaError`` with a Portuguese message naming the field.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass

from dice.rolling import RandomSource
from xuleta.abilities import CON
from xuleta.conditions import UNCONSCIOUS, exhaustion_level, max_hp
from xuleta.errors import XuletaError
from xuleta.readings import Reading

SHORT_REST_MINUTES = 60  # «Almenys una hora tranquil·la»
LONG_REST_MINUTES = 8 * 60  # «Unes 8 hores»
LONG_REST_SLEEP_MINUTES = 6 * 60  # «dormir-ne almenys 6»
LONG_REST_INTERRUPTION_MINUTES = 60  # «lluitar, caminar o llançar encanteris una hora o més»
LONG_REST_EVERY_MINUTES = 24 * 60  # «Només un cada 24 hores»
LONG_REST_MIN_HP = 1  # «has de tenir almenys 1 PC en començar»
HIT_DIE_MINIMUM = 0  # reading short_rest_hit_die_minimum
HIT_DIE_SIDES = (6, 8, 10, 12)

DEAD = (
    "Quem morreu não se cura: é preciso magia que o traga de volta («Qui ha mort no es pot curar»)."
)
NO_HIT_DICE = "Não restam dados de vida para gastar: {spent} de {total} já gastos."
BAD_HIT_DIE = "O dado de vida é d6, d8, d10 ou d12; veio d{sides}."
TOO_SOON = (
    "Só um descanso longo a cada 24 horas («Només un cada 24 hores»): o último acabou no minuto "
    "{last}; o próximo pode acabar a partir do minuto {next}."
)
NEEDS_HP = "Para começar um descanso longo é preciso ter ao menos 1 PC («has de tenir almenys 1 PC en començar»)."
BAD_MINUTES = "«{field}» deve ser um número inteiro de minutos, 0 ou mais."
TOO_SHORT = "O descanso longo são unas 8 horas («Unes 8 hores»), dormindo ao menos 6; veio {hours}."


def _minutes(value, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise XuletaError(BAD_MINUTES.format(field=field), field)
    return value


def maximum_hp(sheet: Mapping, state: Mapping) -> int:
    """The maximum PC now: the sheet's ``max_hp`` (before exhaustion), halved from exhaustion
    4 («Punts de cop màxims a la meitat», ``xuleta.conditions.max_hp``)."""
    return max_hp(int(sheet["max_hp"]), int(state.get("exhaustion", 0)))


def current_hp(sheet: Mapping, state: Mapping) -> int:
    """PC now: the sheet's ``max_hp`` less ``hp_lost``, never above ``maximum_hp`` (reading
    ``exhaustion_caps_current_hp``) nor below 0."""
    lost = int(state.get("hp_lost", 0))
    return max(0, min(maximum_hp(sheet, state), int(sheet["max_hp"]) - lost))


def _lost_after_healing(sheet: Mapping, state: Mapping, healing: int) -> int:
    """``hp_lost`` after ``healing`` PC: never healed above the maximum now («mai per sobre
    del teu màxim»)."""
    lost = int(state.get("hp_lost", 0))
    floor = min(lost, int(sheet["max_hp"]) - maximum_hp(sheet, state))
    return max(floor, lost - max(0, healing))


def hit_dice_left(sheet: Mapping, state: Mapping) -> int:
    """The hit dice not spent: ``hit_dice`` (= the level) less ``hit_dice_spent``."""
    return max(0, int(sheet["hit_dice"]) - int(state.get("hit_dice_spent", 0)))


@dataclass(frozen=True)
class HitDieRoll:
    """One hit die spent: its ``sides``, the ``face`` rolled, the CON ``modifier`` added, the
    ``total`` (face + modifier, at least ``HIT_DIE_MINIMUM``: a reading) and the PC ``healed``
    (the total, but never above the maximum: «mai per sobre del teu màxim»)."""

    sides: int
    face: int
    modifier: int
    total: int
    healed: int
    woke: bool  # at 0 PC, any healing brings him back («qualsevol curació et torna la consciència»)


def _healed_state(state: dict, healed: int, at_zero: bool) -> bool:
    """After ``healed`` PC (``hp_lost`` already lowered): whether a character at 0 PC came to
    («Si estàs a 0 PC, qualsevol curació et torna la consciència»; «Si et curen o
    t'estabilitzen, el comptador torna a zero.», §5.5 and §5.8), his state changed in place."""
    if healed <= 0 or not at_zero:
        return False
    state["death_saves"] = {"successes": 0, "failures": 0}
    state["stable"] = False
    state["conditions"] = [c for c in state.get("conditions", []) if c != UNCONSCIOUS]
    return True


def spend_hit_die(source: RandomSource, sheet: Mapping, state: Mapping) -> tuple[dict, HitDieRoll]:
    """Spend one hit die in a short rest: «Pots gastar daus de cop: tira cadascun, suma el teu
    mod. de Constitució i recuperes aquests PC. Els pots gastar d'un en un i decidir després de
    cada tirada.» (§6.1 Descans curt). One die per call: the player decides after each.

    ``sheet``: ``hit_die`` (6/8/10/12), ``hit_dice`` (total), ``max_hp``, ``modifiers``
    (``con``). Returns (the new state, the roll). Raises ``XuletaError`` for a dead character
    (field ``state.dead``), no hit dice left (``hit_dice``) or a bad die (``hit_die``)."""
    if state.get("dead"):
        raise XuletaError(DEAD, "state.dead")
    sides = int(sheet["hit_die"])
    if sides not in HIT_DIE_SIDES:
        raise XuletaError(BAD_HIT_DIE.format(sides=sides), "hit_die")
    if hit_dice_left(sheet, state) < 1:
        raise XuletaError(
            NO_HIT_DICE.format(spent=state.get("hit_dice_spent", 0), total=sheet["hit_dice"]),
            "hit_dice",
        )
    modifier = int(sheet["modifiers"][CON])
    face = source.randint(1, sides)
    total = max(HIT_DIE_MINIMUM, face + modifier)
    after = copy.deepcopy(dict(state))
    after["hp_lost"] = _lost_after_healing(sheet, state, total)
    healed = current_hp(sheet, after) - current_hp(sheet, state)
    woke = _healed_state(after, healed, current_hp(sheet, state) == 0)
    after["hit_dice_spent"] = int(after.get("hit_dice_spent", 0)) + 1
    return after, HitDieRoll(sides, face, modifier, total, healed, woke)


def hit_dice_regained(total: int, spent: int) -> int:
    """«Recuperes daus de cop gastats fins a la meitat del teu total (almenys 1).» (§6.2): the
    spent dice back, at most half the total rounded down (reading ``long_rest_half_rounding``),
    at least 1 — never more than were spent."""
    return min(spent, max(1, total // 2))


@dataclass(frozen=True)
class LongRest:
    """A long rest's outcome: ``completed`` (False: interrupted, nothing gained, ``why`` says
    so), and what changed: ``healed`` PC, ``hit_dice_regained``, ``slots_regained`` (total
    slots), ``exhaustion`` (before, after), ``temp_hp_lost``, and the lines in Portuguese."""

    completed: bool
    healed: int = 0
    hit_dice_regained: int = 0
    slots_regained: int = 0
    exhaustion: tuple[int, int] = (0, 0)
    temp_hp_lost: int = 0
    lines: tuple[str, ...] = ()
    why: str = ""


def next_long_rest_at(state: Mapping) -> int | None:
    """The first minute a new long rest may END at: 24 h after the last one ended (reading
    ``long_rest_24h_from_end``); None when there was none."""
    last = str(state.get("last_long_rest") or "").strip()
    if not last.lstrip("-").isdigit():
        return None
    return int(last) + LONG_REST_EVERY_MINUTES


def long_rest(
    sheet: Mapping,
    state: Mapping,
    *,
    ends_at: int,
    minutes: int = LONG_REST_MINUTES,
    sleep_minutes: int = LONG_REST_SLEEP_MINUTES,
    strenuous_minutes: int = 0,
    hp_at_start: int | None = None,
) -> tuple[dict, LongRest]:
    """A long rest (§6.2 Descans llarg), every line of the section:

    - «Unes 8 hores: dormir-ne almenys 6» — ``minutes`` at least 8 h and ``sleep_minutes`` at
      least 6 h (else refused, field ``minutes``);
    - «Només un cada 24 hores, i has de tenir almenys 1 PC en començar» — refused when it would
      end less than 24 h after the last (``ends_at``, field ``ends_at``) or the character
      starts at 0 PC (``hp_at_start``, default the state's; field ``state.hp_lost``);
    - «Si et poses a lluitar, caminar o llançar encanteris una hora o més, cal tornar a
      començar» — ``strenuous_minutes`` ≥ 60: not completed, nothing gained;
    - «Recuperes tots els PC.», the hit dice (``hit_dice_regained``), «Recuperes els espais
      d'encanteri.» (slots_spent emptied);
    - «En acabar un descans llarg baixes un nivell, si has menjat i begut.» (§1.4 Esgotament,
      from ``ate_and_drank``, which is then cleared for the next day);
    - temporary PC: «Se'n van en acabar un descans llarg» (§5.6).

    Returns (the new state, the outcome); ``last_long_rest`` becomes ``str(ends_at)``."""
    if state.get("dead"):
        raise XuletaError(DEAD, "state.dead")
    ends_at = _minutes(ends_at, "ends_at")
    minutes = _minutes(minutes, "minutes")
    sleep_minutes = _minutes(sleep_minutes, "sleep_minutes")
    strenuous_minutes = _minutes(strenuous_minutes, "strenuous_minutes")
    if minutes < LONG_REST_MINUTES or sleep_minutes < LONG_REST_SLEEP_MINUTES:
        raise XuletaError(TOO_SHORT.format(hours=f"{minutes / 60:g} h"), "minutes")
    allowed = next_long_rest_at(state)
    if allowed is not None and ends_at < allowed:
        raise XuletaError(TOO_SOON.format(last=state["last_long_rest"], next=allowed), "ends_at")
    start_hp = current_hp(sheet, state) if hp_at_start is None else hp_at_start
    if start_hp < LONG_REST_MIN_HP:
        raise XuletaError(NEEDS_HP, "state.hp_lost")
    if strenuous_minutes >= LONG_REST_INTERRUPTION_MINUTES:
        why = (
            f"{strenuous_minutes} min de luta, caminhada ou magia: «cal tornar a començar» — "
            "o descanso longo não conta."
        )
        return copy.deepcopy(dict(state)), LongRest(completed=False, why=why, lines=(why,))
    after = copy.deepcopy(dict(state))
    before_hp = current_hp(sheet, state)
    after["hp_lost"] = 0
    spent = int(after.get("hit_dice_spent", 0))
    back = hit_dice_regained(int(sheet["hit_dice"]), spent) if spent else 0
    after["hit_dice_spent"] = spent - back
    slots = sum(int(n) for n in (after.get("slots_spent") or {}).values())
    after["slots_spent"] = {}
    before = exhaustion_level(int(after.get("exhaustion", 0)))
    ate = bool(after.get("ate_and_drank"))
    level = max(0, before - 1) if ate else before
    after["exhaustion"] = level
    after["ate_and_drank"] = False
    temp = int(after.get("temp_hp", 0))
    after["temp_hp"] = 0
    after["last_long_rest"] = str(ends_at)
    healed = current_hp(sheet, after) - before_hp
    lines = [
        f"Recupera todos os PC (+{healed}).",
        f"Recupera {back} dado(s) de vida (até a metade do total, {sheet['hit_dice']}, "
        "ao menos 1).",
        f"Recupera os espaços de magia ({slots} gasto(s)).",
    ]
    if before:
        lines.append(
            f"Esgotamento {before} → {level}"
            + (" (comeu e bebeu)." if ate else ": não baixa, não comeu e bebeu.")
        )
    if temp:
        lines.append(f"Os {temp} PC temporários se vão.")
    return after, LongRest(
        completed=True,
        healed=healed,
        hit_dice_regained=back,
        slots_regained=slots,
        exhaustion=(before, level),
        temp_hp_lost=temp,
        lines=tuple(lines),
    )


READINGS = (
    Reading(
        "short_rest_hit_die_minimum",
        "6.1",
        "Descans curt: um dado de vida + mod. de Constitució negativo pode dar menos de 0? A "
        "Xuleta não diz o mínimo.",
        "O total nunca é menor que 0: um dado de vida nunca tira PC (gasta-se o dado mesmo assim).",
    ),
    Reading(
        "long_rest_half_rounding",
        "6.2",
        "«fins a la meitat del teu total (almenys 1)»: com um total ímpar, a metade arredonda para "
        "baixo ou para cima?",
        "Para baixo (5 dados → 2), e ao menos 1.",
    ),
    Reading(
        "long_rest_24h_from_end",
        "6.2",
        "«Només un cada 24 hores»: as 24 horas contam de quando o anterior começou ou acabou?",
        "Do fim ao fim: um descanso longo só pode acabar 24 h ou mais depois do fim do último.",
    ),
    Reading(
        "exhaustion_caps_current_hp",
        "1.16",
        "Esgotamento 4 («Punts de cop màxims a la meitat»): quem tem mais PC que o novo máximo "
        "perde os de cima? E a cura passa do novo máximo?",
        "Os PC atuais nunca ficam acima do máximo de agora (a metade): a cura e o descanso "
        "param nele; o que se perdeu conta do máximo da ficha.",
    ),
)
