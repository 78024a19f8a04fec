"""gunicorn's configuration for `make serve`: the production server, behind a TLS proxy.

The site is served as ASGI (garganta_site.asgi: the pages, the API, /mcp), gunicorn managing
uvicorn workers — Django's documented way to run ASGI under gunicorn.

Read from the environment:

- ``GARGANTA_BIND``: where to listen (default ``127.0.0.1:8000``; the proxy in front talks to it);
- ``WEB_CONCURRENCY``: how many worker processes (default 2 × cores + 1).
"""

import multiprocessing
import os

# gunicorn is the production server: without DJANGO_DEBUG it runs with DEBUG off (and so
# demands DJANGO_SECRET_KEY), even when started by hand rather than by `make serve`.
os.environ.setdefault("DJANGO_DEBUG", "0")

wsgi_app = "garganta_site.asgi:application"
worker_class = "uvicorn_worker.UvicornWorker"

bind = [
    address.strip()
    for address in os.environ.get("GARGANTA_BIND", "127.0.0.1:8000").split(",")
    if address.strip()
]
workers = int(os.environ.get("WEB_CONCURRENCY") or multiprocessing.cpu_count() * 2 + 1)

# A request that takes longer than this is a stuck worker: gunicorn kills and replaces it.
timeout = 30
# On SIGTERM or a restart (SIGHUP), a worker finishes the requests it holds for this long.
graceful_timeout = 30
keepalive = 5

# Each worker is replaced after about this many requests, so a slow leak never builds up; the
# jitter keeps the workers from all restarting at the same moment.
max_requests = 1000
max_requests_jitter = 100
# The master imports the site once (garganta_site/asgi.py loads the URLconf too) and forks
# the workers from it: a recycled or crashed worker is back at once. No database connection
# is opened at import, so none is shared across the fork.
preload_app = True

# Logs: one access line per request on stdout, everything else on stderr (the service manager
# or `docker logs` collects both). Django's own logging also goes to stdout (settings.LOGGING).
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
access_log_format = '%(h)s %({x-forwarded-for}i)s "%(r)s" %(s)s %(b)s %(M)sms "%(a)s"'
capture_output = False

proc_name = "garganta"

# gunicorn ≥ 25 opens a control socket at one fixed path per user, which a second gunicorn on
# the same machine (a test, a staging copy) would take over. Signals are the control here:
# HUP reloads the workers gracefully, TERM stops them gracefully.
control_socket_disable = True
