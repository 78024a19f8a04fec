"""The exploration tracker's URLs, under a scene."""

from django.urls import path

from sessions.exploration import views

EXPLORATION = "cenas/<uuid:code>/exploracao/"

urlpatterns = [
    path("fichas/<uuid:code>/jornada/", views.character_journey, name="character-journey"),
    path(EXPLORATION, views.exploration_panel, name="exploration"),
    path(EXPLORATION + "iniciar/", views.exploration_start, name="exploration-start"),
    path(EXPLORATION + "perigo/", views.exploration_declare, name="exploration-declare"),
    path(EXPLORATION + "marcha/", views.exploration_marching, name="exploration-marching"),
    path(EXPLORATION + "marcadores/", views.exploration_timer, name="exploration-timer"),
    path(EXPLORATION + "turno/", views.exploration_turn_start, name="exploration-turn-start"),
    path(EXPLORATION + "fim-do-turno/", views.exploration_turn_end, name="exploration-turn-end"),
    path(EXPLORATION + "surpresa/", views.exploration_surprise, name="exploration-surprise"),
    path(EXPLORATION + "dormir/", views.exploration_sleep, name="exploration-sleep"),
    path(EXPLORATION + "jornada/", views.exploration_journey, name="exploration-journey"),
    path(EXPLORATION + "viagem/", views.exploration_travel, name="exploration-travel"),
    path(
        EXPLORATION + "jornada/testes/",
        views.exploration_journey_test,
        name="exploration-journey-test",
    ),
    path(EXPLORATION + "provisoes/", views.exploration_supply, name="exploration-supply"),
    path(EXPLORATION + "exaustao/", views.exploration_consequence, name="exploration-consequence"),
    path(EXPLORATION + "achados/", views.exploration_loot, name="exploration-loot"),
    path(EXPLORATION + "encerrar/", views.exploration_end, name="exploration-end"),
]
