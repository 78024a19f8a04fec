"""The feint (canon §4.3, book p. 96 and 105): a quick contest whose margin comes off the
defender's active defence against the feinter's next attack.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from gurps.checks import RollKind, SuccessRoll, ensure_rollable, quick_contest, roll_success
from gurps.dice import RandomSource


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


# §4.3: "A finta vale por uma rodada": won in one round, it still counts in the next.
FEINT_LASTS_ROUNDS = 1


def feint_penalty_now(penalty: int, feint_round: int, round_: int) -> int:
    """The levels a feint won in ``feint_round`` still takes off the target's active defence
    against the feinter's attack in ``round_`` (§4.3, p. 96 and 105): ``penalty`` until the
    round after the feint, 0 after that. Whom it is against is the caller's check (only the
    feinter's own attack on that target takes it, not his allies')."""
    return penalty if feint_holds(feint_round, round_) else 0


def feint_holds(feint_round: int, round_: int) -> bool:
    """Whether a feint won in ``feint_round`` still holds in ``round_`` (§4.3: "a finta vale
    por uma rodada"): in its round and the next."""
    return feint_round >= round_ - FEINT_LASTS_ROUNDS


def feint_defender_level(weapon_skills: Iterable[int], dx: int) -> int:
    """What the target of a feint contests with (§4.3: "contra a arma ou escudo do inimigo
    (ou a DX dele)"): the best of the skills of the weapons he has ready in hand and his DX,
    before his own modifiers (the caller's)."""
    return max([*weapon_skills, dx])


def feint_target_sees(
    *, told_sees: bool, fighting: bool, blind_both_eyes: bool, still_surprised: bool
) -> bool:
    """Whether the target of a feint sees the feinter (§4.3: "contra quem não te vê não vale
    nada"): as the Mestre says (``told_sees``), and only while he is fighting (not unconscious),
    not blind of both eyes (§4.8) and not still frozen by total surprise (§5e,
    ``gurps.combat.surprise.still_surprised``)."""
    return told_sees and fighting and not blind_both_eyes and not still_surprised
