"""Test settings: the real settings plus a fast password hasher."""

from garganta_site.settings import *  # noqa: F403

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
