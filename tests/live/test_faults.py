"""Faults against the real server (gunicorn, 4 workers, a fresh database of this pass).

- The application killed in the middle of a write: a jogador saves a draft with 150 skill
  lines, alternating two contents (set A, set B) that differ in every line, the attributes
  and the notes; a poller waits until a write transaction is really open (PostgreSQL: a
  backend of the site's database in a transaction with a transaction id, from
  pg_stat_activity; SQLite: ``BEGIN IMMEDIATE`` without waiting says "database is locked")
  and SIGKILLs every gunicorn worker at once. 8 kills, then 8 more while 8 Mestre clients roll.
  After each kill: the draft is entirely set A or entirely set B, never a mix (and it is the
  set of the last answered save: the cut one was rolled back); every roll whose client got
  201 is stored once; the numbers run 1..N without a gap. Then the whole server (master too)
  is SIGKILLed and started again on the same database, the rolls whose clients got no answer
  are sent again with the same Idempotency-Key (each stored once) and the chain verifies.
- PostgreSQL restarted under load (PostgreSQL pass only, with GARGANTA_PG_RESTART, which
  scripts/test-postgres exports): while 16 clients roll, the cluster restarts. Every request
  gets an answer before its timeout: 201, or a JSON 503 that says to try again (no HTML error
  page, no dropped connection); requests succeed again within seconds of PostgreSQL being
  back (CONN_HEALTH_CHECKS); every 201 is stored; the failed ones sent again with their key
  are stored once; the chain verifies.
"""

from __future__ import annotations

import http.client
import itertools
import os
import subprocess
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import pytest

from tests.live.helpers import (
    assert_chain_intact,
    assert_gapless,
    post_roll,
    scene_id,
    stored_by_key,
)
from tests.live.server import POSTGRESQL, Response, running_site

KILLS = 8
LINES = 150
ROLLERS = 8
CLIENT_TIMEOUT = 10
# Ceilings only a hang reaches: every wait here waits for an event (a client going, a roll
# answered), never for a time, so a loaded machine is slower but not failing.
HANG_SECONDS = 120
# Around the restart: the load is on before it (this many answers) and the site has recovered
# after it (each client has this many rolls answered 201 that it sent after PostgreSQL was back).
ANSWERS_BEFORE = 16
SUCCESSES_AFTER = 3


def _wait_until(condition, what: str) -> None:
    deadline = time.monotonic() + HANG_SECONDS
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not in {HANG_SECONDS} s"
        time.sleep(0.02)


@pytest.fixture(scope="module")
def site():
    with running_site(workers=4, tokens=("mestre",)) as running:
        yield running


def _kill_mid_transaction(site, busy: threading.Event, *, wait: float = 15) -> bool:
    """Once ``busy`` is set, poll for an open write transaction of the site and SIGKILL the
    workers the moment one is seen. Returns True when the kill was inside a transaction; after
    ``wait`` seconds without one, kills anyway and returns False."""
    assert busy.wait(timeout=HANG_SECONDS), "the clients never got going"
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if site.writer_in_transaction():
            site.kill_workers()
            return True
    site.kill_workers()
    return False


def _settled(site) -> None:
    """No client is sending any more: wait until the killed worker's transaction is gone
    (PostgreSQL ends a backend's transaction when it sees its client's socket closed; SQLite's
    lock went with the process). The master has forked new workers meanwhile."""
    deadline = time.monotonic() + 15
    while site.writer_in_transaction():
        assert time.monotonic() < deadline, "a write transaction outlived its killed worker"
        time.sleep(0.01)


# --- a draft saved while the worker dies ------------------------------------------------------


def _content(which: str) -> dict:
    """Set A or set B: every line, the attributes and the notes say which."""
    level = 10 if which == "A" else 11
    return {
        "st": 13 if which == "A" else 14,
        "notes": f"conjunto {which}",
        "skills": [
            (f"Perícia {which}-{n:03d}", "dx", "A", level, Decimal("2.0")) for n in range(LINES)
        ],
    }


