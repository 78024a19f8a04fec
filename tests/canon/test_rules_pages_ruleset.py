"""The rules pages follow the campaign's ruleset (issue 21, item 5): /regras/?campanha=<slug>
shows that campaign's system's chapters, tables, house settings and readings (its
``PagesPart``); without it, the canon's as always. A campaign that is not yours is not found,
and a system without pages says so in Portuguese."""

from __future__ import annotations

import pytest
from django.http import Http404
from django.test import RequestFactory

from rules.views import pages_for
from tests.canon.test_rules_pages import PageReader
from tests.second_ruleset import D20, DICE_ONLY, DICE_ONLY_LABEL, campaign_on, register

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _second_ruleset():
    yield from register()


def _read(answer) -> PageReader:
    assert answer.status_code == 200
    reader = PageReader()
    reader.feed(answer.content.decode())
    return reader


def test_the_canons_campaign_shows_the_canons_pages(client_for, mestre):
    client = client_for(mestre)
    for url in ("/regras/", "/regras/casa/", "/regras/leituras/"):
        plain = _read(client.get(url))
        named = _read(client.get(url, {"campanha": "a-garganta"}))
        # The rules nav keeps the campaign asked (its four links); nothing else differs.
        kept = [h.replace("?campanha=a-garganta", "") for h in named.hrefs]
        assert sum(h != k for h, k in zip(named.hrefs, kept, strict=True)) == 4
        assert (plain.ids, plain.tables, plain.hrefs) == (named.ids, named.tables, kept)


def test_a_campaign_of_another_system_shows_its_own_pages(client_for, mestre):
    campaign_on(D20, slug="d20", user=mestre)
    client = client_for(mestre)
    page = client.get("/regras/", {"campanha": "d20"})
    reader = _read(page)
    assert set(reader.tables) == {"d20_actions"}
    assert reader.tables["d20_actions"][1] == [["Disparada", "deslocamento dobrado"]]
    text = page.content.decode()
    assert "Ações em combate" in text and "Condições" in text and "Manobras" not in text
    house = client.get("/regras/casa/", {"campanha": "d20"})
    assert house.status_code == 200 and "casa-" not in " ".join(_read(house).ids)
    assert client.get("/regras/leituras/", {"campanha": "d20"}).status_code == 200


def test_a_campaign_not_yours_is_not_found(client_for, jogador, outsider):
    assert client_for(jogador).get("/regras/", {"campanha": "outra"}).status_code == 404
    assert client_for(jogador).get("/regras/", {"campanha": "nenhuma"}).status_code == 404


def test_a_system_without_pages_says_so(client_for, mestre):
    campaign_on(DICE_ONLY, slug="dados", user=mestre)
    assert client_for(mestre).get("/regras/", {"campanha": "dados"}).status_code == 404
    request = RequestFactory().get("/regras/", {"campanha": "dados"})
    request.user = mestre
    with pytest.raises(Http404) as refused:
        pages_for(request)
    assert str(refused.value) == (
        f"O sistema de regras «{DICE_ONLY_LABEL}» desta campanha não tem páginas de regras."
    )
