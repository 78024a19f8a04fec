"""Django under ASGI, each request in its view's one mode: a sync view's request runs whole in
a worker thread, an async view's (the scene's event stream) whole on the event loop.

Django's own ASGI handler runs every request on the event loop and hops to a thread for each
piece of sync code: a new thread per request (asgiref's ThreadSensitiveContext), and a hop for
each of Django's middlewares (their process_request and process_response are sync), for the
request signals and for the sync view — a dozen hops and two thread starts for one trivial API
request, measured (bench/profile_requests.py). Almost every view of the site is sync (the ORM
is), so the hops bought nothing and cost a third to half of what the same code answers under
WSGI. Here:

- **sync view** (or no view: a 404): the body is read on the loop, then one hop to a thread of
  a fixed pool (``GARGANTA_THREADS`` a worker process), where Django's sync handler runs the
  request as WSGI would — the middleware chain in sync mode, the signals, the view, the
  response's ``close()`` (which returns the database connection) — and hands back the whole
  answer, which the loop sends;
- **async view**: Django's ASGI handler, its middleware chain in async mode (the project's
  middlewares are both: campaigns.http, campaigns.auth, campaigns.api_errors).

A streamed answer of a sync view (an export) is read whole in its thread, so its database
queries stay on the thread and connection that began them.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.urls import Resolver404, get_resolver, set_script_prefix


class _SyncHandler(ASGIHandler):
    """Django's ASGI request parsing with its sync middleware chain."""

    def __init__(self):  # noqa: D107 - BaseHandler's, in sync mode
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)


class DjangoByViewMode:
    """The ASGI application: see the module."""

    def __init__(self, threads: int | None = None):
        self.async_handler = ASGIHandler()
        self.sync_handler = _SyncHandler()
        threads = threads or settings.GARGANTA_THREADS
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="django")

    @staticmethod
    @lru_cache(maxsize=4096)
    def is_async(path: str) -> bool:
        """Whether the view of ``path`` is async (a path no view answers: sync). Kept per path
        (the URLconf is fixed once the worker runs): resolving cost a quarter of a trivial API
        request, and Django resolves the path again for the view itself."""
        try:
            match = get_resolver().resolve(path)
        except Resolver404:
            return False
        return iscoroutinefunction(match.func)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or self.is_async(scope["path"]):
            return await self.async_handler(scope, receive, send)
        try:
            body_file = await self.sync_handler.read_body(receive)
        except RequestAborted:  # the client went away before its body came
            return
        loop = asyncio.get_running_loop()
        try:
            status, headers, body = await loop.run_in_executor(
                self.pool, self._respond, scope, body_file
            )
        finally:
            body_file.close()
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    def _respond(self, scope, body_file) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """In a worker thread: the request whole, as Django's WSGI handler runs it."""
        handler = self.sync_handler
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=ASGIHandler, scope=scope)
        request, response = handler.create_request(scope, body_file)
        try:
            if request is not None:
                response = handler.get_response(request)
            body = b"".join(response) if response.streaming else response.content
            return response.status_code, _headers(response), body
        finally:
            response.close()  # request_finished: this thread's connection goes back


def _headers(response) -> list[tuple[bytes, bytes]]:
    """The response's headers and cookies as ASGI sends them (Django's send_response)."""
    headers = []
    for name, value in response.items():
        if isinstance(name, str):
            name = name.encode("ascii")
        if isinstance(value, str):
            value = value.encode("latin1")
        headers.append((bytes(name), bytes(value)))
    for cookie in response.cookies.values():
        headers.append((b"Set-Cookie", cookie.output(header="").encode("ascii").strip()))
    return headers
