"""Browser tests: Debian's chromium driven by Playwright against pytest-django's live server.

Everything in this folder is marked ``browser`` (``pytest -m "not browser"`` leaves them out).
The demo campaign of ``garganta_site.demo`` is seeded, committed, for every test, so the live
server's threads see it. Screenshots go to /tmp/garganta-shots/ only when the environment
variable GARGANTA_SCREENSHOTS is set.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

# Playwright's sync API runs an asyncio event loop in the test's thread; Django refuses
# database calls from a thread with a running loop unless told that this is on purpose.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

# Debian's chromium; GARGANTA_CHROMIUM points elsewhere (Playwright never downloads a browser here).
CHROMIUM = Path(os.environ.get("GARGANTA_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 900}
# Every wait in the browser tests waits for what it needs (an element, a text, a request);
# these ceilings are only reached by a hang, never by a slow or loaded machine.
HANG_MS = 60_000
SHOTS_DIR = Path("/tmp/garganta-shots")
PASSWORD = "garganta"
HERE = Path(__file__).parent


def pytest_collection_modifyitems(config, items):
    """Mark the browser tests, and run them last: Playwright's sync API keeps an event loop
    running in the main thread for as long as the session's chromium lives, and the tests that
    run their own loop (tests/mcp) or cross into async code (Django's adapter for ServeStatic's
    async middleware) cannot start one beside it."""
    browser = []
    for item in items:
        if HERE in Path(item.path).parents:
            item.add_marker(pytest.mark.browser)
            browser.append(item)
    items[:] = [item for item in items if item not in browser] + browser


@pytest.fixture(scope="session")
def chromium_browser():
    """One headless chromium for the whole run; skipped cleanly where there is none."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not found: install Debian's chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(autouse=True)
def _fallback_poll_every_2_s(settings):
    """The live server is WSGI: no event stream (sessions.log.live answers "retry later"), so
    the pages' fallback poll carries every live update — every 2 s here (as the panels polled
    before the stream), not 30 s.
    tests/browser/test_scene_live.py runs the real ASGI server for the stream itself."""
    settings.GARGANTA_FALLBACK_POLL_SECONDS = 2


class _RequestsInFlight:
    """Counts the live server's requests between Django's request_started and request_finished,
    so a test's end can wait for the last one: the database is flushed (a TRUNCATE on
    PostgreSQL) right after the test, and a request still reading would deadlock against it."""

    def __init__(self):
        self.count = 0
        self.idle = threading.Condition()

    def started(self, **kwargs):
        with self.idle:
            self.count += 1

    def finished(self, **kwargs):
        with self.idle:
            self.count -= 1
            self.idle.notify_all()

    def wait(self):
        with self.idle:
            if not self.idle.wait_for(lambda: self.count <= 0, timeout=HANG_MS / 1000):
                raise AssertionError(f"{self.count} request(s) still running at the test's end")


@pytest.fixture
def site(live_server, transactional_db):
    """The live server with the demo campaign committed to its database; at the test's end it
    waits for the requests in flight before the database is flushed."""
    from django.core.signals import request_finished, request_started

    from garganta_site.demo import demo_seed

    in_flight = _RequestsInFlight()
    request_started.connect(in_flight.started, weak=False)
    request_finished.connect(in_flight.finished, weak=False)
    demo_seed()
    yield live_server
    try:
        in_flight.wait()
    finally:
        request_started.disconnect(in_flight.started)
        request_finished.disconnect(in_flight.finished)


@pytest.fixture
def new_page(chromium_browser, site):
    """``new_page()``: a page in a fresh browser context (its own cookies), 1280 wide.

    Contexts are closed before the database is flushed, so no poll hits an empty table (and
    ``site`` then waits for the requests already sent).
    """
    from playwright.sync_api import expect

    expect.set_options(timeout=HANG_MS)
    contexts = []

    def make():
        context = chromium_browser.new_context(base_url=site.url, viewport=VIEWPORT, locale="pt-BR")
        context.set_default_timeout(HANG_MS)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def login(page, username: str, password: str = PASSWORD) -> None:
    """Log in through /entrar/ and wait for the home page."""
    from playwright.sync_api import expect

    page.goto("/entrar/")
    page.locator('input[name="username"]').fill(username)
    page.locator('input[name="password"]').fill(password)
    page.get_by_role("button", name="Entrar", exact=True).click()
    page.wait_for_url(lambda url: "/entrar/" not in url)
    expect(page.locator("header .who")).to_contain_text(username)


def set_marker(page) -> None:
    """Mark the window: a full page load would lose the mark."""
    page.evaluate("window.__marker = 1")


def assert_not_reloaded(page) -> None:
    assert page.evaluate("window.__marker") == 1, "the page was reloaded"


def screenshot(page, name: str) -> Path | None:
    """A full-page PNG in /tmp/garganta-shots/, only when GARGANTA_SCREENSHOTS is set."""
    if not os.environ.get("GARGANTA_SCREENSHOTS"):
        return None
    SHOTS_DIR.mkdir(parents=True, exist_ok=True)
    path = SHOTS_DIR / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def accept_dialogs(page) -> None:
    """Say yes to every "Tem certeza?" dialog of this page (garganta_site/confirm.py);
    Playwright would otherwise dismiss it, and the action would not be sent."""
    page.on("dialog", lambda dialog: dialog.accept())
