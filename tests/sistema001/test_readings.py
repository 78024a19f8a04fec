"""The register of readings (what the chapter cites and does not contain, its ambiguities) and
of the chapter's slips; every reading the engine names is in it."""

from __future__ import annotations

import re
from pathlib import Path

import sistema001
from sistema001.readings import READINGS, READINGS_BY_KEY, SLIPS, reading
from tests.sistema001.helpers import chapter

ENGINE = Path(sistema001.__file__).resolve().parent


def test_keys_unique_and_portuguese_text() -> None:
    assert len(READINGS_BY_KEY) == len(READINGS)
    for item in READINGS:
        assert item.section and item.question.strip() and item.answer.strip()
        assert item.kind in ("leitura", "mestre", "arbitro")


def test_cited_but_missing_rules_are_registered() -> None:
    """What the chapter relies on and does not contain: the attribute dice, the Bônus, vantagem
    and desvantagem, the ND table and ≥ or >, maximum PV, the tests section, distances."""
    for key in (
        "attribute_die_size",
        "attribute_bonus_all",
        "edge_two_dice",
        "nd_table",
        "test_pass_comparison",
        "pv_max",
        "test_formula",
        "test_criticals",
        "critical_minimum_5",
        "distances",
    ):
        assert reading(key)
    assert reading("test_pass_comparison").refuses


def test_critical_sentence_is_the_chapters() -> None:
    """«Maior valor do dado: Dobra o atributo (mínimo 5) e o dano.»"""
    assert "Maior valor do dado: Dobra o atributo (mínimo 5) e o dano." in chapter()
    assert "(mínimo 5)" in reading("critical_minimum_5").question


def test_slips_registered() -> None:
    """The palisade's «ND = 35 × 1,5 = 70» against «Madeira pesada ×2»; «Espada de metal»
    and «Arco e flecha» «Pequeno = 5» against the Tabela de Tamanho (Médio 10)."""
    text = chapter()
    assert "ND = 35 × 1,5 = 70." in text
    assert "Médio 10 Arco, armas médias de uma mão, espada comum" in text
    keys = {slip.key for slip in SLIPS}
    assert keys == {"palisade_hardness", "sword_size", "bow_size"}
    for slip in SLIPS:
        assert slip.section and slip.text and slip.against and slip.followed


def _named_keys() -> set[str]:
    """Every key the engine's modules name as a reading: ``reading(s) … ``key`````
    mentions, ``readings.append("key")``, ``readings=("key", …)`` and ``AwaitsArbitro(…,
    "key")``."""
    found: set[str] = set()
    for path in ENGINE.glob("*.py"):
        if path.name == "readings.py":
            continue
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"[Rr]eadings?\b([^.;]{0,200})", text):
            found.update(re.findall(r"``([a-z][a-z0-9_]+)``", match.group(1)))
        found.update(re.findall(r"readings\.append\(\"([a-z0-9_]+)\"\)", text))
        for group in re.findall(r"readings\s*=\s*\(([^)]*)\)", text):
            found.update(re.findall(r"\"([a-z0-9_]+)\"", group))
        found.update(re.findall(r"AwaitsArbitro\([^()]*?\"([a-z0-9_]+)\"\s*,?\s*\)", text, re.S))
    return found


def test_every_named_reading_is_registered() -> None:
    """Each reading the engine names wherever it is used is in the Árbitro's register."""
    named = {key for key in _named_keys() if "_" in key}  # field names like ``kind`` aside
    assert sorted(key for key in named if key not in READINGS_BY_KEY) == []
