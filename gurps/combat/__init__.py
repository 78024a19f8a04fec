"""Combat: the turn and the attack (canon §4.1–4.5, §4.10–4.11, §5c–5e; book p. 95–105, 201).

One module per section of the canon: ``turns`` (§4.2 turn order), ``maneuvers`` (§4.3, and
the defences each leaves), ``weapons`` (readiness, §4.3 notes), ``aim``, ``feints``,
``dropped_weapons`` (§4.8 head 14), ``close_combat`` (§5c), ``terrains`` (§5d), ``surprise``
(§5e), ``modifiers`` (§4.5), ``sequence`` (§4.10: the Mestre's table as data, and
``resolve_attack``, one function a step) and ``pages`` (the rules pages' tables). Distances
are metres (one hex is one metre, as §4.3 counts a step); Move, skills and defences are
levels.

Callers use the package (``from gurps import combat as engine``; ``engine.resolve_attack``):
it re-exports every name the single ``gurps.combat`` module had, the ones it took from other
engine modules included (``engine.AttackKind``), so no caller changed with the split.
"""

from __future__ import annotations

from gurps._validate import check_attribute, require_at_least, require_int
from gurps.attributes import is_staggered
from gurps.checks import (
    NO_ROLL_AT_OR_BELOW,
    OUTCOME_NAMES,
    Outcome,
    RollKind,
    SuccessRoll,
    ensure_rollable,
    quick_contest,
    roll_success,
)
from gurps.combat.aim import AimState
from gurps.combat.close_combat import (
    GRAPPLED_DEFENCES,
    LEAVING_CLOSE_COMBAT_NEEDS_EVADING,
    GrappleResult,
    GrappleStage,
    close_combat_defences,
    close_combat_modifier,
    grapple_contest,
)
from gurps.combat.dropped_weapons import (
    DROPPED_WEAPON_DRAW_MAX,
    DROPPED_WEAPON_DRAW_TOO_MANY,
    DroppedWeaponDraw,
    draw_dropped_weapon,
)
from gurps.combat.feints import FeintResult, feint
from gurps.combat.maneuvers import (
    AIM_MAX_METRES_AFTER_FIRST_TURN,
    ALL_ACTIVE_DEFENCES,
    ALL_OUT_ATTACK_DAMAGE_BONUS,
    ALL_OUT_ATTACK_DOUBLE_ATTACKS,
    ALL_OUT_ATTACK_MIN_METRES,
    ALL_OUT_ATTACK_OPTIONS,
    ALL_OUT_ATTACK_SKILL_BONUS,
    ALL_OUT_DEFENSE_MAX_BLOCKS,
    ALL_OUT_DEFENSE_MAX_PARRIES,
    ALL_OUT_DEFENSE_ROLLS,
    ANY_DEFENCE_TEXT,
    CONCENTRATION_WILL_MODIFIER,
    HALF,
    LYING_TO_STANDING_TURNS,
    MANEUVER_NOTES,
    MANEUVERS,
    RELOADING_DEFENCES,
    STEP_METRES,
    AllOutAttackOption,
    AllOutAttackRow,
    DefencesLeft,
    Maneuver,
    ManeuverRow,
    all_out_attack,
    defences_left,
    maneuver_movement,
    maneuver_row,
)
from gurps.combat.modifiers import (
    ATTACK_SITUATIONS,
    AnnouncedModifier,
    AttackModifiers,
    AttackSituation,
    SituationRule,
    attack_modifiers,
    attack_situation,
)
from gurps.combat.pages import CANON_TABLES
from gurps.combat.sequence.attack_steps import RANGED_ATTACK_KINDS
from gurps.combat.sequence.inputs import (
    ATTACK_MANEUVERS,
    AttackInput,
    DefenceChoice,
    DefenceInput,
    TargetInput,
)
from gurps.combat.sequence.plan import Plan, plan_attack
from gurps.combat.sequence.resolve import resolve_attack
from gurps.combat.sequence.results import AttackResolution, Consequences, SequenceStep
from gurps.combat.sequence.table import (
    COMBAT_SEQUENCE,
    COMBAT_SEQUENCE_NOTES,
    CombatStep,
    StepNumber,
)
from gurps.combat.surprise import (
    COMBAT_REFLEXES_SURPRISE_BONUS,
    PARTIAL_SURPRISE_TURNS_LOST,
    Surprise,
    SurpriseRoll,
    acts_this_turn,
    total_surprise_roll,
)
from gurps.combat.terrains import (
    TERRAINS,
    WAIST_DEEP_WATER_SWING_MODIFIER,
    Terrain,
    TerrainEffects,
    TerrainRow,
    declared_in_time,
    terrain,
    terrain_effects,
    terrain_move,
)
from gurps.combat.turns import (
    TIE_BREAK_NAMES,
    TURN_ORDER_TIE_BREAK_DECIDED,
    Combatant,
    InitiativeRoll,
    SimpleTurnOrder,
    TieBreak,
    fight_seconds,
    simple_turn_order,
    tie_break,
    turn_order,
)
from gurps.combat.weapons import (
    CLOSE_COMBAT_PENALTY,
    READY_TURNS_AFTER_ATTACK,
    WEAPON_CLASSES,
    CloseCombatUse,
    Readiness,
    WeaponClass,
    WeaponClassRow,
    WeaponReadiness,
    needs_ready_after_attack,
    weapon_class,
)
from gurps.damage import DAMAGE_TYPE_NAMES, DamageType, Wound, wound, wound_multiplier
from gurps.defence import (
    STUNNED_PENALTY,
    ActiveDefence,
    AttackKind,
    available_defences,
    defence_rule,
    roll_defence,
)
from gurps.dice import DiceExpression, RandomSource, parse_dice
from gurps.errors import (
    AIM_TURN_REQUIRED,
    ALL_OUT_OPTION_REQUIRED,
    ALL_OUT_OPTION_WITHOUT_ALL_OUT_ATTACK,
    AMOUNT_NOT_USED,
    AMOUNT_REQUIRED,
    BAD_DAMAGE,
    BASIC_SPEED_NOT_A_NUMBER,
    CLOSE_COMBAT_NOT_IN_CANON,
    DEFENCE_NOT_AVAILABLE,
    DEFENCE_NOT_LEFT_BY_MANEUVER,
    DOUBLE_ATTACK_NEEDS_WEAPONS,
    DUPLICATE_ATTACK_SITUATION,
    DUPLICATE_COMBATANT_NAME,
    DUPLICATE_DECLARATION_ORDER,
    EMPTY_COMBATANT_NAME,
    FIXED_MODIFIER,
    MODIFIER_OUT_OF_RANGE,
    NEGATIVE_AIM_TURNS,
    NEGATIVE_DR,
    NEGATIVE_FEINT_PENALTY,
    NEGATIVE_HP_LOST,
    NEGATIVE_MOVE,
    NEGATIVE_PD,
    NEGATIVE_READY_WEAPONS,
    NEGATIVE_WILL_LEVEL,
    NO_COMBATANTS,
    NOT_A_MODIFIER,
    NOT_AN_ATTACK_MANEUVER,
    ONE_DEFENCE_PER_ATTACK,
    READINESS_NOT_IN_CANON,
    RELOAD_ONLY_WITH_READY,
    SAME_DEFENCE_TWICE,
    TERRAIN_MOVE_STACKING_NOT_IN_CANON,
    TURN_TOO_LOW,
    UNARMED_HAS_NO_WEAPON,
    UNKNOWN_ALL_OUT_ATTACK_OPTION,
    UNKNOWN_ATTACK_KIND,
    UNKNOWN_ATTACK_SITUATION,
    UNKNOWN_GRAPPLE_STAGE,
    UNKNOWN_HIT_LOCATION,
    UNKNOWN_MANEUVER,
    UNKNOWN_SURPRISE,
    UNKNOWN_TERRAIN,
    UNKNOWN_WEAPON_CLASS,
    InvalidDiceExpression,
    InvalidValue,
    OutsideCanon,
)
from gurps.hit_locations import ArmSide, HitLocation, hit_location_penalty
from gurps.house import (
    HOUSE_SETTINGS,
    CombatantKind,
    death_rule,
    house_death_checks,
    is_out_of_the_fight,
)
from gurps.injury import (
    STUN_SOURCES,
    UNAWARE_TARGET_HIT_BONUS,
    KnockoutCheck,
    StunCause,
    body_may_be_destroyed,
    crippling_effects,
    is_crippled,
    is_dead,
    is_major_wound,
    knockout_check,
    limb_hp_lost,
    major_wound,
    shock_penalty,
    stun_causes,
    turn_start_ht_roll,
)
from gurps.ranged import FIGURE_IN_THE_WAY_PENALTY, MAX_EXTRA_AIM_BONUS, UNAIMED_PENALTY, aim_bonus
from gurps.rolling import Modifier
from gurps.tables import (
    BASIC_DAMAGE_MULTIPLIERS,
    CRITICAL_HEAD,
    CRITICAL_HIT,
    CRITICAL_MISS,
    HEAD_FIXED_HP,
    HEAD_LOCATIONS,
    HeadEffect,
    HitEffect,
    TableRoll,
    roll_on_table,
)
from gurps.tabular import CanonTable, signed

