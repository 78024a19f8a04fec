"""The benchmark's fixed floors (bench/run.py), mounted only when ``GARGANTA_BENCH_ANCHORS`` is
on — never in production, never in the tests:

- ``/bench/vista/``: a bare Django view (a constant text); the benchmark also asks it of a
  handler with no middleware at all;
- ``/api/bench/ninja``: a bare django-ninja endpoint (a constant JSON object, no auth), on an
  API of its own, through the site's middleware chain as every API call;
- ``/bench/membro/`` and ``/api/bench/ninja-auth``: the same two behind the site's own
  authentication (a logged-in session; the API's bearer token, ``campaigns.auth.AUTH``): what
  any page or API call of a member pays before it reads a row of the game.

Every other figure of the benchmark is read against these two, which no change to the site's
pages, services or API can make slower or faster.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.urls import path
from ninja import NinjaAPI

from campaigns.auth import AUTH

bare_api = NinjaAPI(urls_namespace="bench", docs_url=None, openapi_url=None)


@bare_api.get("/ninja")
def bare_endpoint(request) -> dict:
    return {"ok": True}


@bare_api.get("/ninja-auth", auth=AUTH)
def bare_authenticated_endpoint(request) -> dict:
    return {"ok": True}


def bare_view(request) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


@login_required
def bare_member_view(request) -> HttpResponse:
    return HttpResponse(request.user.get_username(), content_type="text/plain")


urlpatterns = [
    path("bench/vista/", bare_view),
    path("bench/membro/", bare_member_view),
    path("api/bench/", bare_api.urls),
]
