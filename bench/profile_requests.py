"""Profile of 200 trivial API requests (the odds of one level, a Bearer token), in process:
through Django's WSGI handler (the test client) and through the site's ASGI application (an
ASGI call per request on one event loop, as uvicorn makes it). Prints, for each, the wall
time, the calls to ``_thread.start_new_thread`` and the five costliest functions.

Usage: ``python bench/profile_requests.py`` (a throwaway SQLite database, var/profile.sqlite3).
Not a test; nothing here asserts.
"""

from __future__ import annotations

import asyncio
import cProfile
import io
import os
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "garganta_site.settings")
database = ROOT / "var" / "profile.sqlite3"
database.unlink(missing_ok=True)
os.environ["DATABASE_URL"] = f"sqlite:///{database}"
# As production runs: DEBUG off (no query log, ServeStatic's files read once at start).
os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("DJANGO_SECRET_KEY", "profile-only-not-secret")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from campaigns.auth import api_token_create  # noqa: E402
from garganta_site.demo import demo_seed  # noqa: E402

REQUESTS = 200
PATH, QUERY = "/api/v1/rules/odds", "level=12"


def thread_starts(stats: pstats.Stats) -> int:
    return sum(
        calls[1]
        for (_, _, name), calls in stats.stats.items()
        if name.endswith("start_new_thread>") or name == "start_new_thread"
    )


def report(label: str, profile: cProfile.Profile, seconds: float) -> None:
    stats = pstats.Stats(profile)
    print(
        f"{label}: {REQUESTS} requests in {seconds * 1000:.0f} ms "
        f"({seconds / REQUESTS * 1000:.2f} ms each, profiled); "
        f"_thread.start_new_thread: {thread_starts(stats)}"
    )
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(12)
    print("\n".join(out.getvalue().splitlines()[-16:]))


def wsgi(token: str) -> None:
    client = Client(HTTP_HOST="127.0.0.1", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert client.get(f"{PATH}?{QUERY}").status_code == 200
    profile = cProfile.Profile()
    start = time.perf_counter()
    profile.enable()
    for _ in range(REQUESTS):
        client.get(f"{PATH}?{QUERY}")
    profile.disable()
    report("WSGI (Django's test client)", profile, time.perf_counter() - start)


async def asgi_request(application, token: str) -> int:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": PATH,
        "raw_path": PATH.encode(),
        "root_path": "",
        "query_string": QUERY.encode(),
        "headers": [(b"host", b"127.0.0.1"), (b"authorization", f"Bearer {token}".encode())],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    sent: list[dict] = []
    received = False

    async def receive():
        nonlocal received
        if not received:
            received = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client never goes away

    async def send(message):
        sent.append(message)

    await application(scope, receive, send)
    return sent[0]["status"]


def asgi(token: str) -> None:
    from garganta_site.asgi import application

    async def run(profile: cProfile.Profile) -> float:
        assert await asgi_request(application, token) == 200
        start = time.perf_counter()
        profile.enable()
        for _ in range(REQUESTS):
            await asgi_request(application, token)
        profile.disable()
        return time.perf_counter() - start

    profile = cProfile.Profile()
    seconds = asyncio.run(run(profile))
    report("ASGI (garganta_site.asgi, one event loop)", profile, seconds)


def main() -> None:
    call_command("migrate", verbosity=0)
    demo_seed()
    token = api_token_create(user=get_user_model().objects.get(username="mestre"))
    which = sys.argv[1:] or ["wsgi", "asgi"]
    if "wsgi" in which:
        wsgi(token)
    if "asgi" in which:
        asgi(token)


if __name__ == "__main__":
    main()
