"""Initiative: the order of the turns, its ties, and late entries.

Chapter «4. Combate», «Iniciativa»: «Iniciativa = Dado de Mobilidade + Mobilidade +
Modificadores». «Ordem da Rodada: Após todos rolarem a iniciativa, organize em ordem
decrescente quem começa primeiro, do maior resultado ao menor.» «Empates de Iniciativa: 1. Age
primeiro quem tiver maior Mobilidade. 2. Se ainda houver empate, os envolvidos rolam novamente
entre si.» «Entrada Tardia»: «Rola Iniciativa normalmente, mas só passa a agir a partir da
rodada seguinte.»

Reading ``initiative_tie_reroll``: the tied re-roll their Dado de Mobilidade only to break the
tie (their Iniciativa stays), again while still tied; the faces go to ``tiebreak``. A late
entrant tied with fighters already in the order (same total and Mobilidade) rolls off against
each of them, down the order, and takes the place of the first it beats: the order of those
already in it never changes («a rodada passa a funcionar sempre na mesma sequência até o fim
do combate»).

Dice, in order: one Dado de Mobilidade per fighter in the order given, then the tie-breaks,
group by group from the top of the order, fighter by fighter in the order given.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from dice.rolling import RandomSource
from sistema001.errors import Sistema001Error
from sistema001.fighters import Fighter
from sistema001.rolls import DieRoll, check_modifier, roll_die

# A scripted source repeating a tie would loop forever: a tie still standing after this many
# re-rolls is refused.
MAX_TIE_ROLLS = 50

NO_FIGHTERS = "Ninguém para rolar Iniciativa."
DUPLICATE_FIGHTER = "O combatente «{key}» aparece duas vezes."
UNKNOWN_FIGHTER = "Modificador de Iniciativa para quem não está no combate: «{key}»."
ENDLESS_TIE = "O empate de Iniciativa não se desfez depois de {n} rolagens."
ALREADY_IN_ORDER = "«{key}» já está na ordem de Iniciativa."
BAD_ROUND = "A rodada deve ser um número inteiro de 1 ou mais."
TIE_NEEDS_OTHERS = (
    "Empate de Iniciativa com «{key}»: informe o Dado de Mobilidade dos que já estão no combate."
)


@dataclass(frozen=True)
class InitiativeRoll:
    """One fighter's Iniciativa: ``die`` (the Dado de Mobilidade) + ``mobilidade`` +
    ``modifiers`` = ``total``; ``tiebreak``: the faces re-rolled to break ties, in order (``()``
    when it was not tied after Mobilidade)."""

    fighter: str
    die: DieRoll
    mobilidade: int
    modifiers: int
    total: int
    tiebreak: tuple[int, ...] = ()

    @property
    def text(self) -> str:
        """«d12: 7 + Mobilidade 5 + 1 = 13 (desempate: 4, 6)»."""
        mod = (
            f" {self.modifiers:+d}".replace("+", "+ ").replace("-", "− ") if self.modifiers else ""
        )
        tie = f" (desempate: {', '.join(map(str, self.tiebreak))})" if self.tiebreak else ""
        return f"{self.die.text} + Mobilidade {self.mobilidade}{mod} = {self.total}{tie}"


def _key(roll: InitiativeRoll) -> tuple[int, int]:
    return (roll.total, roll.mobilidade)


def roll_initiative(fighter: Fighter, source: RandomSource, modifiers: int = 0) -> InitiativeRoll:
    """One fighter's Iniciativa: «Dado de Mobilidade + Mobilidade + Modificadores»."""
    modifiers = check_modifier(modifiers, f"modifiers.{fighter.key}")
    die = roll_die(fighter.die("mobilidade"), source)
    mobilidade = fighter.attribute("mobilidade")
    return InitiativeRoll(
        fighter.key, die, mobilidade, modifiers, die.face + mobilidade + modifiers
    )


def _break_ties(
    group: list[InitiativeRoll], faces: Mapping[str, int], source: RandomSource, depth: int = 0
) -> list[InitiativeRoll]:
    """The tied ``group`` ordered by re-rolls among themselves only, recursively."""
    if len(group) == 1:
        return group
    if depth >= MAX_TIE_ROLLS:
        raise Sistema001Error(ENDLESS_TIE.format(n=MAX_TIE_ROLLS), "initiative")
    rolled = [(roll, source.randint(1, faces[roll.fighter])) for roll in group]
    rolled = [(replace(roll, tiebreak=(*roll.tiebreak, face)), face) for roll, face in rolled]
    ordered: list[InitiativeRoll] = []
    for face in sorted({face for _, face in rolled}, reverse=True):
        subgroup = [roll for roll, f in rolled if f == face]
        ordered.extend(_break_ties(subgroup, faces, source, depth + 1))
    return ordered


