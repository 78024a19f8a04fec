"""The cache behind the sheet page and the sheets API: local memory without REDIS_URL, Django's
Redis cache with it (settings.py); what is kept is found again by its fingerprint, so a change
shows at once on any worker — whichever cache client answers."""

from __future__ import annotations

import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.sessions.backends import cached_db
from django.core.cache import cache
from django.core.cache.backends.redis import RedisCache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.auth import api_token_create
from sheets.models import CharacterState, Possession

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("REDIS_URL", "")
needs_redis = pytest.mark.skipif(not REDIS_URL, reason="REDIS_URL is not set (make test sets it)")


def _backend_with(redis_url: str | None, setting: str = "CACHES['default']['BACKEND']") -> str:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    if redis_url:
        env["REDIS_URL"] = redis_url
    code = "import django; django.setup(); from django.conf import settings; "
    code += f"print(settings.{setting})"
    env["DJANGO_SETTINGS_MODULE"] = "garganta_site.settings"
    answer = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert answer.returncode == 0, answer.stderr
    return answer.stdout.strip()


def test_the_cache_backend_follows_redis_url():
    assert _backend_with(None) == "django.core.cache.backends.locmem.LocMemCache"
    assert _backend_with("redis://127.0.0.1:1/0") == "django.core.cache.backends.redis.RedisCache"


def test_sessions_are_read_through_the_cache_only_when_it_is_shared():
    """Redis is one cache for every worker, so a logout reaches them all; each worker's local
    memory is not, so without Redis the sessions stay in the database alone."""
    assert _backend_with(None, "SESSION_ENGINE") == "django.contrib.sessions.backends.db"
    assert (
        _backend_with("redis://127.0.0.1:1/0", "SESSION_ENGINE")
        == "django.contrib.sessions.backends.cached_db"
    )


@needs_redis
def test_a_logout_on_one_worker_ends_the_session_on_another(client, jogador, jurado):
    """Two workers are two cache clients of one Redis: the session one of them read (and so
    kept) is gone for the other as soon as the first logs it out."""
    client.force_login(jogador)
    page = reverse("sheet", kwargs={"code": jurado.code})
    assert client.get(page).status_code == 200  # read through the cache, and kept there
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    other = RedisCache(REDIS_URL, {"KEY_PREFIX": settings.CACHES["default"].get("KEY_PREFIX", "")})
    cached_key = f"{cached_db.KEY_PREFIX}{key}"
    assert other.get(cached_key) is not None
    client.post(reverse("logout"))
    assert other.get(cached_key) is None
    client.cookies[settings.SESSION_COOKIE_NAME] = key  # the old cookie, sent again
    assert client.get(page).status_code == 302


def test_this_run_uses_the_cache_its_environment_names():
    backend = settings.CACHES["default"]["BACKEND"]
    if REDIS_URL:
        assert backend == "django.core.cache.backends.redis.RedisCache"
        assert settings.CACHES["default"]["LOCATION"] == REDIS_URL
    else:
        assert backend == "django.core.cache.backends.locmem.LocMemCache"


@pytest.fixture
def api(client, jogador):
    header = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=jogador)}"}

    def get(character):
        response = client.get(f"/api/v1/sheets/{character.code}", **header)
        assert response.status_code == 200
        return response.json()

    return get


def test_the_sheets_api_answers_from_the_cache_with_a_pinned_query_count(
    api, jurado, django_assert_num_queries
):
    api(jurado)
    # Token, the asker's campaigns, the character with its state, the fingerprint.
    with django_assert_num_queries(4):
        assert api(jurado)["derived"]["move"] == 5


def test_the_sheets_api_count_does_not_grow_with_the_possessions(api, jurado):
    had = len(api(jurado)["items"])
    with CaptureQueriesContext(connection) as before:
        api(jurado)
    Possession.objects.bulk_create(
        Possession(character=jurado, loot_name=f"Presa {n}", loot_weight_kg=Decimal("0.1"))
        for n in range(30)
    )
    cache.clear()
    api(jurado)  # cold: reads and computes, and keeps
    with CaptureQueriesContext(connection) as after:
        answer = api(jurado)
    assert len(after) == len(before)
    assert len(answer["items"]) == had + 30


def test_a_state_changed_straight_in_the_table_shows_in_the_api_at_once(api, jurado):
    first = api(jurado)
    assert first["derived"]["hp_remaining"] == 12  # HT 12 (§2.1)
    CharacterState.objects.filter(character=jurado).update(hp_lost=9)
    answer = api(jurado)
    # 9 lost of 12 leaves 3: under 1/3 of the HP, Move 5 halves to 3 (rounded up, §5.4).
    assert answer["hp_lost"] == 9 and answer["derived"]["hp_remaining"] == 3
    Possession.objects.filter(character=jurado, item__name="Cota de malha").update(carried=False)
    assert api(jurado)["carried_kg"] == 11.5  # 23 kg less the 11.5 kg mail coat


def test_the_page_and_the_api_agree_after_a_change(client_for, api, jogador, jurado):
    page = client_for(jogador)
    page.get(reverse("sheet", kwargs={"code": jurado.code}))
    CharacterState.objects.filter(character=jurado).update(hp_lost=9)
    html = page.get(reverse("sheet", kwargs={"code": jurado.code})).content.decode()
    assert "3/12" in html
    assert api(jurado)["derived"]["hp_remaining"] == 3


@needs_redis
def test_two_cache_clients_share_what_one_kept_and_a_change_misses_both(api, jurado):
    """Two workers (or machines) are two cache clients of one Redis: what one kept, the
    other finds; after a change the fingerprint is another and neither answers the old."""
    options = settings.CACHES["default"]
    other = RedisCache(REDIS_URL, {"KEY_PREFIX": options.get("KEY_PREFIX", "")})
    written = []
    original = cache.add

    def spy(key, value, *args, **kwargs):
        written.append(key)
        return original(key, value, *args, **kwargs)

    cache.add = spy
    try:
        api(jurado)
        kept = [k for k in written if k.startswith("sheet-api:")]
        assert len(kept) == 1
        assert other.get(kept[0])["derived"]["hp_remaining"] == 12
        CharacterState.objects.filter(character=jurado).update(hp_lost=9)
        assert api(jurado)["derived"]["hp_remaining"] == 3
        kept_now = [k for k in written if k.startswith("sheet-api:")]
        assert len(kept_now) == 2 and kept_now[1] != kept_now[0]
        assert other.get(kept_now[1])["derived"]["hp_remaining"] == 3
    finally:
        cache.add = original
