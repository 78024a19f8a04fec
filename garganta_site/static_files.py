"""Static files served in front of Django, not inside its middleware chain.

ServeStatic's Django middleware is async-only: in a sync chain (WSGI) Django adapts every
request to async and back — a new thread per request — and in an async chain it is the one
piece that forces the chain's mode. Here the same files (the settings ServeStatic's middleware
reads: collectstatic's manifest in production, the finders under DEBUG) are looked up first, by
the server's own interface, and only a path under ``STATIC_URL`` is looked up at all:

- :func:`asgi` wraps an ASGI application (garganta_site.asgi);
- :func:`wsgi` wraps a WSGI application (garganta_site.wsgi).
"""

from __future__ import annotations

from django.conf import settings
from servestatic.asgi import FileServerASGI
from servestatic.middleware import ServeStaticMiddleware
from servestatic.utils import decode_path_info, run_async_in_thread
from servestatic.wsgi import FileServerWSGI


async def _not_called(request):  # ServeStaticMiddleware demands an async get_response
    raise AssertionError("the static files' lookup never answers a request itself")


def _files() -> ServeStaticMiddleware:
    """ServeStatic configured from Django's settings, used only to find files."""
    return ServeStaticMiddleware(_not_called)


def _prefix() -> str:
    return "/" + settings.STATIC_URL.lstrip("/")


def asgi(application):
    """``application`` (ASGI) with the static files answered before it."""
    files, prefix = _files(), _prefix()

    async def static_then(scope, receive, send):
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if path.startswith(prefix):
            path = decode_path_info(path)
            if files.autorefresh:  # DEBUG: a file saved since the start is found too
                found = await run_async_in_thread(files.find_file, path)
            else:
                found = files.files.get(path)
            if found is not None:
                return await FileServerASGI(found)(scope, receive, send)
        return await application(scope, receive, send)

    return static_then


def wsgi(application):
    """``application`` (WSGI) with the static files answered before it."""
    files, prefix = _files(), _prefix()

    def static_then(environ, start_response):
        path = decode_path_info(environ.get("PATH_INFO", ""))
        if path.startswith(prefix):
            found = files.find_file(path) if files.autorefresh else files.files.get(path)
            if found is not None:
                return FileServerWSGI(found)(environ, start_response)
        return application(environ, start_response)

    return static_then
