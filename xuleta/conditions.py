"""The conditions («Estats») and the exhaustion levels («Nivells d'esgotament»), and what they
do to a roll, to speed, to actions and to a hit (Xuleta, «Estats»).

«Els estats canvien el que pot fer una criatura. Duren fins que alguna cosa els treu o s'acaba
l'efecte que els ha causat. Si en tens dos d'iguals, compten com un de sol.» Conditions are
passed as an iterable of keys (``CONDITIONS``); a key given twice counts once. Exhaustion is a
level 0–6, «s'acumula: a cada nivell pateixes el seu efecte i els de tots els anteriors».
Every function is pure and says, beside its answer, the text's reasons (``EdgeReading``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from types import MappingProxyType

from xuleta.abilities import DEX, STR
from xuleta.errors import XuletaError
from xuleta.readings import Reading
from xuleta.rolls import CHECK, SAVE, edge_of, roll_kind


@dataclass(frozen=True)
class Condition:
    """One condition: its key, the text's name and summary line, and its effects as printed."""

    key: str
    label: str
    summary: str
    effects: tuple[str, ...]


BLINDED, CHARMED, DEAFENED, EXHAUSTION = "blinded", "charmed", "deafened", "exhaustion"
FRIGHTENED, GRAPPLED, INCAPACITATED, INVISIBLE = (
    "frightened",
    "grappled",
    "incapacitated",
    "invisible",
)
PARALYZED, PETRIFIED, POISONED, PRONE = "paralyzed", "petrified", "poisoned", "prone"
RESTRAINED, STUNNED, UNCONSCIOUS = "restrained", "stunned", "unconscious"

# The fifteen «Estats», in the text's order (exhaustion among them; its level is kept apart).
CONDITIONS = MappingProxyType(
    {
        c.key: c
        for c in (
            Condition(
                BLINDED,
                "Encegat",
                "No hi veus gens.",
                (
                    "Falles sense tirar qualsevol prova que depengui de la vista.",
                    "Els atacs contra tu tenen avantatge.",
                    "Els teus atacs tenen desavantatge.",
                ),
            ),
            Condition(
                CHARMED,
                "Encantat",
                "Algú t'ha encisat i no pots anar contra aquesta persona.",
                (
                    "No pots atacar qui t'ha encantat ni apuntar-li amb habilitats o màgia que facin mal.",
                    "Qui t'ha encantat té avantatge en les proves per tractar amb tu (convèncer-te, enganyar-te…).",
                ),
            ),
            Condition(
                DEAFENED,
                "Ensordit",
                "No hi sents gens.",
                ("Falles sense tirar qualsevol prova que depengui de l'oïda.",),
            ),
            Condition(
                EXHAUSTION,
                "Esgotament",
                "Va per nivells, de l'1 al 6, i s'acumula: a cada nivell pateixes el seu efecte i els de tots els anteriors.",
                (
                    "Si alguna cosa et dona esgotament, puges un nivell (o els que digui).",
                    "En acabar un descans llarg baixes un nivell, si has menjat i begut.",
                ),
            ),
            Condition(
                FRIGHTENED,
                "Espantat",
                "Alguna cosa et fa por i no t'hi vols acostar.",
                (
                    "Desavantatge en proves de característica i tirades d'atac mentre vegis el que t'espanta.",
                    "No t'hi pots acostar per voluntat pròpia.",
                ),
            ),
            Condition(
                GRAPPLED,
                "Agafat",
                "Algú et té subjectat i no et mous d'allà.",
                (
                    "La teva velocitat és 0 i res no la pot pujar.",
                    "S'acaba si qui t'agafa queda incapacitat.",
                    "S'acaba si alguna cosa t'allunya del seu abast (una empenta màgica, per exemple).",
                    "Per deslliurar-te, fes servir la teva acció: Atletisme o Acrobàcies contra el seu Atletisme.",
                ),
            ),
            Condition(
                INCAPACITATED,
                "Incapacitat",
                "No pots fer accions ni reaccions.",
                ("Sí que et pots moure, si cap altre estat no ho impedeix.",),
            ),
            Condition(
                INVISIBLE,
                "Invisible",
                "Ningú no et veu sense màgia o un sentit especial.",
                (
                    "Per amagar-te, comptes com si fossis en una zona molt fosca.",
                    "Et poden localitzar pel soroll que fas o les petjades que deixes.",
                    "Els atacs contra tu tenen desavantatge.",
                    "Els teus atacs tenen avantatge.",
                ),
            ),
            Condition(
                PARALYZED,
                "Paralitzat",
                "No et pots moure ni parlar.",
                (
                    "Estàs incapacitat.",
                    "Falles sense tirar les salvacions de Força i Destresa.",
                    "Els atacs contra tu tenen avantatge.",
                    "Si et toquen des d'1,5 m o menys, el cop és crític.",
                ),
            ),
            Condition(
                PETRIFIED,
                "Petrificat",
                "T'has convertit en pedra (o en una altra matèria sòlida) amb tot el que portes posat.",
                (
                    "Peses deu vegades més i no envelleixes.",
                    "Estàs incapacitat, no et mous, no parles i no t'assabentes de res.",
                    "Falles sense tirar les salvacions de Força i Destresa.",
                    "Els atacs contra tu tenen avantatge.",
                    "Tens resistència a tot el dany.",
                    "Ets immune a verins i malalties; els que ja tenies queden en pausa.",
                ),
            ),
            Condition(
                POISONED,
                "Enverinat",
                "Et trobes fatal.",
                ("Desavantatge en tirades d'atac i proves de característica.",),
            ),
            Condition(
                PRONE,
                "Tombat",
                "Ets a terra.",
                (
                    "Només pots arrossegar-te, tret que t'aixequis.",
                    "Aixecar-te costa la meitat de la teva velocitat.",
                    "Els teus atacs tenen desavantatge.",
                    "Qui t'ataca des d'1,5 m o menys té avantatge; des de més lluny, desavantatge.",
                ),
            ),
            Condition(
                RESTRAINED,
                "Immobilitzat",
                "Estàs lligat, embolicat o atrapat.",
                (
                    "La teva velocitat és 0 i res no la pot pujar.",
                    "Els atacs contra tu tenen avantatge.",
                    "Els teus atacs tenen desavantatge.",
                    "Desavantatge en les salvacions de Destresa.",
                ),
            ),
            Condition(
                STUNNED,
                "Atordit",
                "Estàs groguí: no et mous i amb prou feines pots parlar.",
                (
                    "Estàs incapacitat.",
                    "Falles sense tirar les salvacions de Força i Destresa.",
                    "Els atacs contra tu tenen avantatge.",
                ),
            ),
            Condition(
                UNCONSCIOUS,
                "Inconscient",
                "Estàs fora de combat i no t'assabentes de res.",
                (
                    "Estàs incapacitat i no et pots moure ni parlar.",
                    "Deixes anar el que tens a les mans i caus tombat.",
                    "Falles sense tirar les salvacions de Força i Destresa.",
                    "Els atacs contra tu tenen avantatge.",
                    "Si et toquen des d'1,5 m o menys, el cop és crític.",
                ),
            ),
        )
    }
)

