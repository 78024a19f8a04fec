"""World actions (sessions.weeks.services.world_action_create, sessions.weeks.views.world_action_add).

Three per character per week, not carried over; the fourth is refused with a clear message
(canon §8). Free scenes are unlimited. Only the jogador who owns the character spends them.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from campaigns.errors import ServiceError
from gurps.house import WORLD_ACTIONS_PER_WEEK
from sessions.entries import WEEK_CLOSED_FOR_ENTRIES
from sessions.log import services as log_services
from sessions.models import Scene, WorldAction
from sessions.weeks import services as weeks_services
from sessions.weeks.services import (
    NOT_YOUR_CHARACTER_WORLD,
    WORLD_ACTION_EMPTY,
    WORLD_ACTIONS_USED_UP,
)
from tests.sessions.conftest import close_week
from tests.sheets.pages import content


@pytest.fixture
def week(scene):
    return scene.week


def _spend(week, character, user, text="Vender o espólio no Limiar", **kwargs):
    return weeks_services.world_action_create(
        week=week, character=character, user=user, text=text, **kwargs
    )


def _url(week) -> str:
    return reverse("world-action-add", kwargs={"campaign": week.campaign.slug, "number": 1})


def _used_up(character, week) -> str:
    return WORLD_ACTIONS_USED_UP.format(
        character=character.name, limit=WORLD_ACTIONS_PER_WEEK, number=week.number
    )


def test_three_world_actions_are_numbered_1_2_3(week, jurado, jogador):
    actions = [_spend(week, jurado, jogador, text=f"Ação {n}") for n in range(3)]
    assert [a.ordinal for a in actions] == [1, 2, 3]
    assert WORLD_ACTIONS_PER_WEEK == 3


def test_the_fourth_world_action_is_refused_with_a_clear_message(week, jurado, jogador):
    for n in range(3):
        _spend(week, jurado, jogador, text=f"Ação {n}")
    with pytest.raises(ServiceError) as refused:
        _spend(week, jurado, jogador, text="A quarta")
    assert refused.value.message == _used_up(jurado, week)
    assert "Jurado de Gapheim já gastou as 3 ações de mundo da Semana 1" in refused.value.message
    assert (refused.value.field, refused.value.code) == ("character", "world_actions_used_up")
    assert WorldAction.objects.count() == 3


def test_the_fourth_world_action_is_refused_next_to_the_field(client_for, week, jurado, jogador):
    for n in range(3):
        _spend(week, jurado, jogador, text=f"Ação {n}")
    response = client_for(jogador).post(
        _url(week), {"character": str(jurado.code), "text": "A quarta"}
    )
    assert response.status_code == 422
    assert escape(_used_up(jurado, week)) in content(response)
    assert WorldAction.objects.count() == 3


def test_each_character_has_its_own_three(week, jurado, hoplita, jogador, jogadora):
    for n in range(3):
        _spend(week, jurado, jogador, text=f"Ação {n}")
    assert _spend(week, hoplita, jogadora).ordinal == 1


def test_world_actions_are_not_carried_over(demo, week, jurado, jogador, mestre, arbitro):
    _spend(week, jurado, jogador)
    close_week(week, mestre=mestre, arbitro=arbitro)
    week_2 = weeks_services.week_open(campaign=demo, user=mestre)
    for n in range(3):
        _spend(week_2, jurado, jogador, text=f"Semana 2, ação {n}")
    with pytest.raises(ServiceError) as refused:
        _spend(week_2, jurado, jogador, text="A quarta, com a sobra da semana 1")
    assert refused.value.message == _used_up(jurado, week_2)


def test_free_scenes_are_unlimited(week, mestre, jurado, jogador):
    for n in range(3):
        _spend(week, jurado, jogador, text=f"Ação {n}")
    for n in range(5):
        log_services.scene_create(
            week=week, user=mestre, title=f"Cena livre {n}", characters=[jurado]
        )
    assert Scene.objects.filter(title__startswith="Cena livre").count() == 5


def test_it_works_from_the_week_page(client_for, week, jurado, jogador):
    client = client_for(jogador)
    response = client.post(_url(week), {"character": str(jurado.code), "text": "Treinar escudo"})
    assert response.status_code == 302
    html = content(client.get(response.url))
    assert "Treinar escudo" in html
    assert "1 de 3" in html


def test_it_requires_login(client, week, jurado):
    response = client.post(_url(week), {"character": str(jurado.code), "text": "x"})
    assert response.url.startswith("/entrar/")
    assert not WorldAction.objects.exists()


def test_it_checks_ownership(client_for, week, jurado, jogadora, hoplita):
    response = client_for(jogadora).post(_url(week), {"character": str(jurado.code), "text": "x"})
    assert response.status_code == 422
    assert not WorldAction.objects.exists()
    with pytest.raises(ServiceError) as refused:
        _spend(week, jurado, jogadora)
    assert (refused.value.message, refused.value.code) == (NOT_YOUR_CHARACTER_WORLD, "forbidden")


@pytest.mark.parametrize("username", ["mestre", "arbitro"])
def test_the_table_does_not_spend_them(client_for, django_user_model, week, jurado, username):
    user = django_user_model.objects.get(username=username)
    response = client_for(user).post(_url(week), {"character": str(jurado.code), "text": "x"})
    assert response.status_code == 403
    with pytest.raises(ServiceError):
        _spend(week, jurado, user)
    assert not WorldAction.objects.exists()


def test_it_checks_membership(client_for, outsider, week, jurado):
    response = client_for(outsider).post(_url(week), {"character": str(jurado.code), "text": "x"})
    assert response.status_code == 404


def test_an_empty_action_is_refused_next_to_the_field(client_for, week, jurado, jogador):
    response = client_for(jogador).post(_url(week), {"character": str(jurado.code), "text": " "})
    assert response.status_code == 422
    assert f'<span class="error">{escape(WORLD_ACTION_EMPTY)}</span>' in content(response)


def test_the_same_form_posted_twice_spends_one(client_for, week, jurado, jogador):
    client = client_for(jogador)
    data = {"character": str(jurado.code), "text": "Treinar", "request_key": "7" * 32}
    client.post(_url(week), data)
    client.post(_url(week), data)
    assert WorldAction.objects.count() == 1


def test_a_week_with_its_report_submitted_takes_none(week, jurado, jogador, mestre):
    weeks_services.report_write(week=week, user=mestre, text="Relatório")
    weeks_services.report_submit(week=week, user=mestre)
    with pytest.raises(ServiceError) as refused:
        _spend(week, jurado, jogador)
    assert refused.value.message == WEEK_CLOSED_FOR_ENTRIES.format(
        number=1, state="relatório enviado ao árbitro"
    )