__all__ = [
    # turns
    "TIE_BREAK_NAMES",
    "TURN_ORDER_TIE_BREAK_DECIDED",
    "Combatant",
    "InitiativeRoll",
    "SimpleTurnOrder",
    "TieBreak",
    "fight_seconds",
    "simple_turn_order",
    "tie_break",
    "turn_order",
    # maneuvers
    "AIM_MAX_METRES_AFTER_FIRST_TURN",
    "ALL_ACTIVE_DEFENCES",
    "ALL_OUT_ATTACK_DAMAGE_BONUS",
    "ALL_OUT_ATTACK_DOUBLE_ATTACKS",
    "ALL_OUT_ATTACK_MIN_METRES",
    "ALL_OUT_ATTACK_OPTIONS",
    "ALL_OUT_ATTACK_SKILL_BONUS",
    "ALL_OUT_DEFENSE_MAX_BLOCKS",
    "ALL_OUT_DEFENSE_MAX_PARRIES",
    "ALL_OUT_DEFENSE_ROLLS",
    "ANY_DEFENCE_TEXT",
    "CONCENTRATION_WILL_MODIFIER",
    "HALF",
    "LYING_TO_STANDING_TURNS",
    "MANEUVERS",
    "MANEUVER_NOTES",
    "RELOADING_DEFENCES",
    "STEP_METRES",
    "AllOutAttackOption",
    "AllOutAttackRow",
    "DefencesLeft",
    "Maneuver",
    "ManeuverRow",
    "all_out_attack",
    "defences_left",
    "maneuver_movement",
    "maneuver_row",
    # weapons
    "CLOSE_COMBAT_PENALTY",
    "READY_TURNS_AFTER_ATTACK",
    "WEAPON_CLASSES",
    "CloseCombatUse",
    "Readiness",
    "WeaponClass",
    "WeaponClassRow",
    "WeaponReadiness",
    "needs_ready_after_attack",
    "weapon_class",
    # aim
    "AimState",
    # feints
    "FeintResult",
    "feint",
    # dropped_weapons
    "DROPPED_WEAPON_DRAW_MAX",
    "DROPPED_WEAPON_DRAW_TOO_MANY",
    "DroppedWeaponDraw",
    "draw_dropped_weapon",
    # close_combat
    "GRAPPLED_DEFENCES",
    "LEAVING_CLOSE_COMBAT_NEEDS_EVADING",
    "GrappleResult",
    "GrappleStage",
    "close_combat_defences",
    "close_combat_modifier",
    "grapple_contest",
    # terrains
    "TERRAINS",
    "WAIST_DEEP_WATER_SWING_MODIFIER",
    "Terrain",
    "TerrainEffects",
    "TerrainRow",
    "declared_in_time",
    "terrain",
    "terrain_effects",
    "terrain_move",
    # surprise
    "COMBAT_REFLEXES_SURPRISE_BONUS",
    "PARTIAL_SURPRISE_TURNS_LOST",
    "Surprise",
    "SurpriseRoll",
    "acts_this_turn",
    "total_surprise_roll",
    # modifiers
    "ATTACK_SITUATIONS",
    "AnnouncedModifier",
    "AttackModifiers",
    "AttackSituation",
    "SituationRule",
    "attack_modifiers",
    "attack_situation",
    # sequence.table
    "COMBAT_SEQUENCE",
    "COMBAT_SEQUENCE_NOTES",
    "CombatStep",
    "StepNumber",
    # sequence.inputs
    "ATTACK_MANEUVERS",
    "AttackInput",
    "DefenceChoice",
    "DefenceInput",
    "TargetInput",
    # sequence.results
    "AttackResolution",
    "Consequences",
    "SequenceStep",
    # sequence.attack_steps
    "RANGED_ATTACK_KINDS",
    # sequence.plan
    "Plan",
    "plan_attack",
    # sequence.resolve
    "resolve_attack",
    # pages
    "CANON_TABLES",
    # Taken from other engine modules by the single gurps.combat, kept for its callers.
    # gurps._validate
    "check_attribute",
    "require_at_least",
    "require_int",
    # gurps.attributes
    "is_staggered",
    # gurps.checks
    "NO_ROLL_AT_OR_BELOW",
    "OUTCOME_NAMES",
    "Outcome",
    "RollKind",
    "SuccessRoll",
    "ensure_rollable",
    "quick_contest",
    "roll_success",
    # gurps.damage
    "DAMAGE_TYPE_NAMES",
    "DamageType",
    "Wound",
    "wound",
    "wound_multiplier",
    # gurps.defence
    "ActiveDefence",
    "AttackKind",
    "STUNNED_PENALTY",
    "available_defences",
    "defence_rule",
    "roll_defence",
    # gurps.dice
    "DiceExpression",
    "RandomSource",
    "parse_dice",
    # gurps.errors
    "AIM_TURN_REQUIRED",
    "ALL_OUT_OPTION_REQUIRED",
    "ALL_OUT_OPTION_WITHOUT_ALL_OUT_ATTACK",
    "AMOUNT_NOT_USED",
    "AMOUNT_REQUIRED",
    "BAD_DAMAGE",
    "BASIC_SPEED_NOT_A_NUMBER",
    "CLOSE_COMBAT_NOT_IN_CANON",
    "DEFENCE_NOT_AVAILABLE",
    "DEFENCE_NOT_LEFT_BY_MANEUVER",
    "DOUBLE_ATTACK_NEEDS_WEAPONS",
    "DUPLICATE_ATTACK_SITUATION",
    "DUPLICATE_COMBATANT_NAME",
    "DUPLICATE_DECLARATION_ORDER",
    "EMPTY_COMBATANT_NAME",
    "FIXED_MODIFIER",
    "InvalidDiceExpression",
    "InvalidValue",
    "MODIFIER_OUT_OF_RANGE",
    "NEGATIVE_AIM_TURNS",
    "NEGATIVE_DR",
    "NEGATIVE_FEINT_PENALTY",
    "NEGATIVE_HP_LOST",
    "NEGATIVE_MOVE",
    "NEGATIVE_PD",
    "NEGATIVE_READY_WEAPONS",
    "NEGATIVE_WILL_LEVEL",
    "NOT_AN_ATTACK_MANEUVER",
    "NOT_A_MODIFIER",
    "NO_COMBATANTS",
    "ONE_DEFENCE_PER_ATTACK",
    "OutsideCanon",
    "READINESS_NOT_IN_CANON",
    "RELOAD_ONLY_WITH_READY",
    "SAME_DEFENCE_TWICE",
    "TERRAIN_MOVE_STACKING_NOT_IN_CANON",
    "TURN_TOO_LOW",
    "UNARMED_HAS_NO_WEAPON",
    "UNKNOWN_ALL_OUT_ATTACK_OPTION",
    "UNKNOWN_ATTACK_KIND",
    "UNKNOWN_ATTACK_SITUATION",
    "UNKNOWN_GRAPPLE_STAGE",
    "UNKNOWN_HIT_LOCATION",
    "UNKNOWN_MANEUVER",
    "UNKNOWN_SURPRISE",
    "UNKNOWN_TERRAIN",
    "UNKNOWN_WEAPON_CLASS",
    # gurps.hit_locations
    "ArmSide",
    "HitLocation",
    "hit_location_penalty",
    # gurps.house
    "CombatantKind",
    "HOUSE_SETTINGS",
    "death_rule",
    "house_death_checks",
    "is_out_of_the_fight",
    # gurps.injury
    "KnockoutCheck",
    "STUN_SOURCES",
    "StunCause",
    "UNAWARE_TARGET_HIT_BONUS",
    "body_may_be_destroyed",
    "crippling_effects",
    "is_crippled",
    "is_dead",
    "is_major_wound",
    "knockout_check",
    "limb_hp_lost",
    "major_wound",
    "shock_penalty",
    "stun_causes",
    "turn_start_ht_roll",
    # gurps.ranged
    "FIGURE_IN_THE_WAY_PENALTY",
    "MAX_EXTRA_AIM_BONUS",
    "UNAIMED_PENALTY",
    "aim_bonus",
    # gurps.rolling
    "Modifier",
    # gurps.tables
    "BASIC_DAMAGE_MULTIPLIERS",
    "CRITICAL_HEAD",
    "CRITICAL_HIT",
    "CRITICAL_MISS",
    "HEAD_FIXED_HP",
    "HEAD_LOCATIONS",
    "HeadEffect",
    "HitEffect",
    "TableRoll",
    "roll_on_table",
    # gurps.tabular
    "CanonTable",
    "signed",
]
