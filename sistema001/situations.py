"""«Situações de Combate»: momentary circumstances of the scene that change an attack.

Chapter «4. Combate». «Elas existem enquanto a situação se mantiver e desaparecem assim que o
contexto muda» — so they are not timed effects: the Mestre (or the AI Mestre) names the ones
that hold for each attack. ``attack_modifiers`` sums them for one attack (Flanqueando +2 except
ranged, Posição Elevada +2, Cobertura Parcial +5 to the Defesa against direct attacks;
Cobertura Total refuses a direct attack); ``concealment_check`` rolls the 1d10 of the
camouflages before the attack; ``roll_sneak_attack`` is the Ataque Furtivo's test. Entrada
Tardia is ``initiative.late_entry``.

Readings (keys of ``sistema001.readings``): ``direct_attacks`` (a «ataque direto» is a melee
or ranged attack; area and internal attacks are not), ``concealment_worst`` (partial and total
camouflage at once: total), ``sneak_attack_half_rounding`` (half the Dado de Acuidade, rounded
down), and ``test_pass_comparison`` for the sneak attack's test (refused until the Árbitro
decides).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from types import MappingProxyType

from dice.rolling import RandomSource
from sistema001.attributes import ACUIDADE, MOBILIDADE
from sistema001.errors import Sistema001Error
from sistema001.fighters import Fighter
from sistema001.rolls import CheckRoll, passes, roll_check

DIRECT_ATTACKS: tuple[str, ...] = ("corpo_a_corpo", "distancia")
CONCEALMENT_DIE = 10  # «Role 1d10»


@dataclass(frozen=True)
class Situation:
    """One situation: ``key``, ``label``, ``text`` (the chapter's paragraph), ``attack``
    (modifier to the attack), ``defence`` (modifier to the target's Defesa), ``kinds``
    (the attack kinds it applies to), ``miss_on`` (camouflage: the 1d10 faces on which the
    attack fails)."""

    key: str
    label: str
    text: str
    attack: int = 0
    defence: int = 0
    kinds: tuple[str, ...] = ("corpo_a_corpo", "distancia", "area", "interno")
    miss_on: int = 0


SITUATIONS = MappingProxyType(
    {
        s.key: s
        for s in (
            Situation(
                "ataque_furtivo",
                "Ataque Furtivo",
                "Situação em que o atacante tenta golpear um alvo que não percebe a ameaça "
                "imediata. Não funciona mais de uma vez no mesmo alvo.",
            ),
            Situation(
                "flanqueando",
                "Flanqueando",
                "Dois ou mais aliados atacam o mesmo alvo por lados opostos. Os atacantes "
                "recebem +2 no ataque. Não se aplica a ataques à distância.",
                attack=2,
                kinds=("corpo_a_corpo",),
            ),
            Situation(
                "entrada_tardia",
                "Entrada Tardia",
                "O personagem entra no combate após ele já ter começado. Rola Iniciativa "
                "normalmente, mas só passa a agir a partir da rodada seguinte.",
            ),
            Situation(
                "posicao_elevada",
                "Posição Elevada",
                "O personagem ataca a partir de um ponto mais alto que o alvo. Recebe +2 no "
                "ataque.",
                attack=2,
            ),
            Situation(
                "camuflagem_parcial",
                "Sob Camuflagem Parcial",
                "O alvo está parcialmente oculto por fumaça, vegetação, sombras ou obstáculos "
                "leves. O atacante tem 20% de chance de errar automaticamente. Role 1d10: com 1 "
                "ou 2 o ataque falha; com 3 a 10 o ataque é rolado normalmente.",
                miss_on=2,
            ),
            Situation(
                "camuflagem_total",
                "Sob Camuflagem Total",
                "O alvo está fortemente oculto ou fora de visão direta. O atacante tem 50% de "
                "chance de errar automaticamente. Role 1d10: com 1 a 5 o ataque falha; com 6 a "
                "10 o ataque é rolado normalmente.",
                miss_on=5,
            ),
            Situation(
                "cobertura_parcial",
                "Sob Cobertura Parcial",
                "Obstáculos sólidos protegem parcialmente o alvo. O alvo recebe +5 na Defesa "
                "contra ataques diretos. A linha de ataque deve cruzar barreiras como árvores, "
                "muros baixos, colunas ou barricadas.",
                defence=5,
                kinds=DIRECT_ATTACKS,
            ),
            Situation(
                "cobertura_total",
                "Sob Cobertura Total",
                "O alvo está completamente protegido por um obstáculo sólido. Não pode ser "
                "atingido por ataques diretos enquanto a cobertura durar. Magias em área ou "
                "explosões ainda podem afetá-lo se houver passagem para o efeito em área.",
                kinds=DIRECT_ATTACKS,
            ),
        )
    }
)

UNKNOWN = "Situação de combate desconhecida «{key}»."
TOTAL_COVER = (
    "Sob Cobertura Total: o alvo não pode ser atingido por ataques diretos enquanto a "
    "cobertura durar (magias em área ou explosões ainda podem afetá-lo se houver passagem)."
)
NOT_CONCEALMENT = "Só Camuflagem Parcial ou Total pedem a rolagem de 1d10."
SNEAK_TWICE = "O Ataque Furtivo não funciona mais de uma vez no mesmo alvo."


def situation(key: str) -> Situation:
    """The situation ``key``; raises ``Sistema001Error`` (field ``situations``)."""
    try:
        return SITUATIONS[key]
    except KeyError:
        raise Sistema001Error(UNKNOWN.format(key=key), "situations") from None


@dataclass(frozen=True)
class SituationModifiers:
    """``attack``: added to the attack; ``defence``: added to the target's Defesa against it;
    ``lines``: one Portuguese line per situation that counted; ``concealment``: the
    camouflage whose 1d10 is rolled first, or None; ``readings``."""

    attack: int
    defence: int
    lines: tuple[str, ...]
    concealment: str | None = None
    readings: tuple[str, ...] = ()


def attack_modifiers(situations: Iterable[str], kind: str) -> SituationModifiers:
    """What the situations ``situations`` (keys of ``SITUATIONS``) do to one attack of
    ``kind`` (``attacks.ATTACK_KINDS``).

    Flanqueando: «Os atacantes recebem +2 no ataque. Não se aplica a ataques à distância.»
    Posição Elevada: «Recebe +2 no ataque.» Cobertura Parcial: «O alvo recebe +5 na Defesa
    contra ataques diretos.» Cobertura Total: a direct attack raises ``Sistema001Error``;
    an area attack goes through. Camuflagem: names the one to roll first (``concealment``;
    total over partial). Ataque Furtivo and Entrada Tardia change nothing here (see
    ``roll_sneak_attack`` and ``initiative.late_entry``).
    """
    keys = tuple(dict.fromkeys(situations))
    found = [situation(k) for k in keys]
    attack = defence = 0
    lines: list[str] = []
    readings: list[str] = []
    concealment = None
    for item in found:
        if item.key == "cobertura_total" and kind in DIRECT_ATTACKS:
            raise Sistema001Error(TOTAL_COVER, "situations")
        if kind not in item.kinds:
            if item.attack or item.defence:
                lines.append(f"{item.label}: não se aplica a este tipo de ataque.")
            continue
        if item.attack:
            attack += item.attack
            lines.append(f"{item.label}: +{item.attack} no ataque.")
        if item.defence:
            defence += item.defence
            lines.append(f"{item.label}: +{item.defence} na Defesa do alvo.")
            readings.append("direct_attacks")
        if item.miss_on:
            if concealment is None or item.miss_on > SITUATIONS[concealment].miss_on:
                concealment = item.key
    if "camuflagem_parcial" in keys and "camuflagem_total" in keys:
        readings.append("concealment_worst")
    return SituationModifiers(attack, defence, tuple(lines), concealment,
                              tuple(dict.fromkeys(readings)))  # fmt: skip


@dataclass(frozen=True)
class ConcealmentCheck:
    """The 1d10 of a camouflage: ``face``; ``fails``: the attack fails without being rolled;
    ``text``."""

    key: str
    face: int
    fails: bool
    text: str


def concealment_check(key: str, source: RandomSource) -> ConcealmentCheck:
    """«Sob Camuflagem Parcial … Role 1d10: com 1 ou 2 o ataque falha; com 3 a 10 o ataque é
    rolado normalmente.» «Sob Camuflagem Total … Role 1d10: com 1 a 5 o ataque falha; com 6 a
    10 o ataque é rolado normalmente.» One ``source.randint(1, 10)``, before the attack."""
    found = situation(key)
    if not found.miss_on:
        raise Sistema001Error(NOT_CONCEALMENT, "situations")
    face = source.randint(1, CONCEALMENT_DIE)
    fails = face <= found.miss_on
    text = f"{found.label}: 1d10 = {face}, " + (
        "o ataque falha." if fails else "o ataque é rolado normalmente."
    )
    return ConcealmentCheck(key, face, fails, text)


def sneak_attack_nd(target: Fighter) -> int:
    """«metade do Dado de Acuidade + Acuidade do alvo»: half the faces of the target's Dado
    de Acuidade (rounded down: reading ``sneak_attack_half_rounding``) + its Acuidade."""
    return target.die(ACUIDADE) // 2 + target.attribute(ACUIDADE)


@dataclass(frozen=True)
class SneakAttack:
    """The Ataque Furtivo's test: ``test`` (Mobilidade), ``nd``, ``succeeded``; on success the
    target is ``condition`` (Desprevenido: −2 na Defesa against this first attack only)."""

    test: CheckRoll
    nd: int
    succeeded: bool
    condition: str | None
    text: str


def roll_sneak_attack(
    attacker: Fighter,
    target: Fighter,
    source: RandomSource,
    comparison: str | None,
    *,
    already_sneaked: Iterable[str] = (),
    modifiers: int = 0,
    edge: str | None = None,
) -> SneakAttack:
    """«Atacante: faz um teste de Mobilidade contra metade do Dado de Acuidade + Acuidade do
    alvo. Em sucesso, executa o ataque furtivo.» «Alvo: fica Desprevenido contra o primeiro
    ataque e sofre -2 na Defesa apenas contra esse ataque.» «Não funciona mais de uma vez no
    mesmo alvo.»

    ``comparison``: the Árbitro's answer to ``test_pass_comparison``; None raises
    ``AwaitsArbitro`` before rolling. ``already_sneaked``: the keys of targets this attacker
    already sneak-attacked (the target's key there raises ``Sistema001Error``).
    """
    if target.key in set(already_sneaked):
        raise Sistema001Error(SNEAK_TWICE, "target")
    passes(0, 0, comparison)  # refuses before rolling while the pendência is open
    nd = sneak_attack_nd(target)
    test = roll_check(MOBILIDADE, attacker.die(MOBILIDADE), attacker.attribute(MOBILIDADE),
                      source, modifiers, edge)  # fmt: skip
    succeeded = passes(test.total, nd, comparison)
    text = f"Ataque Furtivo: teste de Mobilidade {test.total} contra ND {nd}: " + (
        f"sucesso; {target.name} fica Desprevenido (-2 na Defesa contra este ataque)."
        if succeeded
        else "falha; o ataque furtivo não acontece."
    )
    return SneakAttack(test, nd, succeeded, "desprevenido" if succeeded else None, text)
