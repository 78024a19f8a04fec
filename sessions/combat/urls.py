"""The combat tracker's URLs, under a scene."""

from django.urls import path

from sessions.combat import views

COMBAT = "cenas/<uuid:code>/combate/"

urlpatterns = [
    path(COMBAT, views.combat_panel, name="combat"),
    path(COMBAT + "iniciar/", views.combat_start, name="combat-start"),
    path(COMBAT + "combatentes/", views.combatant_add, name="combatant-add"),
    path(COMBAT + "declarar/", views.combat_declare, name="combat-declare"),
    path(COMBAT + "turno/", views.combat_turn, name="combat-turn"),
    path(COMBAT + "manobra/", views.maneuver_declare, name="combat-maneuver"),
    path(COMBAT + "ataque/", views.attack_resolve, name="combat-attack"),
    path(COMBAT + "turno-inteiro/", views.combat_act, name="combat-act"),
    path(COMBAT + "fugiu/", views.combatant_flee, name="combat-fled"),
    path(COMBAT + "ajuste/", views.combatant_adjust, name="combat-adjust"),
    path(COMBAT + "defesa/", views.defence_choose, name="combat-defence"),
    path(COMBAT + "defesa/resposta/", views.defence_answer, name="combat-defence-answer"),
    path(COMBAT + "encerrar/", views.combat_end, name="combat-end"),
]
