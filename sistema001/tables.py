"""The chapter's tables and lists as data for the rules pages.

Each table is a ``ruletexts.CanonTable`` (the shape every engine shares): ``key``, ``title``,
``section`` (the chapter heading), ``page`` ("" — the chapter has no page numbers),
``columns``, ``rows`` (cells as text, in the chapter's words), ``heading`` (the line of the
chapter the table is printed under, for a printed table; None for a list), ``nth``,
``decided``, ``note``, ``notes``. Every row is built from the modules' data (``objects.SIZE``,
``maneuvers.MANEUVERS``, ``conditions.CONDITIONS`` …), never retyped, so the pages show what
the engine computes with. ``CANON_TABLES`` holds them in the chapter's order; ``table(key)``
finds one.
"""

from __future__ import annotations

from ruletexts import CanonTable
from sistema001 import attacks, conditions, damage, maneuvers, objects, quick, situations, turns
from sistema001.fighters import DAMAGE_TYPE_LABELS, WEAPON_KIND_LABELS
from sistema001.readings import SLIPS


def signed(value: int) -> str:
    """A modifier as the chapter prints it: 0, +2, -5."""
    return f"+{value}" if value > 0 else str(value)


def _actions() -> CanonTable:
    rows = tuple(
        (kind.label, kind.description + " " + " ".join(kind.examples) + (
            " " + kind.note if kind.note else ""))
        for kind in turns.ACTION_TYPES.values()
    )  # fmt: skip
    return CanonTable(
        "acoes",
        "Tipos de Ação",
        "O que se pode fazer no turno",
        "",
        ("Tipo", "Ações"),
        rows,
        notes=tuple(plan.label for plan in turns.TURN_PLANS.values())
        + ("Não é possível “converter” Ações, apenas escolher uma das opções.",),
    )


def _attacks() -> CanonTable:
    formulas = {
        "corpo_a_corpo": "Dado de Mobilidade + Mobilidade + Modificadores",
        "distancia": "Dado de Acuidade + Acuidade + Modificadores",
        "area": "Definido pela descrição do ataque, vantagem ou magia",
        "interno": "Sem rolagem de ataque",
    }
    defences = {
        "corpo_a_corpo": "O alvo rola a Defesa.",
        "distancia": "O alvo rola a Defesa.",
        "area": "Os alvos tentam esquivar, rolando a Defesa. Sucesso: reduz o dano pela "
        "metade, mínimo 1. Falha: sofre o dano total.",
        "interno": "Teste de resistência (Resistência ou Espírito) com ND e efeito da descrição.",
    }
    return CanonTable(
        "ataques",
        "Ataques e Defesas",
        "Ataques; Defesas por Tipo de Ataque",
        "",
        ("Ataque", "Rolagem", "Defesa"),
        tuple(
            (label, formulas[key], defences[key])
            for key, label in attacks.ATTACK_KIND_LABELS.items()
        ),
        note="Defesa = Dado de Mobilidade + Mobilidade + Modificadores.",
    )


def _ranged() -> CanonTable:
    return CanonTable(
        "penalidades_distancia",
        "Penalidades do Ataque à Distância",
        "Ataque À Distância",
        "",
        ("Situação", "Penalidade"),
        tuple((p.label, signed(p.value)) for p in attacks.RANGED_PENALTIES.values()),
    )


def _outcomes() -> CanonTable:
    return CanonTable(
        "comparacao_defesa",
        "Comparação com a Defesa",
        "Resolução de Dano",
        "",
        ("Ataque", "Resultado"),
        (
            ("Maior que a Defesa", "O ataque acerta e causa dano total."),
            ("Igual à Defesa", "O ataque acerta de raspão e causa apenas o dano mínimo 1."),
            ("Menor que a Defesa", "O ataque falha e não causa efeito."),
        ),
    )


def _criticals() -> CanonTable:
    return CanonTable(
        "criticos",
        "Críticos em Combate",
        "Críticos em Combate",
        "",
        ("Dado", "Efeito"),
        (
            ("Maior valor do dado",
             f"Dobra o atributo (mínimo {attacks.CRITICAL_MINIMUM}) e o dano."),
            ("Menor valor do dado", f"Penalidade de {attacks.CRITICAL_PENALTY}."),
        ),
    )  # fmt: skip


def _weapon_damage() -> CanonTable:
    return CanonTable(
        "dano_armas",
        "Dano por Tipo de Arma",
        "Dano por Tipo de Arma",
        "",
        ("Arma", "Dano"),
        tuple(
            (WEAPON_KIND_LABELS[key], formula)
            for key, formula in damage.WEAPON_DAMAGE_FORMULAS.items()
        ),
        note="Bônus de Força: +1 para cada múltiplo de 5 em Força.",
    )


def _damage_types() -> CanonTable:
    return CanonTable(
        "tipos_dano",
        "Tipos de Dano",
        "Tipos de Dano",
        "",
        ("Tipo", "Descrição"),
        tuple((DAMAGE_TYPE_LABELS[k], text) for k, text in damage.DAMAGE_TYPE_TEXTS.items()),
        note="O tipo de dano não concede bônus nem penalidades por si só.",
    )


