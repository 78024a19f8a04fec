"""Benchmark: prints a table of figures. Not a test; nothing here asserts.

In-process figures (engine, pages, queries) run against a throwaway SQLite database
(var/bench.sqlite3). The load figures start the real server — gunicorn, 4 workers, through
tests/live/server.py — on a fresh SQLite database and, when ``DATABASE_URL`` names a
PostgreSQL server, on a fresh database there, and send rolls from 16 clients at once.
Usage: ``make bench`` (which starts a throwaway PostgreSQL for it, as ``make test`` does).
"""

from __future__ import annotations

import os
import resource
import secrets
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "garganta_site.settings")
POSTGRES_URL = os.environ.get("DATABASE_URL", "")
if not POSTGRES_URL.startswith("postgres"):
    POSTGRES_URL = ""
# ``--week``: the demo week through both doors, on a fresh database of its own (main runs it
# in a child process, as the week moves the campaign to its next week).
WEEK_MODE = "--week" in sys.argv
# ``--in-process``: only the figures measured inside this process (engine, pages against the fixed
# floors, combat, rolls), without the servers: a quick before/after of a change, side by side.
IN_PROCESS = "--in-process" in sys.argv
bench_db = ROOT / "var" / ("bench-week.sqlite3" if WEEK_MODE else "bench.sqlite3")
bench_db.unlink(missing_ok=True)
os.environ["DATABASE_URL"] = f"sqlite:///{bench_db}"
# The fixed floors (garganta_site.bench_anchors): a bare view and a bare API endpoint.
ANCHORS = {"GARGANTA_BENCH_ANCHORS": "1"}
os.environ.update(ANCHORS)

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.utils import timezone  # noqa: E402

from campaigns.auth import api_token_create  # noqa: E402
from garganta_site.demo import demo_seed  # noqa: E402
from gurps import checks, combat, derived, rulebook  # noqa: E402
from sessions.log.services import narration_create, roll_create, scene_create  # noqa: E402
from sessions.models import Scene, Week  # noqa: E402
from sheets.models import (  # noqa: E402
    Character,
    CharacterState,
    Item,
    Possession,
    SheetVersion,
    Skill,
)

ROWS: list[tuple[str, str]] = []


def row(name: str, value: str) -> None:
    ROWS.append((name, value))


def timed(fn, n: int) -> list[float]:
    samples = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return samples


def ms(samples: list[float], q: float = 0.5) -> str:
    ordered = sorted(samples)
    return f"{ordered[int(q * (len(ordered) - 1))] * 1000:.2f} ms"


def count_queries(client, url: str, **headers) -> int:
    """How many SQL statements one GET of ``url`` runs (counted at the cursor, so the query
    log's 9,000-entry cap cannot hide any)."""
    seen = []

    def count(execute, sql, params, many, context):
        seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        client.get(url, **headers)
    return len(seen)


def bench_sheet(campaign, owner, n: int) -> Character:
    """A homologated sheet with ``n`` skills and ``n`` items, every item carried."""
    character = Character.objects.create(campaign=campaign, owner=owner, name=f"Bancada {n}")
    version = SheetVersion.objects.create(
        character=character,
        number=1,
        status=SheetVersion.Status.HOMOLOGATED,
        st=12,
        dx=12,
        iq=11,
        ht=11,
        decided_at=timezone.now(),
    )
    Skill.objects.bulk_create(
        Skill(version=version, name=f"Perícia {i}", attribute="DX", difficulty="M", level=9 + i % 8)
        for i in range(n)
    )
    items = Item.objects.bulk_create(
        Item(version=version, name=f"Item {i}", weight_kg=Decimal("0.25")) for i in range(n)
    )
    Possession.objects.bulk_create(Possession(character=character, item=item) for item in items)
    return character


CLIENTS, ROLLS_EACH, WORKERS = 16, 40, 4


def post_narration(site, scene: str, key: str, *, timeout: float = 60):
    from tests.live.server import SiteError

    try:
        return site.request(
            "POST",
            f"/api/v1/scenes/{scene}/narrations",
            {"text": f"Narração {key}."},
            user="mestre",
            headers={"Idempotency-Key": key},
            timeout=timeout,
        )
    except (OSError, SiteError) as error:
        return error


def _throughput(site, scene: str, send, label: str) -> tuple[float, list[float], str]:
    def client(number: int) -> list[tuple[float, object]]:
        answers = []
        for i in range(ROLLS_EACH):
            start = time.perf_counter()
            answer = send(site, scene, f"{label}-{number}-{i}", timeout=60)
            answers.append((time.perf_counter() - start, answer))
        return answers

    start = time.perf_counter()
    with ThreadPoolExecutor(CLIENTS) as pool:
        answers = [a for answers in pool.map(client, range(CLIENTS)) for a in answers]
    elapsed = time.perf_counter() - start
    failures = _statuses(answer for _, answer in answers)
    return CLIENTS * ROLLS_EACH / elapsed, [seconds for seconds, _ in answers], failures


