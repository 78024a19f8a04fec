""" "E sem a perícia?" (sheets.draft_views.sheet_defaults): what a homologated sheet rolls in every
catalogued skill it lacks, naming the default used (§3.3)."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from canon import skills
from gurps.audit import NO_DEFAULT_LISTED
from tests.gurps.helpers import canon_section
from tests.pins import SESSION_QUERIES
from tests.sheets.pages import content, row, text


def _url(character) -> str:
    return reverse("sheet-defaults", kwargs={"code": character.code})


def test_it_works_and_the_rastreador_climbs_at_9(client_for, rastreadora, rastreador):
    assert "escala em 9, não em 6" in canon_section("## 3.3 Perícia que você não tem")
    html = content(client_for(rastreadora).get(_url(rastreador)))
    assert row(html, "Escalada")[:3] == ["Escalada", "9", "DX−5"]
    assert "ST−5: ST 11 − 5 = 6; DX−5: DX 14 − 5 = 9" in html


def test_a_default_from_another_skill_falls_back_when_the_sheet_lacks_it(
    client_for, jogador, jurado
):
    html = content(client_for(jogador).get(_url(jurado)))
    cells = row(html, "Arremesso de Mágica")
    assert cells[:3] == ["Arremesso de Mágica", "9", "DX−3"]
    assert "Arremesso: a ficha não tem Arremesso" in cells[3]


def test_a_skill_with_no_default_says_so(client_for, jogador, jurado):
    html = text(content(client_for(jogador).get(_url(jurado))))
    assert f"Escrita antiga de Ámenti — {NO_DEFAULT_LISTED}" in html


def test_the_skills_on_the_sheet_are_listed_with_their_own_level(client_for, jogador, jurado):
    html = text(content(client_for(jogador).get(_url(jurado))))
    assert "Escudo 14" in html.split("Na ficha", 1)[1]


def test_the_catalogue_the_arbitro_changes_is_the_one_answered(
    client_for, arbitro, jogador, jurado
):
    natacao = jurado.campaign.skills.get(name="Natação")
    skills.skill_catalogue_entry_edit(
        entry=natacao,
        user=arbitro,
        reason="A descrição do livro.",
        name="Natação",
        attribute="ht",
        difficulty="E",
        defaults_rule="listed",
        defaults="HT−4 ou ST−5",
        source="MB",
    )
    html = content(client_for(jogador).get(_url(jurado)))
    assert row(html, "Natação")[:3] == ["Natação", "8", "HT−4"]


def test_it_requires_login(client, jurado):
    assert client.get(_url(jurado)).url.startswith("/entrar/")


def test_it_checks_membership(client_for, outsider, jurado):
    assert client_for(outsider).get(_url(jurado)).status_code == 404


def test_its_query_count_does_not_grow_with_the_sheet(client_for, jogador, jurado):
    client = client_for(jogador)
    with CaptureQueriesContext(connection) as first:
        client.get(_url(jurado))
    version = jurado.versions.get(number=1)
    for n in range(5):
        version.skills.create(
            name=f"Ofício {n}", attribute="iq", difficulty="A", level=10, points=2
        )
    with CaptureQueriesContext(connection) as second:
        client.get(_url(jurado))
    # session, user, the character with the asker's membership, the homologated version, its
    # skills, the campaign, the catalogue, the two cost tables, their rows
    assert len(second) == len(first) == 8 + SESSION_QUERIES
