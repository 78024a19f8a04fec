"""The d20: advantage and disadvantage, checks, saves, attacks, contests, group and passive
checks, and their exact odds (Xuleta, «Proves i tirades»).

«Gairebé tot es resol igual: tires un d20, hi sumes modificadors i ho compares amb un número. Si
l'iguales o el superes, ho aconsegueixes.» Randomness only from ``source`` (``randint(a, b)``,
both inclusive): each d20 is one ``source.randint(1, 20)``, in order.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from dice.rolling import RandomSource
from xuleta.errors import XuletaError

# The edge a roll has: the API's keys and their labels in the text's words.
NONE, ADVANTAGE, DISADVANTAGE = "none", "advantage", "disadvantage"
EDGES: tuple[str, ...] = (NONE, ADVANTAGE, DISADVANTAGE)
EDGE_LABELS = MappingProxyType(
    {NONE: "Sense avantatge ni desavantatge", ADVANTAGE: "Avantatge", DISADVANTAGE: "Desavantatge"}
)

# The kinds of d20 roll: only an attack knows natural 20 and natural 1.
CHECK, SAVE, ATTACK = "check", "save", "attack"
ROLL_KINDS: tuple[str, ...] = (CHECK, SAVE, ATTACK)
ROLL_KIND_LABELS = MappingProxyType(
    {CHECK: "Prova de característica", SAVE: "Tirada de salvació", ATTACK: "Tirada d'atac"}
)

D20 = 20
BAD_EDGE = "Vantagem desconhecida: «{edge}». Use uma de: {known}."
BAD_KIND = "Tipo de rolagem desconhecido: «{kind}». Use um de: {known}."
BAD_NUMBER = "«{field}» deve ser um número inteiro."


def edge_key(edge: str) -> str:
    """``edge`` if it is one of ``EDGES``; raises ``XuletaError`` (field ``edge``) otherwise."""
    if edge not in EDGES:
        raise XuletaError(BAD_EDGE.format(edge=edge, known=", ".join(EDGES)), "edge")
    return edge


def roll_kind(kind: str) -> str:
    """``kind`` if it is one of ``ROLL_KINDS``; raises ``XuletaError`` (field ``roll``)."""
    if kind not in ROLL_KINDS:
        raise XuletaError(BAD_KIND.format(kind=kind, known=", ".join(ROLL_KINDS)), "roll")
    return kind


def edge_of(advantages: int | bool, disadvantages: int | bool) -> str:
    """The edge a roll has from how many sources give advantage and disadvantage.

    «No s'acumulen: dos avantatges continuen sent un de sol. Si tens avantatge i desavantatge
    alhora, s'anul·len i tires un sol dau.» (Xuleta, «Avantatge i desavantatge»)"""
    if advantages and disadvantages:
        return NONE
    if advantages:
        return ADVANTAGE
    if disadvantages:
        return DISADVANTAGE
    return NONE


@dataclass(frozen=True)
class D20Roll:
    """The d20s rolled (two with an edge, in the order rolled) and the one ``kept``: «Amb
    avantatge tires dos d20 i et quedes el més alt. Amb desavantatge, el més baix.»"""

    faces: tuple[int, ...]
    kept: int
    edge: str


def d20(source: RandomSource, edge: str = NONE) -> D20Roll:
    """Roll the d20 with ``edge`` (one of ``EDGES``): one die, or two keeping the higher
    (advantage) or the lower (disadvantage). Raises ``XuletaError`` for an unknown edge."""
    edge_key(edge)
    if edge == NONE:
        face = source.randint(1, D20)
        return D20Roll((face,), face, edge)
    faces = (source.randint(1, D20), source.randint(1, D20))
    return D20Roll(faces, max(faces) if edge == ADVANTAGE else min(faces), edge)


def kept_distribution(edge: str = NONE) -> dict[int, Fraction]:
    """``{face: exact probability}`` of the kept d20 (1–20) under ``edge``: 1/20 each; with
    advantage P(k) = (2k − 1)/400; with disadvantage P(k) = (41 − 2k)/400."""
    edge_key(edge)
    if edge == NONE:
        return {face: Fraction(1, D20) for face in range(1, D20 + 1)}
    if edge == ADVANTAGE:
        return {face: Fraction(2 * face - 1, D20 * D20) for face in range(1, D20 + 1)}
    return {face: Fraction(2 * (D20 - face) + 1, D20 * D20) for face in range(1, D20 + 1)}


