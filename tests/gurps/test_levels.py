"""gurps.levels: the level of a test, read from the sheet and state, or the best default, and
where it came from (canon §1.1, §3.3, §6.2, §7.1)."""

from __future__ import annotations

import pytest

from gurps.audit import CatalogueSkill
from gurps.checks import RollKind
from gurps.errors import InvalidValue
from gurps.levels import (
    SKILL_UNKNOWN,
    SKILL_UNKNOWN_NEAREST,
    LevelSource,
    SheetLevels,
    SheetSkillLevel,
    attribute_level,
    folded,
    given_level,
    nearest_skills,
    read_attribute,
    sheet_line,
    skill_level,
    unknown_skill_message,
)
from gurps.skills import Difficulty

CATALOGUE = (
    CatalogueSkill("Escalada", "dx", None, ("ST−5", "DX−5")),  # §3.3, p. 87
    CatalogueSkill("Escrita antiga de Ámenti", None, None, ()),  # §3.3: no default
    CatalogueSkill("Observação", "iq", Difficulty.A, None),
    CatalogueSkill("Acrobacia", None, None, None),  # named by the canon, nothing more
    CatalogueSkill("Taumatologia", "iq", Difficulty.VH, None),
)


def _rastreador(*, fatigue_lost: int = 0, **changes) -> SheetLevels:
    """The Rastreador de Uruk-Kalam of the canon: ST 11, DX 14 (§3.3); Rastreamento 13."""
    fields = {
        "name": "Rastreador de Uruk-Kalam",
        "st": 11,
        "dx": 14,
        "iq": 12,
        "ht": 11,
        "skills": {
            "Rastreamento": SheetSkillLevel(13, "iq"),
            "Arremesso": SheetSkillLevel(12, "st"),
        },
        "fatigue_lost": fatigue_lost,
    }
    return SheetLevels(**{**fields, **changes})


def test_a_skill_on_the_sheet_is_its_nh():
    level = skill_level(_rastreador(), "rastreamento")
    assert (level.level, level.source, level.kind) == (13, LevelSource.SHEET, RollKind.SKILL)
    assert level.text == "Rastreamento 13 (ficha)"


def test_names_match_without_case_or_accents():
    assert folded("  Percepção  de Perigo") == folded("percepcao de perigo")
    sheet = _rastreador(skills={"Observação": SheetSkillLevel(13, "iq")})
    assert skill_level(sheet, "OBSERVACAO").text == "Observação 13 (ficha)"


def test_escalada_by_default_is_the_best_of_st_and_dx():
    """§3.3: Escalada is ST−5 or DX−5; the Rastreador, ST 11 and DX 14, climbs at 9, not 6."""
    level = skill_level(_rastreador(), "Escalada", catalogue=CATALOGUE)
    assert (level.level, level.source, level.default) == (9, LevelSource.DEFAULT, "DX−5")
    assert level.text == "Escalada 9 por pré-definido DX−5"
    assert level.computation == "DX−5: DX 14 − 5 = 9"


def test_the_general_rule_from_the_catalogue():
    """§3.3 (p. 44): Média, IQ−5 for a mental skill: IQ 12 → 7."""
    level = skill_level(_rastreador(skills={}), "Observação", catalogue=CATALOGUE)
    assert (level.level, level.general_rule) == (7, True)
    assert level.text == "Observação 7 por pré-definido IQ−5 (regra geral)"


def test_the_general_rule_from_what_the_caller_gives():
    """A skill the catalogue lacks (or names without attribute and difficulty): Difícil on
    DX, DX−6: DX 14 → 8."""
    for name, new in (("Acrobacia", False), ("Salto", True)):
        level = skill_level(
            _rastreador(),
            name,
            catalogue=CATALOGUE,
            attribute="dx",
            difficulty="H",
            new_skill=new,
        )
        assert (level.level, level.default) == (8, "DX−6")


def test_a_misspelled_skill_is_refused_with_the_nearest_names():
    """Issue 27: "Rastreamneto" is the sheet's Rastreamento 13, not a default at 7."""
    with pytest.raises(InvalidValue) as raised:
        skill_level(
            _rastreador(), "Rastreamneto", catalogue=CATALOGUE, attribute="iq", difficulty="A"
        )
    assert raised.value.field == "skill"
    sheet = _rastreador()
    assert raised.value.message == unknown_skill_message(sheet, "Rastreamneto", CATALOGUE)
    assert raised.value.message.startswith(
        SKILL_UNKNOWN.format(skill="Rastreamneto", name="Rastreador de Uruk-Kalam")
    )
    assert SKILL_UNKNOWN_NEAREST.format(names="Rastreamento (ficha, 13)") in raised.value.message


