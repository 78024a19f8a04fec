"""Weapon readiness (gurps.combat.weapons; canon §4.3 notes)."""

from __future__ import annotations

import pytest

from gurps.combat import WeaponClass, WeaponReadiness, needs_ready_after_attack
from gurps.errors import OutsideCanon


def test_swords_and_knives_stay_ready_axes_maces_and_polearms_do_not() -> None:
    for kind in (WeaponClass.SWORD, WeaponClass.KNIFE, WeaponClass.DAGGER):
        assert WeaponReadiness(kind).after_attack().can_parry
    for kind in (WeaponClass.AXE, WeaponClass.MACE, WeaponClass.POLEARM):
        unready = WeaponReadiness(kind).after_attack()
        assert not unready.can_parry and not unready.can_attack
        assert unready.after_ready().can_parry
    with pytest.raises(OutsideCanon) as caught:
        needs_ready_after_attack("spear")
    assert caught.value.rule == "4.3"