def passes(kind: str, kept: int, bonus: int, target: int) -> bool:
    """Whether a d20 that kept ``kept``, plus ``bonus``, passes ``target`` (a DC or an AC).

    «Si l'iguales o el superes, ho aconsegueixes.» On an attack only, the die alone decides at
    its ends: «Un 20 natural sempre encerta i és un cop crític. Un 1 natural sempre falla.»;
    «A les proves i salvacions, segons les regles, un 20 o un 1 no tenen res d'especial.»"""
    roll_kind(kind)
    if kind == ATTACK:
        if kept == D20:
            return True
        if kept == 1:
            return False
    return kept + bonus >= target


def success_chance(bonus: int, target: int, edge: str = NONE, kind: str = CHECK) -> Fraction:
    """The exact chance that d20 + ``bonus`` under ``edge`` passes ``target`` (a DC or, for
    ``kind="attack"``, an AC), the natural 20 and 1 counted on attacks only. A Fraction in
    [0, 1]; raises ``XuletaError`` for an unknown edge or kind."""
    roll_kind(kind)
    return sum(
        (p for face, p in kept_distribution(edge).items() if passes(kind, face, bonus, target)),
        Fraction(0),
    )


def critical_chance(edge: str = NONE) -> Fraction:
    """The exact chance of a natural 20 on the kept die (an attack's critical) under ``edge``:
    1/20, 39/400 with advantage, 1/400 with disadvantage."""
    return kept_distribution(edge)[D20]


@dataclass(frozen=True)
class D20Result:
    """A resolved d20 roll: the die, the ``bonus`` added, the ``total``, the ``target`` it was
    compared with, ``success``, and on an attack ``critical`` (natural 20) and ``fumble``
    (natural 1); both are False on a check or a save."""

    kind: str
    roll: D20Roll
    bonus: int
    total: int
    target: int
    success: bool
    critical: bool = False
    fumble: bool = False


def resolve(kind: str, roll: D20Roll, bonus: int, target: int) -> D20Result:
    """The rolled ``roll`` (a check, a save or an attack: ``kind``) with ``bonus`` against
    ``target``, by ``passes``; a natural 20 on an attack is a critical hit."""
    success = passes(kind, roll.kept, bonus, target)
    attack = kind == ATTACK
    return D20Result(
        kind=kind,
        roll=roll,
        bonus=bonus,
        total=roll.kept + bonus,
        target=target,
        success=success,
        critical=attack and roll.kept == D20,
        fumble=attack and roll.kept == 1,
    )


def roll_against(
    source: RandomSource, kind: str, bonus: int, target: int, edge: str = NONE
) -> D20Result:
    """Roll the d20 under ``edge`` and resolve it (``d20`` then ``resolve``)."""
    roll_kind(kind)
    return resolve(kind, d20(source, edge), bonus, target)


def contest(total_a: int, total_b: int) -> str | None:
    """The winner of a contest, ``"a"`` or ``"b"``, or None on a tie. «Quan dos es disputen
    una cosa (…) tiren tots dos i guanya el resultat més alt. Si empaten, tot continua com
    estava.» (Xuleta, «Proves enfrontades»)"""
    if total_a == total_b:
        return None
    return "a" if total_a > total_b else "b"


def group_succeeds(successes: int, members: int) -> bool:
    """Whether a group check passes: «tira cadascú i, si almenys la meitat ho aconsegueix, ho
    aconsegueix el grup» (Xuleta, «Proves de grup»). Raises for no members or an impossible
    count."""
    if members < 1 or not 0 <= successes <= members:
        raise XuletaError(
            "Uma prova de grupo precisa de ao menos um membro e de 0 a todos os êxitos.", "group"
        )
    return 2 * successes >= members


PASSIVE_BASE = 10
PASSIVE_EDGE = 5


def passive(bonus: int, edge: str = NONE) -> int:
    """A passive check: «No es tira: és 10 + tots els teus modificadors. Amb avantatge, suma'n
    5. Amb desavantatge, resta'n 5.» (Xuleta, «Proves passives»)"""
    edge_key(edge)
    shift = {NONE: 0, ADVANTAGE: PASSIVE_EDGE, DISADVANTAGE: -PASSIVE_EDGE}[edge]
    return PASSIVE_BASE + bonus + shift
