"""Every irreversible action asks first, also without JavaScript (garganta_site/confirm.py):
a POST without ``confirm=1`` answers the step "Tem certeza? … [Confirmar] [Voltar]" and writes
nothing; the step posts the same fields back with ``confirm=1`` and the action happens once.
The dialog when JavaScript is on: tests/browser/test_confirmations.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

from campaigns.confirm import CONFIRMATIONS, CONFIRMED
from canon.models import Decision, Divergence
from sessions.combat import services as combat_services
from sessions.exploration import services as exploration_services
from sessions.models import Combat, Exploration, WeeklyReport
from sessions.weeks import services as weeks_services
from sheets.models import SheetVersion

ROOT = Path(__file__).resolve().parent.parent


def _step_fields(html: str) -> dict[str, list[str]]:
    """The hidden fields of the step's form, as the browser would post them."""
    step = html[html.index('data-testid="confirm-step"') :]
    fields: dict[str, list[str]] = {}
    for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', step):
        fields.setdefault(name, []).append(value)
    return fields


def _assert_step(response, key: str) -> None:
    html = response.content.decode()
    assert response.status_code == 200
    assert "Tem certeza?" in html
    assert CONFIRMATIONS[key].action in html
    assert ">Confirmar</button>" in html and ">Voltar</a>" in html
    assert _step_fields(html)["confirm"] == ["1"]


def test_every_key_a_template_asks_for_exists():
    keys = set()
    for template in ROOT.glob("*/**/templates/**/*.html"):
        keys |= set(re.findall(r"confirmations\.(\w+)\.prompt", template.read_text()))
    assert keys == set(CONFIRMATIONS)


def test_homologating_the_report_asks_first_and_then_happens_once(
    client_for, scene, mestre, arbitro
):
    week = scene.week
    weeks_services.report_write(week=week, user=mestre, text="A semana.")
    weeks_services.report_submit(week=week, user=mestre)
    url = reverse("report-homologate", kwargs={"campaign": week.campaign.slug, "number": 1})
    client = client_for(arbitro)
    response = client.post(url)
    _assert_step(response, "report_homologate")
    assert WeeklyReport.objects.get(week=week).status == WeeklyReport.Status.SUBMITTED
    assert client.post(url, CONFIRMED).status_code == 302
    assert WeeklyReport.objects.get(week=week).status == WeeklyReport.Status.HOMOLOGATED


def test_sending_the_report_asks_first(client_for, scene, mestre):
    week = scene.week
    weeks_services.report_write(week=week, user=mestre, text="A semana.")
    url = reverse("report-submit", kwargs={"campaign": week.campaign.slug, "number": 1})
    _assert_step(client_for(mestre).post(url), "report_submit")
    assert WeeklyReport.objects.get(week=week).status == WeeklyReport.Status.DRAFT


def test_homologating_a_sheet_version_carries_the_form_through_the_step(
    client_for, arbitro, hoplita
):
    submitted = SheetVersion.objects.get(character=hoplita, number=2, status="submitted")
    url = reverse("homologate", kwargs={"code": submitted.code})
    client = client_for(arbitro)
    digest_field = f"{submitted.code}-digest"
    response = client.post(url, {digest_field: "abc"})
    _assert_step(response, "version_homologate")
    assert _step_fields(response.content.decode())[digest_field] == ["abc"]
    submitted.refresh_from_db()
    assert submitted.status == SheetVersion.Status.SUBMITTED
    assert client.post(url, CONFIRMED).status_code == 302
    submitted.refresh_from_db()
    assert submitted.status == SheetVersion.Status.HOMOLOGATED


def test_returning_a_sheet_version_asks_first(client_for, arbitro, hoplita):
    submitted = SheetVersion.objects.get(character=hoplita, number=2, status="submitted")
    url = reverse("return-version", kwargs={"code": submitted.code})
    response = client_for(arbitro).post(url, {f"{submitted.code}-reason": "Falta o ponto."})
    _assert_step(response, "version_return")
    submitted.refresh_from_db()
    assert submitted.status == SheetVersion.Status.SUBMITTED


def test_ending_the_combat_asks_first(client_for, scene, mestre, jurado):
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[jurado])
    url = reverse("combat-end", kwargs={"code": scene.code})
    client = client_for(mestre)
    response = client.post(url, {"end-request_key": "fim-1"})
    _assert_step(response, "combat_end")
    assert f'href="{scene.get_absolute_url()}">Voltar' in response.content.decode()
    combat.refresh_from_db()
    assert combat.status == Combat.Status.ACTIVE
    client.post(url, _step_fields(response.content.decode()))
    combat.refresh_from_db()
    assert combat.status == Combat.Status.ENDED


