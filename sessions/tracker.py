"""What the two trackers (combat, exploration) share: an action begins by checking who asks,
taking the campaign's lock (the chain's) and reading the tracker afresh under it, handing back
what an earlier request with the same key made, and refusing a tracker that has ended; it ends
by writing its event (after its rolls, which name the event's code) and raising the tracker's
revision, which the pages poll.

A tracker is a model with ``scene``, ``is_active``, ``revision`` and ``events`` (a
``TrackerEvent`` subclass with a ``kind``).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django.db import models

from campaigns import doorbell
from campaigns.errors import ServiceError
from campaigns.models import Campaign
from sessions import entries


def tracker_lock(tracker: models.Model, *related: str) -> Any:
    """Take the campaign's lock and read ``tracker`` afresh under it (with ``related``)."""
    Campaign.objects.select_for_update().get(pk=tracker.scene.week.campaign_id)
    return (
        type(tracker).objects.select_related("scene__week__campaign", *related).get(pk=tracker.pk)
    )


def tracker_ensure_active(tracker: models.Model, *, ended: str, code: str) -> None:
    """Refuse an action on a tracker that has ended (``ended``, the API's ``code``) or whose
    scene no longer takes entries."""
    if not tracker.is_active:
        raise ServiceError(ended, code=code)
    entries.ensure_scene_accepts_entries(tracker.scene)


def tracker_begin(
    tracker: models.Model,
    *,
    user,
    request_key: str,
    kind: str | None,
    ended: str,
    code: str,
    related: tuple[str, ...] = (),
    authorize: Callable[[Any], None] | None = None,
) -> tuple[Any, Any]:
    """The start of every tracker action: (the tracker read afresh under the lock, the event an
    earlier request with ``request_key`` made for this ``kind`` — or None, and then the tracker
    is checked to be active). Only the Mestre or the Árbitro act (``entries.require_table``),
    unless ``authorize(user)`` says who else may (it raises ServiceError "forbidden"). ``kind``
    None, for an action that writes events of several kinds (the one-call turn): the earlier
    event is handed back whatever its kind, and the caller checks that it is its own."""
    if authorize is None:
        what = entries.TRACKER_WHAT.get(tracker._meta.model_name, entries.CONDUCTS_SCENE)
        entries.require_table(user, tracker.scene.week.campaign, what=what)
    else:
        authorize(user)
    fresh = tracker_lock(tracker, *related)
    events = fresh.events.all()
    same = {"kind": kind} if kind is not None else {}
    earlier = entries.entry_replayed(events, (request_key or "")[:64], user, **same)
    if earlier is None:
        tracker_ensure_active(fresh, ended=ended, code=code)
    return fresh, earlier


def tracker_event(
    tracker: models.Model,
    *,
    user,
    kind: str,
    text: str,
    lines=(),
    data=None,
    request_key: str = "",
    code=None,
    update_fields: list[str] | None = None,
    **fields,
):
    """Write the event of one action and raise the tracker's revision (saving ``update_fields``
    of the tracker, or all of it). ``fields`` are the event model's own (round, turn …)."""
    tracker.revision += 1
    tracker.save(update_fields=["revision", *update_fields] if update_fields else None)
    doorbell.ring_scene(tracker.scene)
    return tracker.events.create(
        code=code or uuid.uuid4(),
        kind=kind,
        text=text,
        lines=list(lines),
        data=data or {},
        author=user,
        request_key=(request_key or "")[:64],
        **fields,
    )
