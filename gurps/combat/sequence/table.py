"""The Mestre's table of the combat sequence (canon §4.10), as data: one row a step, in the
canon's words. ``gurps.combat.sequence.resolve`` runs steps 3 to 10 of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from gurps.combat.turns import TURN_ORDER_TIE_BREAK_DECIDED


class StepNumber(IntEnum):
    """The rows of the Mestre's table (§4.10), by their number."""

    TURN_ORDER = 0
    MANEUVER = 1
    MODIFIERS = 2
    ATTACK_ROLL = 3
    CRITICAL_CHECK = 4
    DEFENCE_ROLL = 5
    DAMAGE_ROLL = 6
    DAMAGE_RESISTANCE = 7
    WOUNDING = 8
    HP_LOST = 9
    CONSEQUENCES = 10


@dataclass(frozen=True)
class CombatStep:
    """One row of the §4.10 table, in the canon's words (the cells are the canon's text,
    row 4's known slip included: see ``COMBAT_SEQUENCE_NOTES``)."""

    number: StepNumber
    who: str
    what: str
    roll: str
    if_fails: str
    section: str = "4.10"


_DASH = "—"

COMBAT_SEQUENCE: tuple[CombatStep, ...] = (
    CombatStep(
        StepNumber.TURN_ORDER,
        "Todos",
        "Ordem do turno. Deslocamento decrescente; desempata Velocidade Básica cheia; "
        "persistindo, DX maior; persistindo, ordem de declaração "
        f"(fixado em {TURN_ORDER_TIE_BREAK_DECIDED}).",
        _DASH,
        _DASH,
    ),
    CombatStep(
        StepNumber.MANEUVER,
        "Combatente",
        "Declara a manobra. Ela vale até o próximo turno dele e decide as defesas que ele terá.",
        _DASH,
        _DASH,
    ),
    CombatStep(
        StepNumber.MODIFIERS,
        "Mestre",
        "Anuncia os modificadores de ataque (iluminação, apoio, posição, ferimento da rodada "
        "anterior).",
        _DASH,
        _DASH,
    ),
    CombatStep(
        StepNumber.ATTACK_ROLL,
        "Atacante",
        "Jogada de ataque.",
        "3d6 ≤ NH efetivo da arma",
        "Errou. Fim do golpe.",
    ),
    CombatStep(
        StepNumber.CRITICAL_CHECK,
        _DASH,
        "Checa crítico. 3 = dano máximo, sem defesa. 4, 5 ou 6 (conforme NH) = acerto sem "
        "defesa. 17 ou 18 = Tabela de Erros Críticos.",
        _DASH,
        _DASH,
    ),
    CombatStep(
        StepNumber.DEFENCE_ROLL,
        "Defensor",
        "Jogada de defesa. Escolhe uma defesa ativa entre as que a manobra dele permite; soma "
        "a Defesa Passiva.",
        "3d6 ≤ (PD + defesa ativa)",
        "Foi atingido.",
    ),
    CombatStep(StepNumber.DAMAGE_ROLL, "Atacante", "Rola o dano da arma.", "dados da arma", _DASH),
    CombatStep(
        StepNumber.DAMAGE_RESISTANCE,
        _DASH,
        "Subtrai a RD do alvo.",
        _DASH,
        "Se não sobra nada, não houve ferimento.",
    ),
    CombatStep(
        StepNumber.WOUNDING,
        _DASH,
        "Multiplica pelo tipo: contusão ×1, corte +50%, perfuração ×2.",
        _DASH,
        _DASH,
    ),
    CombatStep(StepNumber.HP_LOST, "Defensor", "Perde os PV.", _DASH, _DASH),
    CombatStep(
        StepNumber.CONSEQUENCES,
        "Defensor",
        "Consequências, na ordem: Choque · Prostração e Atordoamento se perdeu mais que HT/2 "
        "num golpe · Nocaute se foi golpe na cabeça ou órgão vital · limiares de PV da seção "
        "5.4.",
        "testes de HT",
        _DASH,
    ),
)

COMBAT_SEQUENCE_NOTES: tuple[str, ...] = (
    "A linha 4 ainda diz que um 3 provoca dano máximo; desde 13/09/2026 (§4.8) esta mesa usa "
    "a Tabela de Golpes Fulminantes, e o dano máximo deixou de valer. O site segue a §4.8.",
)
