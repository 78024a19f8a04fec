"""Readings: the engine's answer where the canon leaves a question open.

Each is given by the canon README ("Questions the canon leaves open") or forced by a gap the
engine met. The site names the reading wherever a number depends on it (``Explanation.readings``
holds these keys) and seeds each as an open divergence for the Árbitro.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reading:
    """One open question, in Portuguese, with the answer the engine uses until the Árbitro
    decides. ``section`` is the canon section the question is about."""

    key: str
    section: str
    question: str
    answer: str


READINGS: tuple[Reading, ...] = (
    Reading(
        "staggered_below_1_hp",
        "5.4",
        "Abaixo de 1 PV, Deslocamento e Esquiva continuam caindo à metade? (§5.4 diz «3, 2 ou 1».)",
        "Sim: a metade vale a 3 PV ou menos, inclusive 0 e negativos.",
    ),
    Reading(
        "carga_uses_sheet_st",
        "6.2",
        "A fadiga baixa a ST usada na Carga? (§6.2 baixa a ST só de perícias e testes baseados em ST.)",
        "Não: a Carga usa a ST da ficha.",
    ),
    Reading(
        "halve_once",
        "5.4, 6.2",
        "Com 3 PV ou menos e ST 3 ou menos por fadiga ao mesmo tempo, o Deslocamento cai à metade uma ou duas vezes?",
        "Uma vez.",
    ),
    Reading(
        "combat_reflexes_after_halving",
        "4.6, 5.4",
        "Reflexos em Combate e a Esquiva à metade: o que vem primeiro?",
        "Primeiro a metade, depois o +1.",
    ),
    Reading(
        "lift_between_10_and_15_st",
        "2.2",
        "Entre 10 × ST e 15 × ST, o que acontece?",
        "O peso se ergue, mas não se carrega: Deslocamento 0.",
    ),
    Reading(
        "move_not_negative",
        "2.1",
        "Se a Velocidade Básica menos a Carga dá menos que zero, qual é o Deslocamento?",
        "0: o cânone não dá Deslocamento negativo.",
    ),
    Reading(
        "dodge_follows_move_at_low_st",
        "6.2",
        "Com ST 3 ou menos por fadiga, a Esquiva cai à metade junto com o Deslocamento? (§6.2 só nomeia o Deslocamento.)",
        "Sim: Esquiva = Deslocamento (§2.1).",
    ),
)

READINGS_BY_KEY: dict[str, Reading] = {reading.key: reading for reading in READINGS}
