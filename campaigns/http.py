"""What every page shares about its requests: the request type of the site's views (Django's
request with django-htmx's ``htmx``), the one answer to a form posted from a region, and the
answer to an htmx request whose session lapsed."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from asgiref.sync import async_to_sync, iscoroutinefunction, sync_to_async
from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django.utils.decorators import sync_and_async_middleware
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


@sync_and_async_middleware
def lapsed_session_redirect(get_response: Callable) -> Callable:
    """Middleware, after django-htmx's: an htmx request whose answer is the redirect to the
    login (a session that lapsed in another tab) gets ``HX-Redirect`` to the login instead, with
    ``?next=`` the page the user was on (``HX-Current-URL``), so the whole page goes to the
    login and comes back there — not a login form swapped into a panel. Sync and async alike."""
    if iscoroutinefunction(get_response):

        async def async_middleware(request: HtmxHttpRequest) -> HttpResponse:
            return _login_redirect(request, await get_response(request))

        return async_middleware

    def middleware(request: HtmxHttpRequest) -> HttpResponse:
        return _login_redirect(request, get_response(request))

    return middleware


def _login_redirect(request: HtmxHttpRequest, response: HttpResponse) -> HttpResponse:
    if not (getattr(request, "htmx", False) and response.status_code == 302):
        return response
    login_url = resolve_url(settings.LOGIN_URL)
    if not response["Location"].startswith(login_url):
        return response
    back = request.htmx.current_url_abs_path or request.get_full_path()
    return HttpResponseClientRedirect(f"{login_url}?{urlencode({'next': back})}")


DRY_RUN_HEADER = "X-Dry-Run"


def _is_dry_run(request: HttpRequest) -> bool:
    return request.headers.get(DRY_RUN_HEADER) == "1" and request.path.startswith("/api/")


@sync_and_async_middleware
def dry_run_requests(get_response: Callable) -> Callable:
    """Middleware: an API request with ``X-Dry-Run: 1`` runs whole — the same checks, the same
    answer, the same refusal — inside a transaction that is then rolled back, so nothing it
    would write is kept (no row, no roll, no spent Idempotency-Key, no doorbell: pg_notify is
    transactional). The MCP tools that make several API calls try each one this way first, so
    a refusal on the third leaves nothing of the first two behind.

    Sync and async alike: a request that is not a trial passes through without a thread hop;
    an async trial opens its transaction in the request's one thread for sync code (where
    Django runs the sync view after it), so the view's writes are inside it."""
    if iscoroutinefunction(get_response):

        async def async_middleware(request: HttpRequest) -> HttpResponse:
            if not _is_dry_run(request):
                return await get_response(request)
            respond = async_to_sync(get_response)
            return await sync_to_async(_rolled_back, thread_sensitive=True)(respond, request)

        return async_middleware

    def middleware(request: HttpRequest) -> HttpResponse:
        if not _is_dry_run(request):
            return get_response(request)
        return _rolled_back(get_response, request)

    return middleware


def _rolled_back(get_response: Callable, request: HttpRequest) -> HttpResponse:
    with transaction.atomic():
        response = get_response(request)
        transaction.set_rollback(True)
    response[DRY_RUN_HEADER] = "1"
    return response
