from django.urls import include, path

from sessions import views

WEEK = "campanhas/<slug:campaign>/semanas/<int:number>/"

urlpatterns = [
    path("", include("sessions.combat_urls")),
    path("", include("sessions.procedure_urls")),
    path("", include("sessions.exploration_urls")),
    path("cenas/<uuid:code>/", views.scene_detail, name="scene"),
    path("cenas/<uuid:code>/registro/", views.scene_log, name="scene-log"),
    path("cenas/<uuid:code>/declarar/", views.declaration_add, name="declaration-add"),
    path("cenas/<uuid:code>/anunciar/", views.announcement_add, name="announcement-add"),
    path("cenas/<uuid:code>/rolar/", views.roll_add, name="roll-add"),
    path("cenas/<uuid:code>/dano/", views.damage_roll_add, name="damage-roll-add"),
    path("cenas/<uuid:code>/tabela/", views.table_roll_add, name="table-roll-add"),
    path("cenas/<uuid:code>/disputa/", views.contest_add, name="contest-add"),
    path("cenas/<uuid:code>/narrar/", views.narration_add, name="narration-add"),
    path("cenas/<uuid:code>/exportar.md", views.scene_export_markdown, name="scene-export-md"),
    path("cenas/<uuid:code>/exportar.json", views.scene_export_json, name="scene-export-json"),
    path("campanhas/<slug:campaign>/semanas/", views.weeks, name="weeks"),
    path("campanhas/<slug:campaign>/semanas/abrir/", views.week_open, name="week-open"),
    path(WEEK, views.week_detail, name="week"),
    path(WEEK + "acoes/", views.world_action_add, name="world-action-add"),
    path(WEEK + "cenas/", views.scene_add, name="scene-add"),
    path(WEEK + "boletim/", views.bulletin_publish, name="bulletin-publish"),
    path(WEEK + "relatorio/", views.week_report, name="week-report"),
    path(WEEK + "relatorio/enviar/", views.report_submit, name="report-submit"),
    path(WEEK + "relatorio/homologar/", views.report_homologate, name="report-homologate"),
    path(WEEK + "relatorio/devolver/", views.report_return, name="report-return"),
    path(WEEK + "relatorio/corrigir/", views.report_correct, name="report-correct"),
    path(WEEK + "exportar.md", views.week_export_markdown, name="week-export-md"),
    path(WEEK + "exportar.json", views.week_export_json, name="week-export-json"),
    path("campanhas/<slug:campaign>/pasta/", views.folder_download, name="folder-download"),
    path(
        "campanhas/<slug:campaign>/pasta/<str:username>/",
        views.folder_download,
        name="folder-download-for",
    ),
    path("console/rolagens/", views.rolls_verify_page, name="rolls-verify-page"),
]
