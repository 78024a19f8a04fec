"""The Árbitro homologates a submitted version (console.views.homologate): from then on the
sheet page shows it. A decided version is not decided again."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.confirm import CONFIRMED
from sheets.homologation import NOT_SUBMITTED
from sheets.models import Possession, SheetVersion
from tests.sheets.pages import content, row, section


def _url(version) -> str:
    return reverse("homologate", kwargs={"code": version.code})


def _sheet(client, character) -> str:
    return content(client.get(reverse("sheet", kwargs={"code": character.code})))


def test_it_works(client_for, arbitro, jogadora, submitted, hoplita):
    response = client_for(arbitro).post(_url(submitted), CONFIRMED)
    assert response.status_code == 302
    assert response.url == reverse("queue")
    submitted.refresh_from_db()
    assert submitted.status == SheetVersion.Status.HOMOLOGATED
    assert submitted.decided_by == arbitro
    assert submitted.decided_at is not None

    html = _sheet(client_for(jogadora), hoplita)
    assert "versão 2" in html
    assert row(section(html, "Perícias"), "Espada Curta")[2] == "15"


def test_it_leaves_the_queue_empty_and_says_so(client_for, arbitro, submitted):
    html = content(client_for(arbitro).post(_url(submitted), CONFIRMED, follow=True))
    assert "Hoplita de Ônfalos: versão 2 homologada." in html
    assert "Nenhuma ficha esperando homologação." in html


def test_it_requires_login(client, submitted):
    assert client.post(_url(submitted), CONFIRMED).url.startswith("/entrar/")
    submitted.refresh_from_db()
    assert submitted.status == SheetVersion.Status.SUBMITTED


@pytest.mark.parametrize("username", ["mestre", "jogadora", "jogador"])
def test_it_checks_the_role(client_for, django_user_model, submitted, username):
    user = django_user_model.objects.get(username=username)
    assert client_for(user).post(_url(submitted), CONFIRMED).status_code == 403
    submitted.refresh_from_db()
    assert submitted.status == SheetVersion.Status.SUBMITTED


def test_it_checks_membership(client_for, outsider, submitted):
    assert client_for(outsider).post(_url(submitted), CONFIRMED).status_code == 404
    submitted.refresh_from_db()
    assert submitted.status == SheetVersion.Status.SUBMITTED


def test_it_refuses_get(client_for, arbitro, submitted):
    assert client_for(arbitro).get(_url(submitted)).status_code == 405


def test_homologating_twice_is_refused_and_changes_nothing(client_for, arbitro, submitted):
    client = client_for(arbitro)
    client.post(_url(submitted), CONFIRMED)
    submitted.refresh_from_db()
    decided = (submitted.status, submitted.decided_at, submitted.decided_by_id)

    html = content(client.post(_url(submitted), CONFIRMED, follow=True))

    assert NOT_SUBMITTED in html
    submitted.refresh_from_db()
    assert (submitted.status, submitted.decided_at, submitted.decided_by_id) == decided


def test_a_returned_version_cannot_be_homologated(client_for, arbitro, submitted):
    client = client_for(arbitro)
    client.post(
        reverse("return-version", kwargs={"code": submitted.code}),
        {f"{submitted.code}-reason": "Faltou justificar o ponto.", **CONFIRMED},
    )
    html = content(client.post(_url(submitted), CONFIRMED, follow=True))
    assert NOT_SUBMITTED in html
    submitted.refresh_from_db()
    assert submitted.status == SheetVersion.Status.RETURNED


def test_it_keeps_what_the_character_carries(client_for, arbitro, hoplita, submitted):
    Possession.objects.filter(character=hoplita, item__name="Aspis").update(carried=False)
    client_for(arbitro).post(_url(submitted), CONFIRMED)
    aspis = Possession.objects.get(character=hoplita, item__name="Aspis")
    assert aspis.item.version == submitted
    assert not aspis.carried
    assert Possession.objects.filter(character=hoplita).count() == 4


def test_the_version_it_replaces_stays_as_it_was(client_for, arbitro, hoplita, submitted):
    first = SheetVersion.objects.get(character=hoplita, number=1)
    before = (
        first.status,
        first.decided_at,
        first.attributes(),
        first.skills.get(name="Espada Curta").level,
    )
    client_for(arbitro).post(_url(submitted), CONFIRMED)
    first.refresh_from_db()
    after = (
        first.status,
        first.decided_at,
        first.attributes(),
        first.skills.get(name="Espada Curta").level,
    )
    assert after == before
