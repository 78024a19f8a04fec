"""The sheet page lives during a fight (issue 24; docs/DESIGN.md, invariant 12 (The state is live)):
its live region — the head (PV, fatigue, conditions), Carga and the defences, and an attack that
waits for this character's defence (§4.6) — follows the character's state as the scene page follows
its scene, through the same doorbell (``campaigns.doorbell``, the character's bell).

- ``sheet_fight(character)``: the character in the running fights (given by the table, sheets.table) (crippled limbs, shock, an
  attack that waits for his defence), in one query (more only when one waits).
- ``sheet_events``: the page's stream (Server-Sent Events, event ``sheet``) — the viewer's
  token moved; under WSGI, a retry, and the page's fallback poll carries the news.
"""

from __future__ import annotations

from contextlib import aclosing
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.core.handlers.wsgi import WSGIRequest
from django.db import connection
from django.http import HttpResponse, StreamingHttpResponse

from campaigns import doorbell
from sheets.table import table

WSGI_RETRY_MS = 60_000


@dataclass(frozen=True)
class SheetFight:
    """The character in the running fights, for its sheet page: its combatants (crippled
    limbs, shock, posture as the fight left them) and each attack that waits for its defence,
    as the combat page's partial takes it: (what waits, True, whether the reader answers)."""

    combatants: list
    pending: list

    @property
    def token(self) -> str:
        return ",".join(
            f"{c.code}/{c.pending_defence.get('event', '')}/{'+'.join(c.crippled)}/"
            f"{c.shock}/{c.posture}/{c.status}"
            for c in self.combatants
        )

    @property
    def crippled(self) -> list[str]:
        names = {"arm": "braço", "hand": "mão", "leg": "perna", "foot": "pé", "eye": "olho"}
        return [names.get(part, part) for c in self.combatants for part in c.crippled]


def sheet_fight(character, *, answers: bool) -> SheetFight:
    """``character`` in the running combats (the table's ``sessions.combat.sheet.sheet_fight``,
    handed in through ``sheets.table``); no fight without the table."""
    fight = table().fight
    return fight(character, answers=answers) if fight else SheetFight([], [])


def live_token(revision_key: str, fight: SheetFight) -> str:
    """What the live region is drawn from: the sheet's fingerprint and the fight."""
    return revision_key + ":" + fight.token


def _token_now(code) -> str:
    from sheets.models import Character
    from sheets.reads import sheet_revision, state_of

    try:
        character = Character.objects.get(code=code)
        state = state_of(character)
        revision = sheet_revision(character, state)
        key = revision.key if revision is not None else str(state.updated_at)
        return live_token(key, sheet_fight(character, answers=False))
    finally:
        connection.close()  # a stream lives for minutes: no connection held between looks


def _check(request, code) -> str:
    from sheets.access import character_for_member

    try:
        character, _ = character_for_member(request, code)
        return str(character.code)
    finally:
        connection.close()


async def sheet_events(request, code):
    """``GET /fichas/<code>/eventos/``: the character's doorbell as Server-Sent Events, for a
    member of its campaign (404 otherwise, as for the page): event ``sheet`` when what the live
    region is drawn from moved; a ``: ping`` comment every 15 s."""
    if isinstance(request, WSGIRequest):
        await sync_to_async(_check, thread_sensitive=True)(request, code)
        return HttpResponse(f"retry: {WSGI_RETRY_MS}\n\n", content_type="text/event-stream")
    character_code = await sync_to_async(_check, thread_sensitive=False)(request, code)
    first = await sync_to_async(_token_now, thread_sensitive=False)(character_code)

    async def token():
        return await sync_to_async(_token_now, thread_sensitive=False)(character_code)

    async def stream():
        yield "retry: 3000\n\n"
        watching = doorbell.watch(doorbell.character_key(character_code), token, since=first)
        async with aclosing(watching):
            async for now in watching:
                yield ": ping\n\n" if now is None else f"event: sheet\ndata: {now}\n\n"

    response = StreamingHttpResponse(stream(), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response
