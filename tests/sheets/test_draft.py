"""A jogador's proposed change (sheets.views.draft_edit, draft_submit and their services).

A change starts as a draft copied from the newest version, is edited, submitted, and waits
for the Árbitro. A submitted or homologated version never changes (docs/DESIGN.md,
invariant 6 (A homologated sheet does not change)).
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaigns.confirm import CONFIRMED
from campaigns.errors import ServiceError
from sheets.drafts import (
    DRAFT_EXISTS,
    NOT_A_DRAFT,
    PENDING_EXISTS,
    sheet_draft_create,
    sheet_draft_update,
)
from sheets.forms import ATTRIBUTE_ERRORS
from sheets.homologation import NOT_SUBMITTED, sheet_homologate, sheet_return, sheet_submit
from sheets.models import SheetVersion
from tests.sheets.pages import content


def _url(character) -> str:
    return reverse("draft", kwargs={"code": character.code})


def _submit_url(character) -> str:
    return reverse("draft-submit", kwargs={"code": character.code})


def _version(character, number) -> SheetVersion:
    return SheetVersion.objects.get(character=character, number=number)


def _snapshot(version: SheetVersion) -> tuple:
    """Everything a version says, to show it did not change."""
    version = SheetVersion.objects.get(pk=version.pk)
    return (
        version.status,
        version.attributes(),
        version.notes,
        version.decided_at,
        sorted((s.name, s.level, s.points) for s in version.skills.all()),
        sorted((i.name, i.weight_kg) for i in version.items.all()),
        sorted(t.name for t in version.traits.all()),
    )


def _form_data(version: SheetVersion, **changes) -> dict:
    """The draft form as the page posts it, with ``changes`` over the version's values."""
    skills = list(version.skills.all())
    data = {
        **version.attributes(),
        "notes": version.notes,
        "skills-TOTAL_FORMS": str(len(skills)),
        "skills-INITIAL_FORMS": str(len(skills)),
        "skills-MIN_NUM_FORMS": "0",
        "skills-MAX_NUM_FORMS": "1000",
    }
    for index, skill in enumerate(skills):
        for key in ("name", "attribute", "difficulty", "level", "points"):
            data[f"skills-{index}-{key}"] = str(getattr(skill, key))
    data.update({k: str(v) for k, v in changes.items()})
    return data


@pytest.fixture
def draft(jogador, jurado) -> SheetVersion:
    return sheet_draft_create(character=jurado, user=jogador)


# --- draft_edit -------------------------------------------------------------------------------


def test_it_works(client_for, jogador, jurado):
    client = client_for(jogador)
    assert client.get(_url(jurado)).status_code == 200

    response = client.post(_url(jurado))
    assert response.status_code == 302
    assert response.url == _url(jurado)
    draft = _version(jurado, 2)
    assert draft.status == SheetVersion.Status.DRAFT
    assert draft.attributes() == {"st": 13, "dx": 12, "iq": 10, "ht": 12}
    assert sorted(s.name for s in draft.skills.all()) == ["Escudo", "Espada Curta", "Observação"]
    assert draft.items.count() == 4
    assert draft.created_by == jogador


def test_it_requires_login(client, jurado):
    response = client.post(_url(jurado))
    assert response.status_code == 302
    assert response.url.startswith("/entrar/")
    assert not SheetVersion.objects.filter(character=jurado, number=2).exists()


@pytest.mark.parametrize("username", ["jogadora", "mestre", "arbitro"])
def test_it_checks_ownership(client_for, django_user_model, jurado, username):
    client = client_for(django_user_model.objects.get(username=username))
    assert client.get(_url(jurado)).status_code == 403
    assert client.post(_url(jurado)).status_code == 403
    assert not SheetVersion.objects.filter(character=jurado, number=2).exists()


def test_it_checks_membership(client_for, outsider, jurado):
    assert client_for(outsider).post(_url(jurado)).status_code == 404


def test_it_refuses_a_second_draft(client_for, jogador, jurado, draft):
    client = client_for(jogador)
    client.post(_url(jurado))  # a draft exists: this shows it, does not create another
    assert SheetVersion.objects.filter(character=jurado).count() == 2
    with pytest.raises(ServiceError) as refused:
        sheet_draft_create(character=jurado, user=jogador)
    assert refused.value.message == DRAFT_EXISTS


def test_it_refuses_a_draft_while_a_version_waits_for_the_arbitro(client_for, jogadora, hoplita):
    response = client_for(jogadora).post(_url(hoplita), follow=True)
    assert PENDING_EXISTS in content(response)
    assert SheetVersion.objects.filter(character=hoplita).count() == 2


def test_it_shows_an_error_next_to_st_0_and_leaves_the_draft_as_it_was(
    client_for, jogador, jurado, draft
):
    before = _snapshot(draft)
    response = client_for(jogador).post(_url(jurado), _form_data(draft, st=0, dx=15))
    assert response.status_code == 422
    html = content(response)
    assert (
        'name="st" value="0" min="1" max="30"><span class="error">' + ATTRIBUTE_ERRORS["min_value"]
        in html
    )
    assert _snapshot(draft) == before


