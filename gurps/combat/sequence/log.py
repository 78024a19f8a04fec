"""How the steps of one attack are written in the scene log (canon §4.10): a roll's line, a
note's, the canon's minus sign, and what the canon does not settle, recorded for the Árbitro.
"""

from __future__ import annotations

from collections.abc import Sequence

from gurps.checks import OUTCOME_NAMES, SuccessRoll
from gurps.combat.sequence.results import SequenceStep
from gurps.combat.sequence.table import StepNumber
from gurps.errors import OutsideCanon


def faces_text(dice: Sequence[int]) -> str:
    """Dice faces as the log writes them: "3+5+1"."""
    return "+".join(str(face) for face in dice)


def number_text(value: int) -> str:
    """A number with the canon's minus sign (U+2212): −3."""
    return str(value).replace("-", "\u2212")


def _roll_text(title: str, roll: SuccessRoll, against: str) -> str:
    return (
        f"{title}: 3d6 = {faces_text(roll.dice)} = {roll.total} contra {against} — "
        f"{OUTCOME_NAMES[roll.outcome]}."
    )


def roll_step(
    number: StepNumber, title: str, roll: SuccessRoll, against: str, *readings: str
) -> SequenceStep:
    """A step of the log that is a success roll, with its dice, level and outcome."""
    return SequenceStep(
        number,
        title,
        _roll_text(title, roll, against),
        dice=roll.dice,
        total=roll.total,
        level=roll.effective_level,
        outcome=roll.outcome.value,
        readings=readings,
    )


def note(number: StepNumber, title: str, text: str, *readings: str) -> SequenceStep:
    """A step of the log that rolls nothing."""
    return SequenceStep(number, title, text, readings=readings)


def record_pending(steps: list[SequenceStep], pending: list[str], error: OutsideCanon) -> None:
    """Record, once, what the canon does not settle (for the Árbitro), as a step-10 line."""
    if error.message not in pending:
        pending.append(error.message)
        steps.append(note(StepNumber.CONSEQUENCES, "Pendência", error.message))
