"""Close combat (gurps.combat.close_combat; canon §5c)."""

from __future__ import annotations

import re

import pytest

from gurps.combat import close_combat_defences, close_combat_modifier, grapple_contest
from gurps.defence import ActiveDefence
from gurps.errors import UNKNOWN_GRAPPLE_STAGE, InvalidValue, OutsideCanon
from tests.gurps.helpers import ScriptedSource, canon_section


def _signed(text: str) -> int:
    return int(text.replace("\u2212", "-").replace("+", ""))


def test_which_weapons_attack_in_close_combat() -> None:
    section = canon_section("# 5c. Combate de perto")
    penalty = _signed(re.search(r"atacam \*\*a (−\d+)\*\*", section)[1])
    assert close_combat_modifier("knife") == close_combat_modifier("bite") == 0
    assert close_combat_modifier("short_sword") == close_combat_modifier("rapier") == penalty
    for weapon in ("spear", "polearm", "two_handed_sword"):
        assert close_combat_modifier(weapon) is None
    with pytest.raises(OutsideCanon) as caught:
        close_combat_modifier("axe")
    assert caught.value.rule == "5c"


def test_grappled_cannot_dodge() -> None:
    assert ActiveDefence.DODGE not in close_combat_defences(grappled=True)
    assert close_combat_defences(grappled=False) == frozenset(ActiveDefence)


def test_grappling_is_a_dx_contest_with_judo_or_brawling_on_a_tie() -> None:
    won = grapple_contest(ScriptedSource([2, 3, 3, 5, 5, 5]), "grab", 12, 12)
    assert won.winner == "attacker" and won.tie_break is None
    # Both 10 against 12: a tie; Judo 14 rolls 9, Brawling 11 rolls 11.
    tie = grapple_contest(
        ScriptedSource([3, 3, 4, 3, 3, 4, 3, 3, 3, 4, 4, 3]),
        "pin",
        12,
        12,
        attacker_tie_break=14,
        defender_tie_break=11,
    )
    assert tie.winner == "attacker" and tie.tie_break is not None
    no_skill = grapple_contest(ScriptedSource([3, 3, 4, 3, 3, 4]), "grab", 12, 12)
    assert no_skill.winner is None
    with pytest.raises(InvalidValue) as caught:
        grapple_contest(ScriptedSource([]), "throw", 12, 12)
    assert caught.value.message == UNKNOWN_GRAPPLE_STAGE