def test_it_saves_a_valid_edit(client_for, jogador, jurado, draft):
    data = _form_data(draft, st=14, notes="Treinou com o escudo.")
    index = next(i for i in range(3) if data[f"skills-{i}-name"] == "Escudo")
    data[f"skills-{index}-level"] = "15"
    data[f"skills-{index}-points"] = "12"

    response = client_for(jogador).post(_url(jurado), data)

    assert response.status_code == 302
    draft.refresh_from_db()
    assert (draft.st, draft.notes, draft.status) == (14, "Treinou com o escudo.", "draft")
    assert draft.skills.get(name="Escudo").level == 15


def test_it_leaves_the_homologated_version_alone_while_the_draft_changes(
    client_for, jogador, jurado, draft
):
    homologated = _version(jurado, 1)
    before = _snapshot(homologated)
    client = client_for(jogador)

    client.post(_url(jurado), _form_data(draft, st=14))
    client.post(_submit_url(jurado))
    client.post(_url(jurado), _form_data(draft, st=18))  # after submission: refused

    assert _snapshot(homologated) == before
    html = content(client.get(reverse("sheet", kwargs={"code": jurado.code})))
    assert "versão 1" in html


# --- draft_submit -----------------------------------------------------------------------------


def test_save_and_submit_saves_the_edit_first(client_for, jogador, jurado, draft):
    data = _form_data(draft, st=14, submit="1", **CONFIRMED)
    response = client_for(jogador).post(_url(jurado), data)
    assert response.status_code == 302
    assert response.url == reverse("sheet", kwargs={"code": jurado.code})
    draft.refresh_from_db()
    assert (draft.st, draft.status) == (14, SheetVersion.Status.SUBMITTED)


def test_save_and_submit_with_an_error_submits_nothing(client_for, jogador, jurado, draft):
    response = client_for(jogador).post(_url(jurado), _form_data(draft, st=0, submit="1"))
    assert response.status_code == 422
    draft.refresh_from_db()
    assert (draft.st, draft.status) == (13, SheetVersion.Status.DRAFT)


def test_submit_works(client_for, jogador, jurado, draft):
    response = client_for(jogador).post(_submit_url(jurado))
    assert response.status_code == 302
    assert response.url == reverse("sheet", kwargs={"code": jurado.code})
    draft.refresh_from_db()
    assert draft.status == SheetVersion.Status.SUBMITTED
    assert draft.submitted_at is not None


def test_submit_requires_login(client, jurado, draft):
    assert client.post(_submit_url(jurado)).url.startswith("/entrar/")
    draft.refresh_from_db()
    assert draft.status == SheetVersion.Status.DRAFT


def test_submit_checks_ownership(client_for, mestre, jurado, draft):
    assert client_for(mestre).post(_submit_url(jurado)).status_code == 403
    draft.refresh_from_db()
    assert draft.status == SheetVersion.Status.DRAFT


def test_submit_checks_membership(client_for, outsider, jurado, draft):
    assert client_for(outsider).post(_submit_url(jurado)).status_code == 404


def test_submit_without_a_draft_changes_nothing(client_for, jogador, jurado):
    response = client_for(jogador).post(_submit_url(jurado))
    assert response.status_code in (302, 404)
    assert list(SheetVersion.objects.filter(character=jurado).values_list("status", flat=True)) == [
        "homologated"
    ]


def test_a_submitted_version_is_not_edited_through_the_page(client_for, jogador, jurado, draft):
    client = client_for(jogador)
    client.post(_submit_url(jurado))
    before = _snapshot(draft)

    response = client.post(_url(jurado), _form_data(draft, st=18), follow=True)

    assert PENDING_EXISTS in content(response)
    assert _snapshot(draft) == before
    assert SheetVersion.objects.filter(character=jurado).count() == 2


# --- the services refuse to change what is not a draft ----------------------------------------


def test_editing_a_submitted_version_is_refused(jogador, jurado, draft):
    sheet_submit(version=draft, user=jogador)
    before = _snapshot(draft)
    with pytest.raises(ServiceError) as refused:
        sheet_draft_update(
            version=draft, attributes={**draft.attributes(), "st": 18}, notes="", skills=[]
        )
    assert refused.value.message == NOT_A_DRAFT
    assert _snapshot(draft) == before


def test_a_homologated_version_cannot_be_edited_submitted_homologated_or_returned(
    jogador, arbitro, jurado
):
    homologated = _version(jurado, 1)
    before = _snapshot(homologated)

    with pytest.raises(ServiceError, match=re.escape(NOT_A_DRAFT)):
        sheet_draft_update(
            version=homologated,
            attributes={**homologated.attributes(), "st": 18},
            notes="",
            skills=[],
        )
    with pytest.raises(ServiceError, match=re.escape(NOT_A_DRAFT)):
        sheet_submit(version=homologated, user=jogador)
    with pytest.raises(ServiceError) as refused:
        sheet_homologate(version=homologated, user=arbitro)
    assert refused.value.message == NOT_SUBMITTED
    with pytest.raises(ServiceError) as refused:
        sheet_return(version=homologated, user=arbitro, reason="Não.")
    assert refused.value.message == NOT_SUBMITTED

    assert _snapshot(homologated) == before
