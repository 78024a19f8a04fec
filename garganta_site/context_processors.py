"""What every page's layout (templates/base.html) needs."""

from __future__ import annotations

from functools import cache

from django.conf import settings
from django.urls import reverse

NAV = ("home", "rules", "procedure-tables", "queue", "console", "account", "logout")


@cache
def _nav_urls() -> dict[str, str]:
    # The layout's links never change while the process lives: reversed once, not on every
    # page (eight reversals were most of the cost of drawing the layout).
    return {name.replace("-", "_"): reverse(name) for name in NAV}


def nav(request) -> dict:
    """``nav_urls``: the layout's links by URL name (``nav_urls.home``, ``nav_urls.procedure_tables`` …);
    ``live_fallback_seconds``: how often a live region polls when its event stream is down."""
    return {
        "nav_urls": _nav_urls(),
        "live_fallback_seconds": settings.GARGANTA_FALLBACK_POLL_SECONDS,
    }
