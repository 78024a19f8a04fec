"""The campaign's homologated sheets through the API (sheets.api)."""

from __future__ import annotations

import pytest

from sheets.models import Possession
from tests.api.conftest import post_json


def _by_name(rows) -> dict:
    return {row["name"]: row for row in rows}


# --- GET /sheets ------------------------------------------------------------------------------


def test_the_list_works(client_for, jogador, jurado, hoplita, rastreador):
    response = client_for(jogador).get("/api/v1/sheets")
    assert response.status_code == 200
    rows = response.json()
    keys = {"id", "name", "campaign", "kind", "owner", "homologated"}
    assert all(set(row) == keys for row in rows)
    assert {row["campaign"] for row in rows} == {"a-garganta"}
    assert _by_name(rows).keys() == {jurado.name, hoplita.name, rastreador.name}
    assert _by_name(rows)[jurado.name]["id"] == str(jurado.code)
    assert _by_name(rows)[jurado.name]["kind"] == "pc"
    assert _by_name(rows)[jurado.name]["owner"] == "jogador"
    assert _by_name(rows)[hoplita.name]["owner"] == "jogadora"
    assert _by_name(rows)[jurado.name]["homologated"] is not None


def test_the_list_requires_authentication(client, demo):
    response = client.get("/api/v1/sheets")
    assert response.status_code == 401
    assert response.json()["code"] == "unauthenticated"


def test_the_list_takes_a_bearer_token(client, bearer, mestre):
    assert len(client.get("/api/v1/sheets", **bearer(mestre)).json()) == 3


def test_the_list_shows_only_the_users_campaigns(client_for, outsider, jurado):
    assert client_for(outsider).get("/api/v1/sheets").json() == []


def test_the_list_says_when_there_is_no_homologated_version(client_for, jogador, demo):
    demo.characters.create(name="Recém-chegado", owner=jogador)
    rows = _by_name(client_for(jogador).get("/api/v1/sheets").json())
    assert rows["Recém-chegado"]["homologated"] is None


# --- GET /sheets/{id} -------------------------------------------------------------------------


def test_the_sheet_works_with_its_derived_block(client_for, jogador, jurado):
    response = client_for(jogador).get(f"/api/v1/sheets/{jurado.code}")
    assert response.status_code == 200
    body = response.json()
    assert (body["id"], body["name"], body["version"]) == (str(jurado.code), jurado.name, 1)
    assert (body["st"], body["dx"], body["iq"], body["ht"]) == (13, 12, 10, 12)
    assert body["carried_kg"] == 23.0
    derived = body["derived"]
    assert derived["encumbrance"] == {"level": 1, "name": "Leve"}
    assert (derived["move"], derived["dodge"], derived["block"]) == (5, 5, 7)
    assert (derived["passive_defense"], derived["block_total"]) == (5, 12)


def test_the_sheet_follows_what_is_carried(client_for, jogador, jurado):
    Possession.objects.filter(character=jurado, item__isnull=True).update(carried=True)
    body = client_for(jogador).get(f"/api/v1/sheets/{jurado.code}").json()
    assert body["carried_kg"] == 34.0
    assert body["derived"]["encumbrance"] == {"level": 2, "name": "Média"}
    assert (body["derived"]["move"], body["derived"]["dodge"]) == (4, 4)


def test_the_sheet_gives_weapon_damage_from_st(client_for, jogadora, hoplita):
    body = client_for(jogadora).get(f"/api/v1/sheets/{hoplita.code}").json()
    items = _by_name(body["items"])
    assert (items["Gládio"]["damage"], items["Gládio"]["damage_now"]) == ("Bal corte", "1d+2")
    assert (items["Lança"]["damage"], items["Lança"]["damage_now"]) == ("GDP+1 perf", "1d")
    assert items["Aspis"]["damage_now"] is None
    assert _by_name(body["skills"])["Lança"]["level"] == 17


def test_the_sheet_is_the_homologated_version_not_the_submitted_one(client_for, jogadora, hoplita):
    body = client_for(jogadora).get(f"/api/v1/sheets/{hoplita.code}").json()
    assert body["version"] == 1
    assert _by_name(body["skills"])["Espada Curta"]["level"] == 14


