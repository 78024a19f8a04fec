"""The combat tables the rules pages show (``/regras/``), built from the data the other
modules of ``gurps.combat`` compute with, so the page and the engine never disagree.
``gurps.rulebook`` gathers them through ``gurps.combat.CANON_TABLES``.
"""

from __future__ import annotations

from gurps.combat.maneuvers import MANEUVER_NOTES, MANEUVERS
from gurps.combat.modifiers import ATTACK_SITUATIONS, SituationRule
from gurps.combat.sequence.table import COMBAT_SEQUENCE, COMBAT_SEQUENCE_NOTES
from gurps.combat.shared import WORDS
from gurps.combat.surprise import COMBAT_REFLEXES_SURPRISE_BONUS
from gurps.combat.terrains import TERRAINS
from gurps.combat.turns import TURN_ORDER_TIE_BREAK_DECIDED
from gurps.combat.weapons import (
    CLOSE_COMBAT_PENALTY,
    READY_TURNS_AFTER_ATTACK,
    WEAPON_CLASSES,
    CloseCombatUse,
    Readiness,
    WeaponClassRow,
)
from gurps.hit_locations import HitLocation
from gurps.injury import UNAWARE_TARGET_HIT_BONUS
from gurps.tabular import CanonTable, signed


def _readiness_cell(row: WeaponClassRow) -> str:
    if row.readiness is None:
        return "o cânone não diz"
    if row.readiness is Readiness.NEVER_UNREADY:
        return "nunca fica despreparada"
    return f"{WORDS[READY_TURNS_AFTER_ATTACK]} turno preparando"


def _close_combat_cell(row: WeaponClassRow) -> str:
    if row.close_combat is None:
        return "o cânone não diz"
    if row.close_combat is CloseCombatUse.CANNOT:
        return "não ataca"
    if row.close_combat is CloseCombatUse.PENALISED:
        return f"ataca a {signed(CLOSE_COMBAT_PENALTY)}"
    return "ataca"


def _where(rule: SituationRule) -> str:
    return f"§{rule.section}" + (f" (pág. {rule.page})" if rule.page else "")


CANON_TABLES: tuple[CanonTable, ...] = (
    CanonTable(
        key="maneuvers",
        title="Manobras",
        section=MANEUVERS[0].section,
        page=MANEUVERS[0].page,
        columns=("Manobra", "Movimento", "O que faz", "Defesa que sobra"),
        rows=tuple((row.name, row.movement, row.does, row.defence) for row in MANEUVERS),
        heading="## 4.3 Manobras",
        notes=MANEUVER_NOTES,
    ),
    CanonTable(
        key="weapon_classes",
        title="Armas: preparar de novo e combate de perto",
        section="4.3",
        page="97 e 104",
        columns=("Arma", "Depois de golpear", "De perto"),
        rows=tuple(
            (row.name.capitalize(), _readiness_cell(row), _close_combat_cell(row))
            for row in WEAPON_CLASSES
        ),
        notes=(
            MANEUVER_NOTES[0],
            "Quem está agarrado não esquiva. Aparar e bloquear seguem valendo, com a arma que "
            "serve ali. Para sair, é preciso evadir-se do inimigo e ultrapassá-lo — não basta "
            "andar. (§5c)",
            "Agarrar e imobilizar não são perícia: são Disputa de DX e depois de ST, com Judô "
            "ou Briga entrando como desempate. (§5c)",
        ),
    ),
    CanonTable(
        key="attack_modifiers",
        title="Modificadores de ataque",
        section="4.5",
        page="97",
        columns=("Situação", "Modificador"),
        rows=tuple(
            (rule.name, rule.modifier_text) for rule in ATTACK_SITUATIONS if rule.section == "4.5"
        ),
        heading="## 4.5 Modificadores de ataque",
        note="O modificador é declarado antes dos dados, sempre (§1.4).",
    ),
    CanonTable(
        key="attack_modifiers_elsewhere",
        title="Outros modificadores de ataque",
        section="4.5",
        page="",
        columns=("Situação", "Modificador", "Onde"),
        rows=tuple(
            (rule.name, rule.modifier_text, _where(rule))
            for rule in ATTACK_SITUATIONS
            if rule.section != "4.5"
        ),
        note="Os que o cânone dá fora da tabela da §4.5: tiro, combate de perto, terreno, "
        "surpresa.",
    ),
    CanonTable(
        key="combat_sequence",
        title="A sequência de combate — tabela do Mestre",
        section="4.10",
        page="",
        columns=("#", "Quem", "O que acontece", "Rolagem", "Se falha"),
        rows=tuple(
            (str(int(step.number)), step.who, step.what, step.roll, step.if_fails)
            for step in COMBAT_SEQUENCE
        ),
        heading="## 4.10 A sequência de combate — tabela do Mestre",
        decided=TURN_ORDER_TIE_BREAK_DECIDED,
        notes=COMBAT_SEQUENCE_NOTES,
    ),
    CanonTable(
        key="terrain",
        title="Terreno e o que ele cobra",
        section="5d",
        page="",
        columns=("Terreno", "O que custa"),
        rows=tuple((row.name, row.cost) for row in TERRAINS),
        heading="# 5d. Terreno e o que ele cobra",
        notes=(
            "O Mestre de Cena declara o terreno antes do primeiro dado, como declara o chefe de "
            "encontro. Terreno declarado depois não vale.",
            "«Combate às Cegas (§4.14)» é um deslize conhecido do cânone: a §4.14 é a do "
            "esgrimista com adaga.",
        ),
    ),
    CanonTable(
        key="surprise",
        title="Surpresa",
        section="5e",
        page="",
        columns=("Surpresa", "O que acontece"),
        rows=(
            (
                "Parcial — o lado atacado sabe que há inimigo, mas não de onde vem",
                "Perde o primeiro turno; a partir do segundo age normalmente.",
            ),
            (
                "Total — não sabia de nada",
                "Testa IQ a cada turno para começar a agir; enquanto falhar, fica parado e não "
                "tem defesa ativa. Quem tem Reflexos em Combate testa a "
                f"{signed(COMBAT_REFLEXES_SURPRISE_BONUS)}.",
            ),
        ),
        note=(
            f"Alvo parado que não te vê: {signed(UNAWARE_TARGET_HIT_BONUS)} para acertar, sem "
            f"defesa ativa, e órgão vital a {signed(HitLocation.VITALS.penalty)}. Não é morte "
            "automática — isso exige alvo "
            "indefeso ou inconsciente, e atordoado não basta (§5.4)."
        ),
    ),
)