def _form(which: str) -> list[tuple[str, str]]:
    content = _content(which)
    fields = [
        ("st", str(content["st"])),
        ("dx", "12"),
        ("iq", "10"),
        ("ht", "12"),
        ("notes", content["notes"]),
        ("skills-TOTAL_FORMS", str(LINES)),
        ("skills-INITIAL_FORMS", "0"),
        ("skills-MIN_NUM_FORMS", "0"),
        ("skills-MAX_NUM_FORMS", "1000"),
    ]
    for index, (name, attribute, difficulty, level, points) in enumerate(content["skills"]):
        fields += [
            (f"skills-{index}-name", name),
            (f"skills-{index}-attribute", attribute),
            (f"skills-{index}-difficulty", difficulty),
            (f"skills-{index}-level", str(level)),
            (f"skills-{index}-points", str(points)),
        ]
    return fields


def _draft_state(site) -> str:
    """Which set the draft holds, "A" or "B"; fails on anything else (a mix, half the lines)."""
    rows = site.query(
        "SELECT v.id, v.st, v.notes FROM sheets_sheetversion v JOIN sheets_character c"
        " ON c.id = v.character_id WHERE c.name = %s AND v.status = 'draft'",
        ("Jurado de Gapheim",),
    )
    assert len(rows) == 1, rows
    version_id, st, notes = rows[0]
    skills = site.query(
        "SELECT name, level FROM sheets_skill WHERE version_id = %s ORDER BY name", (version_id,)
    )
    for which in ("A", "B"):
        content = _content(which)
        if (st, notes) == (content["st"], content["notes"]) and skills == [
            (name, level) for name, _a, _d, level, _p in content["skills"]
        ]:
            return which
    kinds = sorted({name.split(" ")[1][0] for name, _level in skills})
    raise AssertionError(
        f"half-saved draft: ST {st}, notes {notes!r}, {len(skills)} lines of sets {kinds}"
    )


def _kill_while_saving(site) -> tuple[int, int, int, dict[str, int]]:
    jurado = str(
        uuid.UUID(
            str(
                site.query(
                    "SELECT code FROM sheets_character WHERE name = %s", ("Jurado de Gapheim",)
                )[0][0]
            )
        )
    )
    url = f"/fichas/{jurado}/rascunho/"
    jogador = site.browser("jogador")
    status, _url, _page = jogador.post(url, {})  # a new draft, copied from version 1
    assert status == 200
    status, final, page = jogador.post(url, _form("A"))
    assert status == 200 and final.endswith(url), (status, final, page[:300])
    assert _draft_state(site) == "A"
    forms = {which: _form(which) for which in "AB"}
    confirmed = 0
    rolled_back = 0
    seen = {"A": 0, "B": 0}
    saves = 0
    last = "A"
    for round_ in range(KILLS):
        stop = threading.Event()
        busy = threading.Event()
        done: list[tuple[str, int, str]] = []
        sending: list[str] = []
        # The kill lands in the 1st, 2nd or 3rd save of the round, so either set is cut short.
        armed_at = round_ % 3

        order = "BA" if last == "A" else "AB"

        def saver(stop=stop, busy=busy, done=done, sending=sending, armed_at=armed_at, order=order):
            for which in itertools.cycle(order):
                if stop.is_set():
                    return
                sending.append(which)
                if len(done) >= armed_at:
                    busy.set()
                try:
                    status, where, _page = jogador.post(url, forms[which], follow=False)
                except (OSError, http.client.HTTPException):
                    return  # the worker died under this request
                done.append((which, status, where))

        thread = threading.Thread(target=saver)
        thread.start()
        confirmed += _kill_mid_transaction(site, busy)
        stop.set()
        thread.join(timeout=60)
        assert not thread.is_alive()
        # Saved: the page sends the jogador back to the draft ("Rascunho salvo.").
        assert all(s == 302 and w.endswith(url) for _w, s, w in done), done[:3]
        saves += len(done)
        _settled(site)
        state = _draft_state(site)  # fails on a mix of the two sets
        seen[state] += 1
        before = done[-1][0] if done else last
        # The save cut short was rolled back: the draft is what the last answered save wrote
        # (or the cut one, when its COMMIT had reached the database just before the kill).
        assert state in {before, sending[-1]}, (state, before, sending)
        rolled_back += state == before
        last = state
    return confirmed, rolled_back, saves, seen


