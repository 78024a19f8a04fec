"""The console's pages cost the same number of queries however long the registers grow."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from canon import services
from console import services as console_services


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def _grow(demo, mestre, arbitro) -> None:
    """Three more divergences, one resolved by a new decision, and two corrections."""
    opened = [
        services.divergence_create(
            campaign=demo, user=mestre, title=f"Dúvida {n}", description="…", section="4.9"
        )
        for n in range(3)
    ]
    decision = services.decision_create(
        campaign=demo, user=arbitro, title="Nova", text="Texto.", resolves=opened[:1]
    )
    services.correction_create(entry=decision, user=arbitro, field="text", after="T2", reason="r")
    services.correction_create(entry=opened[1], user=arbitro, field="title", after="D", reason="r")


@pytest.mark.parametrize("name", ["console", "divergences", "decisions", "corrections"])
def test_the_page_has_a_flat_query_count(client_for, arbitro, mestre, demo, name):
    client = client_for(arbitro)
    url = reverse(name)
    before = _queries(client, url)
    _grow(demo, mestre, arbitro)
    assert _queries(client, url) == before


def test_a_divergence_page_and_a_decision_page_are_flat(client_for, arbitro, mestre, demo):
    client = client_for(arbitro)
    decision = demo.decisions.get(source_key="canon:4.11-v7")
    divergence = demo.divergences.get(source_key="canon:9.4")
    urls = [
        reverse("decision", args=[decision.code]),
        reverse("divergence", args=[divergence.code]),
    ]
    before = [_queries(client, url) for url in urls]
    _grow(demo, mestre, arbitro)
    assert [_queries(client, url) for url in urls] == before


def test_the_sheet_history_is_flat(client_for, arbitro, jogador, jurado):
    from sheets.drafts import sheet_draft_create
    from sheets.homologation import sheet_return, sheet_submit

    client = client_for(arbitro)
    url = reverse("sheet-history", args=[jurado.code])
    console_services.sheet_correct(character=jurado, user=arbitro, reason="r", notes="1")
    before = _queries(client, url)
    console_services.sheet_correct(character=jurado, user=arbitro, reason="r", notes="2")
    draft = sheet_draft_create(character=jurado, user=jogador)
    sheet_submit(version=draft, user=jogador)
    sheet_return(version=draft, user=arbitro, reason="não")
    assert _queries(client, url) == before