def _statuses(answers) -> str:
    """What the answers that were not a 201 were (a status, or the exception's name)."""
    seen: dict[str, int] = {}
    for answer in answers:
        status = getattr(answer, "status", None)
        if status != 201:
            name = str(status) if status is not None else type(answer).__name__
            seen[name] = seen.get(name, 0) + 1
    return ", ".join(f"{n}× {name}" for name, n in sorted(seen.items())) or "none"


def doorbell_delays(site, scene: str, samples: int = 40) -> list[float]:
    """From a roll's 201 (its transaction committed) to the event on a stream held by a
    jogador on the same site: what a page waits before it fetches what changed."""
    from tests.live.helpers import post_roll

    browser = site.browser("jogador")
    stream = site.events(browser, f"/cenas/{scene}/eventos/", timeout=10)
    delays = []
    try:
        time.sleep(0.5)  # the stream is listening
        for n in range(samples):
            answer = post_roll(site, scene, f"ring-{n}-{secrets.token_hex(4)}")
            committed = time.perf_counter()
            if getattr(answer, "status", 0) != 201:
                continue
            stream.next_event()
            delays.append(time.perf_counter() - committed)
            time.sleep(0.05)
    finally:
        stream.close()
    return delays


STREAMS = 50


def streams_memory(backend: str) -> None:
    """One worker holding 50 open event streams: its resident memory before and with them."""
    from tests.live.helpers import scene_id
    from tests.live.server import running_site

    with running_site(workers=1, backend=backend, database_url=POSTGRES_URL) as site:
        scene = scene_id(site)
        browser = site.browser("jogador")
        site.request("GET", "/api/v1/rules/odds?level=12", user="mestre")
        (pid,) = site.worker_pids
        before = _vm_kib(pid, "VmRSS:")
        streams = [
            site.events(browser, f"/cenas/{scene}/eventos/", timeout=30) for _ in range(STREAMS)
        ]
        try:
            time.sleep(2)
            held = _vm_kib(pid, "VmRSS:")
            alive = site.request("GET", "/api/v1/rules/odds?level=12", user="mestre").status
        finally:
            for stream in streams:
                stream.close()
    row(
        f"one worker holding {STREAMS} event streams: RSS before / with them, {backend}",
        f"{before / 1024:.0f} MiB / {held / 1024:.0f} MiB (+{(held - before) / STREAMS:.0f} KiB "
        f"a stream; a request meanwhile: {alive})",
    )


def rolls_under_load(backend: str) -> None:
    """16 clients rolling at once through the API of a real gunicorn: rolls/s, latencies,
    and the peak resident memory of its workers (VmHWM); then plain inserts (narrations) the
    same way, and the doorbell's delay from a roll's commit to the event on a stream."""
    from tests.live.helpers import post_roll, scene_id
    from tests.live.server import running_site

    with running_site(workers=WORKERS, backend=backend, database_url=POSTGRES_URL) as site:
        scene = scene_id(site)
        with ThreadPoolExecutor(CLIENTS) as pool:  # every worker answers once before timing
            list(pool.map(lambda i: post_roll(site, scene, f"warm-{i}"), range(CLIENTS * 2)))

        rolls, latencies, failures = _throughput(site, scene, post_roll, "bench")
        peak_kib = max(_vm_hwm_kib(pid) for pid in site.worker_pids)
        narrations, narration_latencies, narration_failures = _throughput(
            site, scene, post_narration, "narration"
        )
        delays = doorbell_delays(site, scene)
        chain = site.verify_rolls().strip().splitlines()[-1]
    total = CLIENTS * ROLLS_EACH
    row(
        f"rolls/s, {CLIENTS} clients, gunicorn {WORKERS} workers, {backend}",
        f"{rolls:,.0f} /s ({total} rolls; not 201: {failures})",
    )
    row(f"roll latency p50 / p95, {backend}", f"{ms(latencies)} / {ms(latencies, 0.95)}")
    row(
        f"narrations/s (plain inserts), {CLIENTS} clients, {backend}",
        f"{narrations:,.0f} /s ({total} narrations; not 201: {narration_failures}), "
        f"p50 {ms(narration_latencies)}",
    )
    row(f"rolls/s ÷ narrations/s, {backend}", f"{rolls / narrations:.2f}")
    row(
        f"doorbell: roll committed → event on a stream, p50 / p95, {backend}",
        f"{ms(delays)} / {ms(delays, 0.95)} ({len(delays)} rolls)",
    )
    row(f"peak memory of a worker (VmHWM), {backend}", f"{peak_kib / 1024:.0f} MiB")
    row(f"chain after the load, {backend}", chain)


