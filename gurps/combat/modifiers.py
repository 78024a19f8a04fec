"""Attack modifiers (canon §4.5, book p. 97), with the few of §4.11, §5c, §5d and §5e: the
situations the Mestre announces before the attack roll (§1.4), checked and summed. Modifiers
are levels added to the weapon skill.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from gurps.combat.shared import enum_member
from gurps.combat.terrains import WAIST_DEEP_WATER_SWING_MODIFIER
from gurps.combat.weapons import CLOSE_COMBAT_PENALTY
from gurps.errors import (
    AMOUNT_NOT_USED,
    AMOUNT_REQUIRED,
    DUPLICATE_ATTACK_SITUATION,
    FIXED_MODIFIER,
    MODIFIER_OUT_OF_RANGE,
    UNKNOWN_ATTACK_SITUATION,
    InvalidValue,
)
from gurps.injury import UNAWARE_TARGET_HIT_BONUS
from gurps.ranged import FIGURE_IN_THE_WAY_PENALTY, UNAIMED_PENALTY
from gurps.rolling import Modifier
from gurps.tabular import signed


class AttackSituation(StrEnum):
    # §4.5, in the canon's order
    POOR_LIGHTING = "poor_lighting"
    TOTAL_DARKNESS = "total_darkness"
    BAD_FOOTING = "bad_footing"
    AWKWARD_POSITION = "awkward_position"
    BLIND = "blind"
    SUDDENLY_BLIND = "suddenly_blind"
    CRAWLING = "crawling"
    CROUCHING_OR_SITTING = "crouching_or_sitting"
    OFF_HAND = "off_hand"
    LARGE_SHIELD = "large_shield"
    BELOW_MINIMUM_ST = "below_minimum_st"
    WOUND = "wound"
    # §4.11, §5c, §5d, §5e
    UNAIMED_RANGED = "unaimed_ranged"
    FIGURES_IN_THE_WAY = "figures_in_the_way"
    TARGET_LOW = "target_low"
    CLOSE_COMBAT_WEAPON = "close_combat_weapon"
    SWING_IN_WAIST_DEEP_WATER = "swing_in_waist_deep_water"
    UNSEEN_STATIONARY_TARGET = "unseen_stationary_target"


@dataclass(frozen=True)
class SituationRule:
    """One attack modifier: its name (the canon's "Situação" cell) and how its number is
    found. Exactly one of: ``fixed`` (that modifier; ``zero_if_ambidextrous`` for the off
    hand); a range ``mildest`` … ``worst`` (``worst`` None: "ou pior", no limit) which the
    Mestre announces; or ``per_unit`` times an announced amount (points of ST, HP lost,
    figures). ``unit`` is the canon's words after the per-unit number; ``text`` replaces the
    generated cell where the canon writes it in words."""

    situation: AttackSituation
    name: str
    fixed: int | None = None
    mildest: int | None = None
    worst: int | None = None
    per_unit: int | None = None
    unit: str = ""
    zero_if_ambidextrous: bool = False
    text: str | None = None
    section: str = "4.5"
    page: str = "97"

    @property
    def is_range(self) -> bool:
        return self.mildest is not None

    @property
    def modifier_text(self) -> str:
        """The "Modificador" cell: "−10", "−1 a −9", "−2 ou pior", "−1 por ponto de
        diferença", "−4, e nenhum se for ambidestro"."""
        if self.text is not None:
            return self.text
        if self.per_unit is not None:
            return f"{signed(self.per_unit)} {self.unit}"
        if self.mildest is not None:
            if self.worst is None:
                return f"{signed(self.mildest)} ou pior"
            return f"{signed(self.mildest)} a {signed(self.worst)}"
        assert self.fixed is not None
        if self.zero_if_ambidextrous:
            return f"{signed(self.fixed)}, e nenhum se for ambidestro"
        return signed(self.fixed)


_S = AttackSituation
ATTACK_SITUATIONS: tuple[SituationRule, ...] = (
    SituationRule(_S.POOR_LIGHTING, "Iluminação ruim", mildest=-1, worst=-9),
    SituationRule(_S.TOTAL_DARKNESS, "Escuridão total", fixed=-10),
    SituationRule(_S.BAD_FOOTING, "Apoio ruim para os pés", mildest=-2),
    SituationRule(_S.AWKWARD_POSITION, "Atacante em posição estranha", mildest=-2),
    SituationRule(_S.BLIND, "Cego", fixed=-6),
    SituationRule(_S.SUDDENLY_BLIND, "Subitamente cego", fixed=-10),
    SituationRule(_S.CRAWLING, "Rastejando", fixed=-4),
    SituationRule(_S.CROUCHING_OR_SITTING, "Agachado ou sentado", fixed=-2),
    SituationRule(
        _S.OFF_HAND, "Ataque precipitado (mão errada)", fixed=-4, zero_if_ambidextrous=True
    ),
    SituationRule(_S.LARGE_SHIELD, "Atacar usando escudo grande", fixed=-2),
    SituationRule(
        _S.BELOW_MINIMUM_ST,
        "ST abaixo da ST mínima da arma",
        per_unit=-1,
        unit="por ponto de diferença",
    ),
    # §4.5 and §5.1: minus the HP lost in the previous round; wounds of one round add up.
    SituationRule(
        _S.WOUND,
        "Ferimento",
        per_unit=-1,
        text="redutor igual aos PV perdidos na rodada anterior",
    ),
    SituationRule(
        _S.UNAIMED_RANGED,
        "Sem apontar, arma de longo alcance",
        fixed=UNAIMED_PENALTY,
        section="4.11",
        page="95",
    ),
    SituationRule(
        _S.FIGURES_IN_THE_WAY,
        "Figura no caminho",
        per_unit=FIGURE_IN_THE_WAY_PENALTY,
        unit="por cada uma",
        section="4.11",
        page="201",
    ),
    SituationRule(
        _S.TARGET_LOW,
        "Alvo agachado, deitado ou só com a cabeça de fora",
        mildest=-2,
        worst=-7,
        section="4.11",
        page="201",
    ),
    SituationRule(
        _S.CLOSE_COMBAT_WEAPON,
        "Espada curta ou rapieira, de perto",
        fixed=CLOSE_COMBAT_PENALTY,
        section="5c",
        page="",
    ),
    SituationRule(
        _S.SWING_IN_WAIST_DEEP_WATER,
        "Arma de balanço na água pela cintura",
        fixed=WAIST_DEEP_WATER_SWING_MODIFIER,
        section="5d",
        page="",
    ),
    SituationRule(
        _S.UNSEEN_STATIONARY_TARGET,
        "Alvo parado que não te vê",
        fixed=UNAWARE_TARGET_HIT_BONUS,
        section="5e",
        page="",
    ),
)


def attack_situation(value: AttackSituation | str) -> SituationRule:
    """The rule of ``value``; else InvalidValue("situation")."""
    chosen = enum_member(AttackSituation, value, "situation", UNKNOWN_ATTACK_SITUATION)
    return next(row for row in ATTACK_SITUATIONS if row.situation is chosen)


@dataclass(frozen=True)
class AnnouncedModifier:
    """A situation the Mestre announces before the attack roll (§1.4). ``modifier``: the
    announced number, for a range ("−1 a −9", "−2 ou pior"); ``amount``: how many, for a
    per-unit row (points of ST below the minimum, HP lost in the previous round, figures in
    the way), 1 or more. Fixed rows need neither."""

    situation: AttackSituation | str
    modifier: int | None = None
    amount: int | None = None


@dataclass(frozen=True)
class AttackModifiers:
    """The announced attack modifiers, one ``gurps.rolling.Modifier`` each (the reason is the
    situation's name, the section its row's), and their sum (levels)."""

    lines: tuple[Modifier, ...]
    total: int


def _announced_value(rule: SituationRule, announced: AnnouncedModifier, ambidextrous: bool):
    name = rule.name
    if rule.per_unit is None and announced.amount is not None:
        raise InvalidValue("amount", AMOUNT_NOT_USED.format(situation=name))
    if rule.per_unit is not None:
        if announced.modifier is not None:
            raise InvalidValue(
                "modifier", FIXED_MODIFIER.format(situation=name, allowed=rule.modifier_text)
            )
        amount = announced.amount
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
            raise InvalidValue("amount", AMOUNT_REQUIRED.format(situation=name))
        return rule.per_unit * amount
    if rule.is_range:
        value = announced.modifier
        assert rule.mildest is not None
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or value > rule.mildest
            or (rule.worst is not None and value < rule.worst)
        ):
            raise InvalidValue(
                "modifier", MODIFIER_OUT_OF_RANGE.format(situation=name, allowed=rule.modifier_text)
            )
        return value
    assert rule.fixed is not None
    value = 0 if rule.zero_if_ambidextrous and ambidextrous else rule.fixed
    if announced.modifier is not None and announced.modifier != value:
        raise InvalidValue("modifier", FIXED_MODIFIER.format(situation=name, allowed=signed(value)))
    return value


