"""§5 Dany i curació: damage rolls, criticals, defences, temporary PC, 0 PC, instant death,
death saves, stabilising (xuleta.damage, xuleta.dying)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.gurps.helpers import ScriptedSource
from xuleta import damage, dying
from xuleta.errors import XuletaError


def test_damage_adds_the_attack_modifier_once(quote):
    quote("hi sumes el mateix modificador que has fet servir per atacar")
    rolled = damage.roll_damage(ScriptedSource([5]), "1d8", 3)
    assert (rolled.faces, rolled.total) == ((5,), 8)


def test_a_critical_doubles_the_dice_not_the_modifier(quote):
    quote("Tires el doble de daus de dany. Els modificadors se sumen un sol cop.")
    quote("Una espasa llarga (1d8 + 3) fa 2d8 + 3 en un crític.")
    assert damage.critical_dice("1d8") == "2d8"
    rolled = damage.roll_damage(ScriptedSource([5, 7]), "1d8", 3, critical=True)
    assert (rolled.count, rolled.faces, rolled.total) == (2, (5, 7), 15)


@given(st.integers(1, 8), st.integers(-10, 0))
def test_damage_never_below_zero(face, modifier):
    assert damage.roll_damage(ScriptedSource([face]), "1d8", modifier).total >= 0


def test_never_below_zero_quoted(quote):
    quote("El dany mai no baixa de 0 per un modificador negatiu.")
    assert damage.roll_damage(ScriptedSource([1]), "1d4", -3).total == 0


def test_bad_dice_refused_naming_the_field():
    with pytest.raises(XuletaError) as caught:
        damage.parse_dice("1d7", "attacks.0.damage")
    assert caught.value.field == "attacks.0.damage"


def test_resistance_vulnerability_immunity(quote):
    quote(
        "Amb resistència reps la meitat del dany d'aquest tipus; amb vulnerabilitat, el doble; "
        "amb immunitat, res."
    )
    assert damage.apply_defences(9, "fire", resistances=["fire"]).amount == 4
    assert damage.apply_defences(9, "fire", vulnerabilities=["fire"]).amount == 18
    assert damage.apply_defences(9, "fire", immunities=["fire"]).amount == 0
    assert damage.apply_defences(9, "cold", resistances=["fire"]).amount == 9


def test_resistance_before_vulnerability(quote):
    quote(
        "Primer s'apliquen els altres modificadors, després la resistència i al final la "
        "vulnerabilitat."
    )
    # 7 halved to 3, then doubled to 6 (doubling first then halving would give 7).
    assert damage.apply_defences(7, "fire", ["fire"], ["fire"]).amount == 6


def test_resistances_do_not_stack(quote):
    quote("No s'acumulen: dues resistències al foc continuen sent la meitat.")
    assert damage.apply_defences(10, "fire", ["fire", "fire"], resist_all=True).amount == 5


def test_temporary_hit_points_go_first(quote):
    quote("Un matalàs de PC que es gasta abans que els de veritat.")
    taken = damage.take_damage(hp=10, temp_hp=4, max_hp=10, amount=6)
    assert (taken.hp, taken.temp_hp, taken.absorbed) == (8, 0, 4)


def test_temporary_hit_points_do_not_stack(quote):
    quote("No s'acumulen: si te'n donen més, tries quedar-te els nous o els que tenies.")
    assert damage.gain_temp_hp(5, 3, "new") == 3
    assert damage.gain_temp_hp(5, 3, "old") == 5
    assert damage.gain_temp_hp(5, 8) == 8


def test_dropping_to_zero_loses_the_excess(quote):
    quote("El dany que sobra es perd: estàs a 0, no en negatiu.")
    taken = damage.take_damage(hp=5, temp_hp=0, max_hp=20, amount=9)
    assert (taken.hp, taken.excess, taken.dropped, taken.instant_death) == (0, 4, True, False)


def test_instant_death_the_texts_example(quote):
    quote("Exemple: màxim de 12 PC, te'n queden 6 i en reps 18. Baixes a 0, en sobren 12: mors.")
    taken = damage.take_damage(hp=6, temp_hp=0, max_hp=12, amount=18)
    assert (taken.hp, taken.excess, taken.instant_death) == (0, 12, True)
    assert not damage.take_damage(hp=6, temp_hp=0, max_hp=12, amount=17).instant_death


def test_healing_never_above_max_and_not_the_dead(quote):
    quote("Mai no passes del teu màxim.")
    quote("Qui ha mort no es pot curar: cal màgia que el torni a la vida.")
    assert damage.heal(8, 10, 5) == 10
    with pytest.raises(XuletaError):
        damage.heal(0, 10, 5, dead=True)


@pytest.mark.parametrize(
    ("face", "after"),
    [(10, (1, 0)), (9, (0, 1)), (1, (0, 2)), (15, (1, 0))],
)
def test_death_save(quote, face, after):
    quote(
        "En començar cada torn a 0 PC, tira un d20 sense sumar-hi res. Amb 10 o més és un "
        "èxit; amb menys, un fracàs."
    )
    quote("Un 1 natural compta com dos fracassos.")
    saved = dying.death_save(ScriptedSource([face]))
    assert (saved.after.successes, saved.after.failures) == after


def test_three_successes_stable_three_failures_dead(quote):
    quote("Amb 3 èxits t'estabilitzes. Amb 3 fracassos, mors. No cal que siguin seguits.")
    assert dying.death_save(ScriptedSource([12]), 2, 2).after.stable
    assert dying.death_save(ScriptedSource([3]), 2, 2).after.dead
    assert dying.death_save(ScriptedSource([1]), 0, 1).after.dead


def test_natural_20_revives(quote):
    quote("Un 20 natural: recuperes 1 PC i tornes en tu.")
    saved = dying.death_save(ScriptedSource([20]), 1, 2)
    assert saved.after.revived and (saved.after.successes, saved.after.failures) == (0, 0)


def test_damage_at_zero(quote):
    quote("Si et fan mal a 0 PC, sumes un fracàs (dos si és crític).")
    assert dying.damage_at_zero(0, 0).failures == 1
    assert dying.damage_at_zero(0, 0, critical=True).failures == 2
    assert dying.damage_at_zero(0, 2).dead


def test_healed_or_stabilised_resets(quote):
    quote("Si et curen o t'estabilitzen, el comptador torna a zero.")
    assert dying.healed() == dying.DeathSaves()
    assert dying.death_save(ScriptedSource([10]), 2, 2).after == dying.DeathSaves(stable=True)


def test_stabilise_is_medicine_dc_10(quote):
    quote(
        "Algú pot fer servir la seva acció per fer-te primers auxilis amb una prova de Saviesa "
        "(Medicina) CD 10."
    )
    assert dying.stabilise(ScriptedSource([8]), 2).stable
    assert not dying.stabilise(ScriptedSource([7]), 2).stable


def test_stable_recovers_after_1d4_hours(quote):
    quote("Si ningú no et cura, recuperes 1 PC al cap d'1d4 hores.")
    assert dying.stable_recovery_hours(ScriptedSource([3])) == 3


def test_monsters_die_at_zero_if_the_mestre_wants(quote):
    quote("Molts monstres moren directament en arribar a 0, si el DM vol.")
    assert dying.dies_at_zero(False, True)
    assert not dying.dies_at_zero(False, False)
    assert not dying.dies_at_zero(True, True)
