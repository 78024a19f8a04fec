"""The weekly report (sessions.weeks.services.report_*; the report page).

Written by the Mestre at the end of the week, submitted to the Árbitro, homologated (which
reveals the hidden rolls) or returned with a reason; once homologated never edited: a
correction is a new entry that keeps the old text.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from campaigns.confirm import CONFIRMED
from campaigns.errors import ServiceError
from sessions.entries import WEEK_CLOSED_FOR_ENTRIES
from sessions.log import services as log_services
from sessions.models import ReportCorrection, Roll, WeeklyReport
from sessions.weeks import services as weeks_services
from sessions.weeks.services import (
    CORRECTION_NEEDS_REASON,
    REPORT_EMPTY,
    REPORT_HOMOLOGATED_IS_FINAL,
    REPORT_NOT_SUBMITTED,
    REPORT_RETURN_NEEDS_REASON,
    REPORT_WITH_ARBITRO,
)
from tests.sessions.conftest import homologate_week
from tests.sheets.pages import content

TEXT = "Semana 1. O rastreador desceu à galeria do andar 3; semana-01-rolagem-01 falhou."


@pytest.fixture
def week(scene):
    return scene.week


def _url(name, week) -> str:
    return reverse(name, kwargs={"campaign": week.campaign.slug, "number": week.number})


def _submitted(week, mestre) -> WeeklyReport:
    weeks_services.report_write(week=week, user=mestre, text=TEXT)
    return weeks_services.report_submit(week=week, user=mestre)


# --- the service ------------------------------------------------------------------------------


def test_the_report_goes_draft_submitted_homologated(week, mestre, arbitro):
    report = weeks_services.report_write(week=week, user=mestre, text=TEXT)
    assert (report.status, report.text, report.written_by) == ("draft", TEXT, mestre)
    assert weeks_services.report_submit(week=week, user=mestre).status == "submitted"
    homologated = weeks_services.report_homologate(week=week, user=arbitro)
    assert (homologated.status, homologated.decided_by) == ("homologated", arbitro)
    assert homologated.decided_at is not None


def test_a_returned_report_keeps_its_reason_and_is_written_again(week, mestre, arbitro):
    _submitted(week, mestre)
    returned = weeks_services.report_return(
        week=week, user=arbitro, reason="Falta a cena do mercado."
    )
    assert (returned.status, returned.return_reason) == ("returned", "Falta a cena do mercado.")
    weeks_services.report_write(week=week, user=mestre, text=TEXT + " E o mercado.")
    assert weeks_services.report_submit(week=week, user=mestre).status == "submitted"


def test_a_return_needs_a_reason(week, mestre, arbitro):
    _submitted(week, mestre)
    with pytest.raises(ServiceError) as refused:
        weeks_services.report_return(week=week, user=arbitro, reason="  ")
    assert (refused.value.field, refused.value.message) == ("reason", REPORT_RETURN_NEEDS_REASON)
    assert WeeklyReport.objects.get().status == "submitted"


def test_a_submitted_report_is_not_rewritten(week, mestre):
    _submitted(week, mestre)
    with pytest.raises(ServiceError) as refused:
        weeks_services.report_write(week=week, user=mestre, text="Outro texto")
    assert refused.value.message == REPORT_WITH_ARBITRO
    assert WeeklyReport.objects.get().text == TEXT


def test_a_homologated_report_is_never_edited(week, mestre, arbitro):
    homologate_week(week, mestre=mestre, arbitro=arbitro, text=TEXT)
    for attempt in (
        lambda: weeks_services.report_write(week=week, user=mestre, text="Outro"),
        lambda: weeks_services.report_submit(week=week, user=mestre),
    ):
        with pytest.raises(ServiceError) as refused:
            attempt()
        assert refused.value.message == REPORT_HOMOLOGATED_IS_FINAL
    with pytest.raises(ServiceError) as refused:
        weeks_services.report_return(week=week, user=arbitro, reason="Tarde demais")
    assert refused.value.message == REPORT_NOT_SUBMITTED
    assert WeeklyReport.objects.get().text == TEXT


def test_a_correction_is_a_new_entry_that_keeps_the_old_text(week, mestre, arbitro):
    homologate_week(week, mestre=mestre, arbitro=arbitro, text=TEXT)
    first = weeks_services.report_correct(
        week=week, user=arbitro, new_text=TEXT + " (andar 4)", reason="Era o andar 4."
    )
    second = weeks_services.report_correct(
        week=week, user=arbitro, new_text="Texto final.", reason="Reescrito."
    )
    assert (first.old_text, first.new_text, first.by) == (TEXT, TEXT + " (andar 4)", arbitro)
    assert second.old_text == TEXT + " (andar 4)"
    report = WeeklyReport.objects.get()
    assert report.text == TEXT
    assert weeks_services.report_current_text(report) == "Texto final."
    with pytest.raises(PermissionError):
        first.save()
    with pytest.raises(PermissionError):
        first.delete()
    assert ReportCorrection.objects.count() == 2


def test_a_correction_needs_a_reason_and_a_homologated_report(week, mestre, arbitro):
    weeks_services.report_write(week=week, user=mestre, text=TEXT)
    with pytest.raises(ServiceError):
        weeks_services.report_correct(week=week, user=arbitro, new_text="x", reason="y")
    weeks_services.report_submit(week=week, user=mestre)
    weeks_services.report_homologate(week=week, user=arbitro)
    with pytest.raises(ServiceError) as refused:
        weeks_services.report_correct(week=week, user=arbitro, new_text="Novo", reason=" ")
    assert refused.value.message == CORRECTION_NEEDS_REASON


@pytest.mark.parametrize("username", ["mestre", "jogador"])
def test_only_the_arbitro_homologates_returns_or_corrects(
    django_user_model, week, mestre, username
):
    user = django_user_model.objects.get(username=username)
    _submitted(week, mestre)
    for attempt in (
        lambda: weeks_services.report_homologate(week=week, user=user),
        lambda: weeks_services.report_return(week=week, user=user, reason="Não"),
    ):
        with pytest.raises(ServiceError) as refused:
            attempt()
        assert refused.value.code == "forbidden"
    assert WeeklyReport.objects.get().status == "submitted"


def test_a_jogador_does_not_write_the_report(week, jogador):
    with pytest.raises(ServiceError) as refused:
        weeks_services.report_write(week=week, user=jogador, text=TEXT)
    assert refused.value.code == "forbidden"


def test_the_week_takes_no_roll_while_the_report_is_with_the_arbitro(week, scene, mestre, arbitro):
    _submitted(week, mestre)
    with pytest.raises(ServiceError) as refused:
        log_services.roll_create(
            scene=scene, user=mestre, label="Tarde", base_level=12, kind="skill"
        )
    assert refused.value.message == WEEK_CLOSED_FOR_ENTRIES.format(
        number=1, state="relatório enviado ao árbitro"
    )
    weeks_services.report_return(week=week, user=arbitro, reason="Falta uma rolagem.")
    roll = log_services.roll_create(
        scene=scene, user=mestre, label="A que faltava", base_level=12, kind="skill"
    )
    assert Roll.objects.get() == roll


def test_homologation_reveals_the_hidden_rolls_of_the_week(
    week, scene, mestre, arbitro, rastreador
):
    log_services.roll_create(
        scene=scene,
        user=mestre,
        label="Noção do Perigo",
        attribute="iq",
        character=rastreador,
        hidden=True,
    )
    assert not week.hidden_rolls_revealed
    _submitted(week, mestre)
    week.refresh_from_db()
    assert not week.hidden_rolls_revealed
    weeks_services.report_homologate(week=week, user=arbitro)
    week.refresh_from_db()
    assert week.hidden_rolls_revealed


# --- the page ---------------------------------------------------------------------------------


def test_it_works(client_for, week, mestre):
    response = client_for(mestre).get(_url("week-report", week))
    assert response.status_code == 200
    assert "Relatório da Semana 1" in content(response)


def test_it_requires_login(client, week):
    assert client.get(_url("week-report", week)).url.startswith("/entrar/")


def test_it_checks_membership(client_for, outsider, week):
    assert client_for(outsider).get(_url("week-report", week)).status_code == 404


def test_the_mestre_writes_and_submits_from_the_page(client_for, week, mestre):
    client = client_for(mestre)
    assert client.post(_url("week-report", week), {"text": TEXT}).status_code == 302
    assert client.post(_url("report-submit", week), CONFIRMED).status_code == 302
    assert WeeklyReport.objects.get().status == "submitted"


def test_an_empty_report_is_refused_next_to_the_field(client_for, week, mestre):
    response = client_for(mestre).post(_url("week-report", week), {"text": "  "})
    assert response.status_code == 422
    assert f'<span class="error">{escape(REPORT_EMPTY)}</span>' in content(response)
    assert not WeeklyReport.objects.exists()


def test_a_jogador_does_not_read_the_report_before_homologation(
    client_for, week, mestre, arbitro, jogador
):
    _submitted(week, mestre)
    html = content(client_for(jogador).get(_url("week-report", week)))
    assert TEXT not in html
    assert "os jogadores o leem depois da homologação" in html
    weeks_services.report_homologate(week=week, user=arbitro)
    assert TEXT in content(client_for(jogador).get(_url("week-report", week)))


def test_the_arbitro_homologates_from_the_page(client_for, week, mestre, arbitro):
    _submitted(week, mestre)
    client = client_for(arbitro)
    assert "Homologar o relatório" in content(client.get(_url("week-report", week)))
    assert client.post(_url("report-homologate", week), CONFIRMED).status_code == 302
    assert WeeklyReport.objects.get().status == "homologated"


def test_the_arbitro_returns_from_the_page_and_a_reason_is_required(
    client_for, week, mestre, arbitro
):
    _submitted(week, mestre)
    client = client_for(arbitro)
    response = client.post(_url("report-return", week), {"reason": "", **CONFIRMED})
    assert response.status_code == 422
    assert f'<span class="error">{escape(REPORT_RETURN_NEEDS_REASON)}</span>' in content(response)
    assert (
        client.post(
            _url("report-return", week), {"reason": "Falta o mercado.", **CONFIRMED}
        ).status_code
        == 302
    )
    html = content(client_for(mestre).get(_url("week-report", week)))
    assert "Devolvido pelo Árbitro: “Falta o mercado.”" in html


@pytest.mark.parametrize("name", ["report-homologate", "report-return", "report-correct"])
def test_the_mestre_does_not_decide(client_for, week, mestre, name):
    _submitted(week, mestre)
    assert client_for(mestre).post(_url(name, week), {"reason": "x"}).status_code == 403


def test_a_homologated_report_offers_no_edit_and_refuses_one(client_for, week, mestre, arbitro):
    homologate_week(week, mestre=mestre, arbitro=arbitro, text=TEXT)
    client = client_for(mestre)
    html = content(client.get(_url("week-report", week)))
    assert "Salvar o relatório" not in html
    response = client.post(_url("week-report", week), {"text": "Reescrito"})
    assert response.status_code == 422
    assert escape(REPORT_HOMOLOGATED_IS_FINAL) in content(response)
    assert WeeklyReport.objects.get().text == TEXT


def test_the_arbitro_corrects_from_the_page_and_the_old_text_stays(
    client_for, week, mestre, arbitro, jogador
):
    homologate_week(week, mestre=mestre, arbitro=arbitro, text=TEXT)
    response = client_for(arbitro).post(
        _url("report-correct", week),
        {"new_text": "Andar 4, não 3.", "reason": "Erro de andar.", **CONFIRMED},
    )
    assert response.status_code == 302
    html = content(client_for(jogador).get(_url("week-report", week)))
    assert "Andar 4, não 3." in html and TEXT in html and "Erro de andar." in html


def test_the_console_can_find_submitted_reports(week, mestre):
    """The Árbitro's console (app canon) lists WeeklyReport rows with status "submitted"."""
    _submitted(week, mestre)
    (report,) = WeeklyReport.objects.filter(status="submitted")
    assert report.week == week
    assert report.get_absolute_url() == _url("week-report", week)


