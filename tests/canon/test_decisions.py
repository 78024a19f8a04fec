"""Decisões: numbered when the canon numbers them, dated, linked to the house settings;
registered only by the Árbitro."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.confirm import CONFIRMED
from canon import services
from canon.models import Decision, Divergence
from tests.sheets.pages import content, row, text

NEW = "/console/decisoes/nova/"


def _form(**extra) -> dict:
    return {
        "request_key": "d-1",
        "campaign": "a-garganta",
        "title": "Nível Tecnológico 3",
        "text": "A campanha é NT 3.",
        "section": "9",
        **CONFIRMED,
        **extra,
    }


def test_the_list_works(client_for, jogador, demo):
    response = client_for(jogador).get(reverse("decisions"))
    assert response.status_code == 200
    html = content(response)
    assert row(html, "Decisão 27")[1:4] == ["13/09/2026", "Quedas", "§4.12"]
    assert row(html, "sem número")[1] in {"10/09/2026", "12/09/2026", "13/09/2026", "sem data"}
    assert 'href="/regras/casa/#casa-falls_table"' in html
    assert "Registrar uma decisão" not in html


def test_the_list_requires_login(client, demo):
    assert client.get(reverse("decisions")).url.startswith("/entrar/")


def test_the_page_links_to_the_house_rule_and_shows_the_correction(client_for, jogador, demo):
    decision = demo.decisions.get(source_key="canon:4.11-v7")
    html = content(client_for(jogador).get(reverse("decision", args=[decision.code])))
    assert 'href="/regras/casa/#casa-explosive_fireball_damage"' in html
    page = text(html)
    assert "Decisão sem número" in page
    assert "12/09/2026" in page
    assert "corrigida em 13/09/2026" in page
    assert "1d a cada 2 pontos — máximo 3d" in page  # what it says now
    assert "a 1d por ponto" in page  # and what it said


def test_the_page_checks_membership(client_for, outsider, demo):
    decision = demo.decisions.get(source_key="canon:4.12")
    assert client_for(outsider).get(reverse("decision", args=[decision.code])).status_code == 404


def test_the_arbitro_registers_a_decision_that_resolves_a_divergence(client_for, arbitro, demo):
    divergence = demo.divergences.get(source_key="canon:9.3")
    response = client_for(arbitro).post(
        NEW, _form(number="34", decided_on="2026-11-30", resolves=[str(divergence.code)])
    )
    decision = Decision.objects.get(campaign=demo, request_key="d-1")
    assert response.status_code == 302
    assert response.url == reverse("decision", args=[decision.code])
    assert (decision.number, str(decision.decided_on), decision.created_by) == (
        34,
        "2026-11-30",
        arbitro,
    )
    divergence.refresh_from_db()
    assert (divergence.status, divergence.decision) == ("resolved", decision)
    assert divergence.resolution == "Resolvida pela Decisão 34: Nível Tecnológico 3."


def test_a_decision_without_number_stays_without(client_for, arbitro, demo):
    client_for(arbitro).post(NEW, _form())
    decision = Decision.objects.get(campaign=demo, request_key="d-1")
    assert decision.number is None
    assert decision.label == "Decisão sem número"


def test_the_same_form_posted_twice_registers_one(client_for, arbitro, demo):
    client = client_for(arbitro)
    client.post(NEW, _form())
    client.post(NEW, _form())
    assert Decision.objects.filter(campaign=demo, request_key="d-1").count() == 1


def test_a_number_already_taken_is_refused_next_to_the_field(client_for, arbitro, demo):
    before = Decision.objects.count()
    response = client_for(arbitro).post(NEW, _form(number="27"))
    assert response.status_code == 422
    assert services.DECISION_NUMBER_TAKEN.format(number=27) in content(response)
    assert Decision.objects.count() == before


def test_an_unknown_house_key_is_refused(arbitro, demo):
    with pytest.raises(services.ServiceError) as refused:
        services.decision_create(
            campaign=demo, user=arbitro, title="x", text="y", house_key="not_a_rule"
        )
    assert refused.value.field == "house_key"


def test_a_decision_may_replace_another(arbitro, demo):
    old = demo.decisions.get(source_key="canon:4.12")
    new = services.decision_create(
        campaign=demo, user=arbitro, title="Quedas, de novo", text="…", replaces=old
    )
    assert list(old.replaced_by.all()) == [new]


@pytest.mark.parametrize("username", ["jogador", "mestre"])
def test_only_the_arbitro_registers_decisions(client_for, django_user_model, demo, username):
    user = django_user_model.objects.get(username=username)
    before = Decision.objects.count()
    for response in (client_for(user).get(NEW), client_for(user).post(NEW, _form())):
        assert response.status_code == 403
        assert services.ONLY_ARBITRO in content(response)
    assert Decision.objects.count() == before


def test_a_decision_row_is_never_saved_again_nor_deleted(demo):
    decision = demo.decisions.get(source_key="canon:4.12")
    decision.text = "outra"
    with pytest.raises(PermissionError):
        decision.save()
    with pytest.raises(PermissionError):
        decision.delete()


def test_every_house_link_lands_on_its_setting_of_the_rules_page(client_for, jogador, demo):
    house_page = content(client_for(jogador).get(reverse("rules-house")))
    for decision in demo.decisions.exclude(house_key=""):
        path, anchor = decision.rules_url.split("#")
        assert path == reverse("rules-house")
        assert f'id="{anchor}"' in house_page, decision.house_key


def test_a_decision_that_cannot_resolve_what_it_names_is_not_half_saved(arbitro, demo):
    resolved = demo.divergences.get(source_key="canon:9.1")
    still_open = demo.divergences.get(source_key="canon:9.3")
    before = Decision.objects.count()
    with pytest.raises(services.ServiceError) as refused:
        services.decision_create(
            campaign=demo, user=arbitro, title="x", text="y", resolves=[still_open, resolved]
        )
    assert refused.value.field == "resolves"
    assert Decision.objects.count() == before
    still_open.refresh_from_db()
    assert still_open.is_open


def test_the_pendencia_the_link_came_from_is_ticked_first_not_lost_in_the_list(
    client_for, arbitro, demo
):
    divergence = demo.divergences.get(source_key="canon:9.3")
    html = content(client_for(arbitro).get(f"{NEW}?pendencia={divergence.code}"))
    chosen = html.split('data-testid="resolves-chosen"')[1].split("</div>")[0]
    assert f'value="{divergence.code}"' in chosen and "checked" in chosen
    assert chosen.count('type="checkbox"') == 1
    others = html.split('class="more-resolves"')[1].split("</details>")[0]
    assert f'value="{divergence.code}"' not in others
    assert (
        others.count('type="checkbox"')
        == Divergence.objects.filter(campaign=demo, status=Divergence.Status.OPEN).count() - 1
    )
