"""Durations: when a timed effect or a condition ends.

Chapter «4. Combate», «Duração dos Efeitos»: «Quando um efeito possui duração, ele começa no
turno em que é aplicado e termina imediatamente antes do turno que possui a mesma Iniciativa,
após transcorrer a quantidade indicada de rodadas.» «Duração das Condições»: «Quando a origem
não especificar duração, a condição permanece ativa até o início do segundo turno consecutivo
do alvo» and «Toda condição termina automaticamente ao final da cena ou combate».
«Manobras de Combate»: «O efeito dura até o início do próximo turno do alvo.»

``expired`` is evaluated at the START of every turn, before the fighter acts, for every active
effect; the integration removes those it says have ended. Rounds count from 1; a turn is
identified by the round, its Iniciativa (the total, fixed for the combat), the fighter and its
index in that round's order (0-based).

Readings: ``expiry_same_initiative_missing`` (ties and a missing initiative),
``condition_target_turn_count`` (the turn of application does not count),
``late_entry_acts_next_round``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sistema001.errors import Sistema001Error
from sistema001.fighters import DAMAGE_TYPE_LABELS

MESMA_INICIATIVA = "mesma_iniciativa"
TURNO_DO_ALVO = "turno_do_alvo"
ENDS: tuple[str, ...] = (MESMA_INICIATIVA, TURNO_DO_ALVO)

# «até o início do segundo turno consecutivo do alvo»
CONDITION_DEFAULT_TARGET_TURNS = 2
# «O efeito dura até o início do próximo turno do alvo.»
MANEUVER_TARGET_TURNS = 1

EMPTY_KEY = "Todo efeito precisa de uma chave."
EMPTY_TARGET = "Todo efeito precisa de um alvo."
BAD_ROUND = "A rodada deve ser um número inteiro de 0 ou mais."
BAD_INITIATIVE = "A Iniciativa deve ser um número inteiro."
BAD_TURN_INDEX = "A posição do turno deve ser um número inteiro de 0 ou mais."
UNKNOWN_ENDS = "Fim de duração desconhecido: use mesma_iniciativa ou turno_do_alvo."
BAD_ROUNDS = "Um efeito com duração em rodadas precisa de 1 rodada ou mais."
BAD_TARGET_TURNS = "Um efeito que dura até um turno do alvo precisa de 1 turno ou mais."
BAD_DAMAGE = "O dano por turno deve ser um número inteiro de 0 ou mais e um tipo de dano."


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class TimedEffect:
    """An effect with a duration on ``target`` (a fighter's key).

    - ``key``: a condition key (``sistema001.fighters.CONDITION_KEYS``) or any other effect's
      key; ``label``: shown.
    - ``applied_round`` (≥ 0), ``applied_initiative``, ``applied_turn_index`` (≥ 0): the turn
      during which it was applied (its round, its Iniciativa, its index in the order).
    - ``ends="mesma_iniciativa"`` with ``rounds`` (≥ 1): ends immediately before the turn
      with the same Iniciativa after ``rounds`` rounds.
    - ``ends="turno_do_alvo"`` with ``target_turns`` (≥ 1): ends at the start of the
      target's ``target_turns``-th turn after the application (2 for a condition with no
      stated duration, 1 for a maneuver). ``target_first_round``: the round of the target's
      first turn after the application, when the integration knows it (required for a target
      with no turn left in that round for a reason other than the order — a late entrant);
      without it, it is inferred from the Iniciativas and indices.
    - ``source``: the fighter the effect comes from or is about (the aggressor of
      Desprevenido, the source of Contido, the focus of Atraído…), or ``""``.
    - ``magical``: its nature («Natureza das Condições»).
    - ``damage``: ``(PV, damage type)`` at the start of each of the target's turns, when the
      origin gives it (Envenenado: the poison; Sangrando: the wound's physical type).
    - ``beyond_scene``: «salvo indicação explícita em contrário» — survives the end of scene.
    - ``text``: the origin's description, if any.

    Raises ``Sistema001Error`` naming the field.
    """

    key: str
    label: str
    target: str
    applied_round: int
    applied_initiative: int
    rounds: int | None = None
    ends: str = TURNO_DO_ALVO
    target_turns: int = CONDITION_DEFAULT_TARGET_TURNS
    applied_turn_index: int = 0
    target_first_round: int | None = None
    source: str = ""
    magical: bool = False
    damage: tuple[int, str] | None = None
    beyond_scene: bool = False
    text: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.key, str) or not self.key:
            raise Sistema001Error(EMPTY_KEY, "key")
        if not isinstance(self.target, str) or not self.target:
            raise Sistema001Error(EMPTY_TARGET, "target")
        if not _int(self.applied_round) or self.applied_round < 0:
            raise Sistema001Error(BAD_ROUND, "applied_round")
        if not _int(self.applied_initiative):
            raise Sistema001Error(BAD_INITIATIVE, "applied_initiative")
        if not _int(self.applied_turn_index) or self.applied_turn_index < 0:
            raise Sistema001Error(BAD_TURN_INDEX, "applied_turn_index")
        if self.ends not in ENDS:
            raise Sistema001Error(UNKNOWN_ENDS, "ends")
        if self.ends == MESMA_INICIATIVA:
            if not _int(self.rounds) or self.rounds < 1:  # type: ignore[operator]
                raise Sistema001Error(BAD_ROUNDS, "rounds")
        else:
            if not _int(self.target_turns) or self.target_turns < 1:
                raise Sistema001Error(BAD_TARGET_TURNS, "target_turns")
            if self.target_first_round is not None and (
                not _int(self.target_first_round) or self.target_first_round < self.applied_round
            ):
                raise Sistema001Error(BAD_ROUND, "target_first_round")
        if self.damage is not None:
            amount, type_ = self.damage
            if not _int(amount) or amount < 0 or type_ not in DAMAGE_TYPE_LABELS:
                raise Sistema001Error(BAD_DAMAGE, "damage")
            object.__setattr__(self, "damage", (amount, type_))
        object.__setattr__(self, "magical", bool(self.magical))


def _check_turn(round_: int, initiative: int, turn_index: int) -> None:
    if not _int(round_) or round_ < 0:
        raise Sistema001Error(BAD_ROUND, "round")
    if not _int(initiative):
        raise Sistema001Error(BAD_INITIATIVE, "initiative")
    if not _int(turn_index) or turn_index < 0:
        raise Sistema001Error(BAD_TURN_INDEX, "turn_index")


def end_round(effect: TimedEffect) -> int:
    """The round in which a ``mesma_iniciativa`` effect ends: applied round + rounds."""
    return effect.applied_round + (effect.rounds or 0)


def first_target_round(effect: TimedEffect, initiative: int, turn_index: int) -> int:
    """The round of the target's first turn after the application, given the target's own
    Iniciativa and index: ``target_first_round`` when set; else the applied round when the
    target's turn came after the applying turn in the order (lower Iniciativa, or the same
    Iniciativa at a later index), the next round otherwise — including a condition applied
    during the target's own turn (reading ``condition_target_turn_count``)."""
    if effect.target_first_round is not None:
        return effect.target_first_round
    later = initiative < effect.applied_initiative or (
        initiative == effect.applied_initiative and turn_index > effect.applied_turn_index
    )
    return effect.applied_round if later else effect.applied_round + 1


