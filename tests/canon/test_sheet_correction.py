"""The Árbitro corrects a homologated sheet (console.services.sheet_correct): a new homologated
version with the reason. A homologated version never changes; the Correction keeps both."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaigns.confirm import CONFIRMED
from canon import services
from canon.models import Correction
from console import services as console_services
from sheets.drafts import sheet_draft_create
from sheets.history import DATA_ON_GURPS, NOTHING_CHANGED, PENDING_BLOCKS_CORRECTION
from sheets.homologation import sheet_homologate, sheet_submit
from sheets.models import SheetVersion
from sheets.reads import homologated_version
from tests.sheets.pages import content, row, section


def snapshot(version: SheetVersion) -> tuple:
    """A version with its lines, every stored column, read again from the database."""
    fresh = SheetVersion.objects.get(pk=version.pk)

    def columns(obj) -> dict:
        return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}

    lines = tuple(
        sorted((columns(line) for line in getattr(fresh, kind).all()), key=lambda c: c["id"])
        for kind in ("traits", "skills", "items")
    )
    return columns(fresh), lines


def _skills(version: SheetVersion, **levels) -> list[dict]:
    lines = []
    for s in version.skills.all():
        lines.append(
            {
                "name": s.name,
                "attribute": s.attribute,
                "difficulty": s.difficulty,
                "level": levels.get(s.name, s.level),
                "points": s.points,
            }
        )
    return lines


def test_a_correction_is_a_new_homologated_version_and_the_old_one_never_changes(arbitro, jurado):
    old = homologated_version(jurado)
    stored = snapshot(old)
    correction = console_services.sheet_correct(
        character=jurado,
        user=arbitro,
        reason="Observação é IQ/Média: com 2 pontos, NH 10 (IQ 10).",
        attributes={"st": 13, "dx": 12, "iq": 10, "ht": 11},
        skills=_skills(old),
    )
    assert snapshot(old) == stored
    new = correction.version_after
    assert (correction.version_before, new.number, new.status) == (old, 2, "homologated")
    assert (new.created_by, new.decided_by, new.ht) == (arbitro, arbitro, 11)
    assert homologated_version(jurado) == new
    assert correction.before == "Atributos · HT: 12"
    assert correction.after == "Atributos · HT: 11"
    # Traits and items pass as they are; the sheet in play points at the new items.
    assert [i.name for i in new.items.all()] == [i.name for i in old.items.all()]
    assert all(p.item.version_id == new.pk for p in jurado.possessions.filter(item__isnull=False))


def test_a_gurps_sheet_refuses_a_json_sheets_data(arbitro, jurado):
    """``data`` is a sheet kept as JSON (the Xuleta's): a GURPS sheet is corrected by its
    attributes, skills and notes, and ``data`` is refused naming it, nothing written."""
    with pytest.raises(services.ServiceError) as refused:
        console_services.sheet_correct(
            character=jurado, user=arbitro, reason="Motivo.", data={"ac": 16}
        )
    assert (refused.value.field, refused.value.message) == ("data", DATA_ON_GURPS)
    assert not Correction.objects.filter(character=jurado).exists()


def test_homologating_a_later_version_leaves_the_earlier_one_as_it_was(arbitro, hoplita, submitted):
    first = SheetVersion.objects.get(character=hoplita, number=1)
    stored = snapshot(first)
    sheet_homologate(version=submitted, user=arbitro)
    assert snapshot(first) == stored


def test_the_page_issues_the_correction_and_shows_the_diff(client_for, arbitro, jurado):
    old = homologated_version(jurado)
    url = reverse("sheet-correct", args=[jurado.code])
    client = client_for(arbitro)
    assert client.get(url).status_code == 200
    skills = _skills(old, Escudo=15)
    data = {
        "request_key": "s-1",
        "st": 13,
        "dx": 12,
        "iq": 10,
        "ht": 12,
        "notes": "",
        "reason": "Escudo 15: o jogador pagou o ponto na semana 2.",
        "skills-TOTAL_FORMS": len(skills),
        "skills-INITIAL_FORMS": len(skills),
        "skills-MIN_NUM_FORMS": 0,
        "skills-MAX_NUM_FORMS": 200,
        **CONFIRMED,
    }
    for i, line in enumerate(skills):
        for key, value in line.items():
            data[f"skills-{i}-{key}"] = value
    response = client.post(url, data)
    assert response.status_code == 302
    assert response.url.startswith(reverse("sheet-history", args=[jurado.code]) + "?de=1&para=2")
    # Posted twice: one correction, one new version.
    client.post(url, data)
    assert Correction.objects.filter(character=jurado).count() == 1
    assert jurado.versions.count() == 2
    html = content(client.get(response.url))
    assert row(section(html, "Da versão 1 para a versão 2"), "Escudo")[1:] == ["14 (4)", "15 (4)"]


@pytest.mark.parametrize("username", ["jogador", "mestre"])
def test_only_the_arbitro_corrects_a_sheet(client_for, django_user_model, jurado, username):
    user = django_user_model.objects.get(username=username)
    response = client_for(user).get(reverse("sheet-correct", args=[jurado.code]))
    assert response.status_code == 403
    assert services.ONLY_ARBITRO in content(response)
    with pytest.raises(services.ServiceError):
        console_services.sheet_correct(character=jurado, user=user, reason="x", attributes=None)
    assert jurado.versions.count() == 1


def test_the_correction_page_checks_membership(client_for, outsider, jurado):
    assert client_for(outsider).get(reverse("sheet-correct", args=[jurado.code])).status_code == 404


def test_a_correction_waits_for_a_submitted_version(arbitro, hoplita, submitted):
    with pytest.raises(services.ServiceError) as refused:
        console_services.sheet_correct(
            character=hoplita, user=arbitro, reason="x", notes="nota nova"
        )
    assert refused.value.message == PENDING_BLOCKS_CORRECTION
    assert hoplita.versions.count() == 2


def test_a_correction_that_changes_nothing_is_refused_and_saves_nothing(arbitro, jurado):
    with pytest.raises(services.ServiceError) as refused:
        console_services.sheet_correct(character=jurado, user=arbitro, reason="nada")
    assert refused.value.message == NOTHING_CHANGED
    assert jurado.versions.count() == 1
    assert not Correction.objects.filter(character=jurado).exists()


def test_a_correction_needs_a_reason(arbitro, jurado):
    with pytest.raises(services.ServiceError) as refused:
        console_services.sheet_correct(character=jurado, user=arbitro, reason=" ", notes="x")
    assert refused.value.field == "reason"
    assert jurado.versions.count() == 1


def test_an_open_draft_moves_after_the_correction(arbitro, jogador, jurado):
    draft = sheet_draft_create(character=jurado, user=jogador)
    assert draft.number == 2
    correction = console_services.sheet_correct(
        character=jurado, user=arbitro, reason="nota do Árbitro", notes="Corrigida."
    )
    draft.refresh_from_db()
    assert (correction.version_after.number, draft.number, draft.status) == (2, 3, "draft")
    # Homologating the draft later still makes it the newest version.
    sheet_submit(version=draft, user=jogador)
    sheet_homologate(version=draft, user=arbitro)
    assert homologated_version(jurado).number == 3


def test_the_form_shows_points_as_the_sheet_writes_them(client_for, arbitro, jurado):
    html = content(client_for(arbitro).get(reverse("sheet-correct", args=[jurado.code])))
    values = re.findall(r'name="skills-\d+-points" value="([^"]*)"', html)
    assert values and not [v for v in values if v.endswith(".0")]
