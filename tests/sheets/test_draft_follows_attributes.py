"""Changing an attribute in a draft (DX 12 → 13): the points bought stay, the levels of the skills
on it follow by the cost table (§3.2, MB pp. 43–44; custo-de-pericias.md: Physical/Easy 4 points
= DX+2, Physical/Average 4 points = DX+1), the audit does not call them wrong, and the page says
what moved."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from gurps.audit import FindingCode
from sheets.drafting import follow_attributes
from sheets.drafts import sheet_draft_create
from sheets.homologation import version_audit
from tests.gurps.test_skill_costs import TABLE
from tests.sheets.pages import content
from tests.sheets.test_draft import _form_data


@pytest.fixture
def draft(jogador, jurado):
    return sheet_draft_create(character=jurado, user=jogador)


def test_dx_12_to_13_moves_every_dx_skill_and_keeps_the_points(client_for, jogador, jurado, draft):
    response = client_for(jogador).post(
        reverse("draft", kwargs={"code": jurado.code}), _form_data(draft, dx=13), follow=True
    )
    draft.refresh_from_db()
    assert draft.dx == 13
    skills = {s.name: (s.level, s.points) for s in draft.skills.all()}
    assert skills == {
        "Escudo": (15, Decimal(4)),  # Physical/Easy, 4 points: DX+2
        "Espada Curta": (14, Decimal(4)),  # Physical/Average, 4 points: DX+1
        "Observação": (10, Decimal(2)),  # on IQ: unchanged
    }
    html = content(response)
    assert "Escudo: NH 14 → 15" in html and "DX foi de 12 para 13" in html
    codes = {f.code for f in version_audit(draft).findings}
    assert FindingCode.LEVEL_NOT_BOUGHT not in codes


def test_a_line_that_did_not_add_up_is_left_as_typed():
    line = {"name": "Escudo", "attribute": "dx", "difficulty": "E", "level": 18, "points": 4}
    lines, said = follow_attributes(lines=[line], before={"dx": 12}, after={"dx": 13}, table=TABLE)
    assert (lines, said) == ([line], [])


def test_an_unchanged_attribute_moves_nothing():
    line = {"name": "Escudo", "attribute": "dx", "difficulty": "E", "level": 14, "points": 4}
    assert follow_attributes(lines=[line], before={"dx": 12}, after={"dx": 12}, table=TABLE) == (
        [line],
        [],
    )


def test_lowering_the_attribute_lowers_the_level():
    line = {"name": "Escudo", "attribute": "dx", "difficulty": "E", "level": 14, "points": 4}
    lines, said = follow_attributes(lines=[line], before={"dx": 12}, after={"dx": 11}, table=TABLE)
    assert lines[0]["level"] == 13 and len(said) == 1
