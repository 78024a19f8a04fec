"""The scene page's live updates: each viewer's change token, and the stream that says when it
moved. What rings the bell (campaigns.doorbell.ring_scene, inside the writing transaction):
an entry of the log, a roll, a combat or exploration event, the homologation that reveals the
week's hidden rolls, closing the scene.

- ``scene_changes(scene_id, membership, user)``: what this viewer may see of the scene, as three
  numbers — the log (entries he may see, and whether hidden rolls are revealed), the combat and
  the exploration (their revisions) — in one query. A hidden roll another jogador may not see
  moves no token of his, so the bell tells him nothing about it.
- ``scene_events``: the stream a scene page holds (Server-Sent Events): one event per part that
  moved (``log``, ``combat``, ``exploration``), and a comment as heartbeat.
"""

from __future__ import annotations

from contextlib import aclosing

from asgiref.sync import sync_to_async
from django.core.handlers.wsgi import WSGIRequest
from django.db import connection
from django.db.models import Count, IntegerField, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.http import HttpResponse, StreamingHttpResponse

from campaigns import doorbell
from sessions.access import get_scene
from sessions.models import (
    Combat,
    Declaration,
    Exploration,
    ModifierAnnouncement,
    Narration,
    Roll,
    Scene,
)

PARTS = ("log", "combat", "exploration")
WSGI_RETRY_MS = 60_000


def _count(model, condition: Q | None = None):
    rows = model.objects.filter(scene=OuterRef("pk"))
    if condition is not None:
        rows = rows.filter(condition)
    counted = rows.order_by().values("scene").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


def _revisions(model):
    rows = model.objects.filter(scene=OuterRef("pk")).order_by().values("scene")
    summed = rows.annotate(n=Sum("revision") + Count("pk")).values("n")
    return Coalesce(Subquery(summed, output_field=IntegerField()), Value(0))


def scene_changes(scene_id: int, *, runs_the_table: bool, user_id: int | None) -> dict:
    """The viewer's change token of the scene, one number per part (``PARTS``), in one query.
    The rolls counted are the ones the viewer sees (timeline.roll_visibility): every roll for
    the table, and for a jogador the open ones and the hidden ones of his own characters —
    all of them once the week's hidden rolls are revealed."""
    scene = Scene.objects.select_related("week__report").get(pk=scene_id)
    revealed = scene.week.hidden_rolls_revealed
    visible = None
    if not (runs_the_table or revealed):
        visible = Q(hidden=False) | Q(character__owner_id=user_id)
    numbers = (
        Scene.objects.filter(pk=scene_id)
        .annotate(
            n_declarations=_count(Declaration),
            n_announcements=_count(ModifierAnnouncement),
            n_narrations=_count(Narration),
            n_rolls=_count(Roll, visible),
            n_combat=_revisions(Combat),
            n_exploration=_revisions(Exploration),
        )
        .values(
            "n_declarations",
            "n_announcements",
            "n_narrations",
            "n_rolls",
            "n_combat",
            "n_exploration",
        )
        .get()
    )
    entries = numbers["n_declarations"] + numbers["n_announcements"] + numbers["n_narrations"]
    return {
        "log": f"{entries}-{numbers['n_rolls']}-{int(revealed)}",
        "combat": str(numbers["n_combat"]),
        "exploration": str(numbers["n_exploration"]),
    }


def _changes_now(scene_id, runs_the_table, user_id) -> dict:
    try:
        return scene_changes(scene_id, runs_the_table=runs_the_table, user_id=user_id)
    finally:
        # A stream lives for minutes: it holds no database connection between two looks.
        connection.close()


def _viewer(request, code) -> tuple[int, object, bool, int | None, dict]:
    try:
        scene, membership = get_scene(request, code)
        user_id = request.user.pk
        runs = membership.runs_the_table
        return (
            scene.pk,
            scene.code,
            runs,
            user_id,
            scene_changes(scene.pk, runs_the_table=runs, user_id=user_id),
        )
    finally:
        connection.close()


def _sse(event: str, data: str) -> str:
    return f"event: {event}\ndata: {data}\n\n"


async def scene_events(request, code):
    """``GET /cenas/<code>/eventos/``: the scene's doorbell as Server-Sent Events, for a member
    of its campaign (404 otherwise, as for the page). Events ``log``, ``combat``,
    ``exploration`` carry the part's new token; a ``: ping`` comment every 15 s. Under WSGI
    (no streaming): an empty answer asking the client to retry in a minute."""
    if isinstance(request, WSGIRequest):
        # A WSGI server (runserver, the tests' live server) would buffer an endless stream
        # forever: after the same check as the page (in the request's own thread), it says
        # to come back in a minute, and the page's fallback poll carries the news.
        await sync_to_async(get_scene, thread_sensitive=True)(request, code)
        return HttpResponse(f"retry: {WSGI_RETRY_MS}\n\n", content_type="text/event-stream")
    scene_id, scene_code, runs, user_id, first = await sync_to_async(
        _viewer, thread_sensitive=False
    )(request, code)

    async def token():
        return await sync_to_async(_changes_now, thread_sensitive=False)(scene_id, runs, user_id)

    async def stream():
        last = first
        yield "retry: 3000\n\n"
        watching = doorbell.watch(doorbell.scene_key(scene_code), token, since=first)
        async with aclosing(watching):
            async for now in watching:
                if now is None:
                    yield ": ping\n\n"
                    continue
                for part in PARTS:
                    if now[part] != last[part]:
                        yield _sse(part, now[part])
                last = now

    response = StreamingHttpResponse(stream(), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response
