"""Weeks (sessions.weeks.services.week_open, week_publish_bulletin; the weeks and week pages).

Week N+1 does not open before the Boletim of week N (canon §8); the Boletim comes after the
report's homologation; the week page shows its scenes, world actions and state.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from campaigns.confirm import CONFIRMED
from campaigns.errors import ServiceError
from sessions.entries import WEEK_CLOSED_FOR_ENTRIES
from sessions.log import services as log_services
from sessions.models import Scene, Week
from sessions.weeks import services as weeks_services
from sessions.weeks.services import BULLETIN_ALREADY, BULLETIN_FIRST, BULLETIN_NEEDS_HOMOLOGATION
from tests.sessions.conftest import close_week, homologate_week
from tests.sheets.pages import content


@pytest.fixture
def week(scene):
    return scene.week


def _week_url(week) -> str:
    return reverse("week", kwargs={"campaign": week.campaign.slug, "number": week.number})


def _open_url(demo) -> str:
    return reverse("week-open", kwargs={"campaign": demo.slug})


# --- week N+1 -------------------------------------------------------------------------------


def test_week_2_is_refused_before_the_boletim_of_week_1(demo, week, mestre):
    with pytest.raises(ServiceError) as refused:
        weeks_services.week_open(campaign=demo, user=mestre)
    assert refused.value.message == BULLETIN_FIRST.format(next=2, number=1)
    assert refused.value.code == "bulletin_not_published"
    assert list(Week.objects.values_list("number", flat=True)) == [1]


def test_week_2_is_refused_even_with_the_report_homologated(demo, week, mestre, arbitro):
    homologate_week(week, mestre=mestre, arbitro=arbitro)
    with pytest.raises(ServiceError):
        weeks_services.week_open(campaign=demo, user=mestre)
    assert Week.objects.count() == 1


def test_week_2_opens_after_the_boletim(demo, week, mestre, arbitro):
    close_week(week, mestre=mestre, arbitro=arbitro)
    opened = weeks_services.week_open(campaign=demo, user=mestre)
    assert opened.number == 2
    assert opened.state == Week.State.OPEN
    assert opened.opened_at is not None
    with pytest.raises(ServiceError) as refused:
        weeks_services.week_open(campaign=demo, user=mestre)
    assert refused.value.message == BULLETIN_FIRST.format(next=3, number=2)


def test_the_first_week_opens_on_an_empty_campaign(outsider):
    campaign = outsider.membership_set.get().campaign
    assert weeks_services.week_open(campaign=campaign, user=outsider).number == 1


def test_a_jogador_does_not_open_a_week(demo, week, jogador, mestre, arbitro):
    close_week(week, mestre=mestre, arbitro=arbitro)
    with pytest.raises(ServiceError) as refused:
        weeks_services.week_open(campaign=demo, user=jogador)
    assert refused.value.code == "forbidden"


def test_the_open_button_is_refused_before_the_boletim_and_says_why(client_for, demo, week, mestre):
    response = client_for(mestre).post(_open_url(demo))
    assert response.status_code == 422
    assert escape(BULLETIN_FIRST.format(next=2, number=1)) in content(response)
    assert Week.objects.count() == 1


def test_the_open_button_opens_week_2_after_the_boletim(client_for, demo, week, mestre, arbitro):
    close_week(week, mestre=mestre, arbitro=arbitro)
    response = client_for(mestre).post(_open_url(demo))
    assert response.status_code == 302
    assert response.url == _week_url(Week.objects.get(number=2))


@pytest.mark.parametrize("username", ["jogador", "rastreadora"])
def test_the_open_button_checks_the_role(client_for, django_user_model, demo, week, username):
    user = django_user_model.objects.get(username=username)
    assert client_for(user).post(_open_url(demo)).status_code == 403


def test_the_open_button_checks_membership(client_for, outsider, demo, week):
    assert client_for(outsider).post(_open_url(demo)).status_code == 404


# --- the Boletim ------------------------------------------------------------------------------


def test_the_boletim_waits_for_the_homologation(week, mestre):
    with pytest.raises(ServiceError) as refused:
        weeks_services.week_publish_bulletin(week=week, user=mestre, text="Boletim")
    assert refused.value.message == BULLETIN_NEEDS_HOMOLOGATION


def test_the_boletim_is_published_once_and_closes_the_week(week, scene, mestre, arbitro):
    close_week(week, mestre=mestre, arbitro=arbitro, bulletin="A galeria caiu.")
    assert (week.state, week.status, week.bulletin) == (
        Week.State.BULLETIN_PUBLISHED,
        Week.Status.CLOSED,
        "A galeria caiu.",
    )
    assert Scene.objects.get(pk=scene.pk).status == Scene.Status.CLOSED
    with pytest.raises(ServiceError) as refused:
        weeks_services.week_publish_bulletin(week=week, user=mestre, text="Outro")
    assert refused.value.message == BULLETIN_ALREADY
    assert Week.objects.get(pk=week.pk).bulletin == "A galeria caiu."


def test_the_boletim_form_publishes_it(client_for, week, mestre, arbitro):
    homologate_week(week, mestre=mestre, arbitro=arbitro)
    url = reverse("bulletin-publish", kwargs={"campaign": week.campaign.slug, "number": 1})
    response = client_for(mestre).post(
        url, {"text": "Boletim da Semana 1: a galeria caiu.", **CONFIRMED}
    )
    assert response.status_code == 302
    html = content(client_for(mestre).get(_week_url(week)))
    assert "Boletim da Semana 1: a galeria caiu." in html
    assert "Abrir a Semana 2" in html


def test_an_empty_boletim_is_refused_next_to_the_field(client_for, week, mestre, arbitro):
    homologate_week(week, mestre=mestre, arbitro=arbitro)
    url = reverse("bulletin-publish", kwargs={"campaign": week.campaign.slug, "number": 1})
    response = client_for(mestre).post(url, {"text": "  "})
    assert response.status_code == 422
    assert f'<span class="error">{escape(weeks_services.BULLETIN_EMPTY)}</span>' in content(
        response
    )
    assert Week.objects.get(pk=week.pk).bulletin_published_at is None


def test_a_jogador_does_not_publish_the_boletim(client_for, jogador, week, mestre, arbitro):
    homologate_week(week, mestre=mestre, arbitro=arbitro)
    url = reverse("bulletin-publish", kwargs={"campaign": week.campaign.slug, "number": 1})
    assert client_for(jogador).post(url, {"text": "Boletim"}).status_code == 403


# --- the week page ----------------------------------------------------------------------------


def test_it_works(client_for, jogador, week, scene):
    response = client_for(jogador).get(_week_url(week))
    assert response.status_code == 200
    html = content(response)
    assert "Semana 1" in html
    assert scene.title in html
    assert 'aria-current="step">Aberta<' in html


def test_it_requires_login(client, week):
    response = client.get(_week_url(week))
    assert response.status_code == 302
    assert response.url.startswith("/entrar/")


def test_it_checks_membership(client_for, outsider, week):
    assert client_for(outsider).get(_week_url(week)).status_code == 404


@pytest.mark.parametrize(
    ("step", "label"),
    [
        ("submitted", "Relatório enviado ao Árbitro"),
        ("homologated", "Relatório homologado"),
        ("published", "Boletim publicado"),
    ],
)
def test_it_shows_the_state_of_the_week(client_for, jogador, week, mestre, arbitro, step, label):
    weeks_services.report_write(week=week, user=mestre, text="Relatório")
    weeks_services.report_submit(week=week, user=mestre)
    if step in ("homologated", "published"):
        weeks_services.report_homologate(week=week, user=arbitro)
    if step == "published":
        weeks_services.week_publish_bulletin(week=week, user=mestre, text="Boletim")
    html = content(client_for(jogador).get(_week_url(week)))
    assert f'aria-current="step">{label}<' in html


def test_the_weeks_page_lists_the_weeks_with_their_state(client_for, demo, week, mestre, arbitro):
    close_week(week, mestre=mestre, arbitro=arbitro)
    weeks_services.week_open(campaign=demo, user=mestre)
    html = content(client_for(mestre).get(reverse("weeks", kwargs={"campaign": demo.slug})))
    assert "Semana 2" in html and "Boletim publicado" in html
    assert "Abrir a Semana 3" not in html


def test_the_mestre_opens_a_scene_from_the_week_page(client_for, week, mestre, rastreador):
    url = reverse("scene-add", kwargs={"campaign": week.campaign.slug, "number": 1})
    data = {
        "scene-title": "O mercado do Limiar",
        "scene-floor": "1",
        "scene-terrain": "praça",
        "scene-characters": [str(rastreador.code)],
        "scene-request_key": "k" * 32,
    }
    client = client_for(mestre)
    response = client.post(url, data)
    scene = Scene.objects.get(title="O mercado do Limiar")
    assert response.url == scene.get_absolute_url()
    assert list(scene.characters.all()) == [rastreador]
    client.post(url, data)
    assert Scene.objects.filter(title="O mercado do Limiar").count() == 1


def test_a_scene_on_floor_0_is_refused_next_to_the_field(client_for, week, mestre):
    url = reverse("scene-add", kwargs={"campaign": week.campaign.slug, "number": 1})
    response = client_for(mestre).post(url, {"scene-title": "Fundo", "scene-floor": "0"})
    assert response.status_code == 422
    assert "O andar da Garganta é 1 ou mais" in content(response)
    assert not Scene.objects.filter(title="Fundo").exists()


def test_a_jogador_does_not_open_a_scene(client_for, jogador, week):
    url = reverse("scene-add", kwargs={"campaign": week.campaign.slug, "number": 1})
    assert client_for(jogador).post(url, {"scene-title": "Minha"}).status_code == 403


def test_a_closed_week_takes_no_new_scene(week, mestre, arbitro):
    close_week(week, mestre=mestre, arbitro=arbitro)
    with pytest.raises(ServiceError) as refused:
        log_services.scene_create(week=week, user=mestre, title="Tarde demais")
    assert refused.value.message == WEEK_CLOSED_FOR_ENTRIES.format(
        number=1, state="boletim publicado"
    )


def test_its_query_count_does_not_grow_with_the_week(
    client_for, jogador, week, scene, mestre, jurado, django_assert_max_num_queries
):
    for n in range(3):
        log_services.scene_create(week=week, user=mestre, title=f"Cena {n}", characters=[jurado])
        weeks_services.world_action_create(
            week=week, character=jurado, user=jogador, text=f"Ação {n}"
        )
    client = client_for(jogador)
    # session, user, campaign, membership, week (+report), player characters, world
    # actions, scenes (+characters), previous and next week; headroom for the layout.
    with django_assert_max_num_queries(14):
        assert client.get(_week_url(week)).status_code == 200
