"""The table's pages: each capability's own URLs, under one app."""

from django.urls import include, path

urlpatterns = [
    path("", include("sessions.combat.urls")),
    path("", include("sessions.procedure.urls")),
    path("", include("sessions.exploration.urls")),
    path("", include("sessions.log.urls")),
    path("", include("sessions.weeks.urls")),
]
