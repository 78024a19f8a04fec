"""The scene page and what adds to its log; the scene's exports; the chain's page."""

from django.urls import path

from sessions.log import live, scene_views, views

SCENE = "cenas/<uuid:code>/"

urlpatterns = [
    path(SCENE, views.scene_detail, name="scene"),
    path(SCENE + "registro/", views.scene_log, name="scene-log"),
    path(SCENE + "eventos/", live.scene_events, name="scene-events"),
    path(SCENE + "declarar/", views.declaration_add, name="declaration-add"),
    path(SCENE + "anunciar/", views.announcement_add, name="announcement-add"),
    path(SCENE + "rolar/", views.roll_add, name="roll-add"),
    path(SCENE + "dano/", views.damage_roll_add, name="damage-roll-add"),
    path(SCENE + "tabela/", views.table_roll_add, name="table-roll-add"),
    path(SCENE + "disputa/", views.contest_add, name="contest-add"),
    path(SCENE + "narrar/", views.narration_add, name="narration-add"),
    path(SCENE + "encerrar/", scene_views.scene_close, name="scene-close"),
    path(SCENE + "estado/", scene_views.state_change_add, name="state-change-add"),
    path(SCENE + "exportar.md", views.scene_export_markdown, name="scene-export-md"),
    path(SCENE + "exportar.json", views.scene_export_json, name="scene-export-json"),
    path("console/rolagens/", views.rolls_verify_page, name="rolls-verify-page"),
]
