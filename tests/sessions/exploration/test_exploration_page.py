"""The exploration region of the scene page: who sees it, who runs it, errors next to the
field, the same form twice is one action."""

from __future__ import annotations

from django.urls import reverse

from sessions.exploration import services as exploration_services
from sessions.models import Exploration, ExplorationEvent, Roll
from tests.pins import SESSION_QUERIES

# A jogador's poll of the panel with a journey under way: session, user, scene, its characters,
# the membership; the exploration; Tabela A (its rows) for the encounter cadence; the timers;
# the events and their rolls; the tally's rolls, combatants and loot; the journey's tests; the
# journey's food, water and ammunition (the sums of their changes).
PANEL_QUERIES = 15 + SESSION_QUERIES


def _url(scene, name="exploration"):
    return reverse(name, kwargs={"code": scene.code})


def test_it_works(client_for, mestre, scene):
    response = client_for(mestre).get(_url(scene))
    assert response.status_code == 200
    assert "Começar a exploração" in response.content.decode()


def test_it_requires_login(client, scene):
    assert client.get(_url(scene)).status_code == 302


def test_it_checks_membership(client_for, outsider, scene):
    assert client_for(outsider).get(_url(scene)).status_code == 404


def test_the_scene_page_loads_it(client_for, mestre, scene):
    html = client_for(mestre).get(reverse("scene", kwargs={"code": scene.code})).content.decode()
    assert _url(scene) in html


def test_a_jogador_sees_it_read_only(client_for, mestre, jogador, scene):
    exploration = exploration_services.exploration_start(scene=scene, user=mestre, danger="risky")
    exploration_services.exploration_timer_add(
        exploration=exploration, user=mestre, name="Tocha", turns=6
    )
    client = client_for(jogador)
    html = client.get(_url(scene), HTTP_HX_REQUEST="true").content.decode()
    assert "Arriscado" in html and "Tocha" in html and "Jurado de Gapheim" in html
    assert "Começar o turno" not in html and "<form" not in html
    assert client.post(_url(scene, "exploration-turn-start")).status_code == 403


def test_a_poll_with_nothing_new_gets_204(client_for, mestre, jogador, scene):
    exploration = exploration_services.exploration_start(scene=scene, user=mestre, danger="risky")
    seen = f"{exploration.code}.{Exploration.objects.get().revision}"
    response = client_for(jogador).get(_url(scene), {"v": seen}, HTTP_HX_REQUEST="true")
    assert response.status_code == 204


def test_the_mestre_starts_once_for_a_form_posted_twice(client_for, mestre, scene):
    client = client_for(mestre)
    data = {"request_key": "k1", "danger": "risky", "marching_order": "Jurado de Gapheim"}
    for _ in range(2):
        client.post(_url(scene, "exploration-start"), data, HTTP_HX_REQUEST="true")
    assert Exploration.objects.count() == 1


def test_a_turn_posted_twice_is_one_turn(client_for, mestre, scene, server_dice):
    server_dice(6)
    exploration_services.exploration_start(scene=scene, user=mestre, danger="deadly")
    client = client_for(mestre)
    for _ in range(2):
        response = client.post(
            _url(scene, "exploration-turn-start"), {"request_key": "t1"}, HTTP_HX_REQUEST="true"
        )
        assert response.status_code == 200
    assert Exploration.objects.get().turn == 1 and Roll.objects.count() == 1


