"""What a logged-in request spends reading its session, for the tests that pin a page's
queries: one query with the sessions in the database alone (no REDIS_URL), none when they are
read through the shared cache (Django's cached_db, with REDIS_URL; garganta_site/settings.py)."""

from __future__ import annotations

from django.conf import settings

SESSION_QUERIES = 0 if settings.SESSION_ENGINE.endswith(".cached_db") else 1
