"""Everything about one attack that is checked and worked out before the first die (canon §1.1,
§1.4, §4.3, §4.5, §4.6, §5.5): the effective level and its modifiers, the damage, the
defences chosen and the target's kind.
"""

from __future__ import annotations

from dataclasses import dataclass

from gurps._validate import check_attribute, require_at_least, require_int
from gurps.checks import RollKind, ensure_rollable
from gurps.combat.maneuvers import (
    ALL_OUT_ATTACK_OPTIONS,
    AllOutAttackOption,
    Maneuver,
    ManeuverRow,
    defences_left,
    maneuver_row,
)
from gurps.combat.modifiers import attack_modifiers
from gurps.combat.sequence.inputs import ATTACK_MANEUVERS, AttackInput, DefenceInput, TargetInput
from gurps.combat.shared import enum_member
from gurps.damage import DamageType, wound_multiplier
from gurps.defence import ActiveDefence, AttackKind, available_defences, defence_rule
from gurps.dice import DiceExpression, parse_dice
from gurps.errors import (
    ALL_OUT_OPTION_REQUIRED,
    ALL_OUT_OPTION_WITHOUT_ALL_OUT_ATTACK,
    BAD_DAMAGE,
    DEFENCE_NOT_AVAILABLE,
    DEFENCE_NOT_LEFT_BY_MANEUVER,
    NEGATIVE_DR,
    NEGATIVE_FEINT_PENALTY,
    NEGATIVE_HP_LOST,
    NEGATIVE_PD,
    NEGATIVE_WILL_LEVEL,
    NOT_A_MODIFIER,
    NOT_AN_ATTACK_MANEUVER,
    ONE_DEFENCE_PER_ATTACK,
    SAME_DEFENCE_TWICE,
    UNARMED_HAS_NO_WEAPON,
    UNKNOWN_ALL_OUT_ATTACK_OPTION,
    UNKNOWN_ATTACK_KIND,
    UNKNOWN_HIT_LOCATION,
    InvalidDiceExpression,
    InvalidValue,
)
from gurps.hit_locations import HitLocation, hit_location_penalty
from gurps.house import CombatantKind, death_rule
from gurps.rolling import Modifier


def _prefixed(prefix: str, call, *args, **kwargs):
    """``call(*args, **kwargs)``, with any InvalidValue's field put under ``prefix``."""
    try:
        return call(*args, **kwargs)
    except InvalidValue as error:
        raise InvalidValue(f"{prefix}.{error.field}", error.message) from None


@dataclass(frozen=True)
class Plan:
    """Everything checked and worked out before the first die."""

    level: int
    modifiers: tuple[Modifier, ...]
    damage: DiceExpression
    damage_type: DamageType
    damage_bonus: int
    location: HitLocation
    attack_kind: AttackKind
    choices: tuple[tuple[ActiveDefence, int], ...]
    defence_maneuver: ManeuverRow
    kind: CombatantKind


def _attack_plan(attack: AttackInput) -> tuple[int, tuple[Modifier, ...], int]:
    """(effective level, modifiers, damage bonus) of the attack; raises InvalidValue."""
    skill = require_int("skill", attack.skill)
    row = maneuver_row(attack.maneuver)
    if row.maneuver not in ATTACK_MANEUVERS:
        raise InvalidValue("maneuver", NOT_AN_ATTACK_MANEUVER)
    option = None
    if row.maneuver is Maneuver.ALL_OUT_ATTACK:
        if attack.all_out_option is None:
            raise InvalidValue("all_out_option", ALL_OUT_OPTION_REQUIRED)
        chosen = enum_member(
            AllOutAttackOption,
            attack.all_out_option,
            "all_out_option",
            UNKNOWN_ALL_OUT_ATTACK_OPTION,
        )
        option = next(found for found in ALL_OUT_ATTACK_OPTIONS if found.option is chosen)
    elif attack.all_out_option is not None:
        raise InvalidValue("all_out_option", ALL_OUT_OPTION_WITHOUT_ALL_OUT_ATTACK)
    announced = attack_modifiers(attack.announced, ambidextrous=attack.ambidextrous)
    modifiers = list(announced.lines)
    for modifier in attack.modifiers:
        if not isinstance(modifier, Modifier):
            raise InvalidValue("modifiers", NOT_A_MODIFIER)
        modifiers.append(modifier)
    location = enum_member(HitLocation, attack.location, "location", UNKNOWN_HIT_LOCATION)
    penalty = hit_location_penalty(location, arm_side=attack.arm_side)
    if penalty:
        modifiers.append(Modifier(penalty, f"alvo: {location.label}", section="5.5"))
    if option is not None and option.skill_bonus:
        modifiers.append(
            Modifier(option.skill_bonus, f"Ataque Total ({option.letter})", section="4.3")
        )
    level = skill + sum(modifier.value for modifier in modifiers)
    return level, tuple(modifiers), option.damage_bonus if option is not None else 0


