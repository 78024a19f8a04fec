"""Two app servers on one PostgreSQL, as on two machines behind one proxy (gunicorn with uvicorn
workers, each on its own port; campaigns.doorbell carries live updates between them):

- rolls sent to both at once interleave into one gapless chain;
- a roll on one rings the doorbell of a scene page held open on the other, within a second;
- the workers of one killed while both take rolls: every roll re-sent with its key is stored
  once, the chain intact.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.live.helpers import assert_chain_intact, assert_gapless, post_roll, scene_id
from tests.live.server import POSTGRESQL, running_site

CLIENTS_PER_SERVER = 6
ROLLS_PER_CLIENT = 10


@pytest.fixture(scope="module")
def servers():
    with running_site(workers=2, tokens=("mestre",)) as first:
        if first.backend != POSTGRESQL:
            pytest.skip("two app servers share one PostgreSQL (the PostgreSQL pass)")
        with first.twin() as second:
            yield first, second


def _roll_until_stored(site, scene, key, other=None) -> object:
    """Send one roll, again with the same key until it is answered (on ``other`` when this
    server does not answer)."""
    for attempt in range(40):
        target = site if other is None or attempt % 2 == 0 else other
        answer = post_roll(target, scene, key, timeout=5)
        if not isinstance(answer, Exception) and answer.status in (200, 201):
            return answer
        time.sleep(0.1)
    raise AssertionError(f"{key}: never stored")


def test_rolls_on_both_servers_make_one_gapless_chain(servers):
    first, second = servers
    scene = scene_id(first)
    before = assert_gapless(first)

    def client(site, number):
        return [
            _roll_until_stored(site, scene, f"two-{site.port}-{number}-{i}")
            for i in range(ROLLS_PER_CLIENT)
        ]

    with ThreadPoolExecutor(2 * CLIENTS_PER_SERVER) as pool:
        jobs = [pool.submit(client, site, n) for site in servers for n in range(CLIENTS_PER_SERVER)]
        answers = [a for job in jobs for a in job.result()]
    sent = 2 * CLIENTS_PER_SERVER * ROLLS_PER_CLIENT
    count = assert_gapless(first)
    assert count == before + sent
    served_by = {a.json()["sequence"] for a in answers}
    assert len(served_by) == sent
    assert_chain_intact(second, count)
    print(
        f"two servers ({first.backend}): {sent} rolls from {2 * CLIENTS_PER_SERVER} clients, "
        f"sequence 1..{count} without gaps, chain intact"
    )


def test_a_roll_on_one_server_rings_a_page_held_on_the_other(servers):
    first, second = servers
    scene = scene_id(first)
    browser = second.browser("jogador")
    stream = second.events(browser, f"/cenas/{scene}/eventos/", timeout=10)
    delays = []
    try:
        time.sleep(0.5)  # the stream's LISTEN is up
        for n in range(5):
            sent = time.monotonic()
            answer = post_roll(first, scene, f"ring-{n}")
            assert answer.status == 201, answer
            event, data = stream.next_event()
            delays.append(time.monotonic() - sent)
            assert event == "log" and data
    finally:
        stream.close()
    assert max(delays) < 1.0, delays
    print(
        f"doorbell across servers ({first.backend}): {len(delays)} rolls on one, each heard "
        f"on the other in at most {max(delays) * 1000:.0f} ms"
    )


def test_killing_one_servers_workers_loses_nothing(servers):
    first, second = servers
    scene = scene_id(first)
    before = assert_gapless(first)
    keys = [f"kill-{i}" for i in range(40)]
    with ThreadPoolExecutor(8) as pool:
        jobs = [pool.submit(_roll_until_stored, first, scene, k, second) for k in keys]
        time.sleep(0.3)
        killed = first.kill_workers()
        for job in jobs:
            job.result()
    first.wait_ready()
    count = assert_gapless(second)
    assert count == before + len(keys)
    assert_chain_intact(first, count)
    print(
        f"one server's {len(killed)} workers killed under load ({first.backend}): "
        f"{len(keys)} rolls stored once each (re-sent to either server), chain intact"
    )
