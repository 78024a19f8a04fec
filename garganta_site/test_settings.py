"""Test settings: the real settings plus a fast password hasher."""

import os
from urllib.parse import urlsplit, urlunsplit

# make test's PostgreSQL pass gives its xdist workers one Redis: each worker takes a database
# of its own (1, 2, …), since every test starts with cache.clear() — FLUSHDB — and counts
# failed tokens per address (tests/conftest.py). REDIS_URL itself changes, so what reads it
# (the settings, the cache tests, a server a test starts) agrees.
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if os.environ.get("REDIS_URL") and _worker.startswith("gw"):
    _parts = urlsplit(os.environ["REDIS_URL"])
    os.environ["REDIS_URL"] = urlunsplit(_parts._replace(path=f"/{1 + int(_worker[2:])}"))

from garganta_site.settings import *  # noqa: E402, F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Tests: logs to stderr, so a test's standard output is only what it prints (the one-line
# summaries tests/conftest.py shows at the end of a run); axes' per-login INFO lines are noise.
LOGGING = {
    **LOGGING,  # noqa: F405
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": "plain",
        }
    },
    "loggers": {"axes": {"level": "WARNING"}, "httpx2": {"level": "WARNING"}},
}

# Tests run requests in worker threads (the ASGI app, the MCP tools, the event streams): each
# closes its connection when it ends, so none is still open when the test database is dropped.
DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405
# In-process tests open and drop the test database with connections of their own: no pool (the
# live tests' servers run the production settings, pool included).
DATABASES["default"].get("OPTIONS", {}).pop("pool", None)  # noqa: F405
