"""The Árbitro returns a submitted version with a reason (console.views.return_version)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from campaigns.confirm import CONFIRMED
from sheets.homologation import RETURN_NEEDS_REASON
from sheets.models import SheetVersion
from tests.sheets.pages import content

REASON = "Espada Curta 15 pede 4 pontos: mostre de onde vêm os 2 novos."


def _url(version) -> str:
    return reverse("return-version", kwargs={"code": version.code})


def _data(version, reason=REASON) -> dict:
    return {f"{version.code}-reason": reason, **CONFIRMED}


def test_it_works(client_for, arbitro, submitted):
    response = client_for(arbitro).post(_url(submitted), _data(submitted))
    assert response.status_code == 302
    assert response.url == reverse("queue")
    submitted.refresh_from_db()
    assert (submitted.status, submitted.return_reason) == (SheetVersion.Status.RETURNED, REASON)
    assert submitted.decided_by == arbitro


def test_the_owner_reads_the_reason_on_the_sheet_page(
    client_for, arbitro, jogadora, submitted, hoplita
):
    client_for(arbitro).post(_url(submitted), _data(submitted))
    html = content(client_for(jogadora).get(reverse("sheet", kwargs={"code": hoplita.code})))
    assert "Versão 2: <strong>Devolvida</strong>" in html
    assert escape(REASON) in html
    assert "versão 1" in html  # the homologated version is still the one in play


def test_it_requires_login(client, submitted):
    assert client.post(_url(submitted), _data(submitted)).url.startswith("/entrar/")
    submitted.refresh_from_db()
    assert submitted.status == SheetVersion.Status.SUBMITTED


@pytest.mark.parametrize("username", ["mestre", "jogadora", "jogador"])
def test_it_checks_the_role(client_for, django_user_model, submitted, username):
    user = django_user_model.objects.get(username=username)
    assert client_for(user).post(_url(submitted), _data(submitted)).status_code == 403
    submitted.refresh_from_db()
    assert submitted.status == SheetVersion.Status.SUBMITTED


def test_it_checks_membership(client_for, outsider, submitted):
    assert client_for(outsider).post(_url(submitted), _data(submitted)).status_code == 404


@pytest.mark.parametrize("reason", ["", "   "])
def test_it_refuses_an_empty_reason_and_the_version_stays_submitted(
    client_for, arbitro, submitted, reason
):
    html = content(client_for(arbitro).post(_url(submitted), _data(submitted, reason), follow=True))
    assert escape(RETURN_NEEDS_REASON) in html
    submitted.refresh_from_db()
    assert (submitted.status, submitted.return_reason) == (SheetVersion.Status.SUBMITTED, "")


def test_a_returned_version_starts_the_next_draft(
    client_for, arbitro, jogadora, submitted, hoplita
):
    client_for(arbitro).post(_url(submitted), _data(submitted))
    response = client_for(jogadora).post(reverse("draft", kwargs={"code": hoplita.code}))
    assert response.status_code == 302
    draft = SheetVersion.objects.get(character=hoplita, number=3)
    assert draft.status == SheetVersion.Status.DRAFT
    assert draft.skills.get(name="Espada Curta").level == 15
    submitted.refresh_from_db()
    assert (submitted.status, submitted.return_reason) == (SheetVersion.Status.RETURNED, REASON)
