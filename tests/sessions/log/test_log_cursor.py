"""The log's keyset cursors (sessions.log.timeline.log_page and GET /api/v1/scenes/{code}/log):
no entry lost or repeated across pages, forwards and backwards, with entries of every kind at
the same instant; a hidden roll never reached through a cursor (docs/DESIGN.md,
invariant 4 (Hidden is not invisible))."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from sessions.log import services as log_services
from sessions.log import timeline
from sessions.log.timeline import Cursor

LIMITS = (1, 2, 3, 7, 50)


@pytest.fixture
def crowded(scene, mestre, rastreadora, jogadora, rastreador, hoplita):
    """Three instants, each with a declaration, an announcement, rolls (open, hidden of the
    Rastreador, hidden of the Hoplita) and narrations — every kind at the same timestamp."""
    start = timezone.now() - timedelta(minutes=1)  # in the past: what is written later sorts after
    hidden = []
    for i in range(3):
        with mock.patch("django.utils.timezone.now", return_value=start + timedelta(seconds=i)):
            declaration = log_services.declaration_create(
                scene=scene, character=rastreador, user=rastreadora, text=f"Declaro {i}."
            )
            log_services.declaration_create(
                scene=scene, character=hoplita, user=jogadora, text=f"Ela declara {i}."
            )
            log_services.announcement_create(
                scene=scene, user=mestre, declaration=declaration, modifiers=[], note=f"A {i}"
            )
            for character, secret in ((rastreador, False), (rastreador, True), (hoplita, True)):
                roll = log_services.roll_create(
                    scene=scene,
                    user=mestre,
                    label=f"Teste de IQ {i}",
                    attribute="iq",
                    kind="attribute",
                    character=character,
                    hidden=secret,
                )
                if secret:
                    hidden.append(roll)
            for n in range(2):
                log_services.narration_create(scene=scene, user=mestre, text=f"Narro {i}.{n}")
    return hidden


def _membership(user):
    return user.membership_set.get()


def _ids(entries) -> list[tuple[str, int]]:
    return [(e.kind, getattr(e, e.kind).pk) for e in entries]


def _walk_forwards(scene, user, limit):
    seen, cursor = [], None
    while True:
        page = timeline.log_page(
            scene, membership=_membership(user), user=user, after=cursor, limit=limit
        )
        seen += page.entries
        assert len(page.entries) <= limit
        if not page.more_after:
            return seen
        cursor = page.last


def _walk_backwards(scene, user, limit):
    seen, cursor = [], None
    page = timeline.log_page(
        scene, membership=_membership(user), user=user, newest=True, limit=limit
    )
    while True:
        seen = page.entries + seen
        if not page.more_before:
            return seen
        cursor = page.first
        page = timeline.log_page(
            scene, membership=_membership(user), user=user, before=cursor, limit=limit
        )


def test_every_entry_once_forwards_and_backwards(scene, mestre, crowded):
    whole = timeline.scene_log_entries(scene, membership=_membership(mestre), user=mestre)
    assert len(whole) == 3 * 8
    # Three instants, each holding every kind: within one, the order is kind, then row.
    assert len({e.created_at for e in whole}) == 3
    assert {e.kind for e in whole} == {"declaration", "announcement", "roll", "narration"}
    for limit in LIMITS:
        assert _ids(_walk_forwards(scene, mestre, limit)) == _ids(whole), limit
        assert _ids(_walk_backwards(scene, mestre, limit)) == _ids(whole), limit


def test_a_jogador_walks_only_what_he_may_see(scene, jogadora, rastreadora, crowded):
    """The Hoplita's player sees her own hidden rolls masked and none of the Rastreador's —
    whatever the page size, in either direction."""
    mine = {r.pk for r in crowded if r.character.owner_id == jogadora.pk}
    theirs = {r.pk for r in crowded} - mine
    for limit in LIMITS:
        for walk in (_walk_forwards, _walk_backwards):
            entries = walk(scene, jogadora, limit)
            rolls = {e.roll.pk: e for e in entries if e.kind == "roll"}
            assert not theirs & set(rolls), (walk.__name__, limit)
            assert mine <= set(rolls)
            assert all(rolls[pk].masked for pk in mine)
            assert len(_ids(entries)) == len(set(_ids(entries)))


def test_a_cursor_made_from_a_hidden_roll_reveals_nothing(scene, jogadora, rastreador, crowded):
    """A forged cursor at another's hidden roll reads like any other place in the log: the
    roll itself is never in the answer."""
    theirs = next(r for r in crowded if r.character_id == rastreador.pk)
    at = Cursor(theirs.created_at, 2, theirs.pk)
    membership = _membership(jogadora)
    just_before = Cursor(theirs.created_at, 2, theirs.pk - 1)
    for page in (
        timeline.log_page(scene, membership=membership, user=jogadora, after=at, limit=200),
        timeline.log_page(scene, membership=membership, user=jogadora, before=at, limit=200),
        timeline.log_page(scene, membership=membership, user=jogadora, after=just_before),
    ):
        assert theirs.pk not in {e.roll.pk for e in page.entries if e.kind == "roll"}


def test_the_cursor_is_opaque_and_round_trips(scene, mestre, crowded):
    page = timeline.log_page(scene, membership=_membership(mestre), user=mestre, limit=5)
    cursor = page.last
    text = str(cursor)
    assert text.isascii() and "." not in text and "=" not in text
    assert Cursor.parse(text) == cursor


# --- the API --------------------------------------------------------------------------------------


def _api_walk(client, scene, limit, **first):
    url = f"/api/v1/scenes/{scene.code}/log"
    seen = []
    query = {"limit": limit, **first}
    while True:
        response = client.get(url, query)
        assert response.status_code == 200, response.json()
        body = response.json()
        assert set(body) == {"entries", "next_cursor", "has_more", "before_cursor"}
        seen += body["entries"]
        if not body["has_more"]:
            return seen, body
        query = {"limit": limit, "after": body["next_cursor"]}


def test_the_api_pages_forwards_and_backwards(client_for, scene, mestre, crowded):
    client = client_for(mestre)
    whole = client.get(f"/api/v1/scenes/{scene.code}/log", {"limit": 200}).json()["entries"]
    for limit in (1, 4, 50):
        forwards, last = _api_walk(client, scene, limit)
        assert [e["id"] for e in forwards] == [e["id"] for e in whole]
        # Nothing after the end, and the cursor stays for what comes next.
        later = client.get(f"/api/v1/scenes/{scene.code}/log", {"after": last["next_cursor"]})
        assert later.json()["entries"] == [] and later.json()["next_cursor"] == last["next_cursor"]
        log_services.narration_create(scene=scene, user=mestre, text=f"Depois {limit}.")
        fresh = client.get(f"/api/v1/scenes/{scene.code}/log", {"after": last["next_cursor"]})
        assert [e["text"] for e in fresh.json()["entries"]] == [f"Depois {limit}."]
        whole = client.get(f"/api/v1/scenes/{scene.code}/log", {"limit": 200}).json()["entries"]
    backwards = []
    body = client.get(f"/api/v1/scenes/{scene.code}/log", {"newest": "true", "limit": 4}).json()
    while True:
        backwards = body["entries"] + backwards
        if body["before_cursor"] is None:
            break
        body = client.get(
            f"/api/v1/scenes/{scene.code}/log", {"before": body["before_cursor"], "limit": 4}
        ).json()
    assert [e["id"] for e in backwards] == [e["id"] for e in whole]


def test_the_api_never_gives_another_jogadors_hidden_roll(
    client_for, scene, jogadora, rastreador, crowded
):
    client = client_for(jogadora)
    entries, _ = _api_walk(client, scene, 2)
    ids = {e["id"] for e in entries}
    for roll in crowded:
        if roll.character_id == rastreador.pk:
            assert str(roll.code) not in ids
        else:
            (shown,) = [e["roll"] for e in entries if e["id"] == str(roll.code)]
            assert shown["dice"] is None and shown["total"] is None and shown["salt"] is None
            assert shown["hash"] == roll.hash


@pytest.mark.parametrize(
    "query, field",
    [
        ({"after": "nada"}, "after"),
        ({"before": "MTIzLjkuNA"}, "before"),  # kind 9 does not exist
        ({"after": "MTIzLjEuMA"}, "after"),  # row 0 does not exist
    ],
)
def test_a_bad_cursor_is_a_422_naming_the_field(client_for, scene, mestre, query, field):
    response = client_for(mestre).get(f"/api/v1/scenes/{scene.code}/log", query)
    assert response.status_code == 422
    body = response.json()
    assert body["field"] == field
    assert body["detail"] == timeline.CURSOR_INVALID


@pytest.mark.parametrize("limit", [0, 201])
def test_the_limit_is_1_to_200(client_for, scene, mestre, limit):
    response = client_for(mestre).get(f"/api/v1/scenes/{scene.code}/log", {"limit": limit})
    assert response.status_code == 422
