"""GET /api/v1/sheets/{id} of a Xuleta character: its data, state and every derived number with
its formula; the MCP tool sheet_read answers the same. The Árbitro's queue shows a Xuleta
version's audit and its diff from the version in force."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.auth import api_token_create
from sheets import ruleset_data
from sheets.homologation import sheet_homologate, sheet_submit, version_warnings
from sheets.models import SheetVersion

pytestmark = pytest.mark.django_db


def _headers(user) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user)}"}


def test_the_api_answers_a_xuleta_sheet(aina, people, client):
    ruleset_data.data_state_write(character=aina, data={"exhaustion": 1, "hp_lost": 2})
    answer = client.get(f"/api/v1/sheets/{aina.code}", **_headers(people["mestre"]))
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["ruleset"] == "xuleta5e"
    assert body["version"] == 1
    assert body["data"]["abilities"]["str"] == 15
    assert body["state"]["exhaustion"] == 1 and body["state"]["hp_lost"] == 2
    assert body["sheet"]["skills"]["Percepció"] == 3  # the contract's check_data
    assert body["sheet"]["passive_perception"] == 13
    assert body["numbers"]["passive_perception"] == {
        "value": 8,
        "formula": "10 + Percepció +3 − 5 (desavantatge) = 8",
        "section": "§4.8 Proves passives",
    }
    assert body["numbers"]["hp"]["value"] == 26
    assert body["attacks"][0]["bonus"]["formula"].endswith("= +4")
    assert body["edges"]["check"] == "disadvantage"
    assert {r["reading"] for r in body["readings"]} >= {"sheet_ac_input", "sheet_hp_hit_die_input"}


def test_the_kept_answer_follows_the_state_and_the_pendencias(aina, people, client):
    """The answer is kept by the sheet's fingerprint (bench/run.py): a state written after it
    was kept, and a pendência the Árbitro moved, show on the next answer."""
    from canon.models import Divergence
    from canon.services import divergence_resolve, reading_source_key

    url, headers = f"/api/v1/sheets/{aina.code}", _headers(people["mestre"])
    first = client.get(url, **headers).json()
    assert client.get(url, **headers).json() == first  # the kept answer, unchanged
    assert first["state"]["exhaustion"] == 0 and first["numbers"]["hp"]["value"] == 28
    ruleset_data.data_state_write(character=aina, data={"exhaustion": 2, "hp_lost": 5})
    after = client.get(url, **headers).json()
    assert after["state"]["exhaustion"] == 2 and after["state"]["hp_lost"] == 5
    assert after["numbers"]["hp"]["value"] == 23  # 28 − 5
    assert after["edges"]["check"] == "disadvantage"  # exhaustion 1+: checks at disadvantage
    reading = next(r for r in after["readings"] if r["reading"] == "sheet_ac_input")
    assert reading["divergence_status"] == "open" and reading["divergence"]
    key = reading_source_key("xuleta5e", "sheet_ac_input")
    assert key == "reading:xuleta5e:sheet_ac_input"  # as the campaign's pendência was seeded
    divergence_resolve(
        divergence=Divergence.objects.get(source_key=key),
        user=people["arbitro"],
        resolution="A CA é a da ficha, como a leitura diz.",
    )
    moved = client.get(url, **headers).json()
    reading = next(r for r in moved["readings"] if r["reading"] == "sheet_ac_input")
    assert reading["divergence_status"] == "resolved"


def test_the_api_without_a_homologated_sheet(campaign, people, client, sheet_data):
    from sheets.models import Character

    bare = Character.objects.create(campaign=campaign, owner=people["jogador"], name="Bru")
    answer = client.get(f"/api/v1/sheets/{bare.code}", **_headers(people["jogador"]))
    assert answer.status_code == 404
    assert "ainda não tem ficha homologada" in answer.json()["detail"]


def test_the_openapi_publishes_the_xuleta_sheet(client):
    schema = client.get("/api/v1/openapi.json").json()
    assert "DataSheetOut" in schema["components"]["schemas"]


def _propose(aina, people, data):
    draft = ruleset_data.data_draft_create(character=aina, user=people["jogador"], data=data)
    return sheet_submit(version=draft, user=people["jogador"])


def test_the_queue_shows_the_audit_and_the_diff(aina, people, client_of, sheet_data):
    sheet_data["level"] = 4
    sheet_data["speed_m"] = 10
    version = _propose(aina, people, sheet_data)
    html = client_of("arbitro").get(reverse("queue")).content.decode()
    assert "Nivell" in html and ">3<" in html and ">4<" in html  # the diff, 3 → 4
    assert "gairebé sempre 9 m" in html  # the audit's warning
    assert "speed_m" in html
    assert "Conferida pelas regras do sistema da campanha" in html
    assert "tabela de custo" not in html  # GURPS's words, not the Xuleta's
    lines, digest = version_warnings(version)
    assert len(lines) == 2  # 10 m is not 9 m, and not a number of squares of 1,5 m
    with pytest.raises(Exception) as refused:
        sheet_homologate(version=version, user=people["arbitro"])
    assert "aviso" in str(refused.value)
    done = sheet_homologate(
        version=version, user=people["arbitro"], seen_digest=digest, note="Elf de bosc"
    )
    assert done.status == SheetVersion.Status.HOMOLOGATED
    assert done.decision_warning_count == 2


def test_the_history_shows_the_diff(aina, people, client_of, sheet_data):
    sheet_data["abilities"]["dex"] = 14
    version = _propose(aina, people, sheet_data)
    sheet_homologate(version=version, user=people["arbitro"])
    html = client_of("jogador").get(reverse("sheet-history", args=[aina.code])).content.decode()
    assert "Destresa" in html and ">12<" in html and ">14<" in html
    answer = client_of("jogador").get(
        f"/api/v1/console/sheets/{aina.code}/diff?from=1&to=2", **_headers(people["jogador"])
    )
    assert answer.status_code == 200, answer.json()
    assert answer.json()["changes"] == [
        {"group": "Característiques", "what": "Destresa", "before": "12", "after": "14"}
    ]


@pytest.mark.django_db(transaction=True)
@pytest.mark.anyio
async def test_the_mcp_sheet_read_answers_a_xuleta_sheet(aina, people):
    from asgiref.sync import sync_to_async

    from tests.mcp.conftest import connect, data

    token = await sync_to_async(api_token_create)(user=people["mestre"])
    async with connect(token) as client:
        sheet = data(await client.call_tool("sheet_read", {"character": str(aina.code)}))
    assert sheet["ruleset"] == "xuleta5e"
    assert sheet["state"]["conditions"] == []
    assert sheet["sheet"]["attacks"][0]["damage"] == "1d8"
    assert (
        sheet["numbers"]["modifiers.str"]["formula"] == "(15 − 10) ÷ 2, arrodonint cap avall = +2"
    )


def test_the_console_checks_api_answers_a_xuleta_version(aina, people, client, sheet_data):
    sheet_data["darkvision_m"] = 36
    version = _propose(aina, people, sheet_data)
    url = f"/api/v1/console/sheets/{aina.code}/versions/{version.number}/checks"
    answer = client.get(url, **_headers(people["arbitro"]))
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["warnings"] == 1
    assert body["digest"] == version_warnings(version)[1]
    assert body["findings"] == [
        {
            "code": "sheet_data",
            "severity": "warning",
            "group": "Ficha",
            "what": "darkvision_m",
            "message": "Visão no escuro de 36 m: a Xuleta diz «normalment 18 m» "
            "(§8.7 Visió a les fosques).",
        }
    ]
    assert body["skills"] == [] and body["total_points"] == 0


def test_a_draft_written_as_json_through_the_api(campaign, people, client, sheet_data):
    from sheets.models import Character

    bru = Character.objects.create(campaign=campaign, owner=people["jogador"], name="Bru")
    url = f"/api/v1/sheets/{bru.code}/draft"
    headers = _headers(people["jogador"])
    bad = {**sheet_data, "abilities": {**sheet_data["abilities"], "wis": 0}}
    refused = client.post(url, {"data": bad}, content_type="application/json", **headers)
    assert refused.status_code == 422
    assert "abilities.wis" in str(refused.json()) and "de 1 a 30" in str(refused.json())
    assert not SheetVersion.objects.filter(character=bru).exists()
    data = {**sheet_data, "name": "Bru", "darkvision_m": 36}
    answer = client.post(url, {"data": data}, content_type="application/json", **headers)
    assert answer.status_code == 200, answer.json()
    assert answer.json()["status"] == "draft" and answer.json()["version"] == 1
    assert answer.json()["warnings"][0].startswith("darkvision_m: Visão no escuro de 36 m")
    again = client.post(
        url, {"data": {**data, "level": 4}}, content_type="application/json", **headers
    )
    assert again.json()["data"]["level"] == 4
    assert SheetVersion.objects.filter(character=bru).count() == 1  # the same draft, replaced
    sent = client.post(url + "/submit", **headers)
    assert sent.status_code == 200 and sent.json()["status"] == "submitted"
    twice = client.post(url + "/submit", **headers)
    assert twice.status_code == 422 and "não tem rascunho aberto" in twice.json()["detail"]
    other = client.post(
        url, {"data": data}, content_type="application/json", **_headers(people["outro"])
    )
    assert other.status_code == 403
