"""The Árbitro's console through the API (console.api), under /api/v1/console/.

Every member reads; the Mestre also opens divergences; the Árbitro writes; 403
{"code": "forbidden"} for others; 404 for objects of another campaign."""

from __future__ import annotations

import pytest

from canon import services
from canon.models import Correction, Decision, Divergence
from sheets import services as sheet_services
from sheets.models import SheetVersion
from tests.api.conftest import post_json

API = "/api/v1/console"


@pytest.fixture
def submitted(hoplita) -> SheetVersion:
    """The seed's pending change: the hoplita's version 2 (Espada Curta 14 → 15)."""
    return SheetVersion.objects.get(character=hoplita, number=2, status="submitted")


def _divergence(demo, key="canon:9.3") -> Divergence:
    return Divergence.objects.get(campaign=demo, source_key=key)


def _decision(demo, key="canon:4.12") -> Decision:
    return Decision.objects.get(campaign=demo, source_key=key)


NEW_DIVERGENCE = {
    "title": "ST 23 não está na tabela de dano",
    "description": "A tabela da §4.9 vai até ST 20.",
    "section": "4.9",
}


# --- reads, for every role ------------------------------------------------------------------------


@pytest.mark.parametrize("username", ["jogador", "mestre", "arbitro"])
def test_every_role_reads_the_registers(client, bearer, django_user_model, demo, username):
    user = django_user_model.objects.get(username=username)
    headers = bearer(user)
    divergences = client.get(f"{API}/divergences", **headers)
    decisions = client.get(f"{API}/decisions", **headers)
    corrections = client.get(f"{API}/corrections", **headers)
    assert (divergences.status_code, decisions.status_code, corrections.status_code) == (
        200,
        200,
        200,
    )
    assert {d["source_key"] for d in divergences.json()} >= {"canon:9.3", "slip:4.10-row-4"}
    numbers = {d["number"] for d in decisions.json()}
    assert numbers == {None, 27, 29, 30, 33}
    (correction,) = corrections.json()
    assert correction["target"] == "decision"
    assert correction["target_id"] == str(_decision(demo, "canon:4.11-v7").code)


def test_the_reads_require_authentication(client, demo):
    response = client.get(f"{API}/divergences")
    assert response.status_code == 401
    assert response.json()["code"] == "unauthenticated"


def test_a_divergence_reads_with_both_sides(client_for, jogador, demo):
    divergence = _divergence(demo, "canon:9.5")
    body = client_for(jogador).get(f"{API}/divergences/{divergence.code}").json()
    assert body["status"] == "open"
    assert body["side_a_label"] == "Livro, texto (pág. 105)"
    assert body["opened_on"] == "2026-09-08"
    assert body["reading"].startswith("O cânone segue o texto")


def test_the_list_filters_by_status(client_for, jogador, demo):
    rows = client_for(jogador).get(f"{API}/divergences", {"status": "resolved"}).json()
    assert {r["source_key"] for r in rows} == {"canon:9.1", "canon:9.2", "canon:9.4"}


def test_a_decision_reads_as_corrected_and_keeps_its_original(client_for, jogador, demo):
    decision = _decision(demo, "canon:4.11-v7")
    body = client_for(jogador).get(f"{API}/decisions/{decision.code}").json()
    assert body["label"] == "Decisão sem número"
    assert body["decided_on"] == "2026-09-12"
    assert "1d a cada 2 pontos" in body["text"]
    assert "1d por ponto" in body["original_text"]
    assert body["corrected_fields"] == ["text"]
    assert body["rules_url"] == "/regras/casa/#casa-explosive_fireball_damage"


def test_objects_of_another_campaign_are_404(client_for, outsider, demo):
    client = client_for(outsider)
    for url in (
        f"{API}/divergences/{_divergence(demo).code}",
        f"{API}/decisions/{_decision(demo).code}",
        f"{API}/corrections/{Correction.objects.get(campaign=demo).code}",
    ):
        response = client.get(url)
        assert response.status_code == 404, url
        assert response.json()["code"] == "not_found"


def test_the_summary_counts_what_waits(client_for, arbitro, demo, submitted):
    body = client_for(arbitro).get(f"{API}/summary").json()
    assert body["sheets"] == 1
    assert body["divergences"] == Divergence.objects.filter(campaign=demo, status="open").count()
    assert body["items"][0]["kind"] in {"sheet", "divergence"}


# --- divergences: the Mestre and the Árbitro open, the Árbitro resolves ----------------------------


@pytest.mark.parametrize("username", ["mestre", "arbitro"])
def test_the_mestre_and_the_arbitro_open_a_divergence(
    client, bearer, django_user_model, demo, username
):
    user = django_user_model.objects.get(username=username)
    response = post_json(client, f"{API}/divergences", NEW_DIVERGENCE, **bearer(user))
    assert response.status_code == 201
    body = response.json()
    assert (body["status"], body["section"], body["opened_by"]) == ("open", "4.9", username)
    assert body["campaign"] == "a-garganta"


