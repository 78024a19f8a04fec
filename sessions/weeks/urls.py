"""The weeks of a campaign, a week's page, its report and Boletim, exports, a player's folder."""

from django.urls import path

from sessions.weeks import views

WEEKS = "campanhas/<slug:campaign>/semanas/"
WEEK = WEEKS + "<int:number>/"

urlpatterns = [
    path(WEEKS, views.weeks, name="weeks"),
    path(WEEKS + "abrir/", views.week_open, name="week-open"),
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
]
