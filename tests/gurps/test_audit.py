"""The audit of a sheet (gurps.audit): every check, on the book's table as transcribed, and
"e sem a perícia?" for a sheet."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps.audit import (
    ATTRIBUTE_ABOVE_20,
    CATALOGUE_INCOMPLETE,
    NO_DEFAULT_LISTED,
    NO_DEFAULT_VERY_HARD,
    NOT_IN_CATALOGUE,
    UNREAD_LINES,
    CatalogueSkill,
    FindingCode,
    Severity,
    SheetSkill,
    SheetTrait,
    audit_sheet,
    sheet_defaults,
)
from gurps.errors import PHYSICAL_HAS_NO_VERY_HARD
from gurps.skills import Difficulty
from tests.gurps.test_skill_costs import TABLE

PROPERTY = settings(database=None, deadline=None)
JURADO = {"st": 13, "dx": 12, "iq": 10, "ht": 12}
RASTREADOR = {"st": 11, "dx": 14, "iq": 12, "ht": 11}
CATALOGUE = (
    CatalogueSkill("Escudo", "dx", Difficulty.E, None),
    CatalogueSkill("Arco", "dx", Difficulty.H, None),
    CatalogueSkill("Escalada", "dx", Difficulty.A, ("ST−5", "DX−5")),
    CatalogueSkill("Arremesso", None, None, None),
    CatalogueSkill("Arremesso de Mágica", "dx", None, ("Arremesso", "DX−3")),
    CatalogueSkill("Escrita antiga de Ámenti", "iq", None, ()),
    CatalogueSkill("Alquimia", "iq", Difficulty.VH, None),
)


def _line(name, attribute, difficulty, level, points):
    return SheetSkill(
        name, attribute, difficulty, level, None if points is None else Fraction(points)
    )


def _audit(attributes, *lines, **kwargs):
    return audit_sheet(
        attributes=attributes,
        skills=[_line(*line) for line in lines],
        table=TABLE,
        catalogue=kwargs.pop("catalogue", CATALOGUE),
        **kwargs,
    )


def _warnings(audit):
    return [(f.what, f.code) for f in audit.warnings]


def test_the_jurados_shield_is_flagged_with_the_computation() -> None:
    audit = _audit(JURADO, ("Escudo", "dx", "E", 14, 8))
    (warning,) = audit.warnings
    assert (warning.what, warning.code) == ("Escudo", FindingCode.LEVEL_NOT_BOUGHT)
    assert warning.message == (
        "A ficha diz NH 14, mas 8 pontos em Física/Fácil compram DX+3: 12 + 3 = 15. "
        "NH 14 custaria 4 pontos."
    )


def test_the_rastreadors_bow_is_flagged_with_the_computation() -> None:
    audit = _audit(RASTREADOR, ("Arco", "dx", "H", 15, 4))
    (warning,) = audit.warnings
    assert warning.code == FindingCode.LEVEL_NOT_BOUGHT
    assert "4 pontos em Física/Difícil compram DX: 14" in warning.message
    assert "NH 15 custaria 8 pontos" in warning.message


def test_a_line_that_adds_up_has_no_warning() -> None:
    audit = _audit(JURADO, ("Escudo", "dx", "E", 14, 4))
    assert audit.warnings == ()
    assert audit.skills[0].bought.level == 14 and audit.skills[0].price.points == 4


def test_an_attribute_above_20_is_not_human() -> None:
    audit = _audit({**JURADO, "dx": 30})
    assert _warnings(audit) == [("DX", FindingCode.ATTRIBUTE_ABOVE_20)]
    assert audit.warnings[0].message == ATTRIBUTE_ABOVE_20.format(name="DX", value=30)
    assert _audit({**JURADO, "dx": 20}).warnings == ()


def test_points_that_buy_no_row_are_flagged() -> None:
    audit = _audit(JURADO, ("Escudo", "dx", "E", 11, Fraction(3, 10)))
    assert _warnings(audit) == [("Escudo", FindingCode.POINTS_NOT_IN_HALVES)]
    audit = _audit(JURADO, ("Escudo", "dx", "E", 11, Fraction(1, 2)), catalogue=())
    assert audit.warnings == ()


def test_a_physical_skill_marked_very_hard_is_flagged() -> None:
    audit = _audit(JURADO, ("Escudo", "dx", "VH", 12, 4))
    codes = _warnings(audit)
    assert ("Escudo", FindingCode.NO_SUCH_COLUMN) in codes
    assert audit.warnings[0].message == PHYSICAL_HAS_NO_VERY_HARD
    # and the catalogue says Fácil
    assert ("Escudo", FindingCode.CATALOGUE_DIFFERS) in codes


def test_the_long_bow_of_the_issue_at_dx_30_has_three_problems() -> None:
    audit = _audit(
        {**JURADO, "dx": 30},
        ("Arco Longo", "dx", "H", 40, Fraction(1, 2)),
        ("Escudo", "dx", "E", 14, 8),
    )
    assert _warnings(audit) == [
        ("DX", FindingCode.ATTRIBUTE_ABOVE_20),
        ("Arco Longo", FindingCode.LEVEL_NOT_BOUGHT),
        ("Escudo", FindingCode.LEVEL_NOT_BOUGHT),
    ]
    assert "½ ponto em Física/Difícil compra DX−3: 30 − 3 = 27" in audit.warnings[1].message


def test_zero_points_where_a_default_applies_is_flagged_with_the_default() -> None:
    audit = _audit(RASTREADOR, ("Escalada", "dx", "A", 9, 0))
    (warning,) = audit.warnings
    assert warning.code == FindingCode.ZERO_POINTS
    assert "vale o pré-definido, DX−5: DX 14 − 5 = 9 (§3.3)" in warning.message
    assert audit.skills[0].level == 9
    differs = _audit(RASTREADOR, ("Escalada", "dx", "A", 14, 0)).warnings[0]
    assert "A ficha diz NH 14; o pré-definido dá 9." in differs.message


def test_zero_points_with_no_default_is_flagged() -> None:
    audit = _audit(RASTREADOR, ("Escrita antiga de Ámenti", "iq", "H", 10, 0))
    assert _warnings(audit) == [("Escrita antiga de Ámenti", FindingCode.ZERO_POINTS)]


def test_left_over_points_are_flagged() -> None:
    audit = _audit(JURADO, ("Escudo", "dx", "E", 14, 6))
    assert _warnings(audit) == [("Escudo", FindingCode.POINTS_LEFT_OVER)]


def test_a_line_with_only_points_gets_its_level_and_one_with_only_a_level_its_price() -> None:
    audit = _audit(JURADO, ("Escudo", "dx", "E", None, 8), ("Arco", "dx", "H", 12, None))
    assert audit.warnings == ()
    assert (audit.skills[0].level, audit.skills[1].points) == (15, 4)


def test_a_skill_outside_the_catalogue_gets_a_note() -> None:
    audit = _audit(JURADO, ("Cozinhar", "iq", "E", 10, 1))
    assert [(n.what, n.message) for n in audit.notes][0] == ("Cozinhar", NOT_IN_CATALOGUE)


def test_unread_import_lines_are_a_warning() -> None:
    audit = _audit(JURADO, unread_lines=2)
    assert audit.warnings[0].message == UNREAD_LINES.format(count=2)


def test_the_sheets_points_are_summed_without_the_attributes() -> None:
    audit = _audit(
        JURADO,
        ("Escudo", "dx", "E", 14, 4),
        ("Arco", "dx", "H", None, Fraction(1, 2)),
        traits=[
            SheetTrait("Reflexos em Combate", "advantage", 15),
            SheetTrait("Honestidade", "disadvantage", -10),
            SheetTrait("Fala sozinho", "quirk", -1),
        ],
        previous_total=Fraction(6),
    )
    assert audit.totals.total == Fraction(17, 2)
    (note,) = [f for f in audit.notes if f.code == FindingCode.TOTAL_POINTS]
    assert "perícias 4½, vantagens 15, desvantagens −10, peculiaridades −1" in note.message
    assert "8½ pontos sem os atributos" in note.message
    assert "+2½ pontos nessas linhas" in note.message


def test_warnings_come_before_notes_and_the_digest_follows_the_warnings() -> None:
    one = _audit({**JURADO, "dx": 25}, ("Cozinhar", "iq", "E", 10, 1))
    assert [f.severity for f in one.findings] == [
        Severity.WARNING,
        Severity.NOTE,
        Severity.NOTE,
    ]
    assert one.digest == _audit({**JURADO, "dx": 25}).digest
    assert one.digest != _audit({**JURADO, "dx": 26}).digest


# --- "e sem a perícia?" -------------------------------------------------------------------------


def _answers(attributes, skills):
    return {
        a.skill.name: a
        for a in sheet_defaults(attributes=attributes, skills=skills, catalogue=CATALOGUE)
    }


def test_the_rastreador_without_climbing_climbs_at_9() -> None:
    answer = _answers(RASTREADOR, {"Arco": 15})["Escalada"]
    assert (answer.has_skill, answer.level, answer.default.default.text) == (False, 9, "DX−5")


def test_a_skill_on_the_sheet_is_answered_with_its_own_level() -> None:
    answer = _answers(RASTREADOR, {"Arco": 15})["Arco"]
    assert (answer.has_skill, answer.level, answer.default) == (True, 15, None)


def test_the_general_rule_answers_where_the_catalogue_lists_nothing() -> None:
    answer = _answers(JURADO, {})["Arco"]
    assert (answer.level, answer.default.computation, answer.general_rule) == (
        6,
        "DX−6: DX 12 − 6 = 6",
        True,
    )


def test_a_default_from_another_skill_on_the_sheet_is_offered() -> None:
    answer = _answers(RASTREADOR, {"Arremesso": 15})["Arremesso de Mágica"]
    assert (answer.level, answer.default.default.text) == (15, "Arremesso")
    fallback = _answers(RASTREADOR, {})["Arremesso de Mágica"]
    assert (fallback.level, fallback.default.default.text) == (11, "DX−3")


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("Escrita antiga de Ámenti", NO_DEFAULT_LISTED),
        ("Alquimia", NO_DEFAULT_VERY_HARD),
        ("Arremesso", CATALOGUE_INCOMPLETE.format(missing="o atributo nem a dificuldade")),
    ],
)
def test_a_skill_with_no_default_says_why(name, reason) -> None:
    answer = _answers(RASTREADOR, {})[name]
    assert (answer.level, answer.reason) == (None, reason)


def test_a_superhuman_attribute_counts_as_20_for_the_default() -> None:
    assert _answers({**RASTREADOR, "dx": 30}, {})["Escalada"].level == 15


levels = st.integers(min_value=0, max_value=30)


@PROPERTY
@given(
    st.fixed_dictionaries({k: st.integers(min_value=1, max_value=40) for k in JURADO}),
    st.dictionaries(st.sampled_from(["Arremesso", "Arco", "Escudo"]), levels),
)
def test_no_default_is_negative_or_above_what_its_source_allows(attributes, skills) -> None:
    for answer in sheet_defaults(attributes=attributes, skills=skills, catalogue=CATALOGUE):
        if answer.default is None:
            continue
        used = answer.default
        assert answer.level >= 0
        if used.default.is_attribute:
            assert answer.level <= min(attributes[used.default.source], 20) + used.default.modifier
        else:
            assert answer.level == skills[used.default.source] + used.default.modifier


def test_a_level_below_the_table_with_no_points_is_a_level_not_bought() -> None:
    audit = _audit(JURADO, ("Escudo", "dx", "E", 8, None))
    assert _warnings(audit) == [("Escudo", FindingCode.LEVEL_NOT_BOUGHT)]
    assert audit.warnings[0].message.startswith("NH 8 é DX−4: abaixo da primeira linha")
    very_hard = _audit(JURADO, ("Escudo", "dx", "VH", 12, None), catalogue=())
    assert _warnings(very_hard) == [("Escudo", FindingCode.NO_SUCH_COLUMN)]


def test_a_general_default_that_would_be_negative_says_why() -> None:
    answer = _answers({**JURADO, "dx": 3}, {})["Arco"]
    assert answer.level is None
    assert answer.reason == (
        "Sem pré-definido que a ficha alcance: DX−6: DX 3 − 6 = −3 — NH negativo não é nível: "
        "não se oferece."
    )
