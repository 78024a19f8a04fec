"""Attacks in combat (Xuleta, «§3 Accions en combat», «§4.2 Tirada d'atac»): the attack roll
against the AC with cover and every edge, criticals, opportunity attacks, two-weapon fighting,
grappling and shoving. Randomness only from ``source``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from types import MappingProxyType

from dice.rolling import RandomSource
from xuleta.conditions import EdgeReading, hit_is_critical, roll_edge
from xuleta.errors import XuletaError
from xuleta.readings import Reading
from xuleta.rolls import ATTACK, CHECK, D20Result, contest, d20, resolve

# «Cobertura»: key → (the table's name, the bonus to AC and Destresa saves; None: «No et poden
# apuntar directament»).
NO_COVER, HALF, THREE_QUARTERS, TOTAL = "none", "half", "three_quarters", "total"
COVER = MappingProxyType(
    {
        NO_COVER: ("Sense cobertura", 0),
        HALF: ("Mitja", 2),
        THREE_QUARTERS: ("Tres quarts", 5),
        TOTAL: ("Total", None),
    }
)
COVER_LABELS = MappingProxyType({key: value[0] for key, value in COVER.items()})
TOTAL_COVER = "Cobertura total: «No et poden apuntar directament»."

# The sizes «una mida més gran», «dues mides»: the text counts sizes without listing them.
SIZES = ("tiny", "small", "medium", "large", "huge", "gargantuan")
SIZE_LABELS = MappingProxyType(
    {
        "tiny": "Diminuta",
        "small": "Petita",
        "medium": "Mitjana",
        "large": "Gran",
        "huge": "Enorme",
        "gargantuan": "Gegantina",
    }
)


def best_cover(covers: Iterable[str]) -> str:
    """«Si n'hi ha diverses, només compta la que protegeix més.»"""
    found = NO_COVER
    rank = tuple(COVER)
    for key in covers:
        if key not in COVER:
            known = ", ".join(COVER)
            raise XuletaError(f"Cobertura desconhecida «{key}»: use {known}.", "cover")
        if rank.index(key) > rank.index(found):
            found = key
    return found


def cover_bonus(cover: str) -> int:
    """+2 (Mitja) or +5 (Tres quarts) to AC and Destresa saves; Total refuses the attack."""
    bonus = COVER[best_cover([cover])][1]
    if bonus is None:
        raise XuletaError(TOTAL_COVER, "cover")
    return bonus


def attack_edge(
    attacker_conditions=(),
    target_conditions=(),
    exhaustion: int = 0,
    within_1_5_m: bool | None = None,
    ranged: bool = False,
    enemy_within_1_5_m: bool = False,
    target_dodging: bool = False,
    attacker_hidden: bool = False,
    helped: bool = False,
    sees_fear_source: bool = True,
    advantages: Iterable[str] = (),
    disadvantages: Iterable[str] = (),
) -> EdgeReading:
    """Every edge on an attack roll: the conditions' (``xuleta.conditions.roll_edge``), «Si
    ataques a distància amb un enemic a 1,5 m de tu, tens desavantatge», Esquivar's «Els atacs
    contra tu tenen desavantatge si veus qui t'ataca», Amagar-se's «Si t'amagues i ataques, tens
    avantatge», Ajudar's «el següent atac del teu aliat contra ell té avantatge»; never stacking,
    cancelling (``xuleta.rolls.edge_of``)."""
    adv = list(advantages)
    dis = list(disadvantages)
    if ranged and enemy_within_1_5_m:
        dis.append("atac a distància amb un enemic a 1,5 m: desavantatge")
    if target_dodging:
        dis.append("objectiu Esquivant: els atacs contra ell tenen desavantatge")
    if attacker_hidden:
        adv.append("amagat: si t'amagues i ataques, tens avantatge")
    if helped:
        adv.append("Ajudar: el següent atac de l'aliat té avantatge")
    return roll_edge(
        ATTACK,
        conditions=attacker_conditions,
        exhaustion=exhaustion,
        target_conditions=target_conditions,
        within_1_5_m=within_1_5_m,
        sees_fear_source=sees_fear_source,
        advantages=adv,
        disadvantages=dis,
    )


@dataclass(frozen=True)
class AttackResult:
    """An attack: the d20 ``result`` against ``ac`` (with cover), ``hit`` and ``critical`` (a
    natural 20, or a hit from 1,5 m on Paralitzat/Inconscient)."""

    result: D20Result
    ac: int
    hit: bool
    critical: bool
    why_critical: str