def _vm_hwm_kib(pid: int) -> int:
    return _vm_kib(pid, "VmHWM:")


def _vm_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field):
            return int(line.split()[1])
    return 0


def _sheet_urls(jurado, aina) -> tuple[str, str, str, str]:
    """The sheet page and sheets API of the GURPS Jurado, then of the Xuleta's Aina."""
    return (
        f"/fichas/{jurado.code}/",
        f"/api/v1/sheets/{jurado.code}",
        f"/fichas/{aina.code}/",
        f"/api/v1/sheets/{aina.code}",
    )


def _anchor_calls(client, user, jurado, aina) -> tuple[dict, Client]:
    """The calls of ``anchor_figures``, by name, and the bearer-token client they share."""
    bare = Client(HTTP_HOST="127.0.0.1")
    with override_settings(MIDDLEWARE=[]):
        bare.handler.load_middleware()
    # The session read through the cache, as settings.py has it with REDIS_URL (cached_db); here
    # the cache is this process's memory, so the figure leaves out Redis's round trip.
    cached = Client(HTTP_HOST="127.0.0.1")
    with override_settings(SESSION_ENGINE="django.contrib.sessions.backends.cached_db"):
        cached.handler.load_middleware()
        cached.force_login(user)
    api = Client(HTTP_HOST="127.0.0.1", HTTP_AUTHORIZATION=f"Bearer {api_token_create(user=user)}")
    sheet_url, sheet_api_url, xuleta_url, xuleta_api_url = _sheet_urls(jurado, aina)
    calls = {
        "bare view, no middleware": lambda: bare.get("/bench/vista/"),
        "bare view, the site's middleware": lambda: api.get("/bench/vista/"),
        "bare ninja endpoint": lambda: api.get("/api/bench/ninja"),
        "bare view, logged in": lambda: client.get("/bench/membro/"),
        "bare ninja endpoint, bearer token": lambda: api.get("/api/bench/ninja-auth"),
        "bare view, logged in, session cached": lambda: cached.get("/bench/membro/"),
        "trivial API (odds of one level)": lambda: api.get("/api/v1/rules/odds?level=12"),
        "sheet page (Jurado)": lambda: client.get(sheet_url),
        "sheets API (Jurado)": lambda: api.get(sheet_api_url),
        "Xuleta sheet page (Aina)": lambda: client.get(xuleta_url),
        "Xuleta sheets API (Aina)": lambda: api.get(xuleta_api_url),
        "sheet page (Jurado), session cached": lambda: cached.get(sheet_url),
    }
    return calls, api


def anchor_figures(client, user, jurado, aina) -> None:
    """The fixed floors in process, interleaved with what is read against them: a bare view
    through a handler with no middleware and through the site's chain, a bare ninja endpoint
    (no auth), the trivial API (odds of one level, a Bearer token), the sheet page and the
    sheets API — the GURPS Jurado's and, beside them, the Xuleta's Aina (homologated, the demo's
    «O Vau das Brumas», the same jogador). Only the floors cannot move: the goals are trivial
    API ≤ 1.5× the bare ninja endpoint, sheet page and sheets API ≤ 1.5× the bare view. Beside
    them, the same two floors behind the site's authentication (a logged-in session, a bearer
    token), which every member's page and call pays: the sheet read against those too."""
    calls, api = _anchor_calls(client, user, jurado, aina)
    sheet_url, sheet_api_url, xuleta_url, xuleta_api_url = _sheet_urls(jurado, aina)
    samples: dict[str, list[float]] = {name: [] for name in calls}
    for call in calls.values():
        call()
    for _ in range(500):  # interleaved, so a busy moment weighs on all alike
        for name, call in calls.items():
            samples[name].extend(timed(call, 1))
    p50 = {name: statistics.median(values) for name, values in samples.items()}
    for name, value in p50.items():
        row(f"anchor: {name} p50", f"{value * 1000:.2f} ms")

    calls_named = [
        "trivial API (odds of one level)",
        "sheet page (Jurado)",
        "sheets API (Jurado)",
        "Xuleta sheet page (Aina)",
        "Xuleta sheets API (Aina)",
    ]

    def ratio(name: str, floor: str) -> str:
        """The median of the round-by-round ratios: each call against its floor of the same
        round, so a slow moment of a shared machine weighs on both sides of every ratio."""
        paired = [a / b for a, b in zip(samples[name], samples[floor], strict=True)]
        return f"{statistics.median(paired):.2f}×"

    view, api_floor = "bare view, no middleware", "bare ninja endpoint"
    chain, member = "bare view, the site's middleware", "bare view, logged in"
    bearer = "bare ninja endpoint, bearer token"
    row(f"anchor: trivial API ÷ {api_floor} (goal ≤ 1.5×)", ratio(calls_named[0], api_floor))
    for name in calls_named[1:]:
        row(
            f"anchor: {name} ÷ {view} (goal ≤ 1.5×) / ÷ with the middleware",
            f"{ratio(name, view)} / {ratio(name, chain)}",
        )
    cached_member = "bare view, logged in, session cached"
    for name, floor in ((member, view), (cached_member, view), (bearer, api_floor)):
        row(f"anchor: {name} ÷ {floor} (what authentication alone costs)", ratio(name, floor))
    row(
        f"anchor: sheet page (Jurado), session cached ÷ {view} / ÷ in the database",
        f"{ratio('sheet page (Jurado), session cached', view)} / "
        f"{ratio('sheet page (Jurado), session cached', 'sheet page (Jurado)')}",
    )
    for name in calls_named[1:]:
        floor = member if "page" in name else bearer
        row(f"anchor: {name} ÷ {floor}", ratio(name, floor))
    for kind in ("sheet page", "sheets API"):
        xuleta, gurps = f"Xuleta {kind} (Aina)", f"{kind} (Jurado)"
        row(f"anchor: Xuleta {kind} (Aina) ÷ GURPS {kind} (Jurado)", ratio(xuleta, gurps))
    row("anchor: the site's middleware on a bare view (with ÷ without)", ratio(chain, view))
    row(
        "sheet page / sheets API: queries warm, GURPS (Jurado) / Xuleta (Aina)",
        f"{count_queries(client, sheet_url)} / {count_queries(api, sheet_api_url)}, "
        f"{count_queries(client, xuleta_url)} / {count_queries(api, xuleta_api_url)}",
    )


