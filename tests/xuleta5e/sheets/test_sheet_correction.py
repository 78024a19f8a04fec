"""The Árbitro's correction of a homologated Xuleta sheet (issue 22, item 1: «versions and
corrections, as for GURPS»): a new homologated version with the data changed, the old one
untouched, the register's Correction row with the changed lines before and after, the diff on
the history; through the console's page and the API. GURPS's parts are refused on a JSON
sheet (and ``data`` on a GURPS one), naming the field."""

from __future__ import annotations

import copy
import json

import pytest

from campaigns.auth import api_token_create
from campaigns.errors import ServiceError
from canon.models import Correction
from console import services as console_services
from sheets.history import NOTHING_CHANGED
from sheets.models import SheetVersion
from sheets.reads import homologated_version
from tests.xuleta.test_sheet_data import AINA

pytestmark = pytest.mark.django_db


def _corrected(**changes) -> dict:
    data = copy.deepcopy(AINA)
    data.update(changes)
    return data


def test_the_arbitro_corrects_the_data_in_a_new_homologated_version(aina, people, quote):
    quote("El modificador és (puntuació − 10) ÷ 2, arrodonint cap avall.")
    before = homologated_version(aina)
    abilities = {**AINA["abilities"], "dex": 14}
    correction = console_services.sheet_correct(
        character=aina,
        user=people["arbitro"],
        reason="A Destresa da ficha era 14 no sorteio.",
        data=_corrected(abilities=abilities, max_hp=30),
    )
    after = homologated_version(aina)
    assert after.number == before.number + 1
    assert after.status == SheetVersion.Status.HOMOLOGATED
    assert after.data["abilities"]["dex"] == 14 and after.data["max_hp"] == 30
    before.refresh_from_db()
    assert before.data["abilities"]["dex"] == 12  # the corrected version stays as it was
    assert correction.target == Correction.Target.SHEET
    assert (correction.version_before, correction.version_after) == (before, after)
    assert "Destresa: 12" in correction.before and "Destresa: 14" in correction.after
    assert "28" in correction.before and "30" in correction.after
    # The numbers read from the new version: DEX 14 is +2.
    assert after.check_data(None)["modifiers"]["dex"] == 2


def test_nothing_changed_and_gurps_parts_are_refused_naming_the_field(aina, people):
    for kwargs, field in (
        ({"attributes": {"st": 10, "dx": 10, "iq": 10, "ht": 10}}, "attributes"),
        ({"skills": []}, "skills"),
        ({"data": _corrected(abilities={**AINA["abilities"], "str": 31})}, "data.abilities.str"),
    ):
        with pytest.raises(ServiceError) as refused:
            console_services.sheet_correct(
                character=aina, user=people["arbitro"], reason="Motivo.", **kwargs
            )
        assert refused.value.field == field, refused.value.message
    with pytest.raises(ServiceError) as refused:
        console_services.sheet_correct(
            character=aina, user=people["arbitro"], reason="Motivo.", data=copy.deepcopy(AINA)
        )
    assert refused.value.message == NOTHING_CHANGED
    assert not Correction.objects.filter(character=aina).exists()
    assert SheetVersion.objects.filter(character=aina).count() == 1


def test_only_the_arbitro_corrects(aina, people):
    with pytest.raises(ServiceError):
        console_services.sheet_correct(
            character=aina, user=people["mestre"], reason="Motivo.", data=_corrected(ac=17)
        )


def test_through_the_api_with_the_diff(client, aina, people):
    token = api_token_create(user=people["arbitro"])
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    body = {"reason": "CA com escudo.", "data": _corrected(ac=18)}
    answer = client.post(
        f"/api/v1/console/sheets/{aina.code}/corrections",
        json.dumps(body),
        content_type="application/json",
        **auth,
    )
    assert answer.status_code == 201, answer.json()
    made = answer.json()
    assert made["reason"] == "CA com escudo."
    diff = client.get(f"/api/v1/console/sheets/{aina.code}/diff?from=1&to=2", **auth).json()
    assert [(c["before"], c["after"]) for c in diff["changes"]] == [("16", "18")]
    bad = client.post(
        f"/api/v1/console/sheets/{aina.code}/corrections",
        json.dumps({"reason": "X", "attributes": {"st": 10, "dx": 10, "iq": 10, "ht": 10}}),
        content_type="application/json",
        **auth,
    )
    assert bad.status_code == 422 and bad.json()["field"] == "attributes"


def test_the_console_page_corrects_a_json_sheet(client_of, aina):
    client = client_of("arbitro")
    url = f"/console/fichas/{aina.code}/corrigir/"
    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-testid="data-correction"' in text and "Espasa llarga" in text
    body = {
        "data": json.dumps(_corrected(ac=17)),
        "notes": "",
        "reason": "CA com a cota nova.",
        "request_key": "corr-1",
        "confirm": "1",
    }
    done = client.post(url, body)
    assert done.status_code == 302, done.content.decode()[:2000]
    assert "?de=1&para=2" in done["Location"]
    assert homologated_version(aina).data["ac"] == 17
    history = client.get(done["Location"])
    assert history.status_code == 200
    text = history.content.decode()
    assert "CA com a cota nova." in text  # the correction's reason, on the history
    assert "Corrigida pelo Árbitro" in text
    diff = text[text.index('id="diferencas"') :]
    assert "16" in diff and "17" in diff
    bad = client.post(url, {**body, "data": "{", "request_key": "corr-2"})
    assert bad.status_code == 422
    refused = client.post(
        url,
        {**body, "data": json.dumps(_corrected(ac=99)), "request_key": "corr-3"},
    )
    assert refused.status_code == 422
