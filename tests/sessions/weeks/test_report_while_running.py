"""A weekly report cannot be sent while a fight or a descent of its week is running: it would
freeze there, its HP and fatigue never reaching the sheets (issue «What the table sees»)."""

from __future__ import annotations

import pytest

from campaigns.confirm import CONFIRMED
from campaigns.errors import ServiceError
from sessions.combat import services as combat_services
from sessions.exploration import services as exploration_services
from sessions.models import WeeklyReport
from sessions.weeks import services as weeks_services


def test_the_report_is_refused_while_a_combat_runs_and_names_it(scene, mestre, jurado):
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[jurado])
    weeks_services.report_write(week=scene.week, user=mestre, text="A semana.")
    with pytest.raises(ServiceError) as refused:
        weeks_services.report_submit(week=scene.week, user=mestre)
    assert refused.value.code == "tracker_running"
    assert scene.title in refused.value.message
    assert f"/cenas/{scene.code}/combate/" in refused.value.message
    assert WeeklyReport.objects.get(week=scene.week).status == WeeklyReport.Status.DRAFT
    combat_services.combat_end(combat=combat, user=mestre)
    assert weeks_services.report_submit(week=scene.week, user=mestre).status == "submitted"


def test_the_report_is_refused_while_a_descent_runs(scene, mestre):
    exploration_services.exploration_start(scene=scene, user=mestre, danger="unsafe")
    weeks_services.report_write(week=scene.week, user=mestre, text="A semana.")
    with pytest.raises(ServiceError) as refused:
        weeks_services.report_submit(week=scene.week, user=mestre)
    assert "exploração" in refused.value.message


def test_the_page_says_it_next_to_the_button(scene, mestre, jurado, client_for):
    combat_services.combat_start(scene=scene, user=mestre, characters=[jurado])
    weeks_services.report_write(week=scene.week, user=mestre, text="A semana.")
    week = scene.week
    url = f"/campanhas/{week.campaign.slug}/semanas/{week.number}/relatorio/enviar/"
    answer = client_for(mestre).post(url, CONFIRMED)
    assert answer.status_code == 422
    assert "em andamento" in answer.content.decode()
