"""Defence: the three active defences and the passive one (canon §4.6–4.7; book p. 98–99).

The defender rolls 3d6 against passive defence plus one active defence (§4.6). This module
also says what each active defence is good against, how many of each a round allows (§4.7,
§4.3 All-Out Defense, §4.14 the fencer with a dagger), Retreat (§9 item 2, p. 109), an
animal's dodge, weapons breaking on a parry (p. 74 and 99) and parrying a bare-handed blow.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction

from gurps._validate import (
    check_attribute,
    require_at_least,
    require_exact_non_negative,
    require_int,
)
from gurps.checks import RollKind, SuccessRoll, roll_success, success_outcome
from gurps.dice import DiceExpression, RandomSource, three_d6_distribution
from gurps.errors import (
    BLOCKS_EXHAUSTED,
    BREAK_BY_QUALITY_ONLY_FOR_SWORDS,
    BREAK_CHANCE_NOT_IN_SIXTHS,
    DAGGER_ONLY_PARRIES,
    DAGGER_PARRIES_EXHAUSTED,
    DAGGER_PARRY_NEEDS_FENCING,
    FENCING_PARRIES_EXHAUSTED,
    NEGATIVE_MOVE,
    NEGATIVE_PD,
    NEGATIVE_SKILL,
    NEGATIVE_WEAPON_WEIGHT,
    NO_DAGGER_PARRY,
    NO_DEFENCE_CHOSEN,
    NO_RETREAT,
    ONE_DEFENCE_PER_ATTACK,
    PARRIES_EXHAUSTED,
    RETREAT_ONCE_PER_ROUND,
    SAME_DEFENCE_TWICE,
    UNKNOWN_ACTIVE_DEFENCE,
    UNKNOWN_ATTACK_KIND,
    UNKNOWN_NO_DEFENCE_CAUSE,
    UNKNOWN_PARRY_KIND,
    UNKNOWN_WEAPON_QUALITY,
    WEAPON_WEIGHT_NOT_A_NUMBER,
    WEAPON_WEIGHT_ZERO,
    InvalidValue,
    OutsideCanon,
)
from gurps.tabular import CanonTable, signed


class ParryKind(StrEnum):
    NORMAL = "normal"
    FENCING = "fencing"
    STAFF = "staff"
    KNIFE = "knife"
    THROWN = "thrown"
    THROWN_KNIFE = "thrown_knife"
    FLAIL = "flail"


@dataclass(frozen=True)
class ParryRule:
    """Parry = floor(weapon skill × ``fraction``) + ``adjustment`` (§4.7, p. 99)."""

    kind: ParryKind
    name: str
    fraction: Fraction
    adjustment: int
    section: str = "4.7"
    page: str = "99"


PARRY_RULES: tuple[ParryRule, ...] = (
    ParryRule(ParryKind.NORMAL, "Arma comum", Fraction(1, 2), 0),
    ParryRule(ParryKind.FENCING, "Esgrima", Fraction(2, 3), 0),
    ParryRule(ParryKind.STAFF, "Bastão", Fraction(2, 3), 0),
    ParryRule(ParryKind.KNIFE, "Faca", Fraction(1, 2), -1),
    ParryRule(ParryKind.THROWN, "Arma arremessada", Fraction(1, 2), -1),
    ParryRule(ParryKind.THROWN_KNIFE, "Faca arremessada", Fraction(1, 2), -2),
    ParryRule(ParryKind.FLAIL, "Mangual", Fraction(1, 2), -4),
)

# §4.6 (p. 98): +1 to each active defence; −4 to every active defence.
COMBAT_REFLEXES_BONUS = 1
STUNNED_PENALTY = -4
DEFENCE_SECTION = "4.6"
DEFENCE_PAGE = "98"
# §4.7 (p. 98): Block = ½ Shield skill, rounding down.
BLOCK_FRACTION = Fraction(1, 2)


def parry_rule(kind: ParryKind | str) -> ParryRule:
    """The rule of ``kind`` ("normal", "fencing", ...); unknown raises InvalidValue("parry")."""
    for rule in PARRY_RULES:
        if isinstance(kind, str) and rule.kind == kind.strip().lower():
            return rule
    raise InvalidValue("parry", UNKNOWN_PARRY_KIND)


def _modifiers(combat_reflexes: bool, stunned: bool) -> int:
    return (COMBAT_REFLEXES_BONUS if combat_reflexes else 0) + (STUNNED_PENALTY if stunned else 0)


def dodge(move: int, *, combat_reflexes: bool = False, stunned: bool = False) -> int:
    """Dodge = Move (§2.1, p. 77 and 98), +1 with Combat Reflexes, −4 stunned (§4.6).

    Pass the Move already halved when staggered (README reading: halve first, then +1).
    May be below 1 when stunned: a defence roll of 3 or 4 still passes (§4.6).
    Raises InvalidValue("move") for a negative Move.
    """
    require_at_least("move", move, 0, NEGATIVE_MOVE)
    return move + _modifiers(combat_reflexes, stunned)


def parry(
    skill_level: int,
    kind: ParryKind | str = "normal",
    *,
    combat_reflexes: bool = False,
    stunned: bool = False,
) -> int:
    """floor(weapon skill × ½ or ⅔) + the kind's adjustment, +1 Combat Reflexes, −4 stunned
    (§4.7, p. 99). Raises InvalidValue("skill") if negative, InvalidValue("parry") for an
    unknown kind."""
    require_at_least("skill", skill_level, 0, NEGATIVE_SKILL)
    rule = parry_rule(kind)
    return (
        math.floor(skill_level * rule.fraction)
        + rule.adjustment
        + _modifiers(combat_reflexes, stunned)
    )


def block(shield_skill: int, *, combat_reflexes: bool = False, stunned: bool = False) -> int:
    """floor(Shield skill ÷ 2), +1 Combat Reflexes, −4 stunned (§4.7, p. 98). Skill 14 → 7.
    Raises InvalidValue("shield_skill") if negative."""
    require_at_least("shield_skill", shield_skill, 0, NEGATIVE_SKILL)
    return math.floor(shield_skill * BLOCK_FRACTION) + _modifiers(combat_reflexes, stunned)


def passive_defense(armour_pd: int, shield_pd: int = 0, magic_pd: int = 0) -> int:
    """Armour + shield + magic PD (§4.6, p. 99); it always protects. Raises
    InvalidValue("armour_pd"/"shield_pd"/"magic_pd") for a negative value."""
    require_at_least("armour_pd", armour_pd, 0, NEGATIVE_PD)
    require_at_least("shield_pd", shield_pd, 0, NEGATIVE_PD)
    require_at_least("magic_pd", magic_pd, 0, NEGATIVE_PD)
    return armour_pd + shield_pd + magic_pd


def defence_total(active: int, passive: int) -> int:
    """What the defender rolls against: passive + the chosen active defence (§4.6, p. 98).
    The jurado: Block 7 + shield 2 + mail 3 = 12."""
    return active + passive


# --- §4.6 the defence roll (p. 98) ------------------------------------------------------------


def defence_roll_passes(roll: int, total: int) -> bool:
    """True if a defence roll of ``roll`` (3d6 total, 3..18) against ``total`` (passive plus
    active defence, any whole number, even 0 or below) stops the blow (§4.6, p. 98).

    3 or 4 always pass, even if the total is 1 or 2; 17 or 18 always fail; otherwise a roll
    equal to or below the total passes (``gurps.checks.success_outcome`` of a defence).
    Raises InvalidValue("roll") outside 3..18, InvalidValue("level") for a non-int total.
    """
    return success_outcome(roll, total, RollKind.DEFENCE).is_success


def defence_chance(total: int) -> Fraction:
    """Exact chance that a defence roll against ``total`` stops the blow (§4.6), over the 216
    rolls of 3d6: 3 or 4 always pass, 17 or 18 always fail. Total 10: 135/216; total 0: 4/216.
    Show it with ``gurps.checks.percent_truncated``."""
    require_int("level", total)
    passes = sum(
        ways
        for roll, ways in three_d6_distribution().items()
        if success_outcome(roll, total, RollKind.DEFENCE).is_success
    )
    return Fraction(passes, 216)


def roll_defence(source: RandomSource, total: int) -> SuccessRoll:
    """Roll 3d6 against ``total`` (passive plus active defence) (§4.6, p. 98). A defence is
    rolled at any total, 3 or less included (§1.1); 3 or 4 pass, 17 or 18 fail."""
    return roll_success(source, total, RollKind.DEFENCE)


# --- §4.7 the three active defences: what each is good against --------------------------------


class ActiveDefence(StrEnum):
    DODGE = "dodge"
    BLOCK = "block"
    PARRY = "parry"


class AttackKind(StrEnum):
    """What comes at the defender, in the words of §4.7 and §4.11."""

    HAND_WEAPON = "hand_weapon"  # arma de mão: lâmina, clava, machado, lança, mangual…
    UNARMED = "unarmed"  # golpe de mão limpa: soco, chute
    THROWN = "thrown"  # arremesso
    ARROW = "arrow"  # flecha
    SLING_STONE = "sling_stone"  # pedra de funda
    BULLET = "bullet"  # bala
    BEAM = "beam"  # feixe
    MISSILE_SPELL = "missile_spell"  # mágica de projétil (§4.11 item 5)


# The canon's words for each (§4.7's "Vale" column, §4.11).
ATTACK_KIND_NAMES = {
    AttackKind.HAND_WEAPON: "arma de mão",
    AttackKind.UNARMED: "golpe de mão limpa",
    AttackKind.THROWN: "arremesso",
    AttackKind.ARROW: "flecha",
    AttackKind.SLING_STONE: "pedra de funda",
    AttackKind.BULLET: "bala",
    AttackKind.BEAM: "feixe",
    AttackKind.MISSILE_SPELL: "mágica de projétil",
}


class NoDefenceCause(StrEnum):
    """Attacks against which there is no active defence at all; passive still counts (§4.6)."""

    CRITICAL_HIT = "critical_hit"  # golpe fulminante
    BACKSTAB = "backstab"  # facada pelas costas
    AMBUSH = "ambush"  # emboscada
    TRAP = "trap"  # armadilha


NO_DEFENCE_CAUSE_NAMES: dict[NoDefenceCause, str] = {
    NoDefenceCause.CRITICAL_HIT: "golpe fulminante",
    NoDefenceCause.BACKSTAB: "facada pelas costas",
    NoDefenceCause.AMBUSH: "emboscada",
    NoDefenceCause.TRAP: "armadilha",
}

# §4.3 (p. 96): in All-Out Defense, two different active defences against the same attack.
DEFENCES_PER_ATTACK = 1
DEFENCES_PER_ATTACK_ALL_OUT_DEFENSE = 2
# §4.7 (p. 99): the other parry counts a round; §4.14 (Decision 30): the fencer's dagger.
PARRIES_WITH_TWO_WEAPONS = 2
FENCER_PARRIES = 2
FENCER_PARRIES_ALL_OUT_DEFENSE: int | None = None  # "quantas quiser"
FENCER_DAGGER_PARRIES = 1
FENCER_WITH_DAGGER_DECIDED = "13/09/2026"
# §9 item 2 (p. 109): Retreat, once a round, +3 to any block, parry or dodge.
RETREAT_BONUS = 3
# §4.7: an animal dodges at half Move or half DX, the greater, up to 10.
ANIMAL_DODGE_FRACTION = Fraction(1, 2)
ANIMAL_DODGE_CEILING = 10


@dataclass(frozen=True)
class DefenceRule:
    """One row of the table of §4.7 (p. 98–99), as data and in the canon's words.

    ``valid_against``: the attacks it may stop; ``per_round`` and ``per_round_all_out_defense``
    how many a round (None: unlimited) in a normal turn and in All-Out Defense; ``needs``:
    "shield" or "weapon" ready, or None. The ``*_words`` fields are the canon's cells.
    """

    defence: ActiveDefence
    name: str
    valid_against: frozenset[AttackKind]
    per_round: int | None
    per_round_all_out_defense: int | None
    needs: str | None
    based_on_words: str
    valid_against_words: str
    details_words: str
    section: str = "4.7"
    page: str = "98–99"


DEFENCE_RULES: tuple[DefenceRule, ...] = (
    DefenceRule(
        ActiveDefence.DODGE,
        "Esquiva",
        # "quase tudo que você sabe que vem": reading dodge_almost_anything.
        frozenset(AttackKind),
        per_round=None,
        per_round_all_out_defense=None,
        needs=None,
        based_on_words="Deslocamento",
        valid_against_words="Contra quase tudo que você sabe que vem",
        details_words="A melhor defesa de quem não tem perícia nem escudo.",
    ),
    DefenceRule(
        ActiveDefence.BLOCK,
        "Bloquear",
        # Not bullets nor beams; missile spells by §4.11 item 5; unarmed: reading
        # block_not_against_unarmed.
        frozenset(
            {
                AttackKind.HAND_WEAPON,
                AttackKind.THROWN,
                AttackKind.ARROW,
                AttackKind.SLING_STONE,
                AttackKind.MISSILE_SPELL,
            }
        ),
        per_round=1,
        per_round_all_out_defense=2,
        needs="shield",
        based_on_words="NH de Escudo",
        valid_against_words="Lâmina, clava, machado, lança, arremesso, flecha, pedra de funda",
        details_words="Precisa do escudo preparado. Não bloqueia bala nem feixe.",
    ),
    DefenceRule(
        ActiveDefence.PARRY,
        "Aparar",
        # Hand weapons; a bare-handed blow too (the paragraph of p. 99 on parrying it).
        # Not thrown weapons: reading thrown_weapon_parry_is_the_parrying_weapon.
        frozenset({AttackKind.HAND_WEAPON, AttackKind.UNARMED}),
        per_round=1,
        per_round_all_out_defense=2,
        needs="weapon",
        based_on_words="NH da arma",
        valid_against_words="Só ataques com arma de mão",
        details_words="Precisa da arma preparada.",
    ),
)


def _active_defence(value: ActiveDefence | str) -> ActiveDefence:
    try:
        return ActiveDefence(value)
    except ValueError:
        raise InvalidValue("defence", UNKNOWN_ACTIVE_DEFENCE) from None


def _attack_kind(value: AttackKind | str) -> AttackKind:
    try:
        return AttackKind(value)
    except ValueError:
        raise InvalidValue("attack", UNKNOWN_ATTACK_KIND) from None


def _no_defence_cause(value: NoDefenceCause | str) -> NoDefenceCause:
    try:
        return NoDefenceCause(value)
    except ValueError:
        raise InvalidValue("cause", UNKNOWN_NO_DEFENCE_CAUSE) from None


def defence_rule(defence: ActiveDefence | str) -> DefenceRule:
    """The §4.7 row of ``defence`` ("dodge", "block", "parry"); unknown raises
    InvalidValue("defence")."""
    kind = _active_defence(defence)
    return next(rule for rule in DEFENCE_RULES if rule.defence is kind)


def available_defences(
    attack: AttackKind | str,
    *,
    shield_ready: bool = False,
    weapon_ready: bool = False,
    grappled: bool = False,
    aware: bool = True,
    cause: NoDefenceCause | str | None = None,
) -> frozenset[ActiveDefence]:
    """The active defences that may stop ``attack`` (§4.6–4.7, p. 98–99; §4.11 item 5; §5c).

    Dodge: against anything the defender knows is coming (reading ``dodge_almost_anything``),
    not when grappled (§5c). Block: blades, clubs, axes, spears, thrown weapons, arrows,
    sling stones and missile spells, not bullets nor beams, and only with ``shield_ready``; a
    bare-handed blow is not on the list (reading ``block_not_against_unarmed``). Parry: hand
    weapons only (and a bare-handed blow, p. 99), never a missile spell nor a thrown weapon
    (reading ``thrown_weapon_parry_is_the_parrying_weapon``), only with ``weapon_ready``.
    None at all when ``cause`` is a critical hit, backstab, ambush or trap (§4.6), or when
    the defender does not know the attack is coming (``aware`` False; reading
    ``unaware_no_active_defence``). Passive defence always counts: with no active defence
    the roll is against it alone (``defence_total(0, passive)``).

    How many are left in the round is the business of ``RoundDefences``. Raises
    InvalidValue("attack") or InvalidValue("cause") for an unknown kind.
    """
    kind = _attack_kind(attack)
    if cause is not None:
        _no_defence_cause(cause)
        return frozenset()
    if not aware:
        return frozenset()
    ready = {None: True, "shield": bool(shield_ready), "weapon": bool(weapon_ready)}
    found = {
        rule.defence for rule in DEFENCE_RULES if kind in rule.valid_against and ready[rule.needs]
    }
    if grappled:
        found.discard(ActiveDefence.DODGE)  # §5c: "Quem está agarrado não esquiva."
    return frozenset(found)


def can_defend(
    defence: ActiveDefence | str,
    attack: AttackKind | str,
    *,
    shield_ready: bool = False,
    weapon_ready: bool = False,
    grappled: bool = False,
    aware: bool = True,
    cause: NoDefenceCause | str | None = None,
) -> bool:
    """True if ``defence`` may stop ``attack``; see ``available_defences`` for the rules and
    readings. Raises InvalidValue("defence"/"attack"/"cause") for an unknown kind."""
    kind = _active_defence(defence)
    return kind in available_defences(
        attack,
        shield_ready=shield_ready,
        weapon_ready=weapon_ready,
        grappled=grappled,
        aware=aware,
        cause=cause,
    )


# --- How many a round (§4.7, §4.3, §4.14) ------------------------------------------------------


# Reading "best_defence_when_none_chosen": with no choice of the defender's, the best total
# stands for him (docs/DESIGN.md, invariant 11 (The defender chooses)); a tie goes to the defence
# with the fewest limits.
BEST_DEFENCE_TIE_ORDER = (ActiveDefence.DODGE, ActiveDefence.BLOCK, ActiveDefence.PARRY)


def best_defence(
    options: Iterable[tuple[ActiveDefence | str, int]], *, how_many: int = 1
) -> tuple[ActiveDefence, ...]:
    """The defences that stand for a defender who chose none (§4.1, §4.6): of ``options``
    (each an active defence he may use now, with its level), the highest; ``how_many`` 2 in
    Defesa Total, two different ones (§4.3). Ties go to Dodge, then Block, then Parry
    (reading ``best_defence_when_none_chosen``). Empty when there is no option."""
    ranked = sorted(
        ((_active_defence(kind), level) for kind, level in options),
        key=lambda kv: (-kv[1], BEST_DEFENCE_TIE_ORDER.index(kv[0])),
    )
    chosen: list[ActiveDefence] = []
    for kind, _ in ranked:
        if kind not in chosen:
            chosen.append(kind)
    return tuple(chosen[:how_many])


@dataclass(frozen=True)
class DefenceAllowance:
    """How many of each active defence one defender may make in one round; None = unlimited.

    ``parries`` counts every parry; ``dagger_parries`` how many of them may be with the
    fencer's off-hand dagger of §4.14 (the rest are with the other weapon or weapons; None:
    any of them). ``defences_per_attack``: 2 in All-Out Defense (different ones), else 1.
    """

    dodges: int | None
    blocks: int | None
    parries: int | None
    dagger_parries: int | None = 0
    defences_per_attack: int = DEFENCES_PER_ATTACK
    section: str = "4.7"
    page: str = "99"

    @property
    def weapon_parries(self) -> int | None:
        """Parries allowed with the weapon or weapons other than the §4.14 dagger."""
        if self.parries is None or self.dagger_parries is None:
            return self.parries
        return self.parries - self.dagger_parries

    def limit(self, defence: ActiveDefence | str) -> int | None:
        """How many of ``defence`` a round (None: unlimited)."""
        kind = _active_defence(defence)
        return {
            ActiveDefence.DODGE: self.dodges,
            ActiveDefence.BLOCK: self.blocks,
            ActiveDefence.PARRY: self.parries,
        }[kind]


def defence_allowance(
    *,
    all_out_defense: bool = False,
    fencer: bool = False,
    two_weapons: bool = False,
    fencer_with_dagger: bool = False,
) -> DefenceAllowance:
    """How many dodges, blocks and parries a round (§4.7, p. 99; §4.3; §4.14, Decision 30).

    Dodge: unlimited. Block: 1, 2 in All-Out Defense. Parry: 1; 2 with two weapons (reading
    ``two_weapons_parries_any_hand``); 2 in All-Out Defense (never more, two weapons or not:
    §4.3 "Máximo de dois Aparar e dois Bloquear"); a fencer (Esgrima) parries 2 a turn and
    as many as he likes in All-Out Defense (§4.7 and §4.14 make the fencer the exception to
    §4.3's two). A fencer with a dagger in the off hand (§4.14): 3 in a normal turn — 2 with
    the fencing weapon at ⅔, 1 with the dagger at ½ Knife −1 (``parry(level, "fencing")``,
    ``parry(level, "knife")``); in All-Out Defense still unlimited. All-Out Defense also
    allows two different active defences against the same attack.

    Raises InvalidValue("fencer_with_dagger") if ``fencer_with_dagger`` without ``fencer``:
    the rule is for whoever has Esgrima.
    """
    if fencer_with_dagger and not fencer:
        raise InvalidValue("fencer_with_dagger", DAGGER_PARRY_NEEDS_FENCING)
    dodge_rule, block_rule, parries_rule = (defence_rule(kind) for kind in ActiveDefence)
    if all_out_defense:
        parries = (
            FENCER_PARRIES_ALL_OUT_DEFENSE if fencer else parries_rule.per_round_all_out_defense
        )
        return DefenceAllowance(
            dodges=dodge_rule.per_round_all_out_defense,
            blocks=block_rule.per_round_all_out_defense,
            parries=parries,
            dagger_parries=None if fencer_with_dagger else 0,
            defences_per_attack=DEFENCES_PER_ATTACK_ALL_OUT_DEFENSE,
        )
    if fencer_with_dagger:
        parries, dagger = FENCER_PARRIES + FENCER_DAGGER_PARRIES, FENCER_DAGGER_PARRIES
    else:
        parries, dagger = parries_rule.per_round, 0
        if fencer:
            parries = max(parries, FENCER_PARRIES)
        if two_weapons:
            parries = max(parries, PARRIES_WITH_TWO_WEAPONS)
    return DefenceAllowance(
        dodges=dodge_rule.per_round,
        blocks=block_rule.per_round,
        parries=parries,
        dagger_parries=dagger,
    )


def _exceeds(used: int, limit: int | None) -> bool:
    return limit is not None and used > limit


@dataclass(frozen=True)
class RoundDefences:
    """The active defences one defender has used in the current round, against the
    ``allowance`` of his maneuver. A value: ``defend`` returns the next state and refuses
    what the rules do not allow. Start each round with ``RoundDefences(allowance)``.

    Counts are of defences made (each roll), not of attacks; ``retreated`` is True once the
    defender has retreated this round.
    """

    allowance: DefenceAllowance
    dodges: int = 0
    blocks: int = 0
    parries: int = 0
    dagger_parries: int = 0
    retreated: bool = False

    def remaining(self, defence: ActiveDefence | str) -> int | None:
        """How many of ``defence`` are left this round (None: unlimited)."""
        kind = _active_defence(defence)
        limit = self.allowance.limit(kind)
        if limit is None:
            return None
        used = {
            ActiveDefence.DODGE: self.dodges,
            ActiveDefence.BLOCK: self.blocks,
            ActiveDefence.PARRY: self.parries,
        }[kind]
        return max(0, limit - used)

    def defend(
        self, *defences: ActiveDefence | str, dagger: bool = False, retreat: bool = False
    ) -> RoundDefences:
        """The state after defending one attack with ``defences`` (one, or two different ones
        in All-Out Defense, §4.3). ``dagger``: the parry among them is made with the fencer's
        off-hand dagger (§4.14). ``retreat``: the defender retreats against this attack (+3,
        ``retreat_bonus``), once a round (§9 item 2, p. 109).

        Raises InvalidValue("defence") for no defence, an unknown one, more than one per
        attack outside All-Out Defense, the same one twice, or a block or parry beyond the
        allowance (BLOCKS_EXHAUSTED, PARRIES_EXHAUSTED, FENCING_PARRIES_EXHAUSTED);
        InvalidValue("dagger") for a dagger parry not allowed or beyond its one;
        InvalidValue("retreat") for a second retreat in the round.
        """
        chosen = [_active_defence(defence) for defence in defences]
        allowance = self.allowance
        if not chosen:
            raise InvalidValue("defence", NO_DEFENCE_CHOSEN)
        if len(set(chosen)) != len(chosen):
            raise InvalidValue("defence", SAME_DEFENCE_TWICE)
        if len(chosen) > allowance.defences_per_attack:
            raise InvalidValue("defence", ONE_DEFENCE_PER_ATTACK)
        if retreat and self.retreated:
            raise InvalidValue("retreat", RETREAT_ONCE_PER_ROUND)
        parrying = ActiveDefence.PARRY in chosen
        if dagger and not parrying:
            raise InvalidValue("dagger", DAGGER_ONLY_PARRIES)
        if dagger and allowance.dagger_parries == 0:
            raise InvalidValue("dagger", NO_DAGGER_PARRY)
        after = replace(
            self,
            dodges=self.dodges + (ActiveDefence.DODGE in chosen),
            blocks=self.blocks + (ActiveDefence.BLOCK in chosen),
            parries=self.parries + parrying,
            dagger_parries=self.dagger_parries + (parrying and dagger),
            retreated=self.retreated or retreat,
        )
        if _exceeds(after.blocks, allowance.blocks):
            raise InvalidValue("defence", BLOCKS_EXHAUSTED.format(limit=allowance.blocks))
        if _exceeds(after.dagger_parries, allowance.dagger_parries):
            raise InvalidValue(
                "dagger", DAGGER_PARRIES_EXHAUSTED.format(limit=allowance.dagger_parries)
            )
        if allowance.dagger_parries and _exceeds(
            after.parries - after.dagger_parries, allowance.weapon_parries
        ):
            raise InvalidValue(
                "defence", FENCING_PARRIES_EXHAUSTED.format(limit=allowance.weapon_parries)
            )
        if _exceeds(after.parries, allowance.parries):
            raise InvalidValue("defence", PARRIES_EXHAUSTED.format(limit=allowance.parries))
        return after


# --- Retreat (§9 item 2, p. 109) --------------------------------------------------------------


def can_retreat(*, sitting: bool = False, kneeling: bool = False, stunned: bool = False) -> bool:
    """True unless sitting, kneeling or stunned (§9 item 2, p. 109). Anyone may retreat, not
    only a fencer; once a round (``RoundDefences.defend(..., retreat=True)``)."""
    return not (sitting or kneeling or stunned)


def retreat_bonus(*, sitting: bool = False, kneeling: bool = False, stunned: bool = False) -> int:
    """+3 to any block, parry or dodge for stepping back one metre from the attacker (§9
    item 2, p. 109). Raises InvalidValue("retreat") if sitting, kneeling or stunned."""
    if not can_retreat(sitting=sitting, kneeling=kneeling, stunned=stunned):
        raise InvalidValue("retreat", NO_RETREAT)
    return RETREAT_BONUS


# --- Animal dodge (§4.7) ----------------------------------------------------------------------


def animal_dodge(
    move: int, dx: int, *, combat_reflexes: bool = False, stunned: bool = False
) -> int:
    """An animal's Dodge: half Move or half DX, whichever is greater, rounding down, at most
    10 (§4.7; reading ``animal_dodge_rounds_down``); then +1 Combat Reflexes, −4 stunned
    (§4.6). Move 14, DX 12 → 7; Move 24 → 10.

    ``move`` in metres a second, 0 or more (pass it halved when staggered, §5.4); ``dx`` 1 or
    more. Raises InvalidValue("move"/"dx").
    """
    require_at_least("move", move, 0, NEGATIVE_MOVE)
    check_attribute("dx", dx)
    half = max(math.floor(move * ANIMAL_DODGE_FRACTION), math.floor(dx * ANIMAL_DODGE_FRACTION))
    return min(half, ANIMAL_DODGE_CEILING) + _modifiers(combat_reflexes, stunned)


# --- Weapons breaking on a parry (§4.7, p. 74 and 99) ------------------------------------------


class WeaponQuality(StrEnum):
    CHEAP = "cheap"  # barata
    STANDARD = "standard"  # comum
    FINE = "fine"  # de qualidade superior
    VERY_FINE = "very_fine"  # de altíssima qualidade


@dataclass(frozen=True)
class ParryBreakRule:
    """The chance that the parrying weapon breaks, when the weapon that comes weighs 3 times
    or more than it (§4.7, p. 74 and 99). ``swords_only``: the canon gives the chance for a
    sword of this quality only. ``words`` are the canon's."""

    quality: WeaponQuality
    words: str
    chance: Fraction
    swords_only: bool
    section: str = "4.7"
    page: str = "74 e 99"


PARRY_BREAK_RULES: tuple[ParryBreakRule, ...] = (
    ParryBreakRule(WeaponQuality.STANDARD, "Arma que apara", Fraction(1, 3), swords_only=False),
    ParryBreakRule(WeaponQuality.CHEAP, "Espada barata", Fraction(2, 3), swords_only=True),
    ParryBreakRule(
        WeaponQuality.FINE, "Espada de qualidade superior", Fraction(1, 6), swords_only=True
    ),
    ParryBreakRule(
        WeaponQuality.VERY_FINE, "Espada de altíssima qualidade", Fraction(0), swords_only=True
    ),
)
# §4.7: "se a arma que vem pesa 3 vezes ou mais que a sua".
PARRY_BREAK_WEIGHT_RATIO = 3


def _weapon_quality(value: WeaponQuality | str) -> WeaponQuality:
    try:
        return WeaponQuality(value)
    except ValueError:
        raise InvalidValue("quality", UNKNOWN_WEAPON_QUALITY) from None


def _weight(field: str, value: object) -> Fraction:
    return require_exact_non_negative(
        field, value, WEAPON_WEIGHT_NOT_A_NUMBER, NEGATIVE_WEAPON_WEIGHT
    )


def parry_break_chance(
    incoming_kg: object,
    own_kg: object,
    *,
    quality: WeaponQuality | str = WeaponQuality.STANDARD,
    sword: bool = False,
) -> Fraction:
    """The chance that the parrying weapon breaks (§4.7, p. 74 and 99; reading
    ``parry_break_weight_and_quality``): 0 unless the weapon that comes weighs 3 times or
    more than the parrying one; then 1/3, or for a sword by its quality: cheap 2/3, fine 1/6,
    very fine never (0).

    ``incoming_kg`` and ``own_kg`` in kg (int, Fraction, float or "1,5"), the parrying
    weapon's above 0. Raises InvalidValue("incoming_kg"/"own_kg"/"quality"), and
    OutsideCanon("4.7") for a cheap, fine or very fine weapon that is not a sword.
    """
    incoming = _weight("incoming_kg", incoming_kg)
    own = _weight("own_kg", own_kg)
    if own == 0:
        raise InvalidValue("own_kg", WEAPON_WEIGHT_ZERO)
    kind = _weapon_quality(quality)
    rule = next(rule for rule in PARRY_BREAK_RULES if rule.quality is kind)
    if rule.swords_only and not sword:
        raise OutsideCanon("4.7", BREAK_BY_QUALITY_ONLY_FOR_SWORDS)
    if incoming < PARRY_BREAK_WEIGHT_RATIO * own:
        return Fraction(0)
    return rule.chance


@dataclass(frozen=True)
class ParryBreakRoll:
    """A roll of 1d for a weapon breaking: ``die`` None when the chance is 0 (no roll)."""

    chance: Fraction
    die: int | None
    breaks: bool


def roll_parry_break(source: RandomSource, chance: Fraction) -> ParryBreakRoll:
    """Roll 1d for ``chance`` (a ``parry_break_chance``): it breaks on a die of 6 × chance or
    less — 1/3 on 1–2, 2/3 on 1–4, 1/6 on 1. A chance of 0 rolls nothing.
    Raises InvalidValue("chance") for a chance outside 0..1 or not in sixths."""
    try:
        value = Fraction(chance)
    except (TypeError, ValueError):
        raise InvalidValue("chance", BREAK_CHANCE_NOT_IN_SIXTHS) from None
    sixths = value * 6
    if isinstance(chance, bool) or not 0 <= value <= 1 or sixths.denominator != 1:
        raise InvalidValue("chance", BREAK_CHANCE_NOT_IN_SIXTHS)
    if value == 0:
        return ParryBreakRoll(value, None, False)
    _faces, die = DiceExpression(1).roll(source)
    return ParryBreakRoll(value, die, die <= sixths)


# --- Parrying a bare-handed blow with a weapon (§4.7, p. 99) -----------------------------------


def unarmed_parry_injures(roll: int, weapon_skill: int) -> bool:
    """After parrying a bare-handed blow with a weapon, the parrier rolls again against the
    weapon skill (§4.7, p. 99): True on a success — the attacker takes the weapon's normal
    damage. ``roll`` 3..18; ``weapon_skill`` the effective level. Raises InvalidValue("roll")."""
    return success_outcome(roll, weapon_skill, RollKind.SKILL).is_success


@dataclass(frozen=True)
class UnarmedParryInjury:
    """The roll against the weapon skill after parrying a bare-handed blow; ``injures``: the
    attacker takes the weapon's normal damage (roll it with ``gurps.damage``)."""

    roll: SuccessRoll
    injures: bool


def roll_unarmed_parry_injury(source: RandomSource, weapon_skill: int) -> UnarmedParryInjury:
    """Roll 3d6 against ``weapon_skill`` after parrying a bare-handed blow (§4.7, p. 99). It is
    a skill roll, not a defence: at effective level 3 or less it raises NoRollAtThreeOrLess
    (§1.1)."""
    roll = roll_success(source, weapon_skill, RollKind.SKILL)
    return UnarmedParryInjury(roll, roll.outcome.is_success)


# --- The canon's tables -----------------------------------------------------------------------

_FRACTION_GLYPHS = {Fraction(1, 2): "½", Fraction(2, 3): "⅔"}


def _per_round_words(rule: DefenceRule) -> str:
    if rule.defence is ActiveDefence.DODGE:
        return "Ilimitadas"
    text = f"{rule.per_round} ("
    if rule.defence is ActiveDefence.PARRY:
        text += f"{PARRIES_WITH_TWO_WEAPONS} com duas armas, "
    text += f"{rule.per_round_all_out_defense} em Defesa Total"
    if rule.defence is ActiveDefence.PARRY:
        text += f"; esgrimista apara {FENCER_PARRIES} por turno, e quantas quiser em Defesa Total"
    return text + ")"


def _based_on_words(rule: DefenceRule) -> str:
    if rule.defence is ActiveDefence.BLOCK:
        return f"{rule.name} = {_FRACTION_GLYPHS[BLOCK_FRACTION]} {rule.based_on_words}"
    if rule.defence is ActiveDefence.PARRY:
        normal, fencing = parry_rule(ParryKind.NORMAL), parry_rule(ParryKind.FENCING)
        return (
            f"{rule.name} = {_FRACTION_GLYPHS[normal.fraction]} {rule.based_on_words} "
            f"({_FRACTION_GLYPHS[fencing.fraction]} com Esgrima ou Bastão)"
        )
    return f"{rule.name} = {rule.based_on_words}"


def _details_words(rule: DefenceRule) -> str:
    if rule.defence is ActiveDefence.DODGE:
        return (
            f"{rule.details_words} Animal esquiva com metade do Deslocamento ou metade da DX, "
            f"o que for maior, teto {ANIMAL_DODGE_CEILING}."
        )
    if rule.defence is ActiveDefence.PARRY:
        adjustment = {kind: signed(parry_rule(kind).adjustment) for kind in ParryKind}
        return (
            f"{rule.details_words} Faca apara a {adjustment[ParryKind.KNIFE]}. "
            f"Arma arremessada apara a {adjustment[ParryKind.THROWN]}; faca arremessada, "
            f"{adjustment[ParryKind.THROWN_KNIFE]}. "
            f"Mangual apara a {adjustment[ParryKind.FLAIL]}."
        )
    return rule.details_words


def _chance_words(chance: Fraction) -> str:
    return "nunca" if chance == 0 else f"{chance.numerator}/{chance.denominator}"


CANON_TABLES: tuple[CanonTable, ...] = (
    CanonTable(
        key="active_defences",
        title="As três defesas ativas",
        section="4.7",
        page="98–99",
        columns=("Defesa", "Vale", "Quantas por rodada", "Detalhes"),
        rows=tuple(
            (
                _based_on_words(rule),
                rule.valid_against_words,
                _per_round_words(rule),
                _details_words(rule),
            )
            for rule in DEFENCE_RULES
        ),
        heading="## 4.7 As três defesas ativas",
        note="Defesa total do defensor = Defesa Passiva + a defesa ativa escolhida (§4.6).",
    ),
    CanonTable(
        key="parry_break",
        title="Quebra de arma ao aparar",
        section="4.7",
        page="74 e 99",
        columns=("Arma", "Chance de quebrar"),
        rows=tuple((rule.words, _chance_words(rule.chance)) for rule in PARRY_BREAK_RULES),
        note=(
            f"Só quando a arma que vem pesa {PARRY_BREAK_WEIGHT_RATIO} vezes ou mais que a "
            "sua. Rola-se 1d."
        ),
    ),
    CanonTable(
        key="fencer_with_dagger",
        title="Esgrimista com adaga — três aparadas por rodada",
        section="4.14",
        page="",
        columns=("Com", "Aparadas por rodada", "Nível"),
        rows=(
            (
                "a arma de esgrima",
                str(FENCER_PARRIES),
                f"{_FRACTION_GLYPHS[parry_rule(ParryKind.FENCING).fraction]} do nível",
            ),
            (
                "a adaga",
                str(FENCER_DAGGER_PARRIES),
                f"{_FRACTION_GLYPHS[parry_rule(ParryKind.KNIFE).fraction]} do nível em Faca, "
                f"{signed(parry_rule(ParryKind.KNIFE).adjustment)}",
            ),
        ),
        decided=FENCER_WITH_DAGGER_DECIDED,
        note="Com Defesa Total o esgrimista já era ilimitado em aparadas.",
    ),
)
