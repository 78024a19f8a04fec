"""Settings for Garganta, read from the environment.

Every value comes through a small typed helper that fails loudly on a bad value.
SQLite under ``var/`` is the embedded default; ``DATABASE_URL`` points the same code at
PostgreSQL.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {raw!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [part.strip() for part in raw.split(",") if part.strip()]


DEBUG = env_bool("DJANGO_DEBUG", True)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")
    # Development only: a fixed key so sessions survive restarts of the demo site.
    SECRET_KEY = "garganta-dev-only-not-secret"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # ServeStatic's checks of its settings. Its files are served in front of Django, not by its
    # async-only middleware (garganta_site.static_files), so no request of the chain below
    # crosses between sync and async: each runs in its view's mode (campaigns.django_asgi).
    "servestatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "ninja",
    "campaigns",
    "sheets",
    "sessions.apps.MesaConfig",
    "canon",
    "console",
    "rules",
    # Last of the project's apps: it composes them (garganta_site.apps).
    "garganta_site",
    "axes",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Every refusal under /api/ in the API's JSON body (a 404 page, a 405 …).
    "campaigns.api_errors.api_error_bodies",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A lapsed session answers htmx with a whole-page redirect to the login, not a panel.
    "campaigns.http.lapsed_session_redirect",
    # An API request sent as a trial (X-Dry-Run: 1) is rolled back whole, its key with it.
    "campaigns.http.dry_run_requests",
    # An API request that was refused leaves its Idempotency-Key free for the corrected one.
    "campaigns.auth.release_refused_keys",
    # Last, as django-axes asks: it turns a locked-out login into its lockout response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "garganta_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # The site-wide templates, and each capability folder's own (sessions/<capability>/
        # templates/<capability>/…): a folder of one app is not an app, so Django's app loader
        # would not look there.
        "DIRS": [BASE_DIR / "templates", *sorted(BASE_DIR.glob("sessions/*/templates"))],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "garganta_site.context_processors.nav",
                "campaigns.confirm.confirmations",
            ],
        },
    },
]

WSGI_APPLICATION = "garganta_site.wsgi.application"


def env_int(name: str, default: int, *, minimum: int = 0) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        value = minimum - 1
    if value < minimum:
        raise ImproperlyConfigured(f"{name} must be a whole number ≥ {minimum}, not {raw!r}")
    return value


(BASE_DIR / "var").mkdir(exist_ok=True)
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'var' / 'garganta.sqlite3'}",
        conn_max_age=60,
    )
}
# A connection kept between requests is checked first, so a restarted PostgreSQL costs the
# requests that were in flight, not every request of every worker until CONN_MAX_AGE ends.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Requests of sync views a worker process runs at once, each in a thread of its own
# (campaigns.django_asgi): each holds one database connection while it runs. A request's
# work is mostly Python, one thread at a time in a process: the workers use the cores. One
# thread a worker, as gunicorn's sync workers run WSGI, measured best (bench/run.py, the
# ASGI ÷ WSGI table): with 2, the GIL's switches cost the reads a quarter of their rate on
# PostgreSQL, and SQLite's writers waited on each other's lock (rolls 0.75 of WSGI).
GARGANTA_THREADS = env_int("GARGANTA_THREADS", 1, minimum=1)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "GARGANTA_DB_POOL", True
):
    # PostgreSQL: each worker process keeps a pool of connections (psycopg's, built into
    # Django), lent to a request for its length and then taken back, so a worker holds at most
    # GARGANTA_DB_POOL_MAX connections however many requests come (Django asks CONN_MAX_AGE 0
    # with a pool). The default: one per thread of sync views, and two for the async views'
    # database calls (the event streams' change tokens). A request that finds the pool empty
    # waits GARGANTA_DB_POOL_TIMEOUT seconds for a connection, then is answered 503. The README
    # (Produção) sizes it against PostgreSQL's max_connections.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False  # the pool checks a connection it lends
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env_int("GARGANTA_DB_POOL_MIN", 1),
        "max_size": env_int("GARGANTA_DB_POOL_MAX", GARGANTA_THREADS + 2, minimum=1),
        "timeout": env_int("GARGANTA_DB_POOL_TIMEOUT", 10, minimum=1),
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            # Writers wait for each other instead of failing at once with "database is locked".
            "timeout": 20,
            # BEGIN IMMEDIATE: a transaction that will write takes the lock when it starts, so
            # two writers queue on the timeout instead of deadlocking on the read-to-write upgrade.
            "transaction_mode": "IMMEDIATE",
            # WAL: readers do not wait for the writer, and a killed process leaves no torn page.
            "init_command": "PRAGMA journal_mode=WAL;",
        }
    )

# The cache keeps what is computed again only when its inputs change (the sheet page's blocks
# and the sheets API's answer, by the sheet's fingerprint; a homologated version's facts). One
# process, one machine: local memory, each worker its own. More than one worker or machine:
# REDIS_URL (redis://host:6379/0) and they all share one Redis. django-axes keeps to the
# database either way. Sessions are written to the database either way; with a shared Redis
# they are read through it (Django's cached_db), which spares every logged-in request a query
# (bench/run.py measures both). Without Redis each worker's memory would keep its own copy, and
# a logout on one worker would not reach another's: so the database alone.
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("GARGANTA_CACHE_PREFIX", "garganta"),
        }
    }
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    SESSION_ENGINE = "django.contrib.sessions.backends.db"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    # django-axes first: it refuses a locked-out username/IP before the password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
# The lockout answer is a page of the site (pt-BR, status 429), not axes' English line.
AXES_LOCKOUT_TEMPLATE = "lockout.html"
# Failed bearer tokens, per client address (campaigns.auth.BearerFailures, with
# django-ninja's throttling): past this many in the window, 429 until the oldest ages out.
GARGANTA_BEARER_FAILURES = "20/10m"
# The client address ninja's throttling reads: REMOTE_ADDR (0 proxies) unless behind the
# proxy, then the last X-Forwarded-For item, the one our proxy appended (as axes does).
NINJA_NUM_PROXIES = 0
if env_bool("DJANGO_BEHIND_HTTPS_PROXY", False):
    NINJA_NUM_PROXIES = 1
    # Behind the proxy REMOTE_ADDR is the proxy's own address, so every login would share
    # one IP. axes reads the client address through django-ipware (the ``django-axes[ipware]``
    # extra): take it from X-Forwarded-For, trusting one hop only: the address our proxy
    # appended (the last one). Addresses a client wrote before it are not believed; a header
    # that is not a list of addresses falls back to REMOTE_ADDR.
    AXES_IPWARE_META_PRECEDENCE_ORDER = ("HTTP_X_FORWARDED_FOR", "REMOTE_ADDR")
    AXES_IPWARE_PROXY_ORDER = "left-most"
    AXES_IPWARE_PROXY_COUNT = 0
    IPWARE_STRICT = False

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "pt-br"
TIME_ZONE = "America/Sao_Paulo"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where `collectstatic` puts the files ServeStatic serves; DJANGO_STATIC_ROOT moves it.
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "var" / "staticfiles")
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # ServeStatic warns when it is missing
if not DEBUG:
    # Production: hashed, compressed files from `collectstatic`, cached forever by browsers.
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "servestatic.storage.CompressedManifestStaticFilesStorage"},
    }

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if env_bool("DJANGO_BEHIND_HTTPS_PROXY", False):
    # The proxy in front (nginx, caddy) ends TLS and says so in this header.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "3600"))
    # The site has a host name of its own (garganta.example): nothing under it speaks HTTP.
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", False)
# The HSTS preload list is a request to the browser makers that cannot be taken back quickly:
# the operator asks for it (DJANGO_HSTS_PRELOAD=1), the deploy check does not nag about it.
SILENCED_SYSTEM_CHECKS = ["security.W021"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "plain",
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    # An MCP tool's in-process API calls (campaigns.mcp_api) would log a line each; the
    # server's access log already has the /mcp request.
    "loggers": {"httpx2": {"level": "WARNING"}},
}

# The benchmark's fixed floors, a bare view and a bare API endpoint (garganta_site.bench_anchors):
# mounted only when bench/run.py turns this on, never in production.
GARGANTA_BENCH_ANCHORS = env_bool("GARGANTA_BENCH_ANCHORS", False)

# The site's public address: the MCP server names itself by it (garganta_site.mcp).
GARGANTA_SITE_URL = os.environ.get("GARGANTA_SITE_URL", "http://127.0.0.1:8000")

# A scene page hears changes through its event stream; when the stream drops (a proxy that
# buffers, a WSGI server) it asks every this-many seconds instead (sessions/log/live.py).
GARGANTA_FALLBACK_POLL_SECONDS = int(os.environ.get("GARGANTA_FALLBACK_POLL_SECONDS", "30"))
