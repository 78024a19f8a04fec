"""Dropping to 0 PC, death saves, stabilising and instant death (Xuleta, «§5.7 Caure a 0 PC»,
«§5.8 Salvacions contra la mort», «§5.9 Estabilitzar», «§5.10 Mort instantània»).

The counter is ``successes``/``failures`` (0–3 each), as in the character's state
(``death_saves``). Randomness only from ``source``.
"""

from __future__ import annotations

from dataclasses import dataclass

from dice.rolling import RandomSource
from xuleta.errors import XuletaError
from xuleta.rolls import CHECK, D20Result, d20, resolve

DEATH_SAVE_DC = 10
STABILISE_DC = 10
MAX_MARKS = 3
STABILISE_SKILL = "Medicina"


@dataclass(frozen=True)
class DeathSaves:
    """Where a creature at 0 PC stands: ``successes``, ``failures``, ``stable``, ``dead``,
    ``revived`` (back to 1 PC, conscious, by a natural 20)."""

    successes: int = 0
    failures: int = 0
    stable: bool = False
    dead: bool = False
    revived: bool = False


def _checked(successes: int, failures: int) -> None:
    if not (0 <= successes <= MAX_MARKS and 0 <= failures <= MAX_MARKS):
        raise XuletaError("Salvações contra a morte vão de 0 a 3.", "death_saves")


def _counted(successes: int, failures: int) -> DeathSaves:
    if failures >= MAX_MARKS:
        return DeathSaves(successes, MAX_MARKS, dead=True)
    if successes >= MAX_MARKS:
        # «Si et curen o t'estabilitzen, el comptador torna a zero.»
        return DeathSaves(0, 0, stable=True)
    return DeathSaves(successes, failures)


@dataclass(frozen=True)
class DeathSave:
    """One death save: the ``face`` (no modifier) and the counter after it."""

    face: int
    after: DeathSaves
    text: str


def death_save(source: RandomSource, successes: int = 0, failures: int = 0) -> DeathSave:
    """«En començar cada torn a 0 PC, tira un d20 sense sumar-hi res. Amb 10 o més és un èxit;
    amb menys, un fracàs.» «Amb 3 èxits t'estabilitzes. Amb 3 fracassos, mors. No cal que siguin
    seguits.» «Un 1 natural compta com dos fracassos.» «Un 20 natural: recuperes 1 PC i tornes en
    tu.» (§5.8) The 20 resets the counter (healed: «el comptador torna a zero»)."""
    _checked(successes, failures)
    face = d20(source).kept
    if face == 20:
        return DeathSave(face, DeathSaves(revived=True), "20 natural: recupera 1 PC e volta a si")
    if face == 1:
        after = _counted(successes, failures + 2)
        text = "1 natural: dois fracassos"
    elif face >= DEATH_SAVE_DC:
        after = _counted(successes + 1, failures)
        text = "êxito"
    else:
        after = _counted(successes, failures + 1)
        text = "fracasso"
    if after.dead:
        text += " — três fracassos: morre"
    elif after.stable:
        text += " — três êxitos: estável"
    return DeathSave(face, after, text)


def damage_at_zero(successes: int, failures: int, critical: bool = False) -> DeathSaves:
    """«Si et fan mal a 0 PC, sumes un fracàs (dos si és crític).» «Si et tornen a fer mal,
    deixes d'estar estable.» (§5.8, §5.9)"""
    _checked(successes, failures)
    return _counted(successes, failures + (2 if critical else 1))


def healed() -> DeathSaves:
    """«Si estàs a 0 PC, qualsevol curació et torna la consciència.» «Si et curen o
    t'estabilitzen, el comptador torna a zero.» (§5.5, §5.8)"""
    return DeathSaves()


@dataclass(frozen=True)
class Stabilised:
    result: D20Result
    stable: bool


def stabilise(source: RandomSource, medicine_bonus: int, edge: str = "none") -> Stabilised:
    """«Algú pot fer servir la seva acció per fer-te primers auxilis amb una prova de Saviesa
    (Medicina) CD 10.» «Estable vol dir que continues inconscient a 0 PC, però ja no tires
    salvacions contra la mort.» (§5.9)"""
    result = resolve(CHECK, d20(source, edge), medicine_bonus, STABILISE_DC)
    return Stabilised(result, result.success)


def stable_recovery_hours(source: RandomSource) -> int:
    """«Si ningú no et cura, recuperes 1 PC al cap d'1d4 hores.» (§5.9)"""
    return source.randint(1, 4)


def dies_at_zero(player_character: bool, mestre_says_dies: bool) -> bool:
    """«Molts monstres moren directament en arribar a 0, si el DM vol.» (§5.7): a monster dies
    at 0 when the Mestre says so (an input); a character never does (it makes death saves)."""
    return (not player_character) and mestre_says_dies
