"""Every number a combatant has comes from the sheet's function (gurps.derived.derive), once:
the combat card, the sheet page and the sheets API agree at every HP, fatigue and load; aim
reaches the attack; one weapon parries once; a sheet's own ST 3 keeps its Move; ST above 20
keeps the parry and says why the damage has no number; a creature out at 0 HP rolls nothing
more and its bar is empty. (Issue «One place for every rule», the wrong numbers.)"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from gurps import derived, injury
from gurps.errors import OutsideCanon
from sessions.combat import attack as combat_attack
from sessions.combat import cards as combat_cards
from sessions.combat import maneuvers as combat_maneuvers
from sessions.combat import services as combat_services
from sessions.combat import specs as combat_specs
from sessions.combat import state as combat_state
from sessions.combat import turns as combat_turns
from sessions.combat.numbers import combatant_numbers, round_defences
from sessions.models import Combatant, Roll
from sheets.computed import sheet_view
from sheets.models import Possession, SheetVersion
from sheets.reads import state_of
from tests.sessions.combat.helpers import cavador


def _enter(scene, mestre, character):
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[character])
    return combat, Combatant.objects.get(combat=combat, character=character)


def _card(combat, c, membership):
    view = combat_cards.combat_view(combat, membership=membership, user=None)
    return next(card for card in view.cards if card.combatant.pk == c.pk)


def _page_numbers(html: str) -> dict:
    def stat(testid):
        found = re.search(
            rf'data-testid="{testid}"><span class="k">[^<]*(?:<a[^>]*>[^<]*</a>)?'
            rf'</span><span class="v">(-?\d+)</span>',
            html,
        )
        return int(found.group(1)) if found else None

    defences = dict(re.findall(r"<tr><td>([^<]+)</td><td>(−?-?\d+)</td>", html))
    return {
        "move": stat("move"),
        "dodge": stat("dodge"),
        "defences": {k: int(v.replace("−", "-")) for k, v in defences.items()},
    }


def _card_numbers(html: str, name: str) -> dict:
    card = html[html.index(f'data-testid="card-{name}"') :]
    card = card[: card.index("</li>")]

    def one(testid):
        found = re.search(rf'data-testid="{testid}">(-?\d+)<', card)
        return int(found.group(1)) if found else None

    return {
        "move": one("card-move"),
        "dodge": one("card-dodge"),
        "block": one("card-block"),
        "parries": [int(v) for v in re.findall(r'data-testid="card-parry">(-?\d+)<', card)],
    }


@pytest.mark.parametrize("carried_kg", [0, 30, 60])
def test_card_sheet_and_api_agree_entering_a_fight_at_every_hp(
    scene, mestre, jogador, jurado, client_for, carried_kg
):
    """From HT down to −5×HT, at three loads: the card shows what the sheet and the sheets API
    show (halved once at 3 HP or less, §5.4), and the card's page says the same."""
    if carried_kg:
        Possession.objects.create(
            character=jurado, loot_name="Pedras", loot_weight_kg=Decimal(carried_kg)
        )
    ht = jurado.versions.get(status=SheetVersion.Status.HOMOLOGATED).ht
    owner = client_for(jogador)
    for hp_lost in range(0, 6 * ht + 1):
        state = state_of(jurado)
        state.hp_lost, state.stunned = hp_lost, False
        state.save()
        combat, c = _enter(scene, mestre, jurado)
        numbers = combatant_numbers(c)
        sheet = sheet_view(jurado).derived
        assert (numbers.derived.move, numbers.dodge, numbers.block) == (
            sheet.move,
            sheet.dodge,
            sheet.block,
        ), hp_lost
        assert sorted(numbers.parries.values()) == sorted(p.value for p in sheet.parries)
        api = owner.get(f"/api/v1/sheets/{jurado.code}").json()["derived"]
        assert (api["move"], api["dodge"]) == (numbers.derived.move, numbers.dodge)
        if hp_lost in (0, ht - 3, ht, 2 * ht, 6 * ht):  # the pages, at the ladder's steps
            page = _page_numbers(owner.get(f"/fichas/{jurado.code}/").content.decode())
            card = _card_numbers(
                owner.get(f"/cenas/{scene.code}/combate/").content.decode(), "jurado-de-gapheim"
            )
            assert page["move"] == card["move"] == numbers.move, hp_lost
            assert page["dodge"] == card["dodge"] == numbers.dodge, hp_lost
            assert card["block"] == page["defences"]["Bloquear"] == numbers.block
        combat_services.combat_end(combat=combat, user=mestre)


