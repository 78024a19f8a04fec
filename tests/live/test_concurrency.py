"""Many clients at once against the real server (gunicorn, 4 worker processes, a fresh
database of the backend of this pass).

- 16 Mestre clients roll in the same campaign at the same moment, 25 rolls each, and 48 of
  those requests are sent twice at once with the same Idempotency-Key: every roll is stored
  once, a replay answers the same roll, the campaign's numbers run 1..N without a gap or a
  repeat, and the hash chain verifies (``manage.py verify_rolls`` and the API).
- Two Árbitros press "homologar" on the same submitted sheet version at the same moment, for
  8 versions in a row: exactly one of them homologates it, the other is told that the
  version was already decided, and the version records one decision (one Árbitro, one set
  of possessions).
"""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.utils.html import escape

from sheets.homologation import NOT_SUBMITTED
from tests.live.helpers import (
    assert_chain_intact,
    assert_gapless,
    post_roll,
    scene_id,
    stored_by_key,
)
from tests.live.server import running_site

CLIENTS = 16
ROLLS_PER_CLIENT = 25
REPLAYED_PER_CLIENT = 3  # 16 × 3 = 48 keys sent twice at once
VERSIONS = 8

SECOND_ARBITRO = """
from django.contrib.auth import get_user_model
from garganta_site.demo import DEMO_PASSWORD
from campaigns.models import Campaign, Membership
user = get_user_model().objects.create_user("arbitra", password=DEMO_PASSWORD)
Membership.objects.create(
    user=user, campaign=Campaign.objects.get(slug="a-garganta"), role=Membership.Role.ARBITRO
)
"""


@pytest.fixture(scope="module")
def site():
    with running_site(workers=4, tokens=("mestre",), setup=SECOND_ARBITRO) as running:
        yield running


def _client(site, scene: str, number: int) -> list[tuple[str, object]]:
    """One client: its 25 rolls in turn; 3 of them sent twice at the same moment."""
    answers = []
    replayed = {5, 13, 21}
    assert len(replayed) == REPLAYED_PER_CLIENT
    with ThreadPoolExecutor(2) as pair:
        for index in range(ROLLS_PER_CLIENT):
            key = f"live-{number:02d}-{index:02d}-{uuid.uuid4().hex[:8]}"
            if index in replayed:
                together = threading.Barrier(2)

                def send(key=key, together=together):
                    together.wait(timeout=30)
                    return post_roll(site, scene, key, timeout=60)

                for answer in pair.map(lambda _: send(), range(2)):
                    answers.append((key, answer))
            else:
                answers.append((key, post_roll(site, scene, key, timeout=60)))
    return answers


def test_sixteen_clients_roll_at_once(site):
    scene = scene_id(site)
    before = assert_gapless(site)
    start = threading.Barrier(CLIENTS)

    def client(number):
        start.wait(timeout=30)
        return _client(site, scene, number)

    with ThreadPoolExecutor(CLIENTS) as pool:
        results = [pair for answers in pool.map(client, range(CLIENTS)) for pair in answers]

    failed = [
        (key, getattr(a, "status", a), getattr(a, "text", "")[:200])
        for key, a in results
        if getattr(a, "status", None) != 201
    ]
    assert not failed, f"{len(failed)} requests not 201: {failed[:5]}"
    answered: dict[str, set[tuple[str, int]]] = {}
    for key, answer in results:
        body = answer.json()
        answered.setdefault(key, set()).add((body["id"], body["sequence"]))
    distinct = len(answered)
    replays = len(results) - distinct
    assert distinct == CLIENTS * ROLLS_PER_CLIENT
    assert replays == CLIENTS * REPLAYED_PER_CLIENT
    # A replay answers the very roll the first request made.
    assert all(len(rolls) == 1 for rolls in answered.values()), [
        (k, v) for k, v in answered.items() if len(v) != 1
    ][:5]

    stored = stored_by_key(site)
    mine = {key: rolls for key, rolls in stored.items() if key in answered}
    assert len(mine) == distinct, "a roll whose client got 201 is missing"
    doubled = {key: rolls for key, rolls in mine.items() if len(rolls) != 1}
    assert not doubled, f"stored more than once: {list(doubled.items())[:5]}"
    assert {key: rolls[0] for key, rolls in mine.items()} == {
        key: next(iter(rolls)) for key, rolls in answered.items()
    }

    total = assert_gapless(site)
    assert total == before + distinct
    assert_chain_intact(site, total)
    print(
        f"concurrency ({site.backend}): {CLIENTS} clients, {distinct} rolls + {replays} "
        f"replays, {len(mine)} stored, sequence 1..{total} without gaps, chain intact"
    )


