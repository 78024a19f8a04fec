"""The start of every write of the combat tracker: who asks, the lock, the replay, and the
defences whose time ran out applied first (§4.6).

A module of its own, above ``sessions.combat.pending`` (which resolves the answers through
``sessions.combat.answer``) and below every service that writes: ``state`` stays below them
all, so the tracker's modules import each other without a cycle.
"""

from __future__ import annotations

from sessions.combat.messages import COMBAT_ENDED
from sessions.combat.pending import defences_overdue_apply
from sessions.models import Combat
from sessions.tracker import tracker_begin


def combat_begin(combat: Combat, user, request_key: str, kind: str):
    """Check who asks, lock, replay (``sessions.tracker``): (fresh combat, earlier event or
    None). A defence whose time ran out is applied first (``pending.defences_overdue_apply``)."""
    fresh, earlier = tracker_begin(
        combat,
        user=user,
        request_key=request_key,
        kind=kind,
        ended=COMBAT_ENDED,
        code="combat_ended",
        related=("first_roll",),
    )
    if earlier is None:
        if defences_overdue_apply(fresh):
            fresh.refresh_from_db()
    return fresh, earlier