def test_at_2_hp_move_and_dodge_are_halved_once_not_twice(scene, mestre, jurado):
    state = state_of(jurado)
    state.hp_lost = jurado.versions.get(status=SheetVersion.Status.HOMOLOGATED).ht - 2
    state.save()
    whole = derived.derive(**{**sheet_view(jurado).derive_inputs, "hp_lost": 0})
    _, c = _enter(scene, mestre, jurado)
    numbers = combatant_numbers(c)
    assert numbers.hp_now == 2
    assert numbers.derived.move == whole.move // 2
    assert numbers.dodge == whole.move // 2  # the jurado has no Combat Reflexes


def test_a_wound_in_the_fight_is_in_the_sheet_at_once(scene, mestre, jurado):
    combat, c = _enter(scene, mestre, jurado)
    combat_services.combatant_adjust(
        combat=combat, combatant=c, user=mestre, hp_lost=5, reason="erro crítico 5"
    )
    assert state_of(jurado).hp_lost == 5
    assert sheet_view(jurado).derived.hp_remaining == combatant_numbers(c).hp_now
    combat_services.combat_end(combat=combat, user=mestre)
    assert state_of(jurado).hp_lost == 5  # ending applies nothing twice


# --- aim (§4.3, §4.11) ----------------------------------------------------------------------

BOW = combat_specs.WeaponSpec(
    name="Arco", skill=14, damage="1d+1 perf", attack_kind="arrow", weight_kg="1", accuracy=3
)


def _archer_duel(scene, mestre):
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[])
    archer = combat_specs.CreatureSpec(
        name="Arqueira", st=11, dx=14, iq=10, ht=11, move=7, dodge=6, weapons=(BOW,)
    )
    combat_services.combatant_add(combat=combat, user=mestre, creature=archer)
    combat_services.combatant_add(combat=combat, user=mestre, creature=cavador("Alvo"))
    combat_turns.combat_next_turn(combat=combat, user=mestre)
    return combat


def _turn_of(combat, mestre, name):
    for _ in range(6):
        combat.refresh_from_db()
        now = combat_state.current(combat)
        if now.name == name:
            return now
        combat_turns.combat_next_turn(combat=combat, user=mestre)
    raise AssertionError(name)


@pytest.mark.parametrize(("turns", "bonus"), [(1, 3), (2, 4), (3, 5), (4, 6)])
def test_aim_reaches_the_attack(scene, mestre, server_dice, turns, bonus):
    """Prec +3 on the first turn, +1 each turn after up to +3, and no −4 (§4.3, §4.11)."""
    combat = _archer_duel(scene, mestre)
    for _ in range(turns):
        archer = _turn_of(combat, mestre, "Arqueira")
        combat_maneuvers.maneuver_declare(
            combat=combat, combatant=archer, user=mestre, maneuver="aim", weapon=0
        )
        _turn_of(combat, mestre, "Alvo")
    archer = _turn_of(combat, mestre, "Arqueira")
    assert archer.aim_turns == turns
    combat_maneuvers.maneuver_declare(
        combat=combat, combatant=archer, user=mestre, maneuver="move_and_attack"
    )
    server_dice(*[5] * 20)  # 15 hits, the PD-only defence fails: the attack roll is what it reads
    outcome = combat_attack.attack_resolve(
        combat=combat,
        attacker=archer,
        defender=Combatant.objects.get(combat=combat, name="Alvo"),
        user=mestre,
        attack=combat_specs.AttackSpec(weapon=0, distance_m=2),
    )
    modifiers = {m.reason: m.value for m in outcome.resolution.modifiers}
    assert modifiers[f"mira de {turns} turno(s)"] == bonus
    assert "sem apontar" not in modifiers
    assert outcome.resolution.effective_level == 14 + bonus
    assert Combatant.objects.get(pk=archer.pk).aim_turns == 0  # the attack used it


