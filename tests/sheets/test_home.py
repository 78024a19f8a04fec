"""The home page (sheets.views.home): each campaign of the user, its sheets and open scenes."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rulesets.registry import GURPS3E, ruleset_for
from sheets.models import Character
from tests.sheets.pages import content


def test_it_works(client_for, jogador, jurado, hoplita, scene):
    response = client_for(jogador).get(reverse("home"))
    assert response.status_code == 200
    html = content(response)
    assert "A Garganta" in html
    assert reverse("sheet", kwargs={"code": jurado.code}) in html
    assert reverse("sheet", kwargs={"code": hoplita.code}) in html
    assert reverse("scene", kwargs={"code": scene.code}) in html
    # Jogadora's submitted version is not his to know about; the table sees it.
    assert "esperando homologação" not in html


def test_the_table_and_the_owner_see_the_waiting_version(client_for, jogadora, mestre, demo):
    for user in (jogadora, mestre):
        assert "1 ficha esperando homologação" in content(client_for(user).get(reverse("home")))


def test_it_requires_login(client, demo):
    response = client.get(reverse("home"))
    assert response.status_code == 302
    assert response.url.startswith("/entrar/")


def test_it_checks_membership(client_for, outsider, jurado, scene):
    html = content(client_for(outsider).get(reverse("home")))
    assert "<h1>Outra campanha</h1>" in html
    assert "<h1>A Garganta</h1>" not in html
    assert str(jurado.code) not in html
    assert str(scene.code) not in html


def test_its_query_count_does_not_grow_with_the_characters(
    client_for, jogador, demo, django_assert_num_queries
):
    client = client_for(jogador)
    with CaptureQueriesContext(connection) as before:
        client.get(reverse("home"))
    Character.objects.bulk_create(
        Character(campaign=demo, owner=jogador, name=f"Companheiro {n}") for n in range(10)
    )
    with django_assert_num_queries(len(before.captured_queries)):
        client.get(reverse("home"))


def test_it_says_each_campaign_s_ruleset_with_its_rules_pages(client_for, jogador, demo):
    html = content(client_for(jogador).get(reverse("home")))
    assert ruleset_for(GURPS3E).label in html
    assert f"{reverse('rules')}?campanha={demo.slug}" in html