TABLE_CLIENTS, TABLE_CALLS, TABLE_ORDER = 16, 25, ("wsgi", "asgi", "asgi", "wsgi")


def _table_calls(site, scene: str, sheet: str) -> dict:
    """The calls of the ASGI ÷ WSGI table: name → (send one, the status that is a success)."""
    from tests.live.helpers import post_roll

    def get(path):
        return lambda key: site.request("GET", path, user="mestre", timeout=60)

    return {
        "bare ninja endpoint": (get("/api/bench/ninja"), 200),
        "trivial API GET (odds of one level)": (get("/api/v1/rules/odds?level=12"), 200),
        "sheets API GET (Jurado)": (get(f"/api/v1/sheets/{sheet}"), 200),
        "narration POST": (lambda key: post_narration(site, scene, key), 201),
        "roll POST": (lambda key: post_roll(site, scene, key, timeout=60), 201),
    }


def _rate(send, expected: int, label: str, clients: int, calls: int) -> tuple[float, list]:
    """``clients`` at once, ``calls`` each: the calls a second, and every answer that was not
    ``expected`` (a status, or the exception's name)."""

    def client(number: int) -> list:
        wrong = []
        for i in range(calls):
            answer = send(f"{label}-{number}-{i}-{secrets.token_hex(3)}")
            status = getattr(answer, "status", None)
            if status != expected:
                wrong.append(str(status) if status is not None else type(answer).__name__)
        return wrong

    start = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        wrong = [w for answers in pool.map(client, range(clients)) for w in answers]
    return clients * calls / (time.perf_counter() - start), wrong


def asgi_wsgi_table(backend: str) -> None:
    """The same fresh database served by gunicorn with sync workers over garganta_site.wsgi,
    then with uvicorn workers over garganta_site.asgi (as `make serve`), 4 workers each, in
    the order WSGI, ASGI, ASGI, WSGI; 16 clients × 25 calls of each kind. Goal: ASGI ÷ WSGI
    ≥ 0.9 for every call."""
    import uuid

    from tests.live.helpers import scene_id
    from tests.live.server import running_site

    with running_site(
        workers=WORKERS, backend=backend, database_url=POSTGRES_URL, server="wsgi", env=ANCHORS
    ) as site:
        scene = scene_id(site)
        (code,) = site.query(
            "SELECT code FROM sheets_character WHERE name = %s", ("Jurado de Gapheim",)
        )[0]
        calls = _table_calls(site, scene, str(uuid.UUID(str(code))))
        rates: dict[tuple[str, str], list[float]] = {}
        wrong: dict[str, list] = {}  # name → "WSGI 503" …
        for number, server in enumerate(TABLE_ORDER):
            if site.server != server:
                site.stop()
                site.server = server
                site.start()
            warm, _ = calls["trivial API GET (odds of one level)"]
            _rate(warm, 200, "warm", TABLE_CLIENTS, 2)  # every worker answers before timing
            for name, (send, expected) in calls.items():
                rate, failed = _rate(send, expected, f"t{number}", TABLE_CLIENTS, TABLE_CALLS)
                rates.setdefault((name, server), []).append(rate)
                wrong.setdefault(name, []).extend(f"{server.upper()} {w}" for w in failed)
    for name in calls:
        wsgi, asgi = (statistics.mean(rates[name, server]) for server in ("wsgi", "asgi"))
        failed = wrong[name]
        row(
            f"WSGI / ASGI /s, ASGI ÷ WSGI (goal ≥ 0.9): {name}, {backend}",
            f"{wsgi:,.0f} / {asgi:,.0f} /s, {asgi / wsgi:.2f}"
            + (f" (not {calls[name][1]}: {_counted(failed)})" if failed else ""),
        )


