"""Damage and healing (Xuleta, «§5 Dany i curació»): damage rolls, criticals, resistance,
vulnerability and immunity, temporary hit points, dropping to 0 PC and instant death.

Hit points are counted as ``hp`` (PC now, 0 … max) and ``temp_hp`` (the «matalàs»). Randomness
only from ``source`` (``randint(a, b)``). A refusal is ``XuletaError`` naming the field.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from dice.rolling import RandomSource
from xuleta.damage_types import DAMAGE_TYPES, damage_type
from xuleta.errors import XuletaError
from xuleta.readings import Reading

DICE = re.compile(r"^\s*(\d{1,2})\s*d\s*(\d{1,3})\s*$", re.IGNORECASE)
BAD_DICE = "Dados de dano inválidos: «{text}». Use NdM (1d8, 2d6…)."
SIDES = (4, 6, 8, 10, 12, 20)


def parse_dice(text: str, field: str = "damage") -> tuple[int, int]:
    """``"2d6"`` → ``(2, 6)``; ``"0"`` or ``""`` → ``(0, 0)`` (no dice: a fixed damage).
    Raises ``XuletaError`` (``field``) for anything else or a die the game does not have."""
    text = (text or "").strip()
    if text in ("", "0"):
        return 0, 0
    match = DICE.match(text)
    if not match or int(match.group(2)) not in SIDES or int(match.group(1)) < 1:
        raise XuletaError(BAD_DICE.format(text=text), field)
    return int(match.group(1)), int(match.group(2))


@dataclass(frozen=True)
class DamageRoll:
    """A damage roll: ``dice`` as rolled (``count`` dice of ``sides``, doubled on a critical),
    the ``modifier`` added once, and ``total`` (never below 0)."""

    count: int
    sides: int
    faces: tuple[int, ...]
    modifier: int
    critical: bool
    total: int

    @property
    def text(self) -> str:
        dice = f"{self.count}d{self.sides}" if self.count else ""
        mod = f"{self.modifier:+d}" if self.modifier else ""
        faces = f" [{', '.join(map(str, self.faces))}]" if self.faces else ""
        return f"{dice}{mod or ('' if dice else '0')}{faces} = {self.total}"


def roll_damage(
    source: RandomSource, dice: str, modifier: int = 0, critical: bool = False
) -> DamageRoll:
    """Roll ``dice`` (``"1d8"``) + ``modifier``: «Si encertes, tires els daus de dany de l'arma
    o de l'encanteri i hi sumes el mateix modificador que has fet servir per atacar.» On a
    critical «Tires el doble de daus de dany. Els modificadors se sumen un sol cop.» «El dany
    mai no baixa de 0 per un modificador negatiu.» (§5.1, §5.2)"""
    count, sides = parse_dice(dice)
    if critical:
        count *= 2
    faces = tuple(source.randint(1, sides) for _ in range(count))
    total = max(0, sum(faces) + modifier)
    return DamageRoll(count, sides, faces, modifier, critical, total)


def critical_dice(dice: str) -> str:
    """The dice a critical rolls: «Una espasa llarga (1d8 + 3) fa 2d8 + 3 en un crític.»"""
    count, sides = parse_dice(dice)
    return f"{2 * count}d{sides}" if count else "0"


@dataclass(frozen=True)
class Defended:
    """Damage after the target's defences: ``amount`` taken and the ``steps`` (Portuguese)."""

    rolled: int
    amount: int
    steps: tuple[str, ...]


def apply_defences(
    amount: int,
    type_: str,
    resistances: Iterable[str] = (),
    vulnerabilities: Iterable[str] = (),
    immunities: Iterable[str] = (),
    resist_all: bool = False,
) -> Defended:
    """«Amb resistència reps la meitat del dany d'aquest tipus; amb vulnerabilitat, el doble; amb
    immunitat, res. Primer s'apliquen els altres modificadors, després la resistència i al final
    la vulnerabilitat. No s'acumulen: dues resistències al foc continuen sent la meitat.» (§5.4)
    ``amount`` is the damage after the other modifiers; halving rounds down (reading
    ``resistance_rounding``). ``resist_all``: Petrificat's «resistència a tot el dany» (one
    more resistance: it does not stack)."""
    type_ = damage_type(type_)
    label = DAMAGE_TYPES[type_]
    if amount < 0:
        raise XuletaError("O dano não pode ser negativo.", "damage")
    if type_ in set(immunities):
        return Defended(amount, 0, (f"imune a {label}: 0",))
    steps = []
    now = amount
    if type_ in set(resistances) or resist_all:
        now //= 2
        steps.append(f"resistência a {label}: {amount} → {now} (a metade, uma só vez)")
    if type_ in set(vulnerabilities):
        steps.append(f"vulnerável a {label}: {now} → {2 * now} (o dobro)")
        now *= 2
    return Defended(amount, now, tuple(steps))