def initiative_order(
    fighters: Sequence[Fighter], source: RandomSource, modifiers: Mapping[str, int] | None = None
) -> tuple[InitiativeRoll, ...]:
    """Everyone's Iniciativa, highest first: by total, then by Mobilidade, then by re-rolls
    among those still tied (``tiebreak``). ``modifiers``: fighter key → int (default 0). Raises
    ``Sistema001Error`` for no fighters, a repeated key or a modifier for a stranger.

    «Iniciativa»; «Ordem da Rodada»; «Empates de Iniciativa».
    """
    fighters = list(fighters)
    modifiers = dict(modifiers or {})
    if not fighters:
        raise Sistema001Error(NO_FIGHTERS, "fighters")
    keys = [fighter.key for fighter in fighters]
    for key in keys:
        if keys.count(key) > 1:
            raise Sistema001Error(DUPLICATE_FIGHTER.format(key=key), "fighters")
    for key in modifiers:
        if key not in keys:
            raise Sistema001Error(UNKNOWN_FIGHTER.format(key=key), "modifiers")
    rolls = [roll_initiative(f, source, modifiers.get(f.key, 0)) for f in fighters]
    faces = {f.key: f.die("mobilidade") for f in fighters}
    ordered: list[InitiativeRoll] = []
    for value in sorted({_key(roll) for roll in rolls}, reverse=True):
        group = [roll for roll in rolls if _key(roll) == value]
        ordered.extend(_break_ties(group, faces, source))
    return tuple(ordered)


@dataclass(frozen=True)
class LateEntry:
    """A late entrant: its ``roll``, the new ``order`` with it in place, ``first_round``, the
    first round it acts in (the one after it entered), and ``faces``, every face drawn, in
    order: its Iniciativa's die, then each roll-off's pair (its die, the tied fighter's)."""

    roll: InitiativeRoll
    order: tuple[InitiativeRoll, ...]
    first_round: int
    faces: tuple[int, ...] = ()


def late_entry(
    order: Sequence[InitiativeRoll],
    fighter: Fighter,
    round_: int,
    source: RandomSource,
    modifiers: int = 0,
    others: Mapping[str, Fighter] | None = None,
) -> LateEntry:
    """«Entrada Tardia - O personagem entra no combate após ele já ter começado. Rola Iniciativa
    normalmente, mas só passa a agir a partir da rodada seguinte.» ``order``: the current
    order; ``round_``: the round it enters in (≥ 1); ``others``: the fighters of ``order`` by
    key — needed only for a tie that reaches the re-roll (their Dado de Mobilidade).

    Placed by total, then Mobilidade; a tie on both is broken by roll-offs against each tied
    fighter down the order (reading ``initiative_tie_reroll``); the others keep their order."""
    if not isinstance(round_, int) or isinstance(round_, bool) or round_ < 1:
        raise Sistema001Error(BAD_ROUND, "round")
    if any(roll.fighter == fighter.key for roll in order):
        raise Sistema001Error(ALREADY_IN_ORDER.format(key=fighter.key), "fighter")
    roll = roll_initiative(fighter, source, modifiers)
    faces = list(roll.die.rolled)
    placed = list(order)
    position = len(placed)
    for index, other in enumerate(placed):
        if _key(roll) > _key(other):
            position = index
            break
        if _key(roll) == _key(other):
            if others is None or other.fighter not in others:
                raise Sistema001Error(
                    TIE_NEEDS_OTHERS.format(key=other.fighter),
                    "others",
                )
            won, roll = _roll_off(roll, fighter, others[other.fighter], source, faces)
            if won:
                position = index
                break
    placed.insert(position, roll)
    return LateEntry(roll, tuple(placed), round_ + 1, tuple(faces))


def _roll_off(
    roll: InitiativeRoll, fighter: Fighter, other: Fighter, source: RandomSource, faces: list[int]
) -> tuple[bool, InitiativeRoll]:
    """Roll-offs until one die beats the other; every face drawn is appended to ``faces``."""
    for _ in range(MAX_TIE_ROLLS):
        mine = source.randint(1, fighter.die("mobilidade"))
        theirs = source.randint(1, other.die("mobilidade"))
        faces += (mine, theirs)
        roll = replace(roll, tiebreak=(*roll.tiebreak, mine))
        if mine != theirs:
            return mine > theirs, roll
    raise Sistema001Error(ENDLESS_TIE.format(n=MAX_TIE_ROLLS), "initiative")


def acting(
    order: Iterable[InitiativeRoll], entered: Mapping[str, int], round_: int
) -> tuple[InitiativeRoll, ...]:
    """The turns of round ``round_``: ``order`` without the late entrants whose first round
    (``entered``: fighter key → ``LateEntry.first_round``) has not come yet."""
    return tuple(roll for roll in order if entered.get(roll.fighter, 1) <= round_)
