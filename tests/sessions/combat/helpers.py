"""The short fight of the combat tests: the jurado and the hoplita against two cavadores-
cinzentos (demo numbers the Mestre enters: not canon), with the dice scripted."""

from __future__ import annotations

from sessions.combat import specs as combat_specs

# Demo data, entered as the Mestre would: the canon gives the cavador-cinzento no numbers here.
CAVADOR = dict(
    kind="creature",
    st=9,
    dx=11,
    iq=3,
    ht=9,
    hp=9,
    move=6,
    dodge=5,
    passive_defense=1,
    damage_resistance=1,
    flees=True,
    demo_note="Números de demonstração, entrados pelo Mestre; não são do cânone.",
)
CAVADOR_BITE = combat_specs.WeaponSpec(
    name="Mordida", skill=12, damage="2d cort", weapon_class="bite"
)


def cavador(name: str) -> combat_specs.CreatureSpec:
    return combat_specs.CreatureSpec(name=name, weapons=(CAVADOR_BITE,), **CAVADOR)


# The hoplita's spear thrust fells cavador A: attack 3+4+4=11 against 15 (17, penumbra −2),
# A's dodge 6+6+5=17 fails, damage 1d → 6 (DR 1: 5, ×2 = 10, torso thrust cap HT 9 → 9),
# 0 HP: a creature of a fleeing species, fled — out of the fight, so no Prostração roll for
# the major wound (§5.4.1).
HOPLITA_FELLS_A = (3, 4, 4, 6, 6, 5, 6)
# Cavador B bites the jurado: attack 2+3+4=9 against 12, the jurado blocks 6+6+6=18 (fails),
# damage 2d → 6+5 = 11 (DR 4: 7, cut ×1.5 = 10), major wound HT 12: 5+6+6=17 fails: he
# falls and is stunned.
B_WOUNDS_JURADO = (2, 3, 4, 6, 6, 6, 6, 5, 5, 6, 6)


def decides_for_him(combat, character) -> None:
    """The jogador of ``character`` left «decidir por mim: a de maior total» (§4.6): an attack
    on him goes on at once with the best total, as the tests written before the defence was
    asked at the moment of the attack expect."""
    from sessions.models import Combatant

    Combatant.objects.filter(combat=combat, character=character).update(
        standing_defence={"first": "best"}
    )