# «Nivells d'esgotament»: level → effect, as printed.
EXHAUSTION_LEVELS = MappingProxyType(
    {
        1: "Desavantatge en proves de característica",
        2: "Velocitat a la meitat",
        3: "Desavantatge en tirades d'atac i salvacions",
        4: "Punts de cop màxims a la meitat",
        5: "Velocitat 0",
        6: "Mort",
    }
)
MAX_EXHAUSTION = 6

# What each condition does, read off its lines above.
_INCAPACITATING = frozenset({INCAPACITATED, PARALYZED, PETRIFIED, STUNNED, UNCONSCIOUS})
_ATTACKED_WITH_ADVANTAGE = frozenset(
    {BLINDED, PARALYZED, PETRIFIED, RESTRAINED, STUNNED, UNCONSCIOUS}
)
_OWN_ATTACKS_DISADVANTAGE = frozenset({BLINDED, POISONED, PRONE, RESTRAINED})
_CHECKS_DISADVANTAGE = frozenset({POISONED})
_FAIL_STR_DEX_SAVES = frozenset({PARALYZED, PETRIFIED, STUNNED, UNCONSCIOUS})
_SPEED_ZERO = frozenset({GRAPPLED, RESTRAINED, PARALYZED, PETRIFIED, STUNNED, UNCONSCIOUS})
_CRITICAL_WITHIN_1_5_M = frozenset({PARALYZED, UNCONSCIOUS})

BAD_CONDITION = "Estado desconhecido: «{key}». Os da Xuleta: {known}."
BAD_EXHAUSTION = "O esgotamento vai de 0 a 6 níveis; veio {level}."
SENSES = ("sight", "hearing")


def condition_keys(keys: Iterable[str]) -> frozenset[str]:
    """The set of ``keys`` (each one of ``CONDITIONS``; a label in any case gives its key);
    «Si en tens dos d'iguals, compten com un de sol.» Raises ``XuletaError`` (field
    ``conditions``) naming the fifteen for an unknown one."""
    found = set()
    for key in keys:
        text = (key or "").strip()
        if text not in CONDITIONS:
            by_label = {c.label.casefold(): c.key for c in CONDITIONS.values()}
            if text.casefold() not in by_label:
                known = ", ".join(f"{c.key} ({c.label})" for c in CONDITIONS.values())
                raise XuletaError(BAD_CONDITION.format(key=text, known=known), "conditions")
            text = by_label[text.casefold()]
        found.add(text)
    return frozenset(found)


