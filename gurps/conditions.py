"""The conditions a body is in, as the canon names them (§5.2–5.4, and the §5.4.1 ladder by kind
of combatant): cambaleando at 3 HP or less, atordoado, inconsciente, morto. The sheet names them
with their section; the combat card and the API say the same (one function).
"""

from __future__ import annotations

from dataclasses import dataclass

from gurps._validate import check_attribute, require_int
from gurps.attributes import is_staggered
from gurps.house import CombatantKind, death_rule, is_out_of_the_fight
from gurps.injury import is_dead


@dataclass(frozen=True)
class Condition:
    """One condition: ``key`` for the code, ``name`` and ``text`` as the canon says them."""

    key: str
    name: str
    text: str
    section: str
    page: str


STAGGERED = Condition(
    "staggered",
    "Cambaleando",
    "Deslocamento e Esquiva caem à metade, para baixo.",
    "5.4",
    "126",
)
STUNNED = Condition(
    "stunned",
    "Atordoado",
    "−4 em todas as defesas ativas; teste de HT no início do turno para sair.",
    "5.2",
    "127",
)
FAINTING = Condition(
    "ht_each_turn",
    "A 0 PV ou menos",
    "No início de cada turno, teste de HT (somando Força de Vontade): falhando, desmaia.",
    "5.4",
    "126",
)
UNCONSCIOUS = Condition(
    "unconscious", "Inconsciente", "Não age nem se defende.", "5.3, 5.4", "126–127"
)
DEAD = Condition("dead", "Morto", "A morte é permanente (§8).", "5.4, 5.4.1", "126")


def is_dead_now(kind: CombatantKind | str, ht: int, hp_remaining: int, *, died: bool = False):
    """Whether the body is dead: ``died`` (a failed death check, an instant death), or past
    its certain line (§5.4: −5 × HT; §5.4.1: a named NPC or boss at −HT). A bestiary creature
    at 0 HP is out of the fight, dead or fled as its species says: ``died`` decides it."""
    if died:
        return True
    rule = death_rule(kind)
    if rule.death_checks:
        return is_dead(ht, hp_remaining)
    if CombatantKind(kind) is CombatantKind.CREATURE:
        return False
    return is_out_of_the_fight(kind, ht, hp_remaining)


def conditions_now(
    ht: int,
    hp_remaining: int,
    *,
    kind: CombatantKind | str = CombatantKind.PLAYER_CHARACTER,
    stunned: bool = False,
    unconscious: bool = False,
    died: bool = False,
) -> tuple[Condition, ...]:
    """The conditions of a body of ``ht`` with ``hp_remaining`` HP (levels; HP may be
    negative), in the canon's order: dead replaces every other; then unconscious; staggered
    at 3 HP or less (§5.4), stunned (§5.2), the HT roll each turn at 0 or less (§5.4).
    Raises InvalidValue("ht"/"hp"/"kind")."""
    check_attribute("ht", ht)
    require_int("hp", hp_remaining)
    if is_dead_now(kind, ht, hp_remaining, died=died):
        return (DEAD,)
    found = [UNCONSCIOUS] if unconscious else []
    if is_staggered(hp_remaining):
        found.append(STAGGERED)
    if stunned and not unconscious:
        found.append(STUNNED)
    # The creature is out at 0 (§5.4.1); the others roll (reading faint_roll_for_named_npcs).
    if hp_remaining <= 0 and not unconscious and CombatantKind(kind) is not CombatantKind.CREATURE:
        found.append(FAINTING)
    return tuple(found)