def test_a_jogador_cannot_open_a_divergence(client, bearer, jogador, demo):
    before = Divergence.objects.count()
    response = post_json(client, f"{API}/divergences", NEW_DIVERGENCE, **bearer(jogador))
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"
    assert Divergence.objects.count() == before


def test_the_same_idempotency_key_opens_one(client, bearer, mestre, demo):
    headers = {**bearer(mestre), "HTTP_IDEMPOTENCY_KEY": "abc"}
    first = post_json(client, f"{API}/divergences", NEW_DIVERGENCE, **headers)
    second = post_json(client, f"{API}/divergences", NEW_DIVERGENCE, **headers)
    assert first.json()["id"] == second.json()["id"]
    assert Divergence.objects.filter(request_key="abc").count() == 1


def test_bad_input_names_the_field(client_for, mestre, demo):
    response = post_json(client_for(mestre), f"{API}/divergences", {**NEW_DIVERGENCE, "title": " "})
    assert response.status_code == 422
    body = response.json()
    assert (body["code"], body["field"], body["detail"]) == (
        "invalid",
        "title",
        services.TITLE_REQUIRED,
    )


def test_an_unknown_field_is_refused(client_for, mestre, demo):
    response = post_json(
        client_for(mestre), f"{API}/divergences", {**NEW_DIVERGENCE, "status": "resolved"}
    )
    assert response.status_code == 422
    assert response.json()["field"] == "status"


def test_the_arbitro_resolves_a_divergence_by_a_decision(client_for, arbitro, demo):
    divergence, decision = _divergence(demo), _decision(demo)
    response = post_json(
        client_for(arbitro),
        f"{API}/divergences/{divergence.code}/resolve",
        {"resolution": "NT 3, pela 27 (exemplo).", "decision": str(decision.code)},
    )
    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["decision"], body["resolved_by"]) == (
        "resolved",
        str(decision.code),
        "arbitro",
    )
    assert body["title"] == divergence.title  # the text stays


@pytest.mark.parametrize("username", ["jogador", "mestre"])
def test_only_the_arbitro_resolves(client, bearer, django_user_model, demo, username):
    user = django_user_model.objects.get(username=username)
    divergence = _divergence(demo)
    response = post_json(
        client, f"{API}/divergences/{divergence.code}/resolve", {"resolution": "x"}, **bearer(user)
    )
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"
    divergence.refresh_from_db()
    assert divergence.is_open


def test_resolving_a_divergence_of_another_campaign_is_404(client_for, outsider, demo):
    divergence = _divergence(demo)
    response = post_json(
        client_for(outsider), f"{API}/divergences/{divergence.code}/resolve", {"resolution": "x"}
    )
    assert response.status_code == 404


# --- decisions -----------------------------------------------------------------------------------


def test_the_arbitro_registers_a_decision(client_for, arbitro, demo):
    divergence = _divergence(demo)
    response = post_json(
        client_for(arbitro),
        f"{API}/decisions",
        {
            "number": 34,
            "title": "Nível Tecnológico 3",
            "text": "A campanha é NT 3.",
            "section": "9",
            "resolves": [str(divergence.code)],
        },
    )
    assert response.status_code == 201
    body = response.json()
    assert (body["number"], body["label"]) == (34, "Decisão 34")
    divergence.refresh_from_db()
    assert divergence.decision.code.hex == body["id"].replace("-", "")


@pytest.mark.parametrize("username", ["jogador", "mestre"])
def test_only_the_arbitro_registers_decisions(client, bearer, django_user_model, demo, username):
    user = django_user_model.objects.get(username=username)
    response = post_json(client, f"{API}/decisions", {"title": "x", "text": "y"}, **bearer(user))
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"


def test_a_taken_number_names_the_field(client_for, arbitro, demo):
    response = post_json(
        client_for(arbitro), f"{API}/decisions", {"number": 27, "title": "x", "text": "y"}
    )
    assert response.status_code == 422
    assert response.json()["field"] == "number"


# --- corrections ---------------------------------------------------------------------------------


def test_the_arbitro_corrects_a_decision_and_the_row_stays(client_for, arbitro, demo):
    decision = _decision(demo)
    response = post_json(
        client_for(arbitro),
        f"{API}/corrections",
        {
            "target": "decision",
            "target_id": str(decision.code),
            "field": "title",
            "after": "Quedas (Decisão 27)",
            "reason": "Título com o número.",
        },
    )
    assert response.status_code == 201
    body = response.json()
    assert (body["before"], body["after"], body["created_by"]) == (
        "Quedas",
        "Quedas (Decisão 27)",
        "arbitro",
    )
    assert Decision.objects.get(pk=decision.pk).title == "Quedas"


