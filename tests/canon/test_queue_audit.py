"""The queue checks every submitted version (canon.checks): line by line what does not add up,
with the computation; a warning is not a refusal, and homologating anyway records why."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.confirm import CONFIRMED
from canon import checks
from console.forms import HomologateForm
from gurps.audit import ATTRIBUTE_ABOVE_20, FindingCode
from sheets.models import SheetVersion
from tests.sheets.pages import content, text
from tests.sheets.proposals import submit_three_problems

URL = "/homologacao/"


@pytest.fixture
def troubled(jogador, jurado) -> SheetVersion:
    return submit_three_problems(jurado, jogador)


def _homologate(client, version, **data):
    prefix = str(version.code)
    return client.post(
        reverse("homologate", args=[version.code]),
        {**{f"{prefix}-{k}": v for k, v in data.items()}, **CONFIRMED},
    )


def test_the_queue_shows_the_three_problems_with_their_computation(client_for, arbitro, troubled):
    html = text(content(client_for(arbitro).get(URL)))
    assert "Jurado de Gapheim — versão 2" in html
    assert "3 avisos" in html
    assert ATTRIBUTE_ABOVE_20.format(name="DX", value=30) in html
    assert "A ficha diz NH 40, mas ½ ponto em Física/Difícil compra DX−3: 30 − 3 = 27." in html
    assert "A ficha diz NH 14, mas 8 pontos em Física/Fácil compram DX+3: 30 + 3 = 33." in html
    assert "Espada Curta" in html  # 4 points at DX 30 buy 31: that line adds up


def test_the_demo_sheets_add_up(demo, jurado, hoplita, rastreador, submitted):
    for character in (jurado, hoplita, rastreador):
        version = SheetVersion.objects.get(character=character, number=1)
        assert checks.version_audit(version).warnings == (), character.name
    assert checks.version_audit(submitted).warnings == ()


def test_the_demos_old_shield_and_bow_are_flagged(demo, jurado, rastreador):
    data = checks.skill_data(demo)
    shield = checks.lines_audit(
        data=data,
        attributes={"st": 13, "dx": 12, "iq": 10, "ht": 12},
        skill_lines=[{"name": "Escudo", "attribute": "dx", "difficulty": "E", "level": 14, "points": 8}],
    )  # fmt: skip
    bow = checks.lines_audit(
        data=data,
        attributes={"st": 11, "dx": 14, "iq": 12, "ht": 11},
        skill_lines=[{"name": "Arco", "attribute": "dx", "difficulty": "H", "level": 15, "points": 4}],
    )  # fmt: skip
    assert [f.code for f in shield.warnings] == [FindingCode.LEVEL_NOT_BOUGHT]
    assert "compram DX+3: 12 + 3 = 15" in shield.warnings[0].message
    assert [f.code for f in bow.warnings] == [FindingCode.LEVEL_NOT_BOUGHT]
    assert "compram DX: 14" in bow.warnings[0].message


def test_a_sheet_with_warnings_is_not_homologated_without_the_arbitros_note(
    client_for, arbitro, troubled
):
    digest = checks.version_audit(troubled).digest
    response = _homologate(client_for(arbitro), troubled, digest=digest, note="")
    assert response.status_code == 422
    assert checks.NOTE_REQUIRED in content(response)
    troubled.refresh_from_db()
    assert troubled.status == SheetVersion.Status.SUBMITTED


def test_warnings_that_changed_since_the_queue_was_read_are_read_again(
    client_for, arbitro, troubled
):
    response = _homologate(client_for(arbitro), troubled, digest="0" * 64, note="Vale.")
    assert response.status_code == 422
    html = content(response)
    assert checks.WARNINGS_CHANGED in html
    assert "Vale." in html  # the note he typed is still there
    troubled.refresh_from_db()
    assert troubled.status == SheetVersion.Status.SUBMITTED


def test_the_arbitro_homologates_anyway_and_the_decision_says_so(
    client_for, arbitro, jogador, troubled, jurado
):
    client = client_for(arbitro)
    digest = checks.version_audit(troubled).digest
    note = "DX 30 pela bênção da Casa (Decisão a registrar)."
    response = _homologate(client, troubled, digest=digest, note=note)
    assert response.status_code == 302
    troubled.refresh_from_db()
    assert troubled.status == SheetVersion.Status.HOMOLOGATED
    assert troubled.decision_note == note
    assert troubled.decision_warning_count == 3
    assert troubled.decision_warnings[0] == (
        "Atributos · DX: " + ATTRIBUTE_ABOVE_20.format(name="DX", value=30)
    )
    queue = text(content(client.get(URL)))
    assert f"apesar de 3 avisos : “{note}”" in queue
    history = text(content(client_for(jogador).get(reverse("sheet-history", args=[jurado.code]))))
    assert "Homologada apesar de 3 avisos" in history
    assert note in history


def test_a_sheet_without_warnings_homologates_with_one_click(client_for, arbitro, submitted):
    response = client_for(arbitro).post(reverse("homologate", args=[submitted.code]), CONFIRMED)
    assert response.status_code == 302
    submitted.refresh_from_db()
    assert (submitted.status, submitted.decision_warning_count) == ("homologated", 0)


def test_the_queue_form_carries_the_fingerprint_of_the_warnings(client_for, arbitro, troubled):
    html = content(client_for(arbitro).get(URL))
    digest = checks.version_audit(troubled).digest
    assert f'value="{digest}"' in html
    assert HomologateForm.base_fields["note"].label in html


@pytest.mark.parametrize("username", ["mestre", "jogador"])
def test_only_the_arbitro_homologates_through_the_service(django_user_model, troubled, username):
    from campaigns.errors import ServiceError

    with pytest.raises(ServiceError) as refused:
        checks.version_homologate(
            version=troubled, user=django_user_model.objects.get(username=username)
        )
    assert refused.value.code == "forbidden"