@dataclass(frozen=True)
class Taken:
    """Hit points after damage: ``hp`` and ``temp_hp`` now, ``absorbed`` by the temporary ones,
    ``excess`` beyond 0 (lost), ``dropped`` to 0 by this hit, ``instant_death``."""

    hp: int
    temp_hp: int
    absorbed: int
    excess: int
    dropped: bool
    instant_death: bool


def take_damage(hp: int, temp_hp: int, max_hp: int, amount: int) -> Taken:
    """«Un matalàs de PC que es gasta abans que els de veritat.» Then the real PC: «El dany que
    sobra es perd: estàs a 0, no en negatiu.» «Si un cop et deixa a 0 PC i el dany que sobra és
    igual o més gran que el teu màxim de PC, mors a l'acte.» (§5.6, §5.7, §5.10)"""
    if amount < 0 or hp < 0 or temp_hp < 0 or max_hp < 1:
        raise XuletaError("PC, PC temporários e dano não podem ser negativos.", "damage")
    absorbed = min(temp_hp, amount)
    left = amount - absorbed
    new_hp = max(0, hp - left)
    excess = max(0, left - hp)
    dropped = hp > 0 and new_hp == 0
    instant = dropped and excess >= max_hp
    return Taken(new_hp, temp_hp - absorbed, absorbed, excess, dropped, instant)


def heal(hp: int, max_hp: int, amount: int, dead: bool = False) -> int:
    """«El dany els fa baixar i la curació els fa pujar, mai per sobre del teu màxim.» «Qui ha
    mort no es pot curar: cal màgia que el torni a la vida.» (§5, §5.5)"""
    if dead:
        raise XuletaError(
            "Quem morreu não pode ser curado: «cal màgia que el torni a la vida».", "amount"
        )
    if amount < 0:
        raise XuletaError("A cura não pode ser negativa.", "amount")
    return min(max_hp, hp + amount)


KEEP_NEW, KEEP_OLD = "new", "old"


def gain_temp_hp(current: int, new: int, keep: str = "") -> int:
    """«No s'acumulen: si te'n donen més, tries quedar-te els nous o els que tenies.» ``keep``:
    ``"new"`` or ``"old"`` (the creature's choice, an input); unsaid, the higher (reading
    ``temp_hp_choice``)."""
    if new < 0:
        raise XuletaError("PC temporários não podem ser negativos.", "temp_hp")
    if keep == KEEP_NEW:
        return new
    if keep == KEEP_OLD:
        return current
    if keep:
        raise XuletaError(f"Escolha «{keep}» desconhecida: use new ou old.", "keep")
    return max(current, new)


READINGS = (
    Reading(
        "resistance_rounding",
        "5.4",
        "Resistência dá «la meitat del dany»: metade de um número ímpar arredonda para baixo ou "
        "para cima? A Xuleta não diz.",
        "Para baixo (7 → 3), como no 5e.",
    ),
    Reading(
        "instant_death_at_zero",
        "5.10",
        "Dano a quem já está a 0 PC: «Si un cop et deixa a 0 PC i el dany que sobra és igual o "
        "més gran que el teu màxim» — conta todo o dano como o que sobra?",
        "Sim: a 0 PC, um golpe de dano igual ou maior que o máximo de PC mata; menor, soma "
        "fracassos («un fracàs (dos si és crític)»).",
    ),
    Reading(
        "monster_at_zero",
        "5.7",
        "«Molts monstres moren directament en arribar a 0, si el DM vol»: e o monstro que o "
        "Mestre não mata?",
        "Cai inconsciente e faz salvações contra a morte como uma personagem (a seção vale para "
        "todos); o Mestre diz quem morre a 0 (dies_at_zero).",
        "mestre",
    ),
    Reading(
        "death_save_20_acts",
        "5.8",
        "«Un 20 natural: recuperes 1 PC i tornes en tu» no início do turno: age nesse turno?",
        "Sim: volta com 1 PC, sem o Inconscient (continua Tombat), e faz o turno.",
    ),
    Reading(
        "temp_hp_choice",
        "5.6",
        "PC temporários novos: «tries quedar-te els nous o els que tenies» — quando o Mestre "
        "não diz a escolha?",
        "Os maiores; a escolha é um campo (keep: new/old).",
        "mestre",
    ),
)
