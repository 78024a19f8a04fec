"""Initiative and surprise (Xuleta, «§2.1 Iniciativa», «§2.2 Sorpresa»).

«Decideix l'ordre dels torns. Es tira en començar el combat i val per a totes les rondes.»
Randomness only from ``source``: each d20 one ``randint(1, 20)``, in the order given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dice.rolling import RandomSource
from xuleta.errors import XuletaError
from xuleta.readings import Reading
from xuleta.rolls import NONE, d20

MESTRE, REROLL = "mestre", "reroll"
TIE_RULES = (MESTRE, REROLL)
MAX_REROLLS = 50


@dataclass(frozen=True)
class Entrant:
    """Who rolls: ``key``, its Destresa ``modifier`` (plus any bonus the Mestre gives), its
    ``group`` (monsters «iguals» share one; ``""`` for none) and the ``edge`` of its check
    (conditions, exhaustion: a Destresa check)."""

    key: str
    modifier: int
    group: str = ""
    edge: str = NONE


@dataclass(frozen=True)
class InitiativeRoll:
    """One roll: the ``keys`` it places (one, or a whole group), the ``faces`` rolled, the
    ``total`` and the ``tiebreak`` faces re-rolled (in order)."""

    keys: tuple[str, ...]
    group: str
    faces: tuple[int, ...]
    modifier: int
    total: int
    tiebreak: tuple[int, ...] = ()


def roll_initiative(
    entrants: Sequence[Entrant],
    source: RandomSource,
    tie_order: Sequence[str] = (),
) -> tuple[InitiativeRoll, ...]:
    """Everyone's initiative, highest first: «Cadascú tira una prova de Destresa (d20 + mod. de
    Destresa). Es va de més a menys. El DM sol tirar una sola vegada per cada grup de monstres
    iguals. Si hi ha empat, ho decideix el DM (o torneu a tirar).»

    A group rolls once, with its first member's modifier and edge. Ties: ``tie_order`` (the
    Mestre's order, keys or group names, first acts first) when it names every tied one;
    otherwise the tied re-roll a d20 among themselves until they differ (reading
    ``initiative_ties``), each re-roll's face kept in ``tiebreak``."""
    if not entrants:
        raise XuletaError("Ninguém para rolar Iniciativa.", "combatants")
    rolls: list[InitiativeRoll] = []
    seen: dict[str, int] = {}
    for entrant in entrants:
        if entrant.group and entrant.group in seen:
            index = seen[entrant.group]
            found = rolls[index]
            rolls[index] = InitiativeRoll(
                (*found.keys, entrant.key), found.group, found.faces, found.modifier, found.total
            )
            continue
        rolled = d20(source, entrant.edge)
        if entrant.group:
            seen[entrant.group] = len(rolls)
        rolls.append(
            InitiativeRoll(
                (entrant.key,),
                entrant.group,
                rolled.faces,
                entrant.modifier,
                rolled.kept + entrant.modifier,
            )
        )
    return tuple(_ordered(rolls, source, tuple(tie_order)))


def _name(roll: InitiativeRoll) -> str:
    return roll.group or roll.keys[0]


def _ordered(rolls, source, tie_order):
    by_total: dict[int, list[InitiativeRoll]] = {}
    for roll in rolls:
        by_total.setdefault(roll.total, []).append(roll)
    ordered = []
    for total in sorted(by_total, reverse=True):
        tied = by_total[total]
        if len(tied) == 1:
            ordered.extend(tied)
            continue
        names = [_name(r) for r in tied]
        if tie_order and all(n in tie_order for n in names):
            ordered.extend(sorted(tied, key=lambda r: tie_order.index(_name(r))))
            continue
        ordered.extend(_reroll(tied, source))
    return ordered


def _reroll(tied: list[InitiativeRoll], source) -> list[InitiativeRoll]:
    """«(o torneu a tirar)»: a d20 each among the tied, again among those still tied."""
    marks = {id(r): () for r in tied}
    groups = [tied]
    for _ in range(MAX_REROLLS):
        settled, pending = [], False
        result = []
        for group in groups:
            if len(group) == 1:
                result.append(group)
                continue
            faces = {id(r): source.randint(1, 20) for r in group}
            for r in group:
                marks[id(r)] = (*marks[id(r)], faces[id(r)])
            by_face: dict[int, list] = {}
            for r in group:
                by_face.setdefault(faces[id(r)], []).append(r)
            for face in sorted(by_face, reverse=True):
                result.append(by_face[face])
                pending = pending or len(by_face[face]) > 1
        groups = result
        if not pending:
            settled = [g[0] for g in groups]
            return [
                InitiativeRoll(r.keys, r.group, r.faces, r.modifier, r.total, marks[id(r)])
                for r in settled
            ]
    raise XuletaError("Empate sem fim na Iniciativa.", "combatants")  # pragma: no cover


def surprised_acts(first_turn: bool, surprised: bool) -> bool:
    """«Qui està sorprès no es mou ni actua en el seu primer torn.» (§2.2)"""
    return not (surprised and first_turn)


def surprised_reacts(first_turn_ended: bool, surprised: bool) -> bool:
    """«Tampoc no pot fer servir reaccions fins que s'acabi aquest torn.» (§2.2)"""
    return not surprised or first_turn_ended


READINGS = (
    Reading(
        "initiative_ties",
        "2.1",
        "Empate na Iniciativa: «ho decideix el DM (o torneu a tirar)» — qual vale?",
        "A ordem do Mestre quando ele a dá (tie_order, nomeando todos os empatados); sem ela, os "
        "empatados rolam de novo um d20 entre si até desempatar.",
        "mestre",
    ),
    Reading(
        "surprise_who",
        "2.2",
        "Quem fica surpreso: «El DM decideix», normalmente comparando Sigil com a Percepção "
        "passiva.",
        "O Mestre diz quem está surpreso (surprised em cada combatente).",
        "mestre",
    ),
)