def test_defending_loses_the_aim(scene, mestre, server_dice):
    combat = _archer_duel(scene, mestre)
    archer = _turn_of(combat, mestre, "Arqueira")
    combat_maneuvers.maneuver_declare(
        combat=combat, combatant=archer, user=mestre, maneuver="aim", weapon=0
    )
    alvo = _turn_of(combat, mestre, "Alvo")
    combat_maneuvers.maneuver_declare(
        combat=combat, combatant=alvo, user=mestre, maneuver="move_and_attack"
    )
    server_dice(3, 4, 4, 1, 1, 1)  # the bite hits, the archer dodges with a 3
    combat_attack.attack_resolve(
        combat=combat,
        attacker=alvo,
        defender=Combatant.objects.get(combat=combat, name="Arqueira"),
        user=mestre,
        attack=combat_specs.AttackSpec(weapon=0),
        defence_choice=combat_specs.DefenceSpec(defences=("dodge",)),
    )
    assert Combatant.objects.get(pk=archer.pk).aim_turns == 0


# --- two parries need two weapons (§4.7) ------------------------------------------------------


def _parrier(scene, mestre, *weapons, fencer=False):
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[])
    spec = combat_specs.CreatureSpec(name="Guarda", st=12, dx=12, weapons=weapons)
    combat_services.combatant_add(combat=combat, user=mestre, creature=spec)
    c = Combatant.objects.get(combat=combat, name="Guarda")
    if fencer:
        c.fencer = True
        c.save()
    return c


def test_one_weapon_with_two_lines_parries_once_a_round(scene, mestre):
    thrust = combat_specs.WeaponSpec(name="Lança", skill=14, damage="GDP+2 perf", parry=7)
    swing = combat_specs.WeaponSpec(name="Lança", skill=14, damage="Bal+1 perf", parry=7)
    c = _parrier(scene, mestre, thrust, swing)
    assert round_defences(c).allowance.parries == 1
    numbers = combatant_numbers(c)
    assert len(numbers.parries) == 1


def test_two_weapons_parry_twice_a_round(scene, mestre):
    sword = combat_specs.WeaponSpec(name="Espada", skill=14, damage="Bal cort", parry=7)
    knife = combat_specs.WeaponSpec(name="Faca", skill=12, damage="GDP perf", parry=5)
    c = _parrier(scene, mestre, sword, knife)
    assert round_defences(c).allowance.parries == 2


def test_a_fencer_with_one_weapon_parries_twice_a_round(scene, mestre):
    rapier = combat_specs.WeaponSpec(name="Rapieira", skill=15, damage="GDP+1 perf", parry=10)
    c = _parrier(scene, mestre, rapier, fencer=True)
    assert round_defences(c).allowance.parries == 2


# --- ST 3 from the sheet, ST 3 from fatigue (§6.2) ---------------------------------------------


def test_st_3_from_the_sheet_keeps_move_but_from_fatigue_halves_it(scene, mestre, jurado):
    version = jurado.versions.get(status=SheetVersion.Status.HOMOLOGATED)
    inputs = sheet_view(jurado).derive_inputs
    own = derived.derive(**{**inputs, "st": 3, "fatigue_lost": 0, "carried_kg": 0})
    fallen = derived.derive(**{**inputs, "st": 13, "fatigue_lost": 10, "carried_kg": 0})
    speed_move = derived.derive(**{**inputs, "st": 13, "fatigue_lost": 0, "carried_kg": 0}).move
    assert own.move == speed_move
    assert fallen.move == speed_move // 2
    state = state_of(jurado)
    state.fatigue_lost = version.st - 3
    state.save()
    _, c = _enter(scene, mestre, jurado)
    assert combatant_numbers(c).derived.move == sheet_view(jurado).derived.move


