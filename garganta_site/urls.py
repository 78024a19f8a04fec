"""URLs: the pages of each app, the login, the admin and the API under /api/v1/."""

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from garganta_site.api import api, page_not_found, server_error

urlpatterns = [
    # First: Django tries the patterns in order, and the pages' includes have no prefix, so an
    # API call walked every page's pattern before its own (a third of the odds' resolving).
    path("api/v1/", api.urls),
    path("", include("sheets.urls")),
    path("", include("sessions.urls")),
    path("", include("console.urls")),
    path("regras/", include("rules.urls")),
    path(
        "entrar/",
        auth_views.LoginView.as_view(template_name="login.html", redirect_authenticated_user=True),
        name="login",
    ),
    path("sair/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
]

if settings.GARGANTA_BENCH_ANCHORS:  # the benchmark's floors (bench/run.py), off in production
    from garganta_site.bench_anchors import urlpatterns as bench_anchors

    urlpatterns = bench_anchors + urlpatterns  # first: a floor resolves in one step

handler404 = page_not_found
handler500 = server_error
