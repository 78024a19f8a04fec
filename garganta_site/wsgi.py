"""WSGI entry point (gunicorn: ``garganta_site.wsgi:application``, see gunicorn.conf.py).

The URLconf — every view, the API's routers and their schemas — is loaded here, at import,
not on a worker's first request: with ``preload_app`` gunicorn's master imports this once,
so a worker forked to replace one that died or was recycled answers at once. Static files
are answered in front of Django (garganta_site.static_files), so its middleware chain runs
wholly sync.
"""

import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "garganta_site.settings")
from garganta_site import static_files  # noqa: E402 - after the settings module is named

application = static_files.wsgi(get_wsgi_application())
get_resolver().url_patterns  # noqa: B018 - imports every urls module, views and API included
