"""House rules of A Garganta that change the book's numbers.

§5.4.1 "Quem morre quando" (fixed on 10/09/2026): the HP ladder of §5.4 holds in full for
player characters; a bestiary creature is out of the fight at 0 HP, and a named NPC or an
encounter boss dies at −HT, neither with any death check. What does not change: at 3, 2 or 1
HP, Move and Dodge are halved for everyone (``gurps.attributes.move``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from gurps._validate import check_attribute, require_int
from gurps.errors import UNKNOWN_COMBATANT_KIND, InvalidValue
from gurps.injury import death_checks_crossed, hp_thresholds


class CombatantKind(StrEnum):
    CREATURE = "creature"  # bicho de bestiário, sem nome registrado
    NAMED_NPC = "named_npc"  # verbete no 07a, nome na Cronologia ou numa ficha homologada
    BOSS = "boss"  # chefe de encontro, marcado no 06 ou declarado antes do primeiro dado
    PLAYER_CHARACTER = "player_character"


# §5.4.1: "Fixado em 10/09/2026."
HOUSE_DEATH_RULE_DECIDED = "10/09/2026"


class DeathLine(StrEnum):
    """Where a row of §5.4.1 puts death: 0 HP, −HT, or the book's full ladder (§5.4)."""

    ZERO = "zero"
    MINUS_HT = "minus_ht"
    FULL_LADDER = "full_ladder"


@dataclass(frozen=True)
class DeathRule:
    """One row of the table of §5.4.1. ``who`` is the row as the canon writes it;
    ``death_checks`` False means none at all. The canon cites no book page: it is the
    Árbitro's rule, fixed on ``decided``."""

    who: str
    kinds: tuple[CombatantKind, ...]
    dies_at: DeathLine
    death_checks: bool
    section: str = "5.4.1"
    decided: str = HOUSE_DEATH_RULE_DECIDED


HOUSE_DEATH_RULES: tuple[DeathRule, ...] = (
    DeathRule(
        "Bicho de bestiário — sem nome registrado",
        (CombatantKind.CREATURE,),
        DeathLine.ZERO,
        death_checks=False,
    ),
    DeathRule(
        "NPC nomeado e chefe de encontro",
        (CombatantKind.NAMED_NPC, CombatantKind.BOSS),
        DeathLine.MINUS_HT,
        death_checks=False,
    ),
    DeathRule(
        "Personagem de jogador, em qualquer combate",
        (CombatantKind.PLAYER_CHARACTER,),
        DeathLine.FULL_LADDER,
        death_checks=True,
    ),
    DeathRule(
        "Combate entre personagens de jogador",
        (CombatantKind.PLAYER_CHARACTER,),
        DeathLine.FULL_LADDER,
        death_checks=True,
    ),
)


def _combatant_kind(value: CombatantKind | str) -> CombatantKind:
    try:
        return CombatantKind(value)
    except ValueError:
        raise InvalidValue("kind", UNKNOWN_COMBATANT_KIND) from None


def death_rule(kind: CombatantKind | str) -> DeathRule:
    """The §5.4.1 row for ``kind`` ("creature", "named_npc", "boss", "player_character").
    A player character in a fight between player characters has the same rule. Raises
    InvalidValue("kind") for an unknown kind."""
    found = _combatant_kind(kind)
    return next(rule for rule in HOUSE_DEATH_RULES if found in rule.kinds)


def out_of_the_fight_at(kind: CombatantKind | str, ht: int) -> int:
    """The HP at or below which a combatant of ``kind`` is certainly out (§5.4.1): a creature
    at 0 (dead, or fleeing if its species flees: out either way, and it does not come back),
    a named NPC or boss dies at −HT, a player character dies for certain at −5 × HT (§5.4;
    earlier only by a failed death check).

    ``ht`` 1 or more. Raises InvalidValue("kind"/"ht").
    """
    rule = death_rule(kind)
    check_attribute("ht", ht)
    if rule.dies_at is DeathLine.ZERO:
        return 0
    if rule.dies_at is DeathLine.MINUS_HT:
        return -ht
    return hp_thresholds(ht).dead_at


def house_death_checks(kind: CombatantKind | str, ht: int, hp_before: int, hp_after: int) -> int:
    """Death checks a blow from ``hp_before`` to ``hp_after`` HP calls for, under §5.4.1:
    none for a creature, a named NPC or a boss (they die on crossing their line, see
    ``out_of_the_fight_at``); for a player character, the book's count
    (``gurps.injury.death_checks_crossed``, §5.4, p. 126).

    ``ht`` 1 or more; HP as whole numbers, ``hp_after`` ≤ ``hp_before``. Raises
    InvalidValue("kind"/"ht"/"hp_before"/"hp_after").
    """
    rule = death_rule(kind)
    checks = death_checks_crossed(ht, hp_before, hp_after)
    return checks if rule.death_checks else 0


def is_out_of_the_fight(kind: CombatantKind | str, ht: int, hp: int) -> bool:
    """True if ``hp`` is at or below ``out_of_the_fight_at(kind, ht)`` (§5.4.1).

    Raises InvalidValue("kind"/"ht"/"hp").
    """
    line = out_of_the_fight_at(kind, ht)
    return require_int("hp", hp) <= line