# --- ST above 20 (§4.9) ------------------------------------------------------------------------


def test_st_21_keeps_its_weapons_and_parry_and_says_why_it_has_no_damage(scene, mestre):
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[])
    club = combat_specs.WeaponSpec(name="Clava", skill=13, damage="Bal+2 cont", parry=6)
    giant = combat_specs.CreatureSpec(name="Gigante", st=21, dx=11, ht=14, weapons=(club,))
    combat_services.combatant_add(combat=combat, user=mestre, creature=giant)
    combat_services.combatant_add(combat=combat, user=mestre, creature=cavador("Cavador"))
    c = Combatant.objects.get(combat=combat, name="Gigante")
    card = combat_cards.card(combat, c, full=True, is_current=False)
    (weapon,) = card.weapons
    assert weapon.damage is None and "§4.9" in weapon.damage_problem
    assert card.parries == (("Clava", 6),)
    combat_turns.combat_next_turn(combat=combat, user=mestre)
    giant_now = _turn_of(combat, mestre, "Gigante")
    combat_maneuvers.maneuver_declare(
        combat=combat, combatant=giant_now, user=mestre, maneuver="move_and_attack"
    )
    with pytest.raises(OutsideCanon) as refused:
        combat_attack.attack_resolve(
            combat=combat,
            attacker=giant_now,
            defender=Combatant.objects.get(combat=combat, name="Cavador"),
            user=mestre,
            attack=combat_specs.AttackSpec(weapon=0),
        )
    assert refused.value.rule == "4.9"
    assert not Roll.objects.exists()  # refused before any die


# --- a creature out at 0 HP (§5.4.1) ----------------------------------------------------------


def test_a_creature_out_at_0_hp_rolls_nothing_more_and_its_bar_is_empty(scene, mestre, server_dice):
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[])
    axe = combat_specs.WeaponSpec(name="Machado", skill=16, damage="3d cort")
    combat_services.combatant_add(
        combat=combat,
        user=mestre,
        creature=combat_specs.CreatureSpec(name="Bruto", st=14, dx=12, move=7, weapons=(axe,)),
    )
    combat_services.combatant_add(combat=combat, user=mestre, creature=cavador("Cavador"))
    combat_turns.combat_next_turn(combat=combat, user=mestre)
    bruto = _turn_of(combat, mestre, "Bruto")
    combat_maneuvers.maneuver_declare(
        combat=combat, combatant=bruto, user=mestre, maneuver="move_and_attack"
    )
    server_dice(3, 4, 4, 6, 6, 6, 6, 6, 6)  # hits; the dodge fails; 3d = 18 cut
    outcome = combat_attack.attack_resolve(
        combat=combat,
        attacker=bruto,
        defender=Combatant.objects.get(combat=combat, name="Cavador"),
        user=mestre,
        attack=combat_specs.AttackSpec(weapon=0),
        defence_choice=combat_specs.DefenceSpec(defences=("dodge",)),
    )
    assert outcome.resolution.hp_after <= 0
    assert len(outcome.rolls) == 3  # attack, dodge, damage — no Prostração for the dead
    cavador_now = Combatant.objects.get(combat=combat, name="Cavador")
    assert cavador_now.status == Combatant.Status.FLED
    card = combat_cards.card(combat, cavador_now, full=True, is_current=False)
    assert card.hp_percent == 0.0
    assert all(m.hp >= 0 for m in card.marks)  # a creature's bar ends at 0 (§5.4.1)
    ladder = injury.hp_thresholds(cavador_now.ht)
    assert ladder.staggered_at_or_below in {m.hp for m in card.marks}
