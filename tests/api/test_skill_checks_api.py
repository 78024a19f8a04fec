"""The API of the audit and the defaults: "e sem a perícia?" of a sheet (sheets.api), the checks
of a version and the Árbitro's two skill tables (console.api)."""

from __future__ import annotations

import typing

from console.skills_api import FindingCodeLiteral
from gurps.audit import FindingCode
from tests.sheets.proposals import submit_three_problems


def _get(client, url, header):
    response = client.get(url, **header)
    assert response.status_code == 200, response.content
    return response.json()


def test_the_defaults_of_the_rastreador_say_he_climbs_at_9(client, bearer, mestre, rastreador):
    body = _get(client, f"/api/v1/sheets/{rastreador.code}/defaults", bearer(mestre))
    assert (body["version"], body["st"], body["dx"]) == (1, 11, 14)
    escalada = next(s for s in body["skills"] if s["skill"] == "Escalada")
    assert escalada["has_skill"] is False
    assert escalada["level"] == 9
    assert escalada["default"] == {
        "default": "DX−5",
        "source": "dx",
        "source_kind": "attribute",
        "modifier": -5,
        "base": 14,
        "capped_from": None,
        "computation": "DX−5: DX 14 − 5 = 9",
        "considered": ["ST−5: ST 11 − 5 = 6", "DX−5: DX 14 − 5 = 9"],
    }


def test_one_skill_by_name_and_a_skill_with_none(client, bearer, mestre, jurado):
    url = f"/api/v1/sheets/{jurado.code}/defaults?skill=escrita antiga de ámenti"
    (answer,) = _get(client, url, bearer(mestre))["skills"]
    assert (answer["level"], answer["default"]) == (None, None)
    assert answer["reason"].startswith("Sem pré-definido")


def test_a_skill_on_the_sheet_answers_with_its_level(client, bearer, jogador, jurado):
    url = f"/api/v1/sheets/{jurado.code}/defaults?skill=Escudo"
    (answer,) = _get(client, url, bearer(jogador))["skills"]
    assert (answer["has_skill"], answer["level"]) == (True, 14)


def test_the_checks_of_a_submitted_version_list_its_problems(
    client, bearer, arbitro, jogador, jurado
):
    version = submit_three_problems(jurado, jogador)
    url = f"/api/v1/console/sheets/{jurado.code}/versions/{version.number}/checks"
    body = _get(client, url, bearer(arbitro))
    assert body["warnings"] == 3
    assert [f["code"] for f in body["findings"] if f["severity"] == "warning"] == [
        "attribute_above_20",
        "level_not_bought",
        "level_not_bought",
    ]
    arco = next(s for s in body["skills"] if s["name"] == "Arco Longo")
    assert (arco["level"], arco["points"], arco["bought_level"], arco["price_points"]) == (
        40,
        0.5,
        27,
        80.0,
    )


def test_the_checks_of_a_draft_are_the_owners_and_the_tables_only(
    client, bearer, jogador, jogadora, jurado
):
    from sheets import services

    services.sheet_draft_create(character=jurado, user=jogador)
    url = f"/api/v1/console/sheets/{jurado.code}/versions/2/checks"
    assert client.get(url, **bearer(jogador)).status_code == 200
    assert client.get(url, **bearer(jogadora)).status_code == 404


def test_the_arbitros_tables_are_published(client, bearer, jogador):
    tables = _get(client, "/api/v1/console/skill-costs", bearer(jogador))
    assert [t["kind"] for t in tables] == ["physical", "mental"]
    assert tables[0]["columns"] == ["Fácil", "Média", "Difícil"]
    catalogue = _get(client, "/api/v1/console/skill-catalogue", bearer(jogador))
    escalada = next(e for e in catalogue if e["name"] == "Escalada")
    assert escalada["defaults"] == ["ST−5", "DX−5"]


def test_an_unknown_campaign_is_refused_with_the_field(client, bearer, jogador):
    response = client.get("/api/v1/console/skill-costs?campaign=nao-existe", **bearer(jogador))
    assert response.status_code == 422
    assert response.json()["field"] == "campaign"


def test_the_finding_codes_are_published_as_an_enum():
    assert set(typing.get_args(FindingCodeLiteral)) == {code.value for code in FindingCode}