def test_the_sheet_requires_authentication(client, jurado):
    assert client.get(f"/api/v1/sheets/{jurado.code}").status_code == 401


def test_the_sheet_checks_membership(client_for, outsider, jurado):
    assert client_for(outsider).get(f"/api/v1/sheets/{jurado.code}").status_code == 404


def test_the_sheet_checks_membership_with_a_token(client, bearer, outsider, jurado):
    assert client.get(f"/api/v1/sheets/{jurado.code}", **bearer(outsider)).status_code == 404


def test_the_sheet_answers_404_without_a_homologated_version(client_for, jogador, demo):
    character = demo.characters.create(name="Recém-chegado", owner=jogador)
    assert client_for(jogador).get(f"/api/v1/sheets/{character.code}").status_code == 404


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_the_sheet_cannot_be_changed_through_the_api(client_for, jogador, jurado, method):
    response = getattr(client_for(jogador), method)(f"/api/v1/sheets/{jurado.code}")
    assert response.status_code == 405


def test_the_sheet_cannot_be_posted_to(client_for, jogador, jurado):
    response = post_json(client_for(jogador), f"/api/v1/sheets/{jurado.code}", {"st": 20})
    assert response.status_code == 405


def test_me_says_the_role_and_the_characters_played(client_for, jogador, mestre, jurado, outsider):
    mine = client_for(jogador).get("/api/v1/me").json()
    assert mine["username"] == "jogador"
    assert mine["memberships"] == [
        {
            "campaign": "a-garganta",
            "campaign_name": "A Garganta",
            "ruleset": "gurps3e",
            "ruleset_label": "GURPS Classic (Módulo Básico), com as regras da casa",
            "role": "jogador",
            "plays": [{"id": str(jurado.code), "name": jurado.name}],
        }
    ]
    table = client_for(mestre).get("/api/v1/me").json()
    assert [(m["role"], m["plays"]) for m in table["memberships"]] == [("mestre", [])]
    other = client_for(outsider).get("/api/v1/me").json()
    assert [m["campaign"] for m in other["memberships"]] == ["outra"]


# --- who plays it, and the readings its numbers rest on -----------------------------------------


def test_the_sheet_says_who_plays_it_and_its_kind(client_for, mestre, jurado):
    body = client_for(mestre).get(f"/api/v1/sheets/{jurado.code}").json()
    assert (body["owner"], body["kind"]) == ("jogador", "pc")


def test_a_character_nobody_plays_has_no_owner(client_for, mestre, demo):
    demo.characters.create(name="Sem dono", kind="named_npc")
    rows = _by_name(client_for(mestre).get("/api/v1/sheets").json())
    assert (rows["Sem dono"]["owner"], rows["Sem dono"]["kind"]) == (None, "named_npc")


def test_the_sheet_lists_the_readings_its_numbers_rest_on_as_the_page_does(
    client_for, mestre, jurado
):
    from canon.models import Divergence
    from canon.seed import READING_KEY_PREFIX
    from gurps.readings import READINGS
    from sheets.reads import state_of

    state = state_of(jurado)
    state.fatigue_lost = 2  # Carga with fatigue uses the sheet's ST: a reading (§6.2)
    state.save()
    body = client_for(mestre).get(f"/api/v1/sheets/{jurado.code}").json()
    rows = [r for r in body["readings"] if r["reading"] == "carga_uses_sheet_st"]
    assert [r["value"] for r in rows] == ["encumbrance"]
    reading = next(r for r in READINGS if r.key == "carga_uses_sheet_st")
    assert (rows[0]["section"], rows[0]["answer"]) == (reading.section, reading.answer)
    divergence = Divergence.objects.get(
        campaign=jurado.campaign, source_key=READING_KEY_PREFIX + "carga_uses_sheet_st"
    )
    assert (rows[0]["divergence"], rows[0]["divergence_status"]) == (str(divergence.code), "open")
    page = client_for(mestre).get(f"/fichas/{jurado.code}/").content.decode()
    assert reading.answer in page


def test_a_sheet_without_fatigue_has_no_carga_reading(client_for, mestre, jurado):
    body = client_for(mestre).get(f"/api/v1/sheets/{jurado.code}").json()
    assert "carga_uses_sheet_st" not in {r["reading"] for r in body["readings"]}
