"""The Árbitro's homologation queue (console.views.queue)."""

from __future__ import annotations

from django.urls import reverse

from tests.sheets.pages import content, row

URL = "/homologacao/"


def test_it_is_at_homologacao():
    assert reverse("queue") == URL


def test_it_works(client_for, arbitro, submitted):
    response = client_for(arbitro).get(URL)
    assert response.status_code == 200
    html = content(response)
    assert "Hoplita de Ônfalos — versão 2" in html
    # The diff: Espada Curta goes from NH 14 to NH 15; nothing else changes.
    what, before, after = row(html, "Espada Curta")
    assert (before.split()[0], after.split()[0]) == ("14", "15")
    assert html.count('<td class="before">') == 1
    assert reverse("homologate", kwargs={"code": submitted.code}) in html
    assert reverse("return-version", kwargs={"code": submitted.code}) in html


def test_it_requires_login(client, demo):
    response = client.get(URL)
    assert response.status_code == 302
    assert response.url.startswith("/entrar/")


def test_it_checks_membership(client_for, outsider, submitted):
    html = content(client_for(outsider).get(URL))
    assert "Hoplita" not in html
    assert str(submitted.code) not in html


def test_the_mestre_reads_the_queue_without_the_arbitros_buttons(client_for, mestre, submitted):
    html = content(client_for(mestre).get(URL))
    assert "Hoplita de Ônfalos — versão 2" in html
    assert reverse("homologate", kwargs={"code": submitted.code}) not in html


def test_the_owner_reads_her_own_submitted_version(client_for, jogadora, submitted):
    html = content(client_for(jogadora).get(URL))
    assert "Hoplita de Ônfalos — versão 2" in html
    assert reverse("homologate", kwargs={"code": submitted.code}) not in html


def test_another_jogador_does_not_read_someone_elses_submitted_version(
    client_for, jogador, submitted
):
    html = content(client_for(jogador).get(URL))
    assert "Hoplita de Ônfalos — versão 2" not in html


def test_the_diff_writes_points_as_the_sheet_does(client_for, arbitro, submitted):
    html = content(client_for(arbitro).get(URL))
    assert row(html, "Espada Curta") == ["Espada Curta", "14 (2)", "15 (4)"]