def test_a_jogador_cannot_correct(client, bearer, jogador, demo):
    response = post_json(
        client,
        f"{API}/corrections",
        {
            "target": "divergence",
            "target_id": str(_divergence(demo).code),
            "field": "title",
            "after": "x",
            "reason": "y",
        },
        **bearer(jogador),
    )
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"


def test_corrections_filter_by_target(client_for, jogador, demo):
    rows = client_for(jogador).get(f"{API}/corrections", {"target": "sheet"}).json()
    assert rows == []


# --- sheets: history, diff, correction ------------------------------------------------------------


def test_the_history_of_a_sheet(client_for, jogadora, hoplita, submitted):
    body = client_for(jogadora).get(f"{API}/sheets/{hoplita.code}/history").json()
    assert [(v["number"], v["status"]) for v in body["versions"]] == [
        (1, "homologated"),
        (2, "submitted"),
    ]
    assert body["versions"][1]["created_by"] == "jogadora"


def test_another_jogador_reads_only_homologated_versions(client_for, jogador, hoplita, submitted):
    body = client_for(jogador).get(f"{API}/sheets/{hoplita.code}/history").json()
    assert [v["number"] for v in body["versions"]] == [1]
    response = client_for(jogador).get(f"{API}/sheets/{hoplita.code}/diff", {"from": 1, "to": 2})
    assert response.status_code == 422
    assert response.json()["field"] == "to"


def test_the_diff_between_two_versions(client_for, arbitro, hoplita, submitted):
    body = client_for(arbitro).get(f"{API}/sheets/{hoplita.code}/diff", {"from": 1, "to": 2}).json()
    assert body["changes"] == [
        {"group": "Perícias", "what": "Espada Curta", "before": "14 (2)", "after": "15 (4)"}
    ]


def test_the_history_of_a_sheet_of_another_campaign_is_404(client_for, outsider, hoplita):
    assert client_for(outsider).get(f"{API}/sheets/{hoplita.code}/history").status_code == 404


def test_the_arbitro_corrects_a_homologated_sheet(client_for, arbitro, jurado):
    old = sheet_services.homologated_version(jurado)
    response = post_json(
        client_for(arbitro),
        f"{API}/sheets/{jurado.code}/corrections",
        {
            "reason": "HT 11 na ficha do cânone.",
            "attributes": {"st": 13, "dx": 12, "iq": 10, "ht": 11},
        },
        HTTP_IDEMPOTENCY_KEY="fix-1",
    )
    assert response.status_code == 201
    body = response.json()
    assert (body["target"], body["version_before"], body["version_after"]) == ("sheet", 1, 2)
    assert body["after"] == "Atributos · HT: 11"
    assert sheet_services.homologated_version(jurado).ht == 11
    assert type(old).objects.get(pk=old.pk).ht == 12


@pytest.mark.parametrize("username", ["jogador", "mestre"])
def test_only_the_arbitro_corrects_a_sheet(client, bearer, django_user_model, jurado, username):
    user = django_user_model.objects.get(username=username)
    response = post_json(
        client,
        f"{API}/sheets/{jurado.code}/corrections",
        {"reason": "x", "notes": "y"},
        **bearer(user),
    )
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"
    assert jurado.versions.count() == 1


def test_the_corrections_of_weekly_reports_are_listed_too(client_for, mestre, arbitro, demo):
    from sessions.weeks import services as weeks_services

    week = demo.weeks.get(number=1)
    weeks_services.report_write(week=week, user=mestre, text="Três bichos.")
    weeks_services.report_submit(week=week, user=mestre)
    weeks_services.report_homologate(week=week, user=arbitro)
    weeks_services.report_correct(
        week=week, user=arbitro, new_text="Quatro bichos.", reason="Contei mal."
    )
    rows = client_for(mestre).get(f"{API}/corrections", {"target": "report"}).json()
    assert [(r["before"], r["after"], r["created_by"]) for r in rows] == [
        ("Três bichos.", "Quatro bichos.", "arbitro")
    ]
    assert rows[0]["target_id"] == str(week.report.code)
    everything = client_for(mestre).get(f"{API}/corrections").json()
    assert everything[0]["target"] == "report"  # the newest first


@pytest.mark.parametrize("number", [2_147_483_648, 99_999_999_999_999_999_999])
def test_a_decision_number_the_database_cannot_hold_names_the_field(
    client_for, arbitro, demo, number
):
    """It used to reach the database and come back a 500 (found by the attacker review)."""
    from canon.models import Decision

    count = Decision.objects.count()
    response = post_json(
        client_for(arbitro), f"{API}/decisions", {"number": number, "title": "x", "text": "y"}
    )
    assert response.status_code == 422
    assert "number" in str(response.json()["detail"])
    assert Decision.objects.count() == count
