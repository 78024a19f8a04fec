"""The Xuleta's checks part (rulesets.xuleta5e.checks): the sheet's bonus for a check, a save
or an attack, the state's conditions and exhaustion as the roll's edge (each reason said), the
d20 against the DC, natural 20 and 1 on attacks only, contests."""

from __future__ import annotations

import pytest

from rulesets.base import CheckRequest
from rulesets.registry import ruleset_for
from rulesets.xuleta5e.checks import CHECKS
from tests.gurps.helpers import ScriptedSource
from tests.xuleta5e.checks.sheet import check_data
from xuleta.errors import XuletaError


def level(request: CheckRequest, **state):
    return CHECKS.sheet_level(check_data(**state), request, lambda: None)


def test_the_ruleset_has_its_checks_part():
    ruleset = ruleset_for("xuleta5e")
    assert ruleset.checks is CHECKS
    assert ruleset.roll_kind_label("save") == "Salvação"


def test_a_skill_check_reads_the_sheets_bonus(quote):
    quote("Si la prova fa servir una habilitat en què ets competent")
    found = level(CheckRequest(skill="percepció", dc=15))
    assert (found.name, found.level, found.kind) == ("Percepció", 3, "check")
    assert found.record["source"] == "sheet" and found.record["dc"] == 15
    assert found.text == "Percepció +3 (ficha) contra 15"


def test_the_dm_may_change_the_skills_ability(quote):
    quote("Atletisme amb Constitució per nedar molta estona")
    found = level(CheckRequest(skill="Atletisme", attribute="con", dc=10))
    # CON +2 and Atletisme's proficiency +2.
    assert (found.name, found.level) == ("Atletisme (Constitució)", 4)


def test_an_ability_check_a_save_and_an_attack():
    assert level(CheckRequest(attribute="dex")).level == 1
    save = level(CheckRequest(kind="save", attribute="Constitució", dc=12))
    assert (save.name, save.level) == ("Salvació de Constitució", 4)
    attack = level(CheckRequest(kind="attack", skill="espasa llarga", dc=13))
    assert (attack.name, attack.level, attack.record["ability"]) == ("Espasa llarga", 4, "str")


def test_naming_nothing_is_none_and_unknowns_are_refused_naming_the_field():
    assert level(CheckRequest()) is None
    for request, field in (
        (CheckRequest(kind="attack", skill="Arc"), "skill"),
        (CheckRequest(kind="save"), "attribute"),
        (CheckRequest(attribute="luck"), "attribute"),
        (CheckRequest(skill="Stealth"), "skill"),
        (CheckRequest(kind="damage", attribute="str"), "roll"),
        (CheckRequest(attribute="str", edge="double"), "edge"),
        (CheckRequest(attribute="str", dc=99), "dc"),
    ):
        with pytest.raises(XuletaError) as caught:
            level(request)
        assert caught.value.field == field, request


def test_the_states_conditions_and_exhaustion_give_the_edge_and_say_why(quote):
    quote("Desavantatge en tirades d'atac i proves de característica.")
    found = level(CheckRequest(skill="Percepció", dc=15), conditions=["poisoned"])
    assert found.record["edge"] == "disadvantage"
    assert "Enverinat" in found.text and "desavantatge" in found.text
    attack = level(CheckRequest(kind="attack", skill="Espasa llarga", dc=13), exhaustion=3)
    assert attack.record["edge"] == "disadvantage"
    assert any("Esgotament 3" in r for r in attack.record["reasons"])


def test_the_mestres_advantage_cancels_a_conditions_disadvantage(quote):
    quote("Si tens avantatge i desavantatge alhora, s'anul·len i tires un sol dau.")
    request = CheckRequest(skill="Percepció", dc=15, edge="advantage")
    found = level(request, conditions=["poisoned"])
    assert found.record["edge"] == "none"
    result = CHECKS.roll(ScriptedSource([12]), found, [])
    assert result.dice == (12,)


def test_a_str_save_of_the_stunned_fails_without_a_die(quote):
    quote("Falles sense tirar les salvacions de Força i Destresa.")
    found = level(CheckRequest(kind="save", attribute="str", dc=5), conditions=["stunned"])
    result = CHECKS.roll(ScriptedSource([]), found, [])
    assert (result.dice, result.success, result.outcome, result.margin) == (
        (),
        False,
        "failure",
        None,
    )
    assert "falha sem rolar" in result.text