# --- rolls while the worker dies --------------------------------------------------------------


def _kill_while_rolling(site, scene: str) -> tuple[int, set[str], set[str]]:
    answered: set[str] = set()  # keys whose client got 201
    unanswered: set[str] = set()  # keys whose request died with the worker
    confirmed = 0
    for round_ in range(KILLS):
        stop = threading.Event()
        busy = threading.Event()

        def roller(number, stop=stop, busy=busy, round_=round_):
            got, lost = set(), set()
            for index in itertools.count():
                if stop.is_set():
                    break
                key = f"fault-{round_}-{number}-{index}-{uuid.uuid4().hex[:6]}"
                answer = post_roll(site, scene, key, timeout=30)
                if isinstance(answer, Response):
                    assert answer.status == 201, (answer.status, answer.text[:300])
                    got.add(key)
                    busy.set()  # a roll answered: the kill may come now
                else:
                    lost.add(key)
            return got, lost

        with ThreadPoolExecutor(ROLLERS) as pool:
            futures = [pool.submit(roller, n) for n in range(ROLLERS)]
            # Some rolls are answered first, then a kill lands in the middle of one.
            confirmed += _kill_mid_transaction(site, busy)
            stop.set()
            for future in futures:
                got, lost = future.result(timeout=120)
                answered |= got
                unanswered |= lost
        _settled(site)
        stored = stored_by_key(site)
        missing = [key for key in answered if key not in stored]
        assert not missing, f"rolls answered 201 but not stored: {missing[:5]}"
        assert all(len(rolls) == 1 for rolls in stored.values())
        assert_gapless(site)
    return confirmed, answered, unanswered


def test_workers_killed_mid_save_and_mid_roll(site):
    confirmed_saves, rolled_back, saves, seen = _kill_while_saving(site)
    scene = scene_id(site)
    confirmed_rolls, answered, unanswered = _kill_while_rolling(site, scene)
    assert answered, "no roll was answered between the kills"
    # And the whole server, master included, SIGKILLed and started again on the same database.
    site.restart()

    # The requests that died with a worker, sent again with the same key: each stored once.
    for key in unanswered:
        answer = post_roll(site, scene, key)
        assert isinstance(answer, Response) and answer.status == 201, answer
    stored = stored_by_key(site)
    assert set(answered | unanswered) <= set(stored)
    assert all(len(rolls) == 1 for rolls in stored.values())
    total = assert_gapless(site)
    assert total == len(stored)
    assert_chain_intact(site, total)
    # The poller really saw the transactions open: nearly every kill was inside one.
    assert confirmed_saves >= KILLS - 1 and confirmed_rolls >= KILLS - 1, (
        confirmed_saves,
        confirmed_rolls,
    )
    print(
        f"faults ({site.backend}): {KILLS} kills mid-save ({confirmed_saves} inside a "
        f"transaction, {rolled_back} rolled back; {saves} saves answered; draft whole as "
        f"set A {seen['A']}×, set B {seen['B']}×), {KILLS} kills mid-roll ({confirmed_rolls} inside a "
        f"transaction; {len(unanswered)} unanswered rolls re-sent, stored once), server "
        f"restarted, "
        f"0 half-saved, chain intact, {total} rolls"
    )


# --- PostgreSQL restarted under load ----------------------------------------------------------


RESTART = os.environ.get("GARGANTA_PG_RESTART", "")