def _counted(names: list[str]) -> str:
    seen: dict[str, int] = {}
    for name in names:
        seen[name] = seen.get(name, 0) + 1
    return ", ".join(f"{n}× {name}" for name, n in sorted(seen.items()))


MANY_CLIENTS, MANY_EACH = 64, 5  # 320 rolls, then 320 narrations: the bench stays bounded


def many_writers(backend: str) -> None:
    """64 clients at once writing rolls, then narrations, through the ASGI server (4 workers):
    every answer a 201 (no 503), every write stored (none lost), the roll chain gapless."""
    from tests.live.helpers import post_roll, scene_id, sequences
    from tests.live.server import running_site

    with running_site(workers=WORKERS, backend=backend, database_url=POSTGRES_URL) as site:
        scene = scene_id(site)
        before = len(sequences(site))
        figures = {}
        for label, send in (
            ("rolls", lambda key: post_roll(site, scene, key, timeout=60)),
            ("narrations", lambda key: post_narration(site, scene, key)),
        ):
            rate, failed = _rate(send, 201, f"many-{label}", MANY_CLIENTS, MANY_EACH)
            figures[label] = (rate, failed)
        rolls = site.query(
            "SELECT count(*) FROM mesa_roll WHERE request_key LIKE %s", ("many-rolls-%",)
        )
        narrations = site.query(
            "SELECT count(*) FROM mesa_narration WHERE text LIKE %s",
            ("Narração many-narrations-%",),
        )
        numbers = sequences(site)
        gapless = numbers == list(range(1, len(numbers) + 1))
        chain = site.verify_rolls().strip().splitlines()[-1]
    sent = MANY_CLIENTS * MANY_EACH
    for label, stored in (("rolls", rolls[0][0]), ("narrations", narrations[0][0])):
        rate, failed = figures[label]
        row(
            f"{MANY_CLIENTS} clients writing {label}, ASGI, {backend}",
            f"{rate:,.0f} /s; not 201: {_counted(failed) or 'none'}; "
            f"stored {stored} of {sent} (lost {sent - stored})",
        )
    row(
        f"{MANY_CLIENTS} clients: roll chain, {backend}",
        f"{'gapless' if gapless else 'GAPS'} 1..{len(numbers)} ({len(numbers) - before} new); "
        f"{chain}",
    )


def week_calls() -> None:
    """Child process (``--week``): the demo week played through MCP, then through REST, on a
    fresh database; prints the two call counts for the parent."""
    import anyio

    from tests.mcp.week import McpTable, RestTable, play_week

    call_command("migrate", verbosity=0)
    demo_seed()
    people = ("mestre", "arbitro", "jogador", "jogadora", "rastreadora")
    tokens = {
        name: api_token_create(user=get_user_model().objects.get(username=name)) for name in people
    }

    async def play(door):
        async with door(tokens) as table:
            await play_week(table)
        return table.counts.calls

    print(f"WEEK {anyio.run(play, McpTable)} {anyio.run(play, RestTable)}")


def week_figures() -> None:
    import subprocess

    env = {**os.environ, "DATABASE_URL": ""}
    answer = subprocess.run(
        [sys.executable, __file__, "--week"], env=env, capture_output=True, text=True, cwd=ROOT
    )
    line = next((x for x in answer.stdout.splitlines() if x.startswith("WEEK ")), "")
    if not line:
        row("demo week: MCP tool calls / REST calls", f"failed: {answer.stderr[-300:]}")
        return
    mcp_calls, rest_calls = (int(x) for x in line.split()[1:])
    row(
        "demo week: MCP tool calls / REST calls",
        f"{mcp_calls} / {rest_calls} ({mcp_calls / rest_calls:.2f})",
    )