def test_bad_input_comes_back_next_to_the_field_and_nothing_is_saved(client_for, mestre, scene):
    exploration_services.exploration_start(scene=scene, user=mestre, danger="risky")
    response = client_for(mestre).post(
        _url(scene, "exploration-timer"),
        {"request_key": "x", "name": "Tocha", "kind": "light", "turns": "0"},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert 'class="error"' in html and "Tocha" in html
    assert not ExplorationEvent.objects.filter(kind=ExplorationEvent.Kind.TIMER).exists()


def test_a_service_refusal_comes_back_next_to_the_field(client_for, mestre, scene):
    exploration_services.exploration_start(scene=scene, user=mestre, danger="risky")
    response = client_for(mestre).post(
        _url(scene, "exploration-marching"),
        {"request_key": "m", "marching_order": "Hoplita\nhoplita"},
        HTTP_HX_REQUEST="true",
    )
    assert (
        exploration_services.MARCHING_DUPLICATE.format(name="hoplita") in response.content.decode()
    )


def test_without_javascript_a_refusal_is_a_422_page(client_for, mestre, scene):
    response = client_for(mestre).post(_url(scene, "exploration-start"), {"danger": ""})
    assert response.status_code == 422


# --- the journey ---------------------------------------------------------------------------------


def _journey(scene, mestre, server_dice):
    from sessions.exploration import journey

    exploration = exploration_services.exploration_start(scene=scene, user=mestre, danger="risky")
    server_dice(3)
    journey.exploration_journey_start(
        exploration=exploration, user=mestre, season="winter", region="mountain"
    )
    return exploration


def test_the_mestre_starts_a_journey_and_travels_from_the_page(
    client_for, mestre, scene, server_dice
):
    exploration_services.exploration_start(scene=scene, user=mestre, danger="risky")
    client = client_for(mestre)
    server_dice(4)
    html = client.post(
        _url(scene, "exploration-journey"),
        {"request_key": "j1", "season": "spring", "region": "hills"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "Ameno e nublado" in html and "Dia 1, rodada 1: viajar 4 h" in html
    server_dice(2, 6, 7)  # «Aumente em 1 o clima», no encounter, Tabela D 1d8 = 7
    html = client.post(
        _url(scene, "exploration-travel"),
        {"request_key": "t1", "activity": "explore"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "Quente e chuvoso" in html  # the fifth row of spring
    assert "Dia 1, rodada 1 de 6 (4 h): Explorar." in html
    assert "D1·R1" in html and "pendência(s) do Árbitro neste passo" in html
    assert Exploration.objects.get().day_round == 1


def test_a_round_without_a_region_comes_back_next_to_the_field(
    client_for, mestre, scene, server_dice
):
    from sessions.exploration import journey

    exploration = exploration_services.exploration_start(scene=scene, user=mestre, danger="risky")
    server_dice(4)
    journey.exploration_journey_start(exploration=exploration, user=mestre, season="spring")
    response = client_for(mestre).post(
        _url(scene, "exploration-travel"),
        {"request_key": "t1", "activity": "explore"},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert response.status_code == 200 and journey.REGION_REQUIRED in html
    assert Roll.objects.count() == 1


def test_a_jogador_follows_the_journey_read_only(client_for, mestre, jogador, scene, server_dice):
    _journey(scene, mestre, server_dice)
    html = client_for(jogador).get(_url(scene), HTTP_HX_REQUEST="true").content.decode()
    assert "Frio e com neve" in html and "Inverno" in html and "Montanha" in html
    assert "viajar 4 h" not in html and "<form" not in html


def test_the_panel_with_a_journey_costs_a_fixed_number_of_queries(
    client_for, jogador, mestre, scene, server_dice, django_assert_num_queries
):
    _journey(scene, mestre, server_dice)
    client = client_for(jogador)
    client.get(_url(scene), HTTP_HX_REQUEST="true")
    with django_assert_num_queries(PANEL_QUERIES):
        client.get(_url(scene), HTTP_HX_REQUEST="true")


# --- the journey's books (issue 25) --------------------------------------------------------------


def test_a_journey_started_from_the_page_needs_no_danger_and_shows_no_dungeon_tile(
    client_for, mestre, scene, server_dice
):
    client = client_for(mestre)
    server_dice(4)
    data = {"request_key": "j1", "season": "spring", "marching_order": "Jurado de Gapheim"}
    client.post(_url(scene, "exploration-start"), data, HTTP_HX_REQUEST="true")
    exploration = Exploration.objects.get(scene=scene)
    assert exploration.danger == "" and exploration.journey_started
    html = client.get(_url(scene), HTTP_HX_REQUEST="true").content.decode()
    # no «Turno 0», no «Descanso 0/6»: the dungeon's tiles do not apply
    assert 'data-testid="exploration-turn"' not in html
    assert 'data-testid="exploration-rest"' not in html
    assert 'data-testid="journey-supplies"' in html and 'data-testid="no-dungeon"' in html


def test_the_start_form_asks_for_a_danger_level_or_a_season(client_for, mestre, scene):
    from sessions.exploration.forms import START_NEEDS_DANGER_OR_SEASON

    response = client_for(mestre).post(
        _url(scene, "exploration-start"), {"request_key": "j2"}, HTTP_HX_REQUEST="true"
    )
    assert START_NEEDS_DANGER_OR_SEASON in response.content.decode()
    assert not Exploration.objects.filter(scene=scene).exists()


def test_the_mestre_adjusts_a_count_on_the_page(client_for, mestre, scene, server_dice):
    from sessions.exploration import supplies

    _journey(scene, mestre, server_dice)
    client = client_for(mestre)
    body = {"request_key": "s1", "holder": "", "kind": "food", "delta": "4", "reason": "Mercado"}
    client.post(_url(scene, "exploration-supply"), body, HTTP_HX_REQUEST="true")
    client.post(_url(scene, "exploration-supply"), body, HTTP_HX_REQUEST="true")  # the same form
    exploration = Exploration.objects.get(scene=scene)
    assert supplies.supply_counts(exploration)[""]["food"] == 4
    html = client.get(_url(scene), HTTP_HX_REQUEST="true").content.decode()
    assert "4 comida" in html
    bad = {**body, "request_key": "s2", "delta": "-9"}
    answer = client.post(_url(scene, "exploration-supply"), bad, HTTP_HX_REQUEST="true")
    assert "Estoque comum tem 4 de comida" in answer.content.decode()


def test_the_sheet_shows_the_character_s_food_water_ammunition_and_exhaustion(
    client_for, mestre, jogador, scene, server_dice
):
    from sessions.exploration import supplies

    _journey(scene, mestre, server_dice)
    exploration = Exploration.objects.get(scene=scene)
    character = scene.characters.get(name="Jurado de Gapheim")
    supplies.exploration_supply_adjust(
        exploration=exploration,
        user=mestre,
        holder=character.name,
        kind="ammunition",
        delta=20,
        reason="Aljava cheia",
    )
    client = client_for(jogador)
    sheet = client.get(reverse("sheet", kwargs={"code": character.code})).content.decode()
    url = reverse("character-journey", kwargs={"code": character.code})
    assert f'hx-get="{url}"' in sheet
    html = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert 'data-testid="journey-books"' in html and "munição 20" in html
    assert "comida 0" in html and "Exaustão 0" in html


def test_a_dungeon_sleep_s_tests_show_without_a_journey(client_for, mestre, scene, server_dice):
    exploration = exploration_services.exploration_start(scene=scene, user=mestre, danger="unsafe")
    server_dice(6, 6, 6)  # Tabela B 6: «Teste de CON DC 12 para ter os benefícios do Descanso»
    exploration_services.exploration_sleep(exploration=exploration, user=mestre, hours=8)
    html = client_for(mestre).get(_url(scene), HTTP_HX_REQUEST="true").content.decode()
    assert html.count('data-testid="journey-test"') == len(exploration.marching_order)
    assert "Teste de CON DC 12 para ter os benefícios do Descanso" in html