def _defence_plan(
    defence: DefenceInput, attack_kind: AttackKind
) -> tuple[ManeuverRow, tuple[tuple[ActiveDefence, int], ...]]:
    row = maneuver_row(defence.maneuver)
    require_at_least("passive_defense", defence.passive_defense, 0, NEGATIVE_PD)
    if defence.will is not None:
        check_attribute("will", defence.will)
    left = defences_left(row.maneuver, reloading_missile_weapon=defence.reloading_missile_weapon)
    available = available_defences(
        attack_kind,
        shield_ready=True,
        weapon_ready=True,
        grappled=defence.grappled,
        aware=defence.aware,
    )
    choices: list[tuple[ActiveDefence, int]] = []
    for choice in defence.choices:
        kind = defence_rule(choice.defence).defence
        level = require_int("level", choice.level)
        name = defence_rule(kind).name
        if kind not in left.allowed:
            raise InvalidValue(
                "choices",
                DEFENCE_NOT_LEFT_BY_MANEUVER.format(maneuver=row.name, defence=name),
            )
        if kind not in available:
            raise InvalidValue("choices", DEFENCE_NOT_AVAILABLE.format(defence=name))
        if any(kind is seen for seen, _ in choices):
            raise InvalidValue("choices", SAME_DEFENCE_TWICE)
        choices.append((kind, level))
    if len(choices) > max(left.rolls, 1):
        raise InvalidValue("choices", ONE_DEFENCE_PER_ATTACK)
    return row, tuple(choices)


def _target_plan(target: TargetInput) -> CombatantKind:
    check_attribute("ht", target.ht)
    require_int("hp", target.hp)
    require_at_least("dr", target.dr, 0, NEGATIVE_DR)
    require_at_least("strong_will", target.strong_will, 0, NEGATIVE_WILL_LEVEL)
    require_at_least("weak_will", target.weak_will, 0, NEGATIVE_WILL_LEVEL)
    require_at_least("limb_hp_lost_before", target.limb_hp_lost_before, 0, NEGATIVE_HP_LOST)
    death_rule(target.kind)  # raises InvalidValue("kind") for an unknown kind
    return CombatantKind(target.kind)


def plan_attack(
    attack: AttackInput, defence: DefenceInput, target: TargetInput, *, preview: bool = False
) -> Plan:
    """Check the three inputs of one attack and work out its ``Plan``, before any die.
    Raises InvalidValue("attack.<field>", "defence.<field>", "target.<field>") for bad input
    and NoRollAtThreeOrLess for an attack at effective level 3 or less (§1.1) — except for a
    ``preview``, which is told the level and its modifiers so as to see why (nothing rolls)."""
    level, modifiers, damage_bonus = _prefixed("attack", _attack_plan, attack)
    damage_type = _prefixed("attack", wound_multiplier, attack.damage_type).damage_type
    attack_kind = enum_member(
        AttackKind, attack.attack_kind, "attack.attack_kind", UNKNOWN_ATTACK_KIND
    )
    if isinstance(attack.damage, DiceExpression):
        damage = attack.damage
    else:
        try:
            damage = parse_dice(attack.damage)
        except InvalidDiceExpression:
            raise InvalidValue("attack.damage", BAD_DAMAGE) from None
    require_at_least("attack.feint_penalty", attack.feint_penalty, 0, NEGATIVE_FEINT_PENALTY)
    if attack_kind is AttackKind.UNARMED and (attack.unbreakable or attack.cheap):
        field = "unbreakable" if attack.unbreakable else "cheap"
        raise InvalidValue(f"attack.{field}", UNARMED_HAS_NO_WEAPON)
    row, choices = _prefixed("defence", _defence_plan, defence, attack_kind)
    kind = _prefixed("target", _target_plan, target)
    # §1.1: no attack roll at effective level 3 or less — refused before any die.
    if not preview:
        ensure_rollable(level, RollKind.SKILL)
    return Plan(
        level=level,
        modifiers=modifiers,
        damage=damage,
        damage_type=damage_type,
        damage_bonus=damage_bonus,
        location=HitLocation(attack.location),
        attack_kind=attack_kind,
        choices=choices,
        defence_maneuver=row,
        kind=kind,
    )