def engine_figures() -> None:
    n = 20000
    start = time.perf_counter()
    for level in range(n):
        checks.success_outcome(3 + level % 16, 12)
    row("engine: success_outcome", f"{n / (time.perf_counter() - start):,.0f} /s")
    start = time.perf_counter()
    for i in range(2000):
        derived.derive(
            st=13,
            dx=12,
            iq=10,
            ht=12,
            carried_kg=Decimal(i % 200) / 4,
            armour_pd=3,
            shield=derived.Shield(skill=14, pd=2),
            weapons=[derived.Weapon(name="Gládio", skill=13)],
        )
    row("engine: derive (sheet block)", f"{2000 / (time.perf_counter() - start):,.0f} /s")
    source = secrets.SystemRandom()  # what the site rolls with
    attack = combat.AttackInput(
        name="Hoplita", skill=17, damage="1d", damage_type="imp", thrust=True
    )
    parry = combat.DefenceInput(
        name="Cavador",
        maneuver="move_and_attack",
        passive_defense=1,
        choices=(combat.DefenceChoice("dodge", 6),),
    )
    target = combat.TargetInput(ht=12, hp=12, dr=3, kind="creature")
    start = time.perf_counter()
    for _ in range(5000):
        combat.resolve_attack(source, attack, parry, target)
    row("engine: resolve_attack (§4.10 whole)", f"{5000 / (time.perf_counter() - start):,.0f} /s")
    start = time.perf_counter()
    for _ in range(50):
        rulebook.all_tables.cache_clear()
        rulebook.all_tables()
    row("engine: gather every canon table", f"{(time.perf_counter() - start) * 20:.2f} ms")


def page_figures(client, user, jurado) -> None:
    """A sheet with 5 and one with 60 skills and items, against a trivial view (the login page
    asked by someone already in: session, user, redirect) in the same run."""
    small_sheet = bench_sheet(jurado.campaign, user, 5)
    large_sheet = bench_sheet(jurado.campaign, user, 60)
    sheet_url = f"/fichas/{jurado.code}/"
    client.get(sheet_url)
    trivial, sheet = [], []
    for _ in range(300):  # interleaved, so a busy moment weighs on both alike
        trivial.extend(timed(lambda: client.get("/entrar/"), 1))
        sheet.extend(timed(lambda: client.get(sheet_url), 1))
    api = Client(HTTP_HOST="127.0.0.1", HTTP_AUTHORIZATION=f"Bearer {api_token_create(user=user)}")
    odds_url, sheet_api_url = "/api/v1/rules/odds?level=12", f"/api/v1/sheets/{jurado.code}"
    api.get(sheet_api_url)
    odds, sheet_api = [], []
    for _ in range(300):
        odds.extend(timed(lambda: api.get(odds_url), 1))
        sheet_api.extend(timed(lambda: api.get(sheet_api_url), 1))
    row("trivial view (login page, logged in) p50", ms(trivial))
    row("sheet page (Jurado) p50 / p95", f"{ms(sheet)} / {ms(sheet, 0.95)}")
    row(
        "sheet page ÷ trivial view", f"{statistics.median(sheet) / statistics.median(trivial):.2f}×"
    )
    row("trivial API (odds of one level) p50", ms(odds))
    row("sheets API (Jurado) p50 / p95", f"{ms(sheet_api)} / {ms(sheet_api, 0.95)}")
    row(
        "sheets API ÷ trivial API",
        f"{statistics.median(sheet_api) / statistics.median(odds):.2f}×",
    )
    row(
        "sheets API ÷ sheet page",
        f"{statistics.median(sheet_api) / statistics.median(sheet):.2f}×",
    )
    row(
        "sheet page / sheets API: queries warm",
        f"{count_queries(client, sheet_url)} / {count_queries(api, sheet_api_url)}",
    )
    for label, character in (("5", small_sheet), ("60", large_sheet)):
        url = f"/fichas/{character.code}/"
        cache.clear()
        cold, warm = count_queries(client, url), count_queries(client, url)
        samples = timed(lambda url=url: client.get(url), 100)
        row(
            f"sheet with {label} skills and {label} items: queries cold / warm, p50",
            f"{cold} / {warm}, {ms(samples)}",
        )
    loot = Possession.objects.filter(character=jurado, loot_name__startswith="Espólio").first()
    url = f"/fichas/{jurado.code}/pertences/{loot.code}/carregar/"
    flips = iter(range(10**6))
    toggle = timed(
        lambda: client.post(url, {"carried": str(next(flips) % 2)}, HTTP_HX_REQUEST="true"), 100
    )
    row("carga update (htmx POST, re-render) p50", ms(toggle))


def combat_figures(mestre) -> None:
    """The demo's combat panel as the Mestre polls it (htmx), every card's numbers asked of the
    sheet's function."""
    call_command("demo_combat", stdout=open(os.devnull, "w"))
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(mestre)
    scene = Scene.objects.filter(combats__isnull=False).first()
    url = f"/cenas/{scene.code}/combate/"
    samples = timed(lambda: client.get(url, HTTP_HX_REQUEST="true"), 100)
    queries = count_queries(client, url, HTTP_HX_REQUEST="true")
    row("combat panel (demo, 5 combatants, htmx) p50, queries", f"{ms(samples)}, {queries}")