def expired(
    effect: TimedEffect, round_: int, initiative: int, fighter: str, turn_index: int
) -> bool:
    """Whether ``effect`` has ended at the START of the turn of ``fighter`` (its key) in round
    ``round_``, with Iniciativa ``initiative``, at index ``turn_index`` of the order — before
    the fighter acts. Evaluate it for every active effect at the start of every turn.

    ``mesma_iniciativa`` («Duração dos Efeitos»): ends at the first turn, in round
    ``applied_round + rounds``, whose Iniciativa is ≤ the applied one — the turn with the same
    Iniciativa, the first of the tied turns in a tie, the first below it if none has it any
    more — or at any turn of a later round (reading ``expiry_same_initiative_missing``).

    ``turno_do_alvo`` («Duração das Condições»; «Manobras de Combate»): ends at the start of the
    target's ``target_turns``-th turn counted after the application; at any turn of a round
    after the last possible one (a target that lost its turns).
    """
    _check_turn(round_, initiative, turn_index)
    if effect.ends == MESMA_INICIATIVA:
        last = end_round(effect)
        return round_ > last or (round_ == last and initiative <= effect.applied_initiative)
    if fighter == effect.target:
        first = first_target_round(effect, initiative, turn_index)
        return round_ - first + 1 >= effect.target_turns
    if effect.target_first_round is not None:
        last_possible = effect.target_first_round + effect.target_turns - 1
    else:
        last_possible = effect.applied_round + effect.target_turns
    return round_ > last_possible


def active(
    effects: Iterable[TimedEffect], round_: int, initiative: int, fighter: str, turn_index: int
) -> tuple[tuple[TimedEffect, ...], tuple[TimedEffect, ...]]:
    """``(kept, ended)``: the effects still active at the start of this turn and those that end
    now (``expired``), each in the given order."""
    kept: list[TimedEffect] = []
    ended: list[TimedEffect] = []
    for effect in effects:
        (ended if expired(effect, round_, initiative, fighter, turn_index) else kept).append(effect)
    return tuple(kept), tuple(ended)


def end_of_scene(effects: Iterable[TimedEffect]) -> tuple[TimedEffect, ...]:
    """The effects left when the scene or combat ends: «Toda condição termina automaticamente ao
    final da cena ou combate, salvo indicação explícita em contrário» — only those marked
    ``beyond_scene``; ``()`` otherwise."""
    return tuple(effect for effect in effects if effect.beyond_scene)


def for_rounds(
    key: str,
    label: str,
    target: str,
    *,
    round_: int,
    initiative: int,
    rounds: int,
    turn_index: int = 0,
    **extra: object,
) -> TimedEffect:
    """An effect lasting ``rounds`` rounds, applied in the turn (``round_``, ``initiative``,
    ``turn_index``): «termina imediatamente antes do turno que possui a mesma Iniciativa»."""
    return TimedEffect(
        key,
        label,
        target,
        round_,
        initiative,
        rounds=rounds,
        ends=MESMA_INICIATIVA,
        target_turns=0,
        applied_turn_index=turn_index,
        **extra,  # type: ignore[arg-type]
    )


def until_target_turn(
    key: str,
    label: str,
    target: str,
    *,
    round_: int,
    initiative: int,
    turn_index: int = 0,
    target_turns: int = CONDITION_DEFAULT_TARGET_TURNS,
    order: Sequence[str] | None = None,
    **extra: object,
) -> TimedEffect:
    """An effect lasting until the start of the target's ``target_turns``-th turn (2: a
    condition with no stated duration; 1: a maneuver's effect). ``order``: the fighters' keys in
    this round's order, when known: the target's first turn is this round if it comes after
    ``turn_index``, else the next round (also when the target is not in this round's order —
    a late entrant)."""
    if order is not None and "target_first_round" not in extra:
        keys = list(order)
        later = target in keys and keys.index(target) > turn_index
        extra["target_first_round"] = round_ if later else round_ + 1
    return TimedEffect(
        key,
        label,
        target,
        round_,
        initiative,
        ends=TURNO_DO_ALVO,
        target_turns=target_turns,
        applied_turn_index=turn_index,
        **extra,  # type: ignore[arg-type]
    )
