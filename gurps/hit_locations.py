"""Hit locations: where a blow may be aimed and what choosing costs (canon §5.5, book p. 203).

The locations are read by the wound (``gurps.damage``: the §4.13 caps, the vitals' ×3), by
injury (``gurps.injury``: knockout, crippling) and by the attack (``gurps.combat``). They
live here, below all three, so none of those imports another for them.
"""

from __future__ import annotations

from enum import StrEnum

from gurps.errors import (
    ARM_SIDE_REQUIRED,
    LIMB_SIDE_REQUIRED,
    UNKNOWN_ARM_SIDE,
    UNKNOWN_HIT_LOCATION,
    UNKNOWN_LIMB_SIDE,
    InvalidValue,
)


class HitLocation(StrEnum):
    """The locations the canon names, in its order, each with its Portuguese ``label`` and
    the ``penalty`` to the attacker's NH for choosing it (§5.5, p. 203). The arm's penalty
    depends on the side (``ARM_PENALTIES``), so its ``penalty`` is None: use
    ``hit_location_penalty``."""

    BRAIN = "brain", "cérebro", -7
    HEAD = "head", "cabeça", -5
    EYES = "eyes", "olhos", -9
    ARM = "arm", "braço", None
    HAND = "hand", "mão", -4
    LEG = "leg", "perna", -2
    FOOT = "foot", "pé", -4
    VITALS = "vitals", "órgãos vitais", -3
    TORSO = "torso", "tronco", 0

    label: str
    penalty: int | None

    def __new__(cls, value: str, label: str, penalty: int | None) -> HitLocation:
        member = str.__new__(cls, value)
        member._value_ = value
        member.label = label
        member.penalty = penalty
        return member


HIT_LOCATION_SECTION = "5.5"
HIT_LOCATION_PAGE = "203"


class ArmSide(StrEnum):
    """Which arm a blow aims at: the one holding the weapon, or the other."""

    WEAPON = "weapon"
    OTHER = "other"


# §5.5: "braço −4 ou −2 conforme o lado". Reading arm_penalty_by_side: −2 for the weapon arm,
# −4 for the other one. ("Órgãos vitais recebem dano triplo de perfurante" is applied by
# gurps.damage.location_multiplier.)
ARM_PENALTIES: dict[ArmSide, int] = {ArmSide.WEAPON: -2, ArmSide.OTHER: -4}


def hit_location(value: HitLocation | str) -> HitLocation:
    """``value`` as a HitLocation ("torso", "vitals"…); else InvalidValue("location")."""
    try:
        return HitLocation(value)
    except ValueError:
        raise InvalidValue("location", UNKNOWN_HIT_LOCATION) from None


def _arm_side(value: ArmSide | str | None) -> ArmSide:
    if value is None:
        raise InvalidValue("arm_side", ARM_SIDE_REQUIRED)
    try:
        return ArmSide(value)
    except ValueError:
        raise InvalidValue("arm_side", UNKNOWN_ARM_SIDE) from None


def hit_location_penalty(
    location: HitLocation | str, *, arm_side: ArmSide | str | None = None
) -> int:
    """The modifier to the attacker's NH for aiming at ``location`` (§5.5, p. 203): brain
    −7, head −5, eyes −9, arm −2 or −4 by side, hand −4, leg −2, foot −4, vital organs −3,
    torso 0.

    ``arm_side`` ("weapon" or "other") is needed for the arm and ignored elsewhere; reading
    ``arm_penalty_by_side``: the weapon arm is −2, the other −4. Raises
    InvalidValue("location"), and InvalidValue("arm_side") for an arm without a known side.
    """
    where = hit_location(location)
    if where is HitLocation.ARM:
        return ARM_PENALTIES[_arm_side(arm_side)]
    return where.penalty  # type: ignore[return-value]


class LimbSide(StrEnum):
    """Which leg, hand or foot a blow aims at, with its Portuguese ``label``. Each is its own
    limb for §5.5's limit; the side costs nothing in NH (§5.5, p. 203)."""

    LEFT = "left", "esquerda"
    RIGHT = "right", "direita"

    label: str

    def __new__(cls, value: str, label: str) -> LimbSide:
        member = str.__new__(cls, value)
        member._value_ = value
        member.label = label
        return member


class Limb(StrEnum):
    """One limb of §5.5, each with its own crippling limit: the two arms (by the side the
    NH penalty reads: the weapon's or the other), and each leg, hand and foot by side. The
    bare ``arm``/``leg``/``hand``/``foot`` are what was stored before a limb had a side
    (every hit to either arm counted as one arm): kept so that old states read, labelled as
    such; no new hit is counted there."""

    ARM_WEAPON = "arm_weapon", "braço da arma", HitLocation.ARM
    ARM_OTHER = "arm_other", "o outro braço", HitLocation.ARM
    HAND_LEFT = "hand_left", "mão esquerda", HitLocation.HAND
    HAND_RIGHT = "hand_right", "mão direita", HitLocation.HAND
    LEG_LEFT = "leg_left", "perna esquerda", HitLocation.LEG
    LEG_RIGHT = "leg_right", "perna direita", HitLocation.LEG
    FOOT_LEFT = "foot_left", "pé esquerdo", HitLocation.FOOT
    FOOT_RIGHT = "foot_right", "pé direito", HitLocation.FOOT
    ARM = "arm", "braço (lado não registrado)", HitLocation.ARM
    HAND = "hand", "mão (lado não registrado)", HitLocation.HAND
    LEG = "leg", "perna (lado não registrado)", HitLocation.LEG
    FOOT = "foot", "pé (lado não registrado)", HitLocation.FOOT

    label: str
    location: HitLocation

    def __new__(cls, value: str, label: str, location: HitLocation) -> Limb:
        member = str.__new__(cls, value)
        member._value_ = value
        member.label = label
        member.location = location
        return member

    @property
    def sided(self) -> bool:
        """False for the bare keys of old states."""
        return "_" in self.value


LIMB_LOCATIONS = (HitLocation.ARM, HitLocation.HAND, HitLocation.LEG, HitLocation.FOOT)


def _limb_side(value: LimbSide | str | None) -> LimbSide:
    if value is None or value == "":
        raise InvalidValue("side", LIMB_SIDE_REQUIRED)
    try:
        return LimbSide(value)
    except ValueError:
        raise InvalidValue("side", UNKNOWN_LIMB_SIDE) from None


def limb_hit(
    location: HitLocation | str,
    *,
    arm_side: ArmSide | str | None = None,
    side: LimbSide | str | None = None,
) -> Limb | None:
    """The limb a blow at ``location`` hits (§5.5, p. 127): the arm by ``arm_side`` ("weapon"
    or "other"), a leg, hand or foot by ``side`` ("left" or "right"); None for a location
    that is not a limb (brain, head, eyes, vitals, torso), whatever the sides say.

    Raises InvalidValue("location"), InvalidValue("arm_side") for an arm without a known
    side, InvalidValue("side") for a leg, hand or foot without a known side."""
    where = hit_location(location)
    if where not in LIMB_LOCATIONS:
        return None
    if where is HitLocation.ARM:
        return Limb(f"arm_{_arm_side(arm_side).value}")
    return Limb(f"{where.value}_{_limb_side(side).value}")


def limb_label(value: Limb | str) -> str:
    """The Portuguese name of a stored limb key ("perna esquerda"); a key that is no limb —
    nothing writes one, but a state is data — is shown as it is."""
    try:
        return Limb(value).label
    except ValueError:
        return str(value)