def test_a_check_passes_on_equal_or_more_and_the_natural_20_means_nothing(quote):
    quote("Si l'iguales o el superes, ho aconsegueixes.")
    found = level(CheckRequest(skill="Percepció", dc=15))
    passed = CHECKS.roll(ScriptedSource([12]), found, [])
    assert (passed.total, passed.target, passed.margin, passed.outcome) == (15, 15, 0, "success")
    failed = CHECKS.roll(ScriptedSource([20]), level(CheckRequest(attribute="int", dc=25)), [])
    assert (failed.total, failed.success, failed.outcome) == (19, False, "failure")
    # Modifiers add to the bonus.
    assert CHECKS.roll(ScriptedSource([10]), found, [2]).total == 15


def test_an_attacks_natural_20_and_1(quote):
    quote("Un 20 natural sempre encerta i és un cop crític.")
    quote("Un 1 natural sempre falla.")
    found = level(CheckRequest(kind="attack", skill="Espasa llarga", dc=30))
    hit = CHECKS.roll(ScriptedSource([20]), found, [])
    assert (hit.success, hit.outcome) == (True, "critical_success")
    easy = level(CheckRequest(kind="attack", skill="Espasa llarga", dc=2))
    miss = CHECKS.roll(ScriptedSource([1]), easy, [])
    assert (miss.success, miss.outcome) == (False, "critical_failure")


def test_advantage_rolls_two_and_keeps_the_higher(quote):
    quote("Amb avantatge tires dos d20 i et quedes el més alt.")
    found = level(CheckRequest(attribute="str", dc=10, edge="advantage"))
    result = CHECKS.roll(ScriptedSource([3, 14]), found, [])
    assert (result.dice, result.total) == ((3, 14), 16)


def test_the_mestres_bonus_for_a_creature_without_a_sheet():
    found = CHECKS.given_level(CheckRequest(base_level=5, kind="save", attribute="dex", dc=14))
    assert (found.level, found.kind, found.record["source"]) == (5, "save", "given")
    assert found.text == "Destresa +5 (dito pelo Mestre) contra 14"
    assert CHECKS.given_level(CheckRequest()) is None
    assert CHECKS.given_level(CheckRequest(base_level=2), "check").kind == "check"


def test_contests_higher_wins_a_tie_leaves_things(quote):
    quote("Si empaten, tot continua com estava.")
    a = CHECKS.given_level(CheckRequest(base_level=3))
    b = CHECKS.given_level(CheckRequest(base_level=1))
    first = CHECKS.roll(ScriptedSource([10]), a, [])
    second = CHECKS.roll(ScriptedSource([12]), b, [])
    assert (first.total, second.total) == (13, 13)
    assert CHECKS.contest(first, second) is None
    assert CHECKS.contest(first, CHECKS.roll(ScriptedSource([13]), b, [])) == "b"


def test_choices_offer_every_check_skill_and_save_with_a_chance():
    found = CHECKS.choices(check_data())
    assert len(found) == 6 + 18 + 6
    perception = next(c for c in found if c.skill == "Percepció")
    # +3 against the shown DC 15: 9 faces of 20.
    assert perception.percent == 45


def test_the_dead_roll_nothing_and_the_unconscious_only_saves(quote):
    quote("Estàs incapacitat i no et pots moure ni parlar.")
    quote("Falles sense tirar les salvacions de Força i Destresa.")
    for request in (
        CheckRequest(kind="attack", skill="espasa llarga", dc=13),
        CheckRequest(skill="Percepció", dc=10),
        CheckRequest(kind="save", attribute="con", dc=10),
    ):
        with pytest.raises(XuletaError) as caught:
            level(request, dead=True)
        assert caught.value.field == "character" and "morto" in caught.value.message
    for unconscious in ({"conditions": ["unconscious"]}, {"hp_lost": 99}):
        for request in (
            CheckRequest(kind="attack", skill="espasa llarga", dc=13),
            CheckRequest(attribute="dex", dc=10),
        ):
            with pytest.raises(XuletaError) as caught:
                level(request, **unconscious)
            assert caught.value.field == "character" and "inconsciente" in caught.value.message
        save = level(CheckRequest(kind="save", attribute="wis", dc=10), **unconscious)
        assert save.name == "Salvació de Saviesa"
