"""The benchmark's fixed floors (bench/run.py), mounted only when ``GARGANTA_BENCH_ANCHORS`` is
on — never in production, never in the tests:

- ``/bench/vista/``: a bare Django view (a constant text); the benchmark also asks it of a
  handler with no middleware at all;
- ``/api/bench/ninja``: a bare django-ninja endpoint (a constant JSON object, no auth), on an
  API of its own, through the site's middleware chain as every API call.

Every other figure of the benchmark is read against these two, which no change to the site's
pages, services or API can make slower or faster.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.urls import path
from ninja import NinjaAPI

bare_api = NinjaAPI(urls_namespace="bench", docs_url=None, openapi_url=None)


@bare_api.get("/ninja")
def bare_endpoint(request) -> dict:
    return {"ok": True}


def bare_view(request) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("bench/vista/", bare_view),
    path("api/bench/", bare_api.urls),
]
