"""ASGI entry point: what `make run` (uvicorn) and `make serve` (gunicorn with uvicorn workers,
see gunicorn.conf.py) serve, on one host and port:

- ``/mcp`` and its protected-resource metadata (``/.well-known/oauth-protected-resource/…``):
  the MCP server of garganta_site.mcp;
- ``/static/``: the static files, answered by ServeStatic in front of Django
  (garganta_site.static_files);
- everything else: Django (pages, ``/api/v1/``).

The lifespan runs the MCP SDK's session manager (Django's ASGI handler has none of its own).
The URLconf is loaded at import, as in garganta_site.wsgi, so a fresh worker answers at once.
"""

import os

import django
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "garganta_site.settings")
django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application does
get_resolver().url_patterns  # noqa: B018 - imports every urls module, views and API included

from campaigns.django_asgi import DjangoByViewMode  # noqa: E402
from garganta_site import static_files  # noqa: E402 - after Django is set up

# Each request in its view's one mode: sync views whole in a thread, async ones on the loop.
django_application = DjangoByViewMode()

from starlette.applications import Starlette  # noqa: E402 - after Django is set up
from starlette.routing import Mount, Route  # noqa: E402

from garganta_site import mcp  # noqa: E402


def build_application(server: mcp.GargantaMCP) -> Starlette:
    """Django and the MCP ``server`` on one address. The lifespan runs the server's session
    manager (once per application: a test builds its own server and application)."""
    mcp_application = mcp.throttled_bearers(mcp.streamable_http_app(server))
    return Starlette(
        routes=[
            Route("/mcp", endpoint=mcp_application),
            Route("/.well-known/oauth-protected-resource{rest:path}", endpoint=mcp_application),
            Mount("/", app=static_files.asgi(django_application)),
        ],
        lifespan=lambda app: server.session_manager.run(),
    )


application = build_application(mcp.server)
