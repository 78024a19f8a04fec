"""§5.5's limit is per limb: a blow to one arm, leg, hand or foot counts toward that limb only,
in the fight's state, the API's card and the log (canon §5.5, p. 127). The server's dice are
scripted; the creatures are demo numbers entered as the Mestre would (not canon)."""

from __future__ import annotations

import pytest

from campaigns.access import membership_for
from gurps.errors import LIMB_SIDE_REQUIRED, InvalidValue
from sessions.combat import attack as combat_attack
from sessions.combat import cards as combat_cards
from sessions.combat import specs as combat_specs
from sessions.combat.schemas import combat_data
from sessions.models import Combatant, CombatEvent
from tests.sessions.combat.test_combat_effects import creature, duel, get, maneuver  # noqa: F401

CLUB = combat_specs.WeaponSpec(name="Clava", skill=12, damage="2d cont")
# Attack 5 (a hit at NH 8 or more, not critical), the best defence 17 (fails), damage 3+3 = 6,
# less DR 1: 5 HP to the limb; then spare dice for whatever the blow asks after.
FIVE_HP = (1, 2, 2, 6, 6, 5, 3, 3, *(3,) * 12)
# HT 11: an arm or a leg is crippled by 5.5 (6 whole HP), a hand or a foot by 3.67 (4) (§5.5).
LIMIT_AT_HT_11 = {"arm": 6, "leg": 6, "hand": 4, "foot": 4}
THRESHOLD_AT_HT_11 = {"arm": 11 / 2, "leg": 11 / 2, "hand": 11 / 3, "foot": 11 / 3}

# (limb, the same kind of limb on the other side, the form of the attack for each)
PAIRS = [
    ("arm_weapon", "arm_other"),
    ("arm_other", "arm_weapon"),
    ("hand_left", "hand_right"),
    ("hand_right", "hand_left"),
    ("leg_left", "leg_right"),
    ("leg_right", "leg_left"),
    ("foot_left", "foot_right"),
    ("foot_right", "foot_left"),
]


def aimed_at(limb: str) -> dict:
    location, _, side = limb.partition("_")
    if location == "arm":
        return {"location": location, "arm_side": side}
    return {"location": location, "side": side}


@pytest.fixture
def fight(duel, mestre):  # noqa: F811 (the fixture imported above)
    combat = duel(
        ana=creature("Ana", CLUB, dx=12),  # first: the same speed as Bia, more DX (§4.2)
        bia=creature("Bia", CLUB, ht=11),
    )
    maneuver(combat, mestre, "Ana", "move_and_attack")
    return combat


def hit(combat, mestre, limb: str):
    return combat_attack.attack_resolve(
        combat=combat,
        attacker=get(combat, "Ana"),
        defender=get(combat, "Bia"),
        user=mestre,
        attack=combat_specs.AttackSpec(**aimed_at(limb)),
        defence_choice=combat_specs.DefenceSpec(),
    )


def already_took(combat, limb: str, hp: int) -> None:
    """A blow earlier in the fight, as the state keeps it."""
    Combatant.objects.filter(combat=combat, name="Bia").update(hp_lost=hp, limb_hp_lost={limb: hp})


@pytest.mark.parametrize(("limb", "other"), PAIRS)
def test_a_blow_to_the_other_side_does_not_count_toward_the_first_limb(
    fight, mestre, server_dice, limb, other
):
    kind = limb.partition("_")[0]
    already_took(fight, limb, 5)
    server_dice(*FIVE_HP)
    hit(fight, mestre, other)
    bia = get(fight, "Bia")
    taken = min(5, LIMIT_AT_HT_11[kind])
    assert bia.limb_hp_lost == {limb: 5, other: taken}
    assert bia.hp_lost == 5 + taken
    # The other side is crippled only by what it took itself.
    assert bia.crippled == ([other] if 5 >= THRESHOLD_AT_HT_11[kind] else [])


@pytest.mark.parametrize(("limb", "other"), PAIRS)
def test_a_second_blow_to_the_same_limb_cripples_it_and_takes_only_what_is_left(
    fight, mestre, server_dice, limb, other
):
    kind = limb.partition("_")[0]
    before = min(5, LIMIT_AT_HT_11[kind] - 1)
    already_took(fight, limb, before)
    server_dice(*FIVE_HP)
    hit(fight, mestre, limb)
    bia = get(fight, "Bia")
    lost = LIMIT_AT_HT_11[kind] - before
    assert bia.limb_hp_lost == {limb: before + lost} and bia.hp_lost == before + lost
    assert bia.crippled == [limb]
    event = CombatEvent.objects.filter(combat=fight, kind=CombatEvent.Kind.ATTACK).last()
    assert any(line.startswith(f"Bia perde {lost} PV") for line in event.lines)


def test_the_weapon_arm_5_then_the_other_arm_5_at_ht_11_cripples_neither(
    fight, mestre, server_dice
):
    already_took(fight, "arm_weapon", 5)
    server_dice(*FIVE_HP)
    hit(fight, mestre, "arm_other")
    bia = get(fight, "Bia")
    assert (bia.hp_lost, bia.crippled) == (10, [])


def test_the_card_and_the_api_name_the_crippled_limb_with_its_side(fight, mestre, server_dice):
    already_took(fight, "leg_left", 5)
    server_dice(*FIVE_HP)
    hit(fight, mestre, "leg_left")
    membership = membership_for(mestre, fight.scene.week.campaign)
    view = combat_cards.combat_view(fight, membership=membership, user=mestre)
    bia = next(c for c in combat_data(view)["combatants"] if c["name"] == "Bia")
    assert bia["crippled"] == ["leg_left"]
    assert get(fight, "Bia").crippled_labels == ["perna esquerda"]


def test_a_leg_without_a_side_is_refused_before_any_die(fight, mestre, server_dice):
    server_dice()
    with pytest.raises(InvalidValue) as refused:
        hit_unsided(fight, mestre)
    assert refused.value.message == LIMB_SIDE_REQUIRED
    assert get(fight, "Bia").hp_lost == 0


def hit_unsided(combat, mestre):
    return combat_attack.attack_resolve(
        combat=combat,
        attacker=get(combat, "Ana"),
        defender=get(combat, "Bia"),
        user=mestre,
        attack=combat_specs.AttackSpec(location="leg"),
        defence_choice=combat_specs.DefenceSpec(),
    )
