"""The rules pages, under /regras/ (mounted in garganta_site/urls.py)."""

from django.urls import path

urlpatterns = [
    path("", rules_views.rules_index, name="rules"),
    path("casa/", rules_views.house_rules, name="rules-house"),
    path("leituras/", rules_views.readings, name="rules-readings"),
    path("calculadora/", rules_views.calculator, name="rules-calculator"),
]