def test_the_nearest_names_come_from_the_sheet_and_the_catalogue():
    assert nearest_skills(_rastreador(), "Escalda", CATALOGUE) == ["Escalada (catálogo)"]
    assert nearest_skills(_rastreador(), "observacão", CATALOGUE) == ["Observação (catálogo)"]
    assert nearest_skills(_rastreador(), "Navegação", CATALOGUE) == []


def test_a_new_skill_said_new_takes_the_general_rule():
    level = skill_level(
        _rastreador(), "Salto", catalogue=CATALOGUE, attribute="dx", difficulty="E", new_skill=True
    )
    assert (level.level, level.default, level.general_rule) == (10, "DX−4", True)


def test_a_skill_without_default_is_refused_saying_so():
    with pytest.raises(InvalidValue) as raised:
        skill_level(_rastreador(), "escrita antiga de amenti", catalogue=CATALOGUE)
    assert raised.value.field == "skill"
    assert raised.value.message == (
        "Rastreador de Uruk-Kalam não tem Escrita antiga de Ámenti e Escrita antiga de Ámenti "
        "não tem pré-definido (§3.3)."
    )


def test_a_very_hard_skill_has_no_general_default():
    with pytest.raises(InvalidValue, match="Muito Difícil não tem pré-definido"):
        skill_level(_rastreador(), "Taumatologia", catalogue=CATALOGUE)


def test_a_skill_nobody_describes_asks_for_attribute_and_difficulty():
    with pytest.raises(InvalidValue, match="diga o atributo e a dificuldade") as raised:
        skill_level(_rastreador(), "Salto", catalogue=CATALOGUE)
    assert raised.value.field == "skill"


def test_st_under_fatigue():
    """§6.2 (p. 134): ST-based tests run with ST reduced; ST 10 with 4 fatigue works as ST 6."""
    level = attribute_level(_rastreador(st=10, fatigue_lost=4), "st")
    assert (level.level, level.sheet_level, level.fatigue) == (6, 10, 4)
    assert level.text == "ST 10 − 4 por fadiga = 6"
    assert attribute_level(_rastreador(fatigue_lost=2), "ST").text == "ST 11 − 2 por fadiga = 9"


def test_fatigue_leaves_dx_iq_and_ht_alone():
    assert attribute_level(_rastreador(fatigue_lost=4), "dx").text == "DX 14 (ficha)"
    assert attribute_level(_rastreador(fatigue_lost=4), "ht").level == 11  # §6: not HT


def test_an_st_based_skill_loses_what_fatigue_took():
    level = skill_level(_rastreador(fatigue_lost=2), "Arremesso")
    assert level.level == 10
    assert level.text == "Arremesso 12 (ficha) − 2 por fadiga = 10"


def test_an_st_default_uses_st_after_fatigue():
    """Escalada ST−5 with ST 18 beats DX−5 (13 against 9); 8 points of fatigue leave ST 10,
    and DX−5 is the best again."""
    strong = _rastreador(st=18)
    assert skill_level(strong, "Escalada", catalogue=CATALOGUE).text == (
        "Escalada 13 por pré-definido ST−5"
    )
    tired = _rastreador(st=18, fatigue_lost=8)
    assert skill_level(tired, "Escalada", catalogue=CATALOGUE).level == 9


def test_will_is_iq_plus_strong_will():
    """§7.1: Vontade = IQ + Força de Vontade − Vontade Fraca; IQ 12 with 2 levels → 14."""
    level = attribute_level(_rastreador(strong_will=2), read_attribute("Vontade"))
    assert (level.level, level.name, level.text) == (14, "Vontade", "Vontade 14 (ficha)")


def test_an_unknown_attribute_is_refused():
    with pytest.raises(InvalidValue, match="use ST, DX, IQ, HT ou Vontade") as raised:
        read_attribute("percepção")
    assert raised.value.field == "attribute"


def test_a_label_that_names_a_sheet_line():
    sheet = _rastreador()
    assert sheet_line(sheet, "rastreamento").level == 13
    assert sheet_line(sheet, "ST", kind="attribute").level == 11
    assert sheet_line(sheet, "Escalada") is None  # a label never asks for a default
    assert sheet_line(sheet, "Rastreamento", kind="attribute") is None


def test_a_given_level_says_it_is_the_mestres():
    level = given_level("Percepção", 11)
    assert (level.level, level.source, level.text) == (
        11,
        LevelSource.GIVEN,
        "Percepção 11 (dito pelo Mestre)",
    )
