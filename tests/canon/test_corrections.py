"""Correções of register entries: a new row that keeps what the line said, what it says now,
why, when and by whom. The row it corrects never changes. The list, newest first, by target."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.confirm import CONFIRMED
from canon import services
from canon.models import Correction, Decision
from tests.sheets.pages import content, text


def _row(instance) -> dict:
    """Every stored column of a row, read again from the database."""
    fresh = type(instance).objects.get(pk=instance.pk)
    return {f.attname: getattr(fresh, f.attname) for f in fresh._meta.concrete_fields}


def _correct_url(entry) -> str:
    name = "decision-correct" if isinstance(entry, Decision) else "divergence-correct"
    return reverse(name, args=[entry.code])


def test_a_correction_never_alters_the_decision_it_corrects(client_for, arbitro, demo):
    decision = demo.decisions.get(source_key="canon:4.12")
    stored = _row(decision)
    response = client_for(arbitro).post(
        _correct_url(decision),
        {
            "request_key": "c-1",
            "field": "text",
            "after": decision.text + " Teto em 45 m também para quem escorrega.",
            "reason": "Faltava a frase do escorregão.",
            **CONFIRMED,
        },
    )
    assert response.status_code == 302
    assert _row(decision) == stored
    correction = Correction.objects.get(campaign=demo, request_key="c-1")
    assert correction.before == decision.text
    assert correction.decision == decision
    assert (correction.created_by, correction.line) == (arbitro, "Texto da decisão")
    page = text(content(client_for(arbitro).get(reverse("decision", args=[decision.code]))))
    assert "Teto em 45 m também para quem escorrega." in page
    assert "Faltava a frase do escorregão." in page


def test_a_second_correction_keeps_what_the_first_made_the_line_say(arbitro, demo):
    decision = demo.decisions.get(source_key="canon:4.12")
    first = services.correction_create(
        entry=decision, user=arbitro, field="title", after="Quedas (§4.12)", reason="Seção."
    )
    second = services.correction_create(
        entry=decision, user=arbitro, field="title", after="Quedas e escorregões", reason="Nome."
    )
    assert (first.before, first.after) == ("Quedas", "Quedas (§4.12)")
    assert (second.before, second.after) == ("Quedas (§4.12)", "Quedas e escorregões")
    assert Decision.objects.prefetch_related("corrections").get(pk=decision.pk).now["title"] == (
        "Quedas e escorregões"
    )


def test_a_correction_never_alters_the_divergence_it_corrects(arbitro, demo):
    divergence = demo.divergences.get(source_key="canon:9.2")
    stored = _row(divergence)
    correction = services.correction_create(
        entry=divergence,
        user=arbitro,
        field="resolution",
        after="O `02` §2 diz «Recuar é de todo mundo» desde 08/09/2026.",
        reason="Mais preciso.",
    )
    assert _row(divergence) == stored
    assert correction.before == divergence.resolution
    assert correction.divergence == divergence


def test_the_resolution_of_an_open_divergence_is_not_corrected(arbitro, demo):
    divergence = demo.divergences.get(source_key="canon:9.3")
    with pytest.raises(services.ServiceError) as refused:
        services.correction_create(
            entry=divergence, user=arbitro, field="resolution", after="x", reason="y"
        )
    assert refused.value.message == services.NOT_RESOLVED_YET


def test_a_correction_that_changes_nothing_is_refused(client_for, arbitro, demo):
    decision = demo.decisions.get(source_key="canon:4.12")
    response = client_for(arbitro).post(
        _correct_url(decision),
        {"field": "title", "after": "Quedas", "reason": "nenhuma", **CONFIRMED},
    )
    assert response.status_code == 422
    assert services.NOTHING_CHANGES in content(response)
    assert not decision.corrections.exists()


def test_a_correction_needs_a_reason(client_for, arbitro, demo):
    decision = demo.decisions.get(source_key="canon:4.12")
    response = client_for(arbitro).post(
        _correct_url(decision), {"field": "title", "after": "Quedas!", "reason": ""}
    )
    assert response.status_code == 422
    assert services.REASON_REQUIRED in content(response)


def test_the_same_correction_posted_twice_makes_one_row(client_for, arbitro, demo):
    decision = demo.decisions.get(source_key="canon:4.12")
    form = {
        "request_key": "c-2",
        "field": "title",
        "after": "Quedas!",
        "reason": "ênfase",
        **CONFIRMED,
    }
    client = client_for(arbitro)
    client.post(_correct_url(decision), form)
    client.post(_correct_url(decision), form)
    assert decision.corrections.count() == 1


@pytest.mark.parametrize("username", ["jogador", "mestre"])
def test_only_the_arbitro_corrects(client_for, django_user_model, demo, username):
    user = django_user_model.objects.get(username=username)
    for entry in (
        demo.decisions.get(source_key="canon:4.12"),
        demo.divergences.get(source_key="canon:9.3"),
    ):
        response = client_for(user).post(
            _correct_url(entry), {"field": "title", "after": "x", "reason": "y"}
        )
        assert response.status_code == 403
    assert not Correction.objects.filter(created_by=user).exists()


def test_a_correction_row_is_never_saved_again_nor_deleted(demo):
    correction = Correction.objects.get(campaign=demo, source_key="canon:4.11-explosive-fireball")
    correction.after = "outra"
    with pytest.raises(PermissionError):
        correction.save()
    with pytest.raises(PermissionError):
        correction.delete()


# --- the list ------------------------------------------------------------------------------------


def test_the_list_is_newest_first(client_for, jogador, arbitro, demo):
    divergence = demo.divergences.get(source_key="canon:9.2")
    services.correction_create(
        entry=divergence, user=arbitro, field="title", after="Recuar é de todos", reason="Curto."
    )
    response = client_for(jogador).get(reverse("corrections"))
    assert response.status_code == 200
    html = content(response)
    assert html.index("Recuar é de todos") < html.index("Bola de Fogo Explosiva")


@pytest.mark.parametrize(
    "alvo, shown, hidden",
    [
        ("decisoes", "Bola de Fogo Explosiva", "Recuar é de todos"),
        ("pendencias", "Recuar é de todos", "Bola de Fogo Explosiva"),
    ],
)
def test_the_list_filters_by_target(client_for, jogador, arbitro, demo, alvo, shown, hidden):
    divergence = demo.divergences.get(source_key="canon:9.2")
    services.correction_create(
        entry=divergence, user=arbitro, field="title", after="Recuar é de todos", reason="Curto."
    )
    html = content(client_for(jogador).get(reverse("corrections"), {"alvo": alvo}))
    assert shown in html
    assert hidden not in html


def test_the_list_requires_login(client, demo):
    assert client.get(reverse("corrections")).url.startswith("/entrar/")


def test_the_list_shows_only_the_users_campaigns(client_for, outsider, demo):
    html = content(client_for(outsider).get(reverse("corrections")))
    demo_correction = Correction.objects.get(campaign=demo)
    assert str(demo_correction.decision.code) not in html
