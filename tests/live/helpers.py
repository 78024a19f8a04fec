"""What the live tests share: rolling through the API and reading the chain back."""

from __future__ import annotations

import http.client
import uuid

from tests.live.server import Site

CAMPAIGN = "a-garganta"
SCENE_TITLE = "A galeria do andar 3"


def scene_id(site: Site) -> str:
    answer = site.request("GET", "/api/v1/scenes", user="mestre")
    assert answer.status == 200, answer.text
    return next(s["id"] for s in answer.json() if s["title"] == SCENE_TITLE)


def roll_body(key: str) -> dict:
    """The body of a roll whose label tells which request it was."""
    return {
        "label": f"Observação {key}",
        "base_level": 12,
        "kind": "skill",
        "modifiers": [{"label": "penumbra", "value": -1}],
        "hidden": False,
    }


def post_roll(site: Site, scene: str, key: str, *, timeout: float = 15):
    """POST one roll with ``Idempotency-Key: key``. Returns the Response, or the exception a
    request that got no answer raised (connection refused or reset, timeout)."""
    try:
        return site.request(
            "POST",
            f"/api/v1/scenes/{scene}/rolls",
            roll_body(key),
            user="mestre",
            headers={"Idempotency-Key": key},
            timeout=timeout,
        )
    except (OSError, http.client.HTTPException) as error:
        return error


def sequences(site: Site) -> list[int]:
    """The campaign's roll numbers, in order."""
    rows = site.query(
        "SELECT r.sequence FROM mesa_roll r JOIN sheets_campaign c ON c.id = r.campaign_id"
        " WHERE c.slug = %s ORDER BY r.sequence",
        (CAMPAIGN,),
    )
    return [row[0] for row in rows]


def stored_by_key(site: Site) -> dict[str, list[tuple[str, int]]]:
    """request_key → [(roll code, sequence), …] of every roll stored with a key."""
    rows = site.query(
        "SELECT r.request_key, r.code, r.sequence FROM mesa_roll r"
        " JOIN sheets_campaign c ON c.id = r.campaign_id"
        " WHERE c.slug = %s AND r.request_key <> ''",
        (CAMPAIGN,),
    )
    found: dict[str, list[tuple[str, int]]] = {}
    for key, code, sequence in rows:
        found.setdefault(key, []).append((str(uuid.UUID(str(code))), sequence))
    return found


def assert_chain_intact(site: Site, count: int) -> None:
    """``manage.py verify_rolls`` and GET /api/v1/rolls/verify both say: intact, ``count``."""
    said = site.verify_rolls()
    assert said == f"{CAMPAIGN}: íntegra, {count} rolagens", said
    answer = site.request("GET", f"/api/v1/rolls/verify?campaign={CAMPAIGN}", user="mestre")
    assert answer.status == 200, answer.text
    assert answer.json() == {"ok": True, "count": count, "first_broken": None}


def assert_gapless(site: Site) -> int:
    """The campaign's rolls are numbered 1..N without a gap or a repeat; returns N."""
    numbers = sequences(site)
    assert numbers == list(range(1, len(numbers) + 1)), (
        f"sequence with gaps or repeats: {len(numbers)} rolls, "
        f"missing {sorted(set(range(1, len(numbers) + 1)) - set(numbers))[:10]}"
    )
    return len(numbers)