def _jurado_code(site) -> str:
    rows = site.query("SELECT code FROM sheets_character WHERE name = %s", ("Jurado de Gapheim",))
    return str(uuid.UUID(str(rows[0][0])))


def _submitted(site) -> tuple[str, int]:
    rows = site.query(
        "SELECT v.code, v.number FROM sheets_sheetversion v"
        " JOIN sheets_character c ON c.id = v.character_id"
        " WHERE c.name = %s AND v.status = 'submitted'",
        ("Jurado de Gapheim",),
    )
    assert len(rows) == 1, rows
    return str(uuid.UUID(str(rows[0][0]))), rows[0][1]


def test_two_arbitros_homologate_the_same_version_at_once(site):
    jurado = _jurado_code(site)
    jogador = site.browser("jogador")
    arbitros = {name: site.browser(name) for name in ("arbitro", "arbitra")}
    user_ids = {
        name: site.query("SELECT id FROM auth_user WHERE username = %s", (name,))[0][0]
        for name in arbitros
    }
    wins = {name: 0 for name in arbitros}
    refusals = 0
    for _ in range(VERSIONS):
        status, url, _page = jogador.post(f"/fichas/{jurado}/rascunho/", {})
        assert status == 200 and url.endswith("/rascunho/"), (status, url)
        status, url, _page = jogador.post(f"/fichas/{jurado}/rascunho/enviar/", {})
        assert status == 200, status
        version, number = _submitted(site)

        together = threading.Barrier(len(arbitros))

        def homologate(name, version=version, together=together):
            together.wait(timeout=30)
            return name, arbitros[name].post(f"/homologacao/{version}/homologar/", {"confirm": "1"})

        with ThreadPoolExecutor(len(arbitros)) as pool:
            answers = dict(pool.map(homologate, arbitros))

        won = f"versão {number} homologada."
        winners = [name for name, (_s, _u, page) in answers.items() if won in page]
        losers = [name for name, (_s, _u, page) in answers.items() if escape(NOT_SUBMITTED) in page]
        assert all(s == 200 for s, _u, _p in answers.values()), answers
        assert len(winners) == 1 and len(losers) == 1 and winners != losers, (
            f"version {number}: winners {winners}, told 'already decided' {losers}"
        )
        refusals += 1
        wins[winners[0]] += 1

        decided = site.query(
            "SELECT status, decided_by_id FROM sheets_sheetversion WHERE number = %s"
            " AND character_id = (SELECT id FROM sheets_character WHERE name = %s)",
            (number, "Jurado de Gapheim"),
        )
        assert decided == [("homologated", user_ids[winners[0]])], decided
        # The possessions follow the new version once: one per sheet item, none doubled.
        items = site.query(
            "SELECT count(*) FROM sheets_item i JOIN sheets_sheetversion v ON v.id = i.version_id"
            " JOIN sheets_character c ON c.id = v.character_id"
            " WHERE c.name = %s AND v.number = %s",
            ("Jurado de Gapheim", number),
        )[0][0]
        held = site.query(
            "SELECT count(*) FROM sheets_possession p JOIN sheets_character c"
            " ON c.id = p.character_id WHERE c.name = %s AND p.item_id IS NOT NULL",
            ("Jurado de Gapheim",),
        )[0][0]
        assert held == items, (held, items)

    homologated = site.query(
        "SELECT count(*) FROM sheets_sheetversion v JOIN sheets_character c"
        " ON c.id = v.character_id WHERE c.name = %s AND v.status = 'homologated'",
        ("Jurado de Gapheim",),
    )[0][0]
    assert homologated == 1 + VERSIONS
    print(
        f"homologation race ({site.backend}): {VERSIONS} versions, each homologated by both "
        f"Árbitros at once: {VERSIONS} won once ({wins['arbitro']} arbitro, "
        f"{wins['arbitra']} arbitra), {refusals} told 'já foi decidida', 1 decision each"
    )