def attack_modifiers(
    announced: Iterable[AnnouncedModifier], *, ambidextrous: bool = False
) -> AttackModifiers:
    """Sum the situations the Mestre announced before the attack roll (§1.4; §4.5, p. 97;
    §4.11, p. 95 and 201; §5c; §5d; §5e). All are cumulative (§1.1).

    Ranges accept only a value inside them: poor lighting −1 to −9, bad footing and awkward
    position −2 or worse, a low target −2 to −7. Per-unit rows take the ``amount``: below the
    weapon's minimum ST −1 per point, wound −1 per HP lost in the previous round, −4 per
    figure in the way. The off hand is −4, 0 if ``ambidextrous``. Fixed rows take no number
    (or their own). Raises InvalidValue("situation") for an unknown or repeated situation,
    InvalidValue("modifier") for a value outside the row's range, InvalidValue("amount") for
    a missing or bad amount.
    """
    lines: list[Modifier] = []
    seen: set[AttackSituation] = set()
    for item in announced:
        rule = attack_situation(item.situation)
        if rule.situation in seen:
            raise InvalidValue("situation", DUPLICATE_ATTACK_SITUATION)
        seen.add(rule.situation)
        value = _announced_value(rule, item, ambidextrous)
        lines.append(Modifier(value, rule.name, section=rule.section))
    return AttackModifiers(tuple(lines), sum(line.value for line in lines))