def test_an_htmx_post_without_the_dialog_gets_the_step_in_the_main_area(
    client_for, scene, mestre, jurado
):
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[jurado])
    url = reverse("combat-end", kwargs={"code": scene.code})
    response = client_for(mestre).post(url, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response["HX-Retarget"] == "main" and response["HX-Reswap"] == "innerHTML"
    assert "Tem certeza?" in response.content.decode()
    assert "<html" not in response.content.decode()
    combat.refresh_from_db()
    assert combat.status == Combat.Status.ACTIVE


def test_ending_the_descent_asks_first(client_for, scene, mestre):
    exploration = exploration_services.exploration_start(scene=scene, user=mestre, danger="unsafe")
    url = reverse("exploration-end", kwargs={"code": scene.code})
    client = client_for(mestre)
    _assert_step(client.post(url), "exploration_end")
    exploration.refresh_from_db()
    assert exploration.status == Exploration.Status.ACTIVE
    client.post(url, CONFIRMED)
    exploration.refresh_from_db()
    assert exploration.status == Exploration.Status.ENDED


def test_a_decision_goes_through_the_step_with_every_field_and_is_registered_once(
    client_for, arbitro, demo
):
    divergence = demo.divergences.get(source_key="canon:9.3")
    form = {
        "request_key": "d-confirm",
        "campaign": demo.slug,
        "title": "Nível Tecnológico 3",
        "text": "A campanha é NT 3.",
        "section": "9",
        "resolves": [str(divergence.code)],
    }
    client = client_for(arbitro)
    response = client.post(reverse("decision-new"), form)
    _assert_step(response, "decision_create")
    assert not Decision.objects.filter(request_key="d-confirm").exists()
    fields = _step_fields(response.content.decode())
    assert fields["resolves"] == [str(divergence.code)]
    client.post(reverse("decision-new"), fields)
    client.post(reverse("decision-new"), fields)
    decision = Decision.objects.get(request_key="d-confirm")
    divergence.refresh_from_db()
    assert divergence.status == Divergence.Status.RESOLVED and divergence.decision == decision


def test_resolving_a_divergence_asks_first(client_for, arbitro, demo):
    divergence = demo.divergences.filter(status=Divergence.Status.OPEN).first()
    url = reverse("divergence-resolve", args=[divergence.code])
    _assert_step(client_for(arbitro).post(url, {"resolution": "NT 3."}), "divergence_resolve")
    divergence.refresh_from_db()
    assert divergence.status == Divergence.Status.OPEN


def test_a_correction_asks_first(client_for, arbitro, demo):
    decision = demo.decisions.get(source_key="canon:4.12")
    url = reverse("decision-correct", args=[decision.code])
    form = {"request_key": "c-x", "field": "title", "after": "Quedas!", "reason": "ênfase"}
    _assert_step(client_for(arbitro).post(url, form), "correction")
    assert not decision.corrections.exists()


@pytest.mark.parametrize("role", ["jogador", "mestre"])
def test_the_step_comes_after_the_permission(client_for, django_user_model, demo, role):
    user = django_user_model.objects.get(username=role)
    decision = demo.decisions.get(source_key="canon:4.12")
    url = reverse("decision-correct", args=[decision.code])
    assert (
        client_for(user).post(url, {"field": "title", "after": "x", "reason": "y"}).status_code
        == 403
    )


def test_saving_and_sending_the_draft_asks_first_and_a_plain_save_does_not(
    client_for, jogador, jurado
):
    from sheets import services as sheet_services

    draft = sheet_services.sheet_draft_create(character=jurado, user=jogador)
    skills = list(draft.skills.all())
    form = {**draft.attributes(), "st": "14", "notes": "", "skills-TOTAL_FORMS": str(len(skills))}
    form |= {"skills-INITIAL_FORMS": str(len(skills)), "skills-MIN_NUM_FORMS": "0"}
    form |= {"skills-MAX_NUM_FORMS": "1000"}
    for index, skill in enumerate(skills):
        for key in ("name", "attribute", "difficulty", "level", "points"):
            form[f"skills-{index}-{key}"] = str(getattr(skill, key))
    url = reverse("draft", kwargs={"code": jurado.code})
    client = client_for(jogador)
    response = client.post(url, {**form, "submit": "1"})
    _assert_step(response, "draft_submit")
    assert _step_fields(response.content.decode())["submit"] == ["1"]
    draft.refresh_from_db()
    assert (draft.st, draft.status) == (13, SheetVersion.Status.DRAFT)
    assert client.post(url, form).status_code == 302  # "Salvar rascunho": no step
    draft.refresh_from_db()
    assert (draft.st, draft.status) == (14, SheetVersion.Status.DRAFT)
    client.post(url, {**form, "st": "15", "submit": "1", **CONFIRMED})
    draft.refresh_from_db()
    assert (draft.st, draft.status) == (15, SheetVersion.Status.SUBMITTED)


def test_the_mestres_pv_adjustment_asks_first(client_for, scene, mestre, jurado):
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[jurado])
    combatant = combat.combatants.get(character=jurado)
    url = reverse("combat-adjust", kwargs={"code": scene.code})
    form = {"combatant": str(combatant.code), "hp_lost": "3", "reason": "erro crítico 5"}
    client = client_for(mestre)
    response = client.post(url, {**form, "request_key": "ajuste-1"})
    _assert_step(response, "combat_adjust")
    combatant.refresh_from_db()
    assert combatant.hp_lost == 0
    client.post(url, _step_fields(response.content.decode()))
    combatant.refresh_from_db()
    assert combatant.hp_lost == 3


def test_a_state_change_outside_combat_asks_first(client_for, scene, mestre, jurado):
    from sessions.models import StateChange

    url = reverse("state-change-add", kwargs={"code": scene.code})
    form = {"state-character": str(jurado.code), "state-hp": "-2", "state-fatigue": "0"}
    form |= {"state-reason": "Queda", "state-request_key": "estado-1"}
    client = client_for(mestre)
    response = client.post(url, form, headers={"HX-Request": "true"})
    assert response["HX-Retarget"] == "main" and "Tem certeza?" in response.content.decode()
    _assert_step(client.post(url, form), "state_change")
    assert not StateChange.objects.filter(scene=scene).exists()
    client.post(url, {**form, **CONFIRMED})
    assert StateChange.objects.get(scene=scene).hp == -2