def scene_size_figures(mestre) -> None:
    """The scene page as the Mestre and the log API's default page, with 100 and with 5,000
    entries in the scene (half rolls, half narrations), side by side."""
    week = Week.objects.order_by("-number").first()
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(mestre)
    api = Client(
        HTTP_HOST="127.0.0.1", HTTP_AUTHORIZATION=f"Bearer {api_token_create(user=mestre)}"
    )
    medians = {}
    for size in (100, 5000):
        scene = scene_create(week=week, user=mestre, title=f"Bancada {size}")
        for i in range(size // 2):
            roll_create(scene=scene, user=mestre, label=f"bancada {i}", base_level=12, kind="skill")
            narration_create(scene=scene, user=mestre, text=f"O que os dados fizeram, {i}.")
        page, log = f"/cenas/{scene.code}/", f"/api/v1/scenes/{scene.code}/log"
        client.get(page), api.get(log)
        pages, logs = [], []
        for _ in range(30 if size <= 100 else 10):  # a 5,000-entry page is slow today
            pages.extend(timed(lambda page=page: client.get(page), 1))
            logs.extend(timed(lambda log=log: api.get(log), 1))
        medians[size] = (statistics.median(pages), statistics.median(logs))
        row(
            f"scene with {size:,} entries: page (Mestre) / log API p50, queries",
            f"{ms(pages)} / {ms(logs)}, {count_queries(client, page)} / {count_queries(api, log)}",
        )
    (page_small, log_small), (page_large, log_large) = medians[100], medians[5000]
    row(
        "scene 5,000 ÷ 100 entries: page / log API",
        f"{page_large / page_small:.2f}× / {log_large / log_small:.2f}×",
    )


FIGHTS = 40


def fight_turn_figures(mestre) -> None:
    """One attack turn through the services, the server's dice, a Xuleta fight beside a GURPS
    one: each sample a fresh fight (started and ended untimed), its first combatant attacking
    the first one of the other side — the Xuleta's ``fight_turn`` (one call: the attack roll
    against the CA, the damage, the next turn's start) in «O Vau das Brumas» (Aina, Bru, Ona
    against the demo's three wolves), GURPS's ``combat_act`` (the maneuver, the attack, the
    defence — a standing choice, «decidir por mim» — the damage) in *A Garganta* (the jurado and
    the hoplita against two cavadores-cinzentos). Interleaved, so a busy moment weighs on both;
    the sheets' states are put back after each fight (a fight writes its PV back to them)."""
    from garganta_site.demo_xuleta import WOLF, WOLVES, demo_xuleta_seed
    from sessions.combat import acting, defending, specs
    from sessions.combat import services as gurps_fights
    from sessions.combat import turns as gurps_turns
    from sessions.demo import DEMO_BITE, DEMO_CREATURE
    from sessions.models import Combat, Combatant
    from sessions.native_combat import services as fights

    made = demo_xuleta_seed()
    xuleta_scene = scene_create(
        week=made["fight_scene"].week,
        user=mestre,
        title="Bancada: um turno",
        characters=made["characters"],
    )
    gurps_week = Week.objects.filter(campaign__slug="a-garganta").order_by("-number").first()
    heroes = list(
        Character.objects.filter(
            campaign__slug="a-garganta", name__in=("Jurado de Gapheim", "Hoplita de Ônfalos")
        )
    )
    gurps_scene = scene_create(
        week=gurps_week, user=mestre, title="Bancada: um turno", characters=heroes
    )

    def xuleta_fight():
        combat = fights.fight_start(
            scene=xuleta_scene,
            user=mestre,
            combatants=[{"name": c.name, "character": c} for c in made["characters"]]
            + [{"name": wolf, "numbers": dict(WOLF)} for wolf in WOLVES],
        )
        view = fights.fight_view(combat)
        actor = next(r for r in view["order"] if r["id"] == view["turn"]["fighter"])
        target = next(r for r in view["order"] if r["side"] != actor["side"])
        fighter = fights.combatant_of(combat, actor["id"], "combatant")

        def turn():
            fights.fight_turn(
                combat=combat,
                user=mestre,
                combatant=fighter,
                plan=None,
                actions=[{"kind": "attack", "target": target["id"]}],
            )

        return turn, lambda: fights.fight_end(combat=Combat.objects.get(pk=combat.pk), user=mestre)

    bite = specs.WeaponSpec(**DEMO_BITE)

    def gurps_fight():
        combat = gurps_fights.combat_start(scene=gurps_scene, user=mestre, characters=heroes)
        for name in ("Cavador-cinzento A", "Cavador-cinzento B"):
            gurps_fights.combatant_add(
                combat=combat,
                user=mestre,
                creature=specs.CreatureSpec(name=name, weapons=(bite,), **DEMO_CREATURE),
            )
        for c in Combatant.objects.filter(combat=combat).select_related("character__owner"):
            chooser = c.character.owner if c.character_id else mestre  # a jogador's own choice
            defending.defence_choose(combat=combat, combatant=c, user=chooser, first="best")
        gurps_turns.combat_next_turn(combat=combat, user=mestre)
        combat = Combat.objects.get(pk=combat.pk)
        everyone = list(Combatant.objects.filter(combat=combat).select_related("character"))
        actor = next(c for c in everyone if c.position == combat.turn)
        target = next(
            c for c in everyone if (c.character_id is None) != (actor.character_id is None)
        )

        def turn():
            acting.combat_act(
                combat=combat,
                combatant=actor,
                user=mestre,
                maneuver=specs.ManeuverSpec(maneuver="move_and_attack"),
                attack=specs.AttackSpec(weapon=0),
                defender=target,
            )

        return turn, lambda: gurps_fights.combat_end(
            combat=Combat.objects.get(pk=combat.pk), user=mestre
        )

    # A fight writes its PV back to the sheets: each sample starts from the sheets as they were.
    fighters = [*made["characters"], *heroes]
    kept = list(CharacterState.objects.filter(character__in=fighters))

    def sheets_as_they_were():
        CharacterState.objects.filter(character__in=fighters).exclude(
            pk__in=[k.pk for k in kept]
        ).delete()
        for state in kept:
            state.save()

    samples: dict[str, list[float]] = {"xuleta": [], "gurps": []}
    for _ in range(FIGHTS):
        for name, make in (("xuleta", xuleta_fight), ("gurps", gurps_fight)):
            turn, end = make()
            samples[name].extend(timed(turn, 1))
            end()
            sheets_as_they_were()
    xuleta, gurps = samples["xuleta"], samples["gurps"]
    row(
        f"Xuleta fight turn (fight_turn, an attack; {FIGHTS} fresh fights) p50 / p95",
        f"{ms(xuleta)} / {ms(xuleta, 0.95)}",
    )
    row(
        f"GURPS combat turn (combat_act, an attack; {FIGHTS} fresh fights) p50 / p95",
        f"{ms(gurps)} / {ms(gurps, 0.95)}",
    )
    row(
        "Xuleta fight turn ÷ GURPS combat turn",
        f"{statistics.median(xuleta) / statistics.median(gurps):.2f}×",
    )


def roll_figures(mestre) -> None:
    scene = Scene.objects.first()
    start = time.perf_counter()
    count = 300
    for i in range(count):
        roll_create(scene=scene, user=mestre, label=f"bench {i}", base_level=12, kind="skill")
    row("rolls appended, one writer", f"{count / (time.perf_counter() - start):,.0f} /s")
    start = time.perf_counter()
    call_command("verify_rolls", stdout=open(os.devnull, "w"))
    row(f"verify_rolls over {count} rolls", f"{(time.perf_counter() - start) * 1000:.0f} ms")


def main() -> None:
    if WEEK_MODE:
        week_calls()
        return
    call_command("migrate", verbosity=0)
    demo_seed()
    call_command("demo_week", stdout=open(os.devnull, "w"))
    user = get_user_model().objects.get(username="jogador")
    mestre = get_user_model().objects.get(username="mestre")
    jurado = Character.objects.get(name="Jurado de Gapheim")
    from garganta_site.demo_xuleta import demo_xuleta_seed

    aina = next(c for c in demo_xuleta_seed()["characters"] if c.name == "Aina")
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    engine_figures()
    page_figures(client, user, jurado)
    anchor_figures(client, user, jurado, aina)
    combat_figures(mestre)
    fight_turn_figures(mestre)
    roll_figures(mestre)
    if IN_PROCESS:
        _print_rows()
        return
    scene_size_figures(mestre)
    week_figures()
    for backend in ("sqlite", "postgresql") if POSTGRES_URL else ("sqlite",):
        rolls_under_load(backend)
        streams_memory(backend)
        asgi_wsgi_table(backend)
    if POSTGRES_URL:
        many_writers("postgresql")
    row(
        "peak memory (max RSS) of this process",
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB",
    )
    row("database", connection.vendor)
    _print_rows()


def _print_rows() -> None:
    width = max(len(name) for name, _ in ROWS)
    print(f"{'measure'.ljust(width)} | figure")
    print(f"{'-' * width}-|-------")
    for name, value in ROWS:
        print(f"{name.ljust(width)} | {value}")


if __name__ == "__main__":
    main()
