"""Where the canon has no number (ST above 20 in the damage table, §4.9), the sheet page says
so and offers a divergence: a link for the Mestre and the Árbitro, a sentence for a jogador."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from django.urls import reverse

from gurps.errors import ST_ABOVE_DAMAGE_TABLE
from sheets.models import SheetVersion
from sheets.reads import homologated_version


def _st_21(character):
    version = homologated_version(character)
    # Straight to the row: a homologated version never changes through the site.
    SheetVersion.objects.filter(pk=version.pk).update(st=21)


def _offer_link(html: str) -> dict:
    start = html.index(reverse("divergence-new"))
    href = html[start : html.index('"', start)].replace("&amp;", "&")
    return parse_qs(urlparse(href).query)


def test_the_mestre_sees_the_canons_silence_and_a_filled_in_divergence(client_for, mestre, jurado):
    _st_21(jurado)
    html = client_for(mestre).get(reverse("sheet", args=[jurado.code])).content.decode()
    assert ST_ABOVE_DAMAGE_TABLE in html
    query = _offer_link(html)
    assert query["secao"] == ["4.9"]
    assert "ST 21" in query["contexto"][0] and "Gládio" in query["contexto"][0]


def test_the_jogador_is_told_whom_to_ask_and_gets_no_form_link(client_for, jogador, jurado):
    _st_21(jurado)
    html = client_for(jogador).get(reverse("sheet", args=[jurado.code])).content.decode()
    assert ST_ABOVE_DAMAGE_TABLE in html
    assert reverse("divergence-new") not in html
    assert "Peça ao Mestre de Cena ou ao Árbitro" in html
