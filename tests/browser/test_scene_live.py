"""The scene page's live log on the real server (gunicorn with uvicorn workers, as in
production, tests/live/server.py): a roll made through the API appears on an open page
without a reload — through the event stream (the log's tail asks on ``sse:log``), inserted at
the top rather than the log drawn again; with the stream cut, through the 30 s fallback poll
(the tail asks on its timer). Each test records what triggered each request of the log's tail,
so none depends on how fast the machine is. And "ver anteriores" appends the older entries in
place."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PASSWORD, VIEWPORT
from tests.live.helpers import post_roll, scene_id
from tests.live.server import running_site

SCENE = "A galeria do andar 3"
# The stream's open, and the event behind every request of the log's tail: "sse:log" when the
# stream rang, "poll" for the fallback's timer (htmx passes no triggering event for "every").
TRIGGERS_SCRIPT = """
window.__tail = [];
document.addEventListener('htmx:sseOpen', () => { window.__streaming = true; });
document.addEventListener('htmx:beforeRequest', (event) => {
  if (event.detail.elt.id !== 'log-tail') return;
  const cause = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
  window.__tail.push(cause ? cause.type : 'poll');
});
"""
# A ceiling only a hang reaches; the assertions say which door the entry came through.
HANG_MS = 90_000  # the fallback poll is 30 s on the real server


@pytest.fixture(scope="module")
def real_site():
    with running_site(workers=1, tokens=("mestre",)) as site:
        # A log with an entry already: new ones are inserted above it (an empty log's
        # "Nada ainda" is drawn again, whole, with its first entry).
        answer = site.request(
            "POST",
            f"/api/v1/scenes/{scene_id(site)}/narrations",
            {"text": "Começa."},
            user="mestre",
        )
        assert answer.status == 201, answer
        yield site


@pytest.fixture
def open_page(chromium_browser, real_site):
    contexts = []

    def make(username, *, cut_stream=False):
        context = chromium_browser.new_context(
            base_url=real_site.base_url, viewport=VIEWPORT, locale="pt-BR"
        )
        contexts.append(context)
        if cut_stream:
            context.route("**/eventos/", lambda route: route.abort())
        page = context.new_page()
        page.add_init_script(TRIGGERS_SCRIPT)
        page.goto("/entrar/")
        page.locator('input[name="username"]').fill(username)
        page.locator('input[name="password"]').fill(PASSWORD)
        page.get_by_role("button", name="Entrar", exact=True).click()
        page.wait_for_url(lambda url: "/entrar/" not in url)
        page.get_by_role("link", name=SCENE, exact=True).click()
        expect(page.get_by_role("heading", level=1)).to_have_text(SCENE)
        # Marks: a reload loses the window's; drawing the log again loses the region's.
        page.evaluate("window.__marker = 1; document.querySelector('#log').dataset.mark = '1'")
        return page

    yield make
    for context in contexts:
        context.close()


def _roll(site, label: str) -> None:
    answer = post_roll(site, scene_id(site), label)
    assert answer.status == 201, answer


def _assert_inserted(page) -> None:
    assert page.evaluate("window.__marker") == 1, "the page was reloaded"
    assert page.locator("#log[data-mark='1']").count() == 1, "the log was drawn again"


def test_a_roll_through_the_api_reaches_an_open_page_through_the_stream(open_page, real_site):
    page = open_page("rastreadora")
    # The page holds the scene's stream before anything is rolled.
    # (the stream takes its first token before it answers, so a roll after the open rings it).
    page.wait_for_function("window.__streaming === true")
    page.evaluate("window.__tail = []")
    _roll(real_site, "ao-vivo")
    entry = page.locator("#entries > li.entry.roll").first
    expect(entry).to_contain_text("Observação ao-vivo", timeout=HANG_MS)
    # The tail asked because the stream rang (the fallback's timer is 30 s away).
    assert "sse:log" in page.evaluate("window.__tail")
    _assert_inserted(page)


def test_with_the_stream_cut_the_page_still_updates_by_the_fallback(open_page, real_site):
    page = open_page("rastreadora", cut_stream=True)
    _roll(real_site, "sem-stream")
    entry = page.locator("#entries > li.entry.roll").first
    # Not through the stream (cut): the poll every 30 s brings it, and nothing else asked.
    expect(entry).to_contain_text("Observação sem-stream", timeout=HANG_MS)
    assert set(page.evaluate("window.__tail")) == {"poll"}
    assert page.evaluate("window.__streaming") is None
    _assert_inserted(page)


def test_ver_anteriores_appends_the_older_entries_in_place(open_page, real_site):
    code = scene_id(real_site)
    for n in range(55):
        answer = real_site.request(
            "POST", f"/api/v1/scenes/{code}/narrations", {"text": f"Antiga {n}."}, user="mestre"
        )
        assert answer.status == 201, answer
    page = open_page("rastreadora")
    entries = page.locator("#entries > li.entry")
    expect(entries).to_have_count(50)
    expect(entries.first).to_contain_text("Antiga 54.")
    page.get_by_role("link", name="Ver anteriores").click()
    expect(page.locator("#entries").get_by_text("Antiga 0.", exact=True)).to_be_visible()
    assert entries.count() > 50
    _assert_inserted(page)