@pytest.mark.serial  # it restarts the PostgreSQL every other test of the run is using
def test_postgresql_restarted_under_load(site):
    if site.backend != POSTGRESQL:
        pytest.skip("only in the PostgreSQL pass")
    if not RESTART:
        pytest.skip(
            "GARGANTA_PG_RESTART is not set (scripts/test-postgres exports it): "
            "no command to restart this PostgreSQL"
        )
    scene = scene_id(site)
    stop = threading.Event()
    outcomes: list[tuple[str, float, float, object]] = []  # key, sent, done, answer
    outcomes_by_client: list[tuple[int, float, float, Response]] = []  # client, sent, done, answer
    back = float("inf")
    lock = threading.Lock()

    def roller(number):
        for index in itertools.count():
            if stop.is_set():
                return
            key = f"restart-{number}-{index}-{uuid.uuid4().hex[:6]}"
            sent = time.monotonic()
            answer = post_roll(site, scene, key, timeout=CLIENT_TIMEOUT)
            with lock:
                outcomes.append((key, sent, time.monotonic(), answer))
                if isinstance(answer, Response):
                    outcomes_by_client.append((number, sent, time.monotonic(), answer))
            if isinstance(answer, Response) and answer.status == 503:
                time.sleep(0.05)

    def recovered_everywhere() -> bool:
        with lock:
            after = [(n, a) for n, s, _d, a in outcomes_by_client if s >= back]
        return all(
            sum(1 for m, a in after if m == n and a.status == 201) >= SUCCESSES_AFTER
            for n in range(16)
        )

    with ThreadPoolExecutor(16) as pool:
        futures = [pool.submit(roller, n) for n in range(16)]
        _wait_until(lambda: len(outcomes) >= ANSWERS_BEFORE, "the clients never got going")
        restart_began = time.monotonic()
        done = subprocess.run(RESTART, shell=True, capture_output=True, text=True, timeout=120)
        back = time.monotonic()
        assert done.returncode == 0, done.stderr
        _wait_until(recovered_everywhere, "the site did not recover after the restart")
        stop.set()
        for future in futures:
            future.result(timeout=CLIENT_TIMEOUT * 3)

    dropped = [(k, a) for k, _s, _d, a in outcomes if not isinstance(a, Response)]
    assert not dropped, f"requests without an answer (hang or dropped): {dropped[:5]}"
    ok = [k for k, _s, _d, a in outcomes if a.status == 201]
    failed = [(k, a) for k, _s, _d, a in outcomes if a.status != 201]
    unclean = [
        (a.status, a.headers.get("content-type"), a.text[:200])
        for _k, a in failed
        if not (a.status == 503 and a.is_json and "detail" in a.json())
    ]
    assert not unclean, f"failures that are not a JSON 503: {unclean[:5]}"
    assert all(a.headers.get("retry-after") for _k, a in failed)
    assert failed, "no request met the restart: nothing was tested"
    # Recovered by itself: each client's last request, sent after PostgreSQL was back, succeeded.
    last = {n: a.status for n, _s, _d, a in sorted(outcomes_by_client, key=lambda o: o[1])}
    assert set(last.values()) == {201}, f"a client still failing after the restart: {last}"
    recovered = min(d for _k, s, d, a in outcomes if s >= back and a.status == 201) - back

    stored = stored_by_key(site)
    assert all(key in stored for key in ok), "a roll answered 201 is not stored"
    # A 503 whose COMMIT had reached the database is stored already; sent again, it is not
    # rolled twice.
    committed_anyway = sum(key in stored for key, _a in failed)
    for key, _answer in failed:
        again = post_roll(site, scene, key)
        assert isinstance(again, Response) and again.status == 201, again
    stored = stored_by_key(site)
    assert all(len(rolls) == 1 for rolls in stored.values())
    assert all(key in stored for key, _a in failed)
    total = assert_gapless(site)
    assert_chain_intact(site, total)
    print(
        f"postgresql restart ({site.backend}): 16 clients, {len(outcomes)} requests, restart "
        f"took {back - restart_began:.1f} s, {len(ok)} rolled, {len(failed)} answered 503 "
        f"JSON (0 hung, 0 HTML), first success {recovered:.2f} s after PostgreSQL was back, "
        f"{len(failed)} re-sent with their key ({committed_anyway} had been stored already) and "
        f"stored once, chain intact, {total} rolls"
    )
