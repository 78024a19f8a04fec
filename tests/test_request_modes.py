"""Each request runs in one mode (campaigns.django_asgi, garganta_site.static_files): every
middleware serves a sync chain and an async one without an adapter, a sync view's request
under ASGI starts no thread once its worker's pool is warm, and the PostgreSQL connections of
a worker come from a pool sized from its threads (settings.py)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from asgiref.sync import iscoroutinefunction, sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.test import RequestFactory
from django.utils.module_loading import import_string

from campaigns.django_asgi import DjangoByViewMode
from campaigns.http import DRY_RUN_HEADER, dry_run_requests

ROOT = Path(__file__).resolve().parents[1]
# The project's own middlewares: those whose module sits in the project's apps (the others
# come from Django and the libraries).
PROJECT_MIDDLEWARE = [name for name in settings.MIDDLEWARE if (ROOT / name.split(".")[0]).is_dir()]


@pytest.mark.parametrize("name", settings.MIDDLEWARE)
def test_every_middleware_serves_a_sync_and_an_async_chain(name):
    middleware = import_string(name)
    assert getattr(middleware, "sync_capable", True), name
    assert getattr(middleware, "async_capable", False), name


@pytest.mark.parametrize("name", PROJECT_MIDDLEWARE)
def test_the_projects_middlewares_are_coroutines_in_an_async_chain(name):
    async def get_response(request):
        return HttpResponse()

    def get_response_sync(request):
        return HttpResponse()

    factory = import_string(name)
    assert iscoroutinefunction(factory(get_response))
    assert not iscoroutinefunction(factory(get_response_sync))


def _asgi_get(application, path: str) -> int:
    """One GET of ``path`` through the ASGI ``application``; the status it answered."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1")],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    asyncio.run(application(scope, receive, send))
    return sent[0]["status"]


@pytest.mark.django_db(transaction=True)
def test_a_sync_view_under_asgi_starts_no_thread_once_the_pool_is_warm(monkeypatch):
    application = DjangoByViewMode(threads=1)
    assert _asgi_get(application, "/entrar/") == 200  # the pool's one thread starts here
    started = []
    real_start = threading.Thread.start
    monkeypatch.setattr(
        threading.Thread, "start", lambda self: started.append(self.name) or real_start(self)
    )
    statuses = {_asgi_get(application, "/entrar/") for _ in range(20)}
    assert statuses == {200}
    assert started == []


@pytest.mark.django_db(transaction=True)
def test_a_trial_on_the_async_chain_is_rolled_back_whole():
    """dry_run_requests' async path opens the transaction in the thread where the (sync) view
    then writes: the row the view made is gone, the answer says it was a trial."""
    users = get_user_model().objects

    async def view(request):
        await sync_to_async(users.create, thread_sensitive=True)(username="provisorio")
        return HttpResponse(status=201)

    middleware = dry_run_requests(view)
    request = RequestFactory().post("/api/v1/trial", headers={DRY_RUN_HEADER: "1"})
    response = asyncio.run(middleware(request))
    assert response.status_code == 201 and response[DRY_RUN_HEADER] == "1"
    assert not users.filter(username="provisorio").exists()


def _database_settings(**env: str) -> dict:
    """The default database's settings as garganta_site.settings reads them from ``env``."""
    code = (
        "import json; from garganta_site import settings as s;"
        "d = s.DATABASES['default'];"
        "print(json.dumps({'max_age': d['CONN_MAX_AGE'], 'pool': d.get('OPTIONS', {}).get('pool')}))"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("GARGANTA_", "DATABASE_"))}
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


POSTGRES = "postgres://garganta@127.0.0.1:5432/garganta"


def test_postgresql_connections_come_from_a_pool_sized_from_the_threads():
    assert _database_settings(DATABASE_URL=POSTGRES, GARGANTA_THREADS="3") == {
        "max_age": 0,
        "pool": {"min_size": 1, "max_size": 5, "timeout": 10},
    }
    told = _database_settings(DATABASE_URL=POSTGRES, GARGANTA_DB_POOL_MAX="12")
    assert told["pool"]["max_size"] == 12


def test_without_the_pool_or_on_sqlite_connections_are_kept_per_thread():
    assert _database_settings(DATABASE_URL=POSTGRES, GARGANTA_DB_POOL="0") == {
        "max_age": 60,
        "pool": None,
    }
    assert _database_settings(DATABASE_URL="sqlite:///var/unused.sqlite3")["pool"] is None
