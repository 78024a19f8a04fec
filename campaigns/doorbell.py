"""The doorbell: a page holding a scene open hears that the scene changed, without polling.

A write rings the bell of what it changed (``ring("scene:<code>")``) inside its own
transaction; a stream (``watch``) waits for the bell, then asks its own viewer's change token
(``token()``, which counts only what that viewer may see) and says so when it moved. Nothing
the bell carries is content: each client then fetches what it may see, so hidden rolls stay
filtered per viewer.

- **PostgreSQL**: ``ring`` is ``pg_notify`` in the writing transaction, so it is delivered on
  commit and never for a write rolled back; one ``LISTEN`` connection per worker process (per
  event loop) hears every app server's writes and fans them out to that worker's streams.
  When the listening connection drops, every stream is woken to re-check, and the listener
  reconnects.
- **SQLite** (one machine): ``ring`` does nothing; the stream watches its token inside the
  server, every ``POLL_SECONDS``.

Both send a heartbeat (None) every ``HEARTBEAT_SECONDS``, so a proxy keeps the stream open and
a client notices a dead one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable

from django.db import connection

log = logging.getLogger(__name__)

CHANNEL = "garganta_doorbell"
POLL_SECONDS = 0.25
HEARTBEAT_SECONDS = 15.0
RECONNECT_SECONDS = 1.0


def listens() -> bool:
    """Whether the bell is heard through the database (PostgreSQL) rather than by watching."""
    return connection.vendor == "postgresql"


def ring(key: str) -> None:
    """Ring ``key``'s bell (``"scene:<uuid>"``). Call it inside the transaction of the write:
    on PostgreSQL the notification leaves on commit, and a rolled-back write rings nothing."""
    if listens():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, key])


def scene_key(scene_code) -> str:
    """The bell of a scene's page (its log, its combat, its exploration)."""
    return f"scene:{scene_code}"


def character_key(character_code) -> str:
    """The bell of a character's sheet page (its state in play, a defence it is asked)."""
    return f"character:{character_code}"


def ring_scene(scene) -> None:
    """Ring the bell of ``scene`` (a Scene): every write that changes what the scene's page
    shows calls it inside its transaction."""
    ring(scene_key(scene.code))


def _conninfo() -> dict:
    settings = connection.settings_dict
    params = {
        "dbname": settings["NAME"],
        "user": settings.get("USER") or None,
        "password": settings.get("PASSWORD") or None,
        "host": settings.get("HOST") or None,
        "port": settings.get("PORT") or None,
    }
    params.update({k: v for k, v in settings.get("OPTIONS", {}).items() if k == "sslmode"})
    return {k: v for k, v in params.items() if v is not None}


class _Listener:
    """The one LISTEN connection of an event loop, and the streams waiting on it."""

    def __init__(self, conninfo: dict):
        self.conninfo = conninfo
        self.waiters: dict[str, set[asyncio.Event]] = {}
        self.ready = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._run())

    def subscribe(self, key: str) -> asyncio.Event:
        event = asyncio.Event()
        self.waiters.setdefault(key, set()).add(event)
        return event

    def unsubscribe(self, key: str, event: asyncio.Event) -> None:
        """Forget one stream; with the last one gone, the listening connection closes (a
        worker with no open scene page holds no connection)."""
        events = self.waiters.get(key, set())
        events.discard(event)
        if not events:
            self.waiters.pop(key, None)
        if not self.waiters:
            self.task.cancel()
            _listeners.pop(asyncio.get_running_loop(), None)

    def _wake_all(self) -> None:
        for events in self.waiters.values():
            for event in events:
                event.set()

    async def _run(self) -> None:
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    **self.conninfo, autocommit=True
                ) as listening:
                    await listening.execute(f"LISTEN {CHANNEL}")
                    self.ready.set()
                    # Anything rung while the connection was down: everyone re-checks.
                    self._wake_all()
                    async for note in listening.notifies():
                        for event in self.waiters.get(note.payload, ()):
                            event.set()
            except (OSError, psycopg.Error) as error:
                log.warning("doorbell: the listening connection dropped (%s); reconnecting", error)
            self.ready.clear()
            self._wake_all()
            await asyncio.sleep(RECONNECT_SECONDS)


_listeners: dict[asyncio.AbstractEventLoop, _Listener] = {}


def _listener() -> _Listener:
    loop = asyncio.get_running_loop()
    for other in [lp for lp in _listeners if lp.is_closed()]:
        del _listeners[other]
    if loop not in _listeners:
        _listeners[loop] = _Listener(_conninfo())
    return _listeners[loop]


async def watch(
    key: str,
    token: Callable[[], Awaitable[object]],
    *,
    since: object = None,
    heartbeat: float = HEARTBEAT_SECONDS,
    poll: float = POLL_SECONDS,
) -> AsyncIterator[object | None]:
    """Yield ``token()``'s new value each time it moves after ``key`` rang, and None as a
    heartbeat when nothing moved for ``heartbeat`` seconds. ``token`` is the viewer's change
    token (an awaitable of anything comparable); ``since``, the token the viewer already has
    (None: the token now). Ends when the consumer stops iterating."""
    last = since if since is not None else await token()
    waited = 0.0
    if not listens():
        while True:
            await asyncio.sleep(poll)
            waited += poll
            now = await token()
            if now != last:
                last, waited = now, 0.0
                yield now
            elif waited >= heartbeat:
                waited = 0.0
                yield None
    listener = _listener()
    event = listener.subscribe(key)
    try:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(listener.ready.wait(), timeout=5)
        # A write between the first token and the LISTEN: check once now.
        event.set()
        while True:
            try:
                await asyncio.wait_for(event.wait(), timeout=heartbeat)
            except TimeoutError:
                yield None
                continue
            event.clear()
            now = await token()
            if now != last:
                last = now
                yield now
    finally:
        listener.unsubscribe(key, event)