def test_every_step_posted_twice_happens_once(client_for, week, mestre, arbitro):
    """A double click: submitting, homologating, correcting and publishing twice."""
    mestre_client = client_for(mestre)
    mestre_client.post(_url("week-report", week), {"text": TEXT})
    for _ in range(2):
        assert mestre_client.post(_url("report-submit", week), CONFIRMED).status_code == 302
    arbitro_client = client_for(arbitro)
    for _ in range(2):
        assert arbitro_client.post(_url("report-homologate", week), CONFIRMED).status_code == 302
    correction = {"new_text": "Corrigido.", "reason": "Erro."}
    for _ in range(2):
        assert (
            arbitro_client.post(
                _url("report-correct", week), {**correction, **CONFIRMED}
            ).status_code
            == 302
        )
    assert ReportCorrection.objects.count() == 1
    mestre_client = client_for(mestre)
    for _ in range(2):
        response = mestre_client.post(
            _url("bulletin-publish", week), {"text": "Boletim.", **CONFIRMED}
        )
        assert response.status_code == 302
    open_url = reverse("week-open", kwargs={"campaign": week.campaign.slug})
    for _ in range(2):
        assert mestre_client.post(open_url, {"number": "2"}).status_code == 302
    assert list(week.campaign.weeks.values_list("number", flat=True)) == [1, 2]
