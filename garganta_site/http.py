"""What every page shares about its requests: the request type of the site's views (Django's
request with django-htmx's ``htmx``), the one answer to a form posted from a region, and the
answer to an htmx request whose session lapsed."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django_htmx.http import HttpResponseClientRedirect, trigger_client_event
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def region_response(
    request: HtmxHttpRequest,
    *,
    template: str,
    region: str,
    context: Callable[[], dict],
    redirect_to: str,
    failed: bool = False,
    htmx_failed_status: int = 422,
) -> HttpResponse:
    """The answer to a form posted from a region of a page (the scene's workspace, a tracker).

    With htmx: the region alone (``template#region``) — with its errors when ``failed``
    (``htmx_failed_status``; base.html lets htmx swap a 422), else with a ``log-changed`` event
    so the scene's log refreshes at once for the one who wrote. Without JavaScript: the whole
    page again with the errors (422), or a redirect to ``redirect_to`` when it worked.
    ``context`` is called only when something is drawn."""
    if request.htmx:
        status = htmx_failed_status if failed else 200
        response = render(request, f"{template}#{region}", context(), status=status)
        if not failed:
            trigger_client_event(response, "log-changed")
        return response
    if failed:
        return render(request, template, context(), status=422)
    return redirect(redirect_to)


def lapsed_session_redirect(get_response: Callable) -> Callable:
    """Middleware, after django-htmx's: an htmx request whose answer is the redirect to the
    login (a session that lapsed in another tab) gets ``HX-Redirect`` to the login instead, with
    ``?next=`` the page the user was on (``HX-Current-URL``), so the whole page goes to the
    login and comes back there — not a login form swapped into a panel."""

    def middleware(request: HtmxHttpRequest) -> HttpResponse:
        response = get_response(request)
        if not (getattr(request, "htmx", False) and response.status_code == 302):
            return response
        login_url = resolve_url(settings.LOGIN_URL)
        if not response["Location"].startswith(login_url):
            return response
        back = request.htmx.current_url_abs_path or request.get_full_path()
        return HttpResponseClientRedirect(f"{login_url}?{urlencode({'next': back})}")

    return middleware


DRY_RUN_HEADER = "X-Dry-Run"


def dry_run_requests(get_response: Callable) -> Callable:
    """Middleware: an API request with ``X-Dry-Run: 1`` runs whole — the same checks, the same
    answer, the same refusal — inside a transaction that is then rolled back, so nothing it
    would write is kept (no row, no roll, no spent Idempotency-Key, no doorbell: pg_notify is
    transactional). The MCP tools that make several API calls try each one this way first, so
    a refusal on the third leaves nothing of the first two behind."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if request.headers.get(DRY_RUN_HEADER) != "1" or not request.path.startswith("/api/"):
            return get_response(request)
        with transaction.atomic():
            response = get_response(request)
            transaction.set_rollback(True)
        response[DRY_RUN_HEADER] = "1"
        return response

    return middleware
