"""Each arm, leg, hand and foot is its own limb for §5.5's limit (canon §5.5, p. 127): the
limb a blow hits, by location and side, and what a series of blows to one limb costs."""

from __future__ import annotations

import pytest

from gurps.errors import ARM_SIDE_REQUIRED, LIMB_SIDE_REQUIRED, UNKNOWN_LIMB_SIDE, InvalidValue
from gurps.hit_locations import HitLocation, Limb, limb_hit, limb_label
from gurps.injury import is_crippled, limb_hp_lost

SIDED = [
    ("arm", {"arm_side": "weapon"}, Limb.ARM_WEAPON),
    ("arm", {"arm_side": "other"}, Limb.ARM_OTHER),
    ("hand", {"side": "left"}, Limb.HAND_LEFT),
    ("hand", {"side": "right"}, Limb.HAND_RIGHT),
    ("leg", {"side": "left"}, Limb.LEG_LEFT),
    ("leg", {"side": "right"}, Limb.LEG_RIGHT),
    ("foot", {"side": "left"}, Limb.FOOT_LEFT),
    ("foot", {"side": "right"}, Limb.FOOT_RIGHT),
]


@pytest.mark.parametrize(("location", "sides", "limb"), SIDED)
def test_every_limb_is_named_by_its_location_and_side(location, sides, limb):
    assert limb_hit(location, **sides) is limb
    assert limb.location is HitLocation(location) and limb.sided


def test_the_eight_limbs_are_eight_different_keys():
    assert len({limb for _, _, limb in SIDED}) == 8


@pytest.mark.parametrize("location", ["brain", "head", "eyes", "vitals", "torso"])
def test_a_location_that_is_not_a_limb_hits_no_limb_whatever_the_sides(location):
    assert limb_hit(location, arm_side="weapon", side="left") is None


@pytest.mark.parametrize("location", ["hand", "leg", "foot"])
def test_a_leg_hand_or_foot_without_a_side_is_refused_naming_the_field(location):
    with pytest.raises(InvalidValue) as refused:
        limb_hit(location)
    assert (refused.value.field, refused.value.message) == ("side", LIMB_SIDE_REQUIRED)


def test_an_unknown_side_is_refused():
    with pytest.raises(InvalidValue) as refused:
        limb_hit("leg", side="middle")
    assert (refused.value.field, refused.value.message) == ("side", UNKNOWN_LIMB_SIDE)


def test_an_arm_still_needs_the_arm_side_and_ignores_left_or_right():
    with pytest.raises(InvalidValue) as refused:
        limb_hit("arm", side="left")
    assert (refused.value.field, refused.value.message) == ("arm_side", ARM_SIDE_REQUIRED)


def test_the_keys_of_old_states_still_read_and_say_the_side_was_not_recorded():
    assert not Limb("arm").sided
    assert limb_label("arm") == "braço (lado não registrado)"
    assert limb_label("leg_left") == "perna esquerda"


# HT 11: an arm or a leg is crippled at HT/2 = 5.5 (6 whole HP), a hand or a foot at HT/3 ≈ 3.67
# (4 whole HP) (§5.5).
LIMIT_AT_HT_11 = {"arm": 6, "leg": 6, "hand": 4, "foot": 4}


@pytest.mark.parametrize(("location", "sides", "limb"), SIDED)
def test_the_weapon_arm_example_5_then_5_cripples_and_takes_only_what_is_left(
    location, sides, limb
):
    # Arm 5 then 5 more at HT 11 (the case): crippled, and the second blow takes 1.
    limit = LIMIT_AT_HT_11[location]
    first = min(5, limit)
    assert limb_hp_lost(11, limb.location, 5, limb_hp_lost_before=first) == limit - first
    assert is_crippled(11, limb.location, first + 5)