def exhaustion_level(level: int) -> int:
    """``level`` if it is 0–6; raises ``XuletaError`` (field ``exhaustion``) otherwise."""
    if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= MAX_EXHAUSTION:
        raise XuletaError(BAD_EXHAUSTION.format(level=level), "exhaustion")
    return level


def implied(keys: Iterable[str]) -> frozenset[str]:
    """The conditions ``keys`` put on a creature with those they include: «Estàs incapacitat»
    (Paralitzat, Petrificat, Atordit, Inconscient) and the Inconscient's «caus tombat»."""
    found = set(condition_keys(keys))
    if found & (_INCAPACITATING - {INCAPACITATED}):
        found.add(INCAPACITATED)
    if UNCONSCIOUS in found:
        found.add(PRONE)
    return frozenset(found)


@dataclass(frozen=True)
class EdgeReading:
    """The edge a roll has (``edge``: one of ``xuleta.rolls.EDGES``), whether it fails without a
    roll (``auto_fail``), and why: the text's lines that gave each advantage, disadvantage and
    the failure, in the order met."""

    edge: str
    auto_fail: bool = False
    advantages: tuple[str, ...] = ()
    disadvantages: tuple[str, ...] = ()
    failures: tuple[str, ...] = ()
    reasons: tuple[str, ...] = field(default=())


def _label(key: str) -> str:
    return CONDITIONS[key].label


def roll_edge(
    kind: str,
    *,
    ability: str = "",
    conditions: Iterable[str] = (),
    exhaustion: int = 0,
    target_conditions: Iterable[str] = (),
    within_1_5_m: bool | None = None,
    senses: Iterable[str] = (),
    sees_fear_source: bool = True,
    advantages: Iterable[str] = (),
    disadvantages: Iterable[str] = (),
) -> EdgeReading:
    """The edge of a roll of ``kind`` (check, save, attack) made by a creature with
    ``conditions`` and ``exhaustion``, from every condition's line and the exhaustion table.

    ``ability``: the check's or save's ability key (a save of Força or Destresa fails without a
    roll when paralysed, petrified, stunned or unconscious; Immobilitzat gives disadvantage on
    Destresa saves). ``target_conditions`` and ``within_1_5_m``: an attack's target and distance
    (Tombat: advantage from 1,5 m or less, disadvantage from farther; None when not said, which
    leaves Tombat's line out and says so). ``senses``: ``"sight"``/``"hearing"`` a check depends
    on (Encegat, Ensordit: «Falles sense tirar»). ``sees_fear_source``: Espantat holds «mentre
    vegis el que t'espanta». ``advantages``/``disadvantages``: other sources the caller knows
    (Esquivar, cover, Ajudar …), each a short text. Raises ``XuletaError`` for an unknown kind,
    condition or an exhaustion outside 0–6.

    Advantage and disadvantage never stack and cancel each other (``xuleta.rolls.edge_of``)."""
    roll_kind(kind)
    mine = implied(conditions)
    theirs = implied(target_conditions)
    level = exhaustion_level(exhaustion)
    adv: list[str] = list(advantages)
    dis: list[str] = list(disadvantages)
    fail: list[str] = []

    if kind == CHECK:
        if BLINDED in mine and "sight" in senses:
            fail.append("Encegat: falles sense tirar qualsevol prova que depengui de la vista")
        if DEAFENED in mine and "hearing" in senses:
            fail.append("Ensordit: falles sense tirar qualsevol prova que depengui de l'oïda")
        if FRIGHTENED in mine and sees_fear_source:
            dis.append("Espantat: desavantatge en proves de característica")
        for key in sorted(mine & _CHECKS_DISADVANTAGE):
            dis.append(f"{_label(key)}: desavantatge en proves de característica")
        if level >= 1:
            dis.append("Esgotament 1: desavantatge en proves de característica")
    elif kind == SAVE:
        if ability in (STR, DEX):
            for key in sorted(mine & _FAIL_STR_DEX_SAVES):
                fail.append(f"{_label(key)}: falles sense tirar les salvacions de Força i Destresa")
        if ability == DEX and RESTRAINED in mine:
            dis.append("Immobilitzat: desavantatge en les salvacions de Destresa")
        if level >= 3:
            dis.append("Esgotament 3: desavantatge en salvacions")
    else:
        if FRIGHTENED in mine and sees_fear_source:
            dis.append("Espantat: desavantatge en tirades d'atac")
        for key in sorted(mine & _OWN_ATTACKS_DISADVANTAGE):
            dis.append(f"{_label(key)}: els teus atacs tenen desavantatge")
        if INVISIBLE in mine:
            adv.append("Invisible: els teus atacs tenen avantatge")
        if level >= 3:
            dis.append("Esgotament 3: desavantatge en tirades d'atac")
        for key in sorted(theirs & _ATTACKED_WITH_ADVANTAGE):
            adv.append(f"objectiu {_label(key)}: els atacs contra ell tenen avantatge")
        if INVISIBLE in theirs:
            dis.append("objectiu Invisible: els atacs contra ell tenen desavantatge")
        if PRONE in theirs and within_1_5_m is not None:
            if within_1_5_m:
                adv.append("objectiu Tombat, des d'1,5 m o menys: avantatge")
            else:
                dis.append("objectiu Tombat, des de més lluny: desavantatge")

    edge = edge_of(len(adv), len(dis))
    reasons = tuple(fail) + tuple(adv) + tuple(dis)
    return EdgeReading(edge, bool(fail), tuple(adv), tuple(dis), tuple(fail), reasons)


