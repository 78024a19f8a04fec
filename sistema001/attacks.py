"""«Ataques», «Defesas» and «Críticos em Combate»: the attack and defence rolls.

Chapter «4. Combate». Ataque Corpo a Corpo = Dado de Mobilidade + Mobilidade + Modificadores;
Ataque À Distância = Dado de Acuidade + Acuidade + Modificadores; Defesa = Dado de Mobilidade +
Mobilidade + Modificadores. The Ataque em Área is defined by its description (the Mestre gives
the attribute, the targets roll the Defesa to halve); the Ataque Interno has no attack roll:
the target makes a «teste de resistência» (Resistência or Espírito) against the ND of the
description (``roll_internal_resistance``; pass on ≥ or > is the pendência
``test_pass_comparison``).

Criticals («seguem as regras descritas na seção de Testes», a section the chapter lacks):
«Maior valor do dado: Dobra o atributo (mínimo 5) e o dano. Menor valor do dado: Penalidade de
-5.» They apply to attacks only (reading ``test_criticals``: the Defesa and the tests roll
without them); ``critical_minimum_5``: the doubled attribute counts at least 5,
max(2 × atributo, 5). ``ranged_penalties_worst``: the target «engajado com aliado» and
«adjacente a um aliado» do not add; the worse counts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from types import MappingProxyType

from dice.rolling import RandomSource
from sistema001.attributes import ACUIDADE, ATTRIBUTE_LABELS, ESPIRITO, MOBILIDADE, RESISTENCIA
from sistema001.errors import Sistema001Error
from sistema001.fighters import Fighter
from sistema001.rolls import CheckRoll, DieRoll, check_modifier, passes, roll_check, roll_die

ATTACK_KINDS: tuple[str, ...] = ("corpo_a_corpo", "distancia", "area", "interno")
ATTACK_KIND_LABELS = MappingProxyType(
    {
        "corpo_a_corpo": "Ataque Corpo a Corpo",
        "distancia": "Ataque À Distância",
        "area": "Ataque em Área",
        "interno": "Ataque Interno",
    }
)
# The attribute each kind rolls («Ataque = Dado de X + X + Modificadores»); area: the
# description's (the Mestre's input); interno: no attack roll.
ATTACK_ATTRIBUTES = MappingProxyType({"corpo_a_corpo": MOBILIDADE, "distancia": ACUIDADE})
DEFENCE_ATTRIBUTE = MOBILIDADE
INTERNAL_ATTRIBUTES: tuple[str, ...] = (RESISTENCIA, ESPIRITO)

CRITICAL_HIGH = "maior"
CRITICAL_LOW = "menor"
CRITICAL_MINIMUM = 5  # «Dobra o atributo (mínimo 5)»
CRITICAL_PENALTY = -5  # «Menor valor do dado: Penalidade de -5.»

ACERTO = "acerto"
RASPAO = "raspao"
FALHA = "falha"


@dataclass(frozen=True)
class RangedPenalty:
    key: str
    label: str
    value: int


# «Penalidades do Ataque à Distância».
RANGED_PENALTIES = MappingProxyType(
    {
        p.key: p
        for p in (
            RangedPenalty("alvo_engajado_com_aliado", "Alvo engajado com aliado corpo a corpo", -2),
            RangedPenalty("alvo_adjacente_a_aliado", "Alvo adjacente a um aliado", -1),
            RangedPenalty("atirador_engajado", "Atirador engajado em combate corpo a corpo", -5),
        )
    }
)
# Both «alvo» penalties describe the same ally next to the target: only the worse counts.
_TARGET_PENALTIES = ("alvo_engajado_com_aliado", "alvo_adjacente_a_aliado")

UNKNOWN_KIND = (
    "Tipo de ataque desconhecido «{kind}»: use corpo a corpo, distância, área ou interno."
)
AREA_NEEDS_ATTRIBUTE = (
    "O Ataque em Área é definido pela descrição do ataque, vantagem ou magia: informe o "
    "atributo que ele rola."
)
INTERNAL_NO_ATTACK = (
    "O Ataque Interno não tem rolagem de ataque: o alvo faz um teste de resistência "
    "(Resistência ou Espírito) contra o ND da descrição."
)
BAD_INTERNAL_ATTRIBUTE = "O alvo de um Ataque Interno resiste com Resistência ou Espírito."
UNKNOWN_ATTRIBUTE = "Atributo desconhecido «{key}»."
UNKNOWN_PENALTY = "Penalidade de ataque à distância desconhecida «{key}»."
RANGED_ONLY = "As penalidades do Ataque à Distância só valem para ataques à distância."


@dataclass(frozen=True)
class AttackRoll:
    """One attack (or defence, or test) roll.

    ``die``: the kept die; ``attribute``: the key rolled; ``attribute_value``: its value;
    ``attribute_used``: what counted (doubled, minimum 5, on the highest face);
    ``modifiers``: the sum of the modifiers given (the −5 of the lowest face is not in it);
    ``total`` = face + attribute_used + modifiers (− 5 on the lowest face); ``critical``:
    ``"maior"``, ``"menor"`` or ``None`` (always None for a Defesa); ``roll``: ``"ataque"``
    or ``"defesa"``; ``lines``: the roll in Portuguese; ``readings``: reading keys it depends on.
    """

    die: DieRoll
    attribute: str
    attribute_value: int
    attribute_used: int
    modifiers: int
    total: int
    critical: str | None
    roll: str = "ataque"
    lines: tuple[str, ...] = ()
    readings: tuple[str, ...] = ()

    @property
    def doubles_damage(self) -> bool:
        """«Maior valor do dado: Dobra o atributo (mínimo 5) e o dano.» — only for an
        attack."""
        return self.roll == "ataque" and self.critical == CRITICAL_HIGH


def _critical(die: DieRoll) -> str | None:
    if die.faces == die.face:
        return CRITICAL_HIGH
    if die.face == 1:
        return CRITICAL_LOW
    return None


def _roll(
    fighter: Fighter,
    attribute: str,
    source: RandomSource,
    modifiers: int,
    edge: str | None,
    roll: str,
    title: str,
) -> AttackRoll:
    if attribute not in ATTRIBUTE_LABELS:
        raise Sistema001Error(UNKNOWN_ATTRIBUTE.format(key=attribute), "attribute")
    modifiers = check_modifier(modifiers)
    label = ATTRIBUTE_LABELS[attribute]
    value = fighter.attribute(attribute)
    die = roll_die(fighter.die(attribute), source, edge)
    critical = _critical(die) if roll == "ataque" else None
    used = value
    penalty = 0
    lines = [f"{title}: Dado de {label} ({die.text}) + {label} {value} + modificadores "
             f"{modifiers:+d}."]  # fmt: skip
    readings: list[str] = []
    if edge:
        readings.append("edge_two_dice")
    if critical == CRITICAL_HIGH:
        used = max(2 * value, CRITICAL_MINIMUM)
        readings.append("critical_minimum_5")
        lines.append(
            f"Maior valor do dado: dobra o atributo (mínimo 5): {label} {value} → {used}"
            + (" e o dano." if roll == "ataque" else ".")
        )
    elif critical == CRITICAL_LOW:
        penalty = CRITICAL_PENALTY
        lines.append("Menor valor do dado: penalidade de -5.")
    total = die.face + used + modifiers + penalty
    lines.append(f"Total: {total}.")
    return AttackRoll(die, attribute, value, used, modifiers, total, critical, roll,
                      tuple(lines), tuple(readings))  # fmt: skip


def attack_attribute(kind: str, attribute: str | None = None) -> str:
    """The attribute an attack of ``kind`` rolls: corpo a corpo → Mobilidade, distância →
    Acuidade, área → ``attribute`` (the description's; required). Raises
    ``Sistema001Error`` for an unknown kind, an area attack without attribute, or an
    internal attack (it has no attack roll)."""
    if kind not in ATTACK_KINDS:
        raise Sistema001Error(UNKNOWN_KIND.format(kind=kind), "kind")
    if kind == "interno":
        raise Sistema001Error(INTERNAL_NO_ATTACK, "kind")
    if kind == "area":
        if attribute is None:
            raise Sistema001Error(AREA_NEEDS_ATTRIBUTE, "attribute")
        if attribute not in ATTRIBUTE_LABELS:
            raise Sistema001Error(UNKNOWN_ATTRIBUTE.format(key=attribute), "attribute")
        return attribute
    return ATTACK_ATTRIBUTES[kind]


def roll_attack(
    attacker: Fighter,
    kind: str,
    source: RandomSource,
    modifiers: int = 0,
    edge: str | None = None,
    *,
    attribute: str | None = None,
) -> AttackRoll:
    """Roll ``attacker``'s attack of ``kind`` (one of ``ATTACK_KINDS``).

    «Ataque Corpo a Corpo»: «Ataque = Dado de Mobilidade + Mobilidade + Modificadores.»
    «Ataque À Distância»: «Ataque = Dado de Acuidade + Acuidade + Modificadores.»
    «Ataque em Área»: «A descrição do ataque, vantagem ou magia define o ataque» — give
    ``attribute``. ``modifiers``: the sum of every modifier (int; conditions, situations,
    ranged penalties — ``ranged_modifier``); ``edge``: ``"vantagem"``, ``"desvantagem"`` or
    None. Criticals from the kept die («Críticos em Combate»). Returns ``AttackRoll``;
    raises ``Sistema001Error``.
    """
    used = attack_attribute(kind, attribute)
    return _roll(attacker, used, source, modifiers, edge, "ataque", ATTACK_KIND_LABELS[kind])


def roll_defence(
    defender: Fighter,
    source: RandomSource,
    modifiers: int = 0,
    edge: str | None = None,
) -> AttackRoll:
    """Roll ``defender``'s Defesa: «Defesa = Dado de Mobilidade + Mobilidade +
    Modificadores.» «Defesa é sempre uma rolagem feita como reação ou resposta a um ataque.»
    No criticals (reading ``test_criticals``: «Acertos críticos e falhas críticas» are the
    attack's). Returns ``AttackRoll`` with ``roll="defesa"`` and ``critical=None``."""
    return _roll(defender, DEFENCE_ATTRIBUTE, source, modifiers, edge, "defesa", "Defesa")


@dataclass(frozen=True)
class InternalResistance:
    """A target's «teste de resistência» against an Ataque Interno: ``test`` the roll,
    ``nd`` the description's ND, ``resisted`` whether it passed (the effect is then the
    description's)."""

    test: CheckRoll
    nd: int
    resisted: bool


def roll_internal_resistance(
    target: Fighter,
    attribute: str,
    nd: int,
    source: RandomSource,
    comparison: str | None,
    modifiers: int = 0,
    edge: str | None = None,
) -> InternalResistance:
    """«Ataque Interno: O alvo faz um teste de resistência, com ND e efeito de acordo com a
    descrição da vantagem ou magia.» ``attribute``: ``"resistencia"`` (veneno, doença,
    exaustão, paralisia) or ``"espirito"`` (medo, ilusão, confusão, possessão). ``comparison``:
    the Árbitro's answer to ``test_pass_comparison`` (``"maior"``/``"maior_ou_igual"``); None
    raises ``AwaitsArbitro`` — before any die is rolled."""
    if attribute not in INTERNAL_ATTRIBUTES:
        raise Sistema001Error(BAD_INTERNAL_ATTRIBUTE, "attribute")
    passes(0, 0, comparison)  # refuses before rolling while the pendência is open
    test = roll_check(
        attribute, target.die(attribute), target.attribute(attribute), source, modifiers, edge
    )
    return InternalResistance(test, nd, passes(test.total, nd, comparison))


def outcome(attack_total: int, defence_total: int) -> str:
    """«Comparação com a Defesa»: ``"acerto"`` (Ataque maior que a Defesa: dano total),
    ``"raspao"`` (igual: «acerta de raspão e causa apenas o dano mínimo 1»), ``"falha"``
    (menor: «falha e não causa efeito»)."""
    if attack_total > defence_total:
        return ACERTO
    if attack_total == defence_total:
        return RASPAO
    return FALHA


def margin(attack_total: int, defence_total: int) -> int:
    """By how much the attack beat (positive) or missed (negative) the Defesa (Desarmar:
    «superar a Defesa por 5 ou mais»; Agarrar: «falhar por margem 5 ou mais»)."""
    return attack_total - defence_total


@dataclass(frozen=True)
class Modifier:
    """A sum of modifiers with its lines in Portuguese and the readings it depends on."""

    total: int
    lines: tuple[str, ...]
    readings: tuple[str, ...] = ()


def ranged_modifier(kind: str, penalties: Iterable[str]) -> Modifier:
    """The «Penalidades do Ataque à Distância» that apply: keys of ``RANGED_PENALTIES``
    (alvo engajado com aliado −2, alvo adjacente a um aliado −1, atirador engajado −5). The
    two target penalties do not add: the worse counts (reading ``ranged_penalties_worst``).
    Raises ``Sistema001Error`` for an unknown key or a kind other than ``"distancia"``."""
    keys = tuple(dict.fromkeys(penalties))
    for key in keys:
        if key not in RANGED_PENALTIES:
            raise Sistema001Error(UNKNOWN_PENALTY.format(key=key), "penalties")
    if keys and kind != "distancia":
        raise Sistema001Error(RANGED_ONLY, "penalties")
    readings: tuple[str, ...] = ()
    if all(k in keys for k in _TARGET_PENALTIES):
        keys = tuple(k for k in keys if k != "alvo_adjacente_a_aliado")
        readings = ("ranged_penalties_worst",)
    chosen = [RANGED_PENALTIES[k] for k in keys]
    return Modifier(
        sum(p.value for p in chosen),
        tuple(f"{p.label}: {p.value:+d}." for p in chosen),
        readings,
    )
