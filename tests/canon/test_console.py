"""The console's home (console.views.console): what waits for the Árbitro, with counts."""

from __future__ import annotations

from django.template import Context, Template
from django.test import RequestFactory
from django.urls import reverse

from canon import services
from canon.models import Divergence
from sessions.weeks import services as weeks_services
from tests.sheets.pages import content, text

URL = "/console/"


def _count(html: str, testid: str) -> str:
    import re

    match = re.search(rf'data-testid="{testid}"><span class="n">(.*?)</span>', html)
    assert match, testid
    return match.group(1)


def test_it_is_at_console():
    assert reverse("console") == URL


def test_it_works(client_for, arbitro, demo, submitted):
    response = client_for(arbitro).get(URL)
    assert response.status_code == 200
    html = content(response)
    open_ones = Divergence.objects.filter(campaign=demo, status="open").count()
    assert _count(html, "count-sheets") == "1"
    assert _count(html, "count-divergences") == str(open_ones)
    assert "Hoplita de Ônfalos — versão 2" in html
    assert f"{reverse('queue')}#v-{submitted.code}" in html


def test_it_counts_the_submitted_weekly_reports_and_links_the_week(
    client_for, mestre, arbitro, demo
):
    html = content(client_for(arbitro).get(URL))
    assert _count(html, "count-reports") == "0"
    week = demo.weeks.get(number=1)
    weeks_services.report_write(week=week, user=mestre, text="Semana 1: a galeria do andar 3.")
    weeks_services.report_submit(week=week, user=mestre)
    html = content(client_for(arbitro).get(URL))
    assert _count(html, "count-reports") == "1"
    assert "Relatório da Semana 1" in html
    assert f'href="{reverse("week", args=[demo.slug, 1])}"' in html


def test_the_corrections_of_a_weekly_report_are_listed_with_the_others(
    client_for, mestre, arbitro, jogador, demo
):
    week = demo.weeks.get(number=1)
    weeks_services.report_write(week=week, user=mestre, text="Três bichos.")
    weeks_services.report_submit(week=week, user=mestre)
    weeks_services.report_homologate(week=week, user=arbitro)
    weeks_services.report_correct(
        week=week, user=arbitro, new_text="Quatro bichos.", reason="Contei mal."
    )
    for alvo in ("", "relatorios"):
        html = text(content(client_for(jogador).get(reverse("corrections"), {"alvo": alvo})))
        assert "Relatório da Semana 1" in html
        assert "Três bichos." in html and "Quatro bichos." in html and "Contei mal." in html
    html = content(client_for(jogador).get(reverse("corrections"), {"alvo": "decisoes"}))
    assert "Quatro bichos." not in html


def test_it_lists_the_newest_divergence_first(client_for, mestre, arbitro, demo):
    services.divergence_create(
        campaign=demo, user=mestre, title="Uma dúvida nova", description="Apareceu agora."
    )
    summary = services.console_summary(arbitro)
    assert summary.divergences[0].title == "Uma dúvida nova"
    assert summary.items[0].title in {"Uma dúvida nova", "Hoplita de Ônfalos — versão 2"}
    html = content(client_for(arbitro).get(URL))
    assert "Uma dúvida nova" in html


def test_a_jogador_reads_it_and_sees_only_their_own_versions(client_for, jogador, submitted):
    response = client_for(jogador).get(URL)
    assert response.status_code == 200
    html = content(response)
    assert _count(html, "count-sheets") == "0"
    assert "Hoplita" not in html
    assert "só o Árbitro homologa, resolve, decide e corrige" in html


def test_it_requires_login(client, demo):
    assert client.get(URL).url.startswith("/entrar/")


def test_the_outsider_sees_only_their_campaign(client_for, outsider, demo, submitted):
    html = content(client_for(outsider).get(URL))
    assert "Hoplita" not in html


# --- the offer to open a divergence, for pages that meet OutsideCanon -----------------------------

OFFER = Template(
    '{% include "canon/_offer_divergence.html" with section="4.9" '
    'context_text="ST 23 no jurado" message="O cânone não tem número para ST acima de 20." %}'
)


def _offer(user) -> str:
    request = RequestFactory().get("/fichas/x/")
    request.user = user
    return OFFER.render(Context({"request": request, "user": user}))


def test_the_offer_links_the_mestre_to_the_filled_in_form(mestre):
    html = _offer(mestre)
    assert "O cânone não tem número para ST acima de 20." in html
    assert "/console/pendencias/nova/?secao=4.9&amp;contexto=ST%2023%20no%20jurado" in html
    assert "pagina=/fichas/x/" in html


def test_the_offer_tells_a_jogador_whom_to_ask(jogador):
    html = text(_offer(jogador))
    assert "O cânone não tem número para ST acima de 20." in html
    assert "Peça ao Mestre de Cena ou ao Árbitro para abrir uma pendência sobre a §4.9" in html
    assert "/console/pendencias/nova/" not in _offer(jogador)


def test_the_rules_pages_can_link_each_house_setting_to_its_decision(jogador, demo):
    request = RequestFactory().get("/regras/casa/")
    request.user = jogador
    html = Template(
        "{% load canon_tags %}{% house_decision_urls as urls %}{{ urls|lookup:'falls_table' }}"
    ).render(Context({"request": request}))
    decision = demo.decisions.get(source_key="canon:4.12")
    assert html == reverse("decision", args=[decision.code])