def speed(base_m: float, conditions: Iterable[str] = (), exhaustion: int = 0) -> float:
    """The speed in metres a creature of ``base_m`` metres has under ``conditions`` and
    ``exhaustion``: 0 when Agafat or Immobilitzat («La teva velocitat és 0 i res no la pot
    pujar»), Paralitzat, Petrificat, Atordit or Inconscient (they do not move), or at exhaustion
    5 («Velocitat 0»); halved at exhaustion 2 («Velocitat a la meitat»). Raises for a negative
    base."""
    if base_m < 0:
        raise XuletaError("A velocidade não pode ser negativa.", "speed")
    mine = implied(conditions)
    level = exhaustion_level(exhaustion)
    if mine & _SPEED_ZERO or level >= 5:
        return 0
    return base_m / 2 if level >= 2 else base_m


def incapacitated(conditions: Iterable[str]) -> bool:
    """Whether the creature can take no actions or reactions («Incapacitat: No pots fer accions
    ni reaccions»; Paralitzat, Petrificat, Atordit and Inconscient include it)."""
    return INCAPACITATED in implied(conditions)


def hit_is_critical(target_conditions: Iterable[str], within_1_5_m: bool) -> bool:
    """Whether a hit on a target with ``target_conditions`` from ``within_1_5_m`` is a critical
    hit: «Si et toquen des d'1,5 m o menys, el cop és crític» (Paralitzat, Inconscient)."""
    return bool(within_1_5_m and implied(target_conditions) & _CRITICAL_WITHIN_1_5_M)


def resists_all_damage(conditions: Iterable[str]) -> bool:
    """Petrificat: «Tens resistència a tot el dany.»"""
    return PETRIFIED in implied(conditions)


def max_hp(base_max: int, exhaustion: int = 0) -> int:
    """The maximum hit points under ``exhaustion``: halved from level 4 («Punts de cop màxims a
    la meitat»), rounded down (the text does not say; the 5e rule's rounding, a stated reading
    the pages show)."""
    level = exhaustion_level(exhaustion)
    return base_max // 2 if level >= 4 else base_max


def dead_from_exhaustion(exhaustion: int) -> bool:
    """Exhaustion 6: «Mort»."""
    return exhaustion_level(exhaustion) >= MAX_EXHAUSTION


def exhaustion_effects(exhaustion: int) -> tuple[str, ...]:
    """The effects in force at ``exhaustion``, the level's own and every level's below it
    («a cada nivell pateixes el seu efecte i els de tots els anteriors»)."""
    level = exhaustion_level(exhaustion)
    return tuple(EXHAUSTION_LEVELS[n] for n in range(1, level + 1))


def exhaustion_after(current: int, gained: int = 1) -> int:
    """«Si alguna cosa et dona esgotament, puges un nivell (o els que digui).» Capped at 6."""
    return min(MAX_EXHAUSTION, exhaustion_level(current) + max(0, gained))


READINGS = (
    Reading(
        "exhaustion_max_hp_rounding",
        "1.16",
        "Esgotamento 4 («Punts de cop màxims a la meitat»): a metade arredonda para baixo ou "
        "para cima? A Xuleta não diz.",
        "Para baixo (máximo 13 → 6).",
    ),
    Reading(
        "prone_attack_distance_unsaid",
        "1.12",
        "Tombat dá vantagem a quem ataca de 1,5 m ou menos e desvantagem de mais longe: quando o "
        "Mestre não diz a distância, qual vale?",
        "Nenhuma das duas: o site pede a distância (corpo a corpo = 1,5 m ou menos) e, sem ela, "
        "não aplica a linha do Tombat e o diz.",
        "mestre",
    ),
)
