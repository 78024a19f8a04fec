"""GURPS's procedure part (``rulesets/gurps3e/procedure.py``), no database: the pendências'
readings of the text's d20 points, as the tracker used them before the part existed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from procedure.asks import EXHAUSTION, SAVE, Ask
from procedure.pendencies import P_CRAFT, P_FORCED_MARCH, P_REST_CON
from rulesets.base import UnknownRuleset
from rulesets.gurps3e.procedure import PROCEDURE, TEXTS, dc_modifier
from rulesets.registry import GURPS3E, ruleset_for
from tests.gurps.helpers import PROCEDURE_PATH

TEXT = PROCEDURE_PATH.read_text(encoding="utf-8")


def test_the_registry_gives_gurps_its_procedure_part():
    part = ruleset_for(GURPS3E).part("procedure")
    assert part is PROCEDURE
    assert all(hasattr(part, name) for name in ("texts", "resolve_ask", "running_out", "crafted"))
    with pytest.raises(UnknownRuleset, match="desconhecido"):
        ruleset_for("d20-xuleta")


def test_the_forced_march_dc_is_an_ht_modifier():
    assert "Além de 2 rodadas consecutivas\tDC do Teste de CON" in TEXT
    assert [dc_modifier(dc) for dc in (12, 15, 18, 21)] == [0, -1, -2, -3]
    resolved = PROCEDURE.resolve_ask(Ask(SAVE, pendency=P_FORCED_MARCH, ability="CON", dc=15))
    assert (resolved.roll, resolved.modifier, resolved.native) == ("HT", -1, False)
    assert resolved.line == (
        "Em GURPS (leitura da pendência): HT \u22121 — a rolagem do Mestre deve trazer esse "
        "modificador anunciado."
    )
    zero = PROCEDURE.resolve_ask(Ask(SAVE, pendency=P_FORCED_MARCH, dc=12))
    assert zero.modifier == 0 and "HT 0" in zero.line


@given(st.integers(12, 60))
def test_each_3_points_of_dc_take_one(dc):
    assert dc_modifier(dc) == -((dc - 12) // 3)


def test_the_other_asks_are_the_mestres_choice():
    assert "Cada interrupção do descanso necessita um teste de CON DC 12" in TEXT
    for ask in (
        Ask(SAVE, pendency=P_REST_CON, ability="CON", dc=12),
        Ask(SAVE, pendency=P_CRAFT, ability="DES", modifier=-6),
        Ask(SAVE, pendency=P_FORCED_MARCH),  # Tabela B without a DC
    ):
        resolved = PROCEDURE.resolve_ask(ask)
        assert resolved.modifier is None and resolved.line == ""
    assert PROCEDURE.resolve_ask(Ask(EXHAUSTION)).line == TEXTS.exhaustion


def test_running_out_and_crafting():
    assert PROCEDURE.running_out("food").fatigue == -1
    water = PROCEDURE.running_out("water")
    assert (water.hp, water.fatigue) == (-1, -1)
    assert water.text == "Sem água (§6.1): 1 ponto de Fadiga e 1 PV"
    assert [PROCEDURE.crafted(True, m) for m in (None, 0, 3)] == [1, 1, 3]
    assert PROCEDURE.crafted(False, 5) == 0