def _mitigation() -> CanonTable:
    return CanonTable(
        "mitigacao",
        "Resistência, Vulnerabilidade e Imunidade ao tipo de dano",
        "Resistência ao tipo de dano",
        "",
        ("Interação", "Efeito"),
        (
            ("Resistência", "Reduz o dano pela metade, arredondado para baixo, e cancela o dano "
             "mínimo."),
            ("Vulnerabilidade", "Dobra o dano causado."),
            ("Imunidade", "Anula completamente o dano causado."),
        ),
        note="Aplicadas ao dano final do ataque, depois do crítico; a redução vem depois delas.",
    )  # fmt: skip


def _maneuvers() -> CanonTable:
    return CanonTable(
        "manobras",
        "Manobras de Combate",
        "Manobras de Combate",
        "",
        ("Manobra", "Efeito"),
        tuple((m.label, m.text) for m in maneuvers.MANEUVERS.values()),
        notes=maneuvers.GENERAL_RULES,
    )


def _situations() -> CanonTable:
    return CanonTable(
        "situacoes",
        "Situações de Combate",
        "Situações de Combate",
        "",
        ("Situação", "Efeito"),
        tuple((s.label, s.text) for s in situations.SITUATIONS.values()),
    )


def _conditions() -> CanonTable:
    return CanonTable(
        "condicoes",
        "Lista de Condições",
        "Lista de Condições",
        "",
        ("Condição", "Efeito"),
        tuple(
            (c.label, c.text.removeprefix(f"{c.label}: ")) for c in conditions.CONDITIONS.values()
        ),
        note="Sem duração na origem: até o início do segundo turno consecutivo do alvo.",
    )


def _size() -> CanonTable:
    return CanonTable(
        "tamanho",
        "Tabela de Tamanho",
        objects.SECTION,
        "",
        ("Tamanho", "Valor", "Exemplos"),
        tuple((r.label, r.value_text, r.examples) for r in objects.SIZE.values()),
        heading="Tabela de Tamanho",
    )


def _structure() -> CanonTable:
    return CanonTable(
        "estrutura",
        "Tabela de Estrutura",
        objects.SECTION,
        "",
        ("Estrutura", "Reforço", "Exemplos"),
        tuple((r.label, r.value_text, r.examples) for r in objects.STRUCTURE.values()),
        heading="Tabela de Estrutura",
    )


def _hardness() -> CanonTable:
    return CanonTable(
        "dureza",
        "Tabela de Dureza do Material",
        objects.SECTION,
        "",
        ("Material", "Multiplicador", "Exemplos"),
        tuple((r.label, r.multiplier_text, r.examples) for r in objects.HARDNESS.values()),
        heading="Tabela de Dureza do Material",
        note="ND Estrutural = (Tamanho + Estrutura) × Dureza. Dano mínimo = ND Estrutural ÷ 5, "
        "arredondado para baixo.",
    )


def _examples() -> CanonTable:
    slips = {s.key: s for s in SLIPS}
    notes = tuple(
        f"{slip.section}: {slip.text} — {slip.against}"
        for key in ("palisade_hardness", "bow_size", "sword_size")
        if (slip := slips.get(key))
    )
    return CanonTable(
        "exemplos_objetos",
        "Exemplos de Objetos e Estruturas",
        objects.SECTION,
        "",
        ("Objeto", "Tamanho", "Estrutura", "Dureza", "ND", "Dano mínimo"),
        tuple(
            (
                e.name,
                f"{objects.SIZE[e.size].label} = {e.size_value}",
                f"{objects.STRUCTURE[e.structure].label} = {objects.STRUCTURE[e.structure].value}",
                f"{objects.HARDNESS[e.hardness].label} = "
                f"{objects.HARDNESS[e.hardness].multiplier_text}",
                str(e.nd),
                str(e.minimum),
            )
            for e in objects.EXAMPLES
        ),
        notes=notes,
    )


def _quick() -> CanonTable:
    return CanonTable(
        "combate_rapido",
        "(Opcional) Combate Rápido",
        "(Opcional) Combate Rápido",
        "",
        ("Regra", "Texto"),
        quick.RULES,
    )


CANON_TABLES: tuple[CanonTable, ...] = (
    _actions(),
    _attacks(),
    _ranged(),
    _outcomes(),
    _weapon_damage(),
    _damage_types(),
    _mitigation(),
    _criticals(),
    _maneuvers(),
    _situations(),
    _conditions(),
    _size(),
    _structure(),
    _hardness(),
    _examples(),
    _quick(),
)

TABLES_BY_KEY = {t.key: t for t in CANON_TABLES}


def table(key: str) -> CanonTable:
    """The table ``key``; ``KeyError`` if there is none."""
    return TABLES_BY_KEY[key]


def all_tables() -> tuple[CanonTable, ...]:
    """Every table, in the chapter's order (as ``gurps.rulebook.all_tables``)."""
    return CANON_TABLES
