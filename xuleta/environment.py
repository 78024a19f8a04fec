"""The world around: falls, light, darkvision and suffocation (Xuleta, «§8 Viatge i entorn»,
§8.5–§8.8).

Pure. Heights and distances in metres (``Fraction`` or int), breath in seconds and rounds.
Dice only from ``source``. Errors: ``XuletaError`` naming the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from dice.rolling import RandomSource
from xuleta.conditions import BLINDED, PRONE
from xuleta.errors import XuletaError
from xuleta.readings import Reading

# --- falls (§8.5 Caigudes) ------------------------------------------------------------------------

FALL_METRES_PER_DIE = 3  # «1d6 de dany contundent per cada 3 m»
FALL_MAX_DICE = 20  # «fins a un màxim de 20d6»
FALL_DIE = 6
FALL_DAMAGE_TYPE = "bludgeoning"  # contundent (xuleta.damage_types)


def fall_dice(height_m: Fraction | int | float) -> int:
    """How many d6 a fall of ``height_m`` deals: one per full 3 m (reading
    ``fall_partial_metres``), at most 20."""
    height = Fraction(height_m)
    if height < 0:
        raise XuletaError("A altura da queda é em metros, 0 ou mais.", "height_m")
    return min(FALL_MAX_DICE, int(height // FALL_METRES_PER_DIE))


@dataclass(frozen=True)
class Fall:
    """A fall: the ``dice`` (count of d6), the ``faces`` rolled, the ``damage`` (their sum, of
    type ``damage_type``) and whether the creature ends ``prone`` («Acabes tombat, tret que
    evitis el dany.»)."""

    height_m: Fraction
    dice: int
    faces: tuple[int, ...]
    damage: int
    damage_type: str
    prone: bool
    condition: str = PRONE


def fall(source: RandomSource, height_m, avoided_damage: bool = False) -> Fall:
    """Roll a fall: 1d6 bludgeoning per 3 m, at most 20d6; prone unless the damage was avoided
    (``avoided_damage``: the Mestre says so, or the damage came to 0 — no dice)."""
    count = fall_dice(height_m)
    faces = tuple(source.randint(1, FALL_DIE) for _ in range(count))
    damage = sum(faces)
    avoided = avoided_damage or damage == 0
    return Fall(Fraction(height_m), count, faces, damage, FALL_DAMAGE_TYPE, prone=not avoided)


# --- light and darkvision (§8.6 Llum, §8.7 Visió a les fosques) ----------------------------------

BRIGHT, DIM, DARKNESS = "bright", "dim", "darkness"
LIGHT_LEVELS = MappingProxyType(
    {
        BRIGHT: "Llum brillant: hi veus amb normalitat.",
        DIM: (
            "Llum tènue (penombra, lluna plena, la vora d'una torxa): zona lleugerament fosca. "
            "Desavantatge en Percepció amb la vista."
        ),
        DARKNESS: "Foscor: zona molt fosca. A efectes pràctics estàs encegat.",
    }
)
LIGHT_LABELS = MappingProxyType({BRIGHT: "Llum brillant", DIM: "Llum tènue", DARKNESS: "Foscor"})
DARKVISION_USUAL_M = 18  # «Dins del seu abast (normalment 18 m)»


def light_key(key: str) -> str:
    if key not in LIGHT_LEVELS:
        known = ", ".join(f"{k} ({v})" for k, v in LIGHT_LABELS.items())
        raise XuletaError(f"Nível de luz desconhecido: «{key}». Use um de: {known}.", "light")
    return key


@dataclass(frozen=True)
class Sight:
    """What a creature sees at a spot: the ``light`` there, the light it sees as (``seen``),
    the disadvantage on Percepció by sight (dim), whether it is in practice blinded
    (darkness: the condition ``blinded``), and ``grey`` (darkvision in darkness: «no
    distingeixes colors, només tons de gris»)."""

    light: str
    seen: str
    perception_disadvantage: bool
    blinded: bool
    grey: bool
    line: str

    @property
    def condition(self) -> str:
        return BLINDED if self.blinded else ""


def sight(light: str, darkvision_m: int | float = 0, distance_m: int | float = 0) -> Sight:
    """How ``light`` at ``distance_m`` looks to a creature with darkvision of ``darkvision_m``
    (0: none): «Dins del seu abast (normalment 18 m) hi veus amb llum tènue com si fos
    brillant, i a les fosques com si fos tènue.» Beyond the range, the light as it is."""
    light = light_key(light)
    seen = light
    in_range = darkvision_m > 0 and 0 <= distance_m <= darkvision_m
    grey = False
    if in_range and light == DIM:
        seen = BRIGHT
    elif in_range and light == DARKNESS:
        seen, grey = DIM, True
    return Sight(
        light=light,
        seen=seen,
        perception_disadvantage=seen == DIM,
        blinded=seen == DARKNESS,
        grey=grey,
        line=LIGHT_LEVELS[seen],
    )


# --- suffocation (§8.8 Asfíxia) -------------------------------------------------------------------

BREATH_BASE_S = 60  # «1 minut»
BREATH_PER_CON_S = 60  # «+ 1 per cada punt del teu mod. de Constitució» (minutes)
BREATH_MIN_S = 30  # «(com a mínim 30 segons)»
ROUND_S = 6  # «El combat va per rondes d'uns 6 segons.»


def breath_seconds(con_modifier: int) -> int:
    """How long a creature holds its breath: «1 minut + 1 per cada punt del teu mod. de
    Constitució (com a mínim 30 segons)», in seconds."""
    return max(BREATH_MIN_S, BREATH_BASE_S + BREATH_PER_CON_S * int(con_modifier))


def rounds_without_air(con_modifier: int) -> int:
    """«Quan se t'acaba l'aire, aguantes tantes rondes com el teu mod. de Constitució (mínim
    1).»"""
    return max(1, int(con_modifier))


@dataclass(frozen=True)
class Suffocation:
    """Where a creature without air stands after ``seconds``: still holding its breath,
    choking (rounds left), or at 0 PC and dying («En començar el torn següent caus a 0 PC i
    t'estàs morint.»)."""

    seconds: int
    breath_s: int
    choking_rounds: int
    stage: str  # "breath", "choking", "dying"
    rounds_left: int


def suffocation(con_modifier: int, seconds: int) -> Suffocation:
    """The stage after ``seconds`` without air (rounds of 6 s once the breath is gone)."""
    if isinstance(seconds, bool) or not isinstance(seconds, int) or seconds < 0:
        raise XuletaError("«seconds» deve ser um número inteiro de segundos, 0 ou mais.", "seconds")
    breath = breath_seconds(con_modifier)
    rounds = rounds_without_air(con_modifier)
    if seconds < breath:
        return Suffocation(seconds, breath, rounds, "breath", rounds)
    past = (seconds - breath) // ROUND_S
    if past < rounds:
        return Suffocation(seconds, breath, rounds, "choking", rounds - past)
    return Suffocation(seconds, breath, rounds, "dying", 0)


def dying_state(state: dict) -> dict:
    """The state of a creature that fell to 0 PC by suffocation: all PC lost (``max_hp`` is
    the caller's: ``hp_lost`` set by him), unconscious, death saves from zero, not stable."""
    after = dict(state)
    conditions = list(after.get("conditions", []))
    if "unconscious" not in conditions:
        conditions.append("unconscious")
    after["conditions"] = conditions
    after["stable"] = False
    after["death_saves"] = {"successes": 0, "failures": 0}
    return after


READINGS = (
    Reading(
        "fall_partial_metres",
        "8.5",
        "«1d6 de dany contundent per cada 3 m»: uma queda de 10 m dá 3d6 ou 4d6? E menos de 3 m?",
        "Por 3 m inteiros: 10 m → 3d6; menos de 3 m → nenhum dado (e sem dano, sem tombar).",
    ),
    Reading(
        "darkvision_range",
        "8.7",
        "«normalment 18 m»: o alcance da visão no escuro de cada um?",
        "O da ficha (darkvision_m); 18 m quando a ficha dá visão no escuro sem dizer o alcance.",
        "mestre",
    ),
)
