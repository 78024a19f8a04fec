"""The Árbitro's console: the homologation queue and the registers of the canon."""

from django.urls import path

from console import skills_views, views

urlpatterns = [
    path("homologacao/", views.queue, name="queue"),
    path("homologacao/<uuid:code>/homologar/", views.homologate, name="homologate"),
    path("homologacao/<uuid:code>/devolver/", views.return_version, name="return-version"),
    path("console/", views.console, name="console"),
    path("console/pendencias/", views.divergence_list, name="divergences"),
    path("console/pendencias/nova/", views.divergence_new, name="divergence-new"),
    path("console/pendencias/<uuid:code>/", views.divergence_detail, name="divergence"),
    path(
        "console/pendencias/<uuid:code>/resolver/",
        views.divergence_resolve,
        name="divergence-resolve",
    ),
    path(
        "console/pendencias/<uuid:code>/corrigir/",
        views.divergence_correct,
        name="divergence-correct",
    ),
    path("console/decisoes/", views.decision_list, name="decisions"),
    path("console/decisoes/nova/", views.decision_new, name="decision-new"),
    path("console/decisoes/<uuid:code>/", views.decision_detail, name="decision"),
    path("console/decisoes/<uuid:code>/corrigir/", views.decision_correct, name="decision-correct"),
    path("console/correcoes/", views.correction_list, name="corrections"),
    path("console/fichas/<uuid:code>/corrigir/", views.sheet_correct, name="sheet-correct"),
    path("console/custo-de-pericias/", skills_views.skill_costs_page, name="skill-costs"),
    path(
        "console/custo-de-pericias/<uuid:code>/linhas/<int:position>/",
        skills_views.skill_cost_row_edit,
        name="skill-cost-row-edit",
    ),
    path(
        "console/catalogo-de-pericias/", skills_views.skill_catalogue_page, name="skill-catalogue"
    ),
    path(
        "console/catalogo-de-pericias/nova/",
        skills_views.skill_catalogue_add,
        name="skill-catalogue-add",
    ),
    path(
        "console/catalogo-de-pericias/<uuid:code>/",
        skills_views.skill_catalogue_edit,
        name="skill-catalogue-edit",
    ),
]