def roll_attack(
    source: RandomSource,
    bonus: int,
    ac: int,
    edge: str = "none",
    cover: str = NO_COVER,
    target_conditions=(),
    within_1_5_m: bool = False,
) -> AttackResult:
    """«d20 + modificador + bonificació per competència (…), contra la classe d'armadura (CA) de
    l'objectiu.» «Un 20 natural sempre encerta i és un cop crític. Un 1 natural sempre falla.»
    Cover adds to the AC; Paralitzat and Inconscient: «Si et toquen des d'1,5 m o menys, el cop
    és crític.»"""
    target = ac + cover_bonus(cover)
    result = resolve(ATTACK, d20(source, edge), bonus, target)
    why = ""
    if result.success and result.critical:
        why = "20 natural"
    elif result.success and hit_is_critical(target_conditions, within_1_5_m):
        why = "tocat des d'1,5 m o menys (Paralitzat/Inconscient)"
    return AttackResult(result, target, result.success, bool(why), why)


def damage_modifier(ability_modifier: int, offhand: bool = False) -> int:
    """The modifier a hit adds: «hi sumes el mateix modificador que has fet servir per atacar»;
    the off-hand attack: «Al dany del segon atac no hi sumes el modificador de característica
    (tret que sigui negatiu).»"""
    if offhand:
        return min(0, ability_modifier)
    return ability_modifier


def two_weapon_allowed(main_light: bool, main_ranged: bool, off_light: bool) -> str:
    """Why two-weapon fighting is refused, or ``""``: «Si ataques amb una arma lleugera cos a cos
    en una mà, pots atacar amb una altra arma lleugera a l'altra mà com a acció addicional.»"""
    if main_ranged or not main_light:
        return "o primeiro ataque deve ser com arma leve corpo a corpo (light)"
    if not off_light:
        return "a segunda arma deve ser leve (light)"
    return ""


def provokes_opportunity(
    leaves_reach: bool,
    disengaged: bool = False,
    teleported: bool = False,
    moved_by_other: bool = False,
    sees_it: bool = True,
) -> bool:
    """«Si un enemic que veus surt del teu abast, pots fer servir la reacció per fer-li un atac
    cos a cos.» «No passa si es desenganxa, es teletransporta o el mou una altra cosa.»"""
    return leaves_reach and sees_it and not (disengaged or teleported or moved_by_other)


def size_allows(attacker: str, target: str) -> bool:
    """Agafar and Empènyer: «Com a molt, una mida més gran que tu.»"""
    for value, field in ((attacker, "size"), (target, "size")):
        if value not in SIZES:
            raise XuletaError(f"Tamanho desconhecido «{value}»: use {', '.join(SIZES)}.", field)
    return SIZES.index(target) - SIZES.index(attacker) <= 1


def drag_speed(speed_m: float, attacker: str, target: str) -> float:
    """«La pots arrossegar, però la teva velocitat baixa a la meitat (tret que sigui dues mides
    més petita).»"""
    if SIZES.index(attacker) - SIZES.index(target) >= 2:
        return speed_m
    return speed_m / 2


@dataclass(frozen=True)
class Contest:
    """A contest: each side's d20 ``result`` (a check) and the ``winner`` (``"attacker"``,
    ``"defender"`` or None: «Si empaten, tot continua com estava.»)."""

    attacker: D20Result
    defender: D20Result
    winner: str | None


def roll_contest(
    source: RandomSource,
    attacker_bonus: int,
    defender_bonus: int,
    attacker_edge: str = "none",
    defender_edge: str = "none",
) -> Contest:
    """Agafar/Empènyer: «La teva Força (Atletisme) contra la seva Força (Atletisme) o Destresa
    (Acrobàcies), la que triï.» «guanya el resultat més alt. Si empaten, tot continua com
    estava.» The attacker rolls first."""
    a = resolve(CHECK, d20(source, attacker_edge), attacker_bonus, 0)
    b = resolve(CHECK, d20(source, defender_edge), defender_bonus, 0)
    found = contest(a.total, b.total)
    winner = {"a": "attacker", "b": "defender", None: None}[found]
    return Contest(a, b, winner)


SHOVE_PRONE, SHOVE_PUSH = "prone", "push"
SHOVE_RESULTS = MappingProxyType({SHOVE_PRONE: "cau tombat", SHOVE_PUSH: "l'allunyes 1,5 m"})


READINGS = (
    Reading(
        "sizes_unlisted",
        "3.11",
        "Agafar e Empènyer contam tamanhos («una mida més gran») sem os listar.",
        "Os seis tamanhos do 5e: diminuta, petita, mitjana, gran, enorme, gegantina.",
    ),
    Reading(
        "contest_defender_choice",
        "3.11",
        "Agafar: o alvo resiste com Atletisme ou Acrobàcies, «la que triï» — quando o Mestre não "
        "diz?",
        "O maior dos dois bônus do alvo; a escolha é um campo (resist_with).",
        "mestre",
    ),
)
