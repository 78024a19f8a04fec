"""The MCP tests' harness: the SDK's own client, over streamable HTTP, to the site's whole ASGI
application (Django and /mcp, garganta_site.asgi) in this process — no socket, no port.

The tools run the API in Django's worker threads, so the tests use transactional databases
(``pytestmark = pytest.mark.django_db(transaction=True)`` in each module)."""

from __future__ import annotations

import json
from contextlib import asynccontextmanager

import httpx2
import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from campaigns.auth import api_token_create
from garganta_site import mcp
from garganta_site.asgi import build_application

BASE = "http://127.0.0.1:8000"


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
def tokens(mestre, arbitro, jogador, jogadora, rastreadora):
    """A fresh API token of each of the demo's people, by username (made before the async test
    runs: the ORM is not called from the event loop)."""
    people = (mestre, arbitro, jogador, jogadora, rastreadora)
    return {user.get_username(): api_token_create(user=user) for user in people}


@asynccontextmanager
async def connect(token: str | None = None, *, server: mcp.GargantaMCP | None = None):
    """An MCP client session as the holder of ``token`` (None: no Authorization header)."""
    server = server or mcp.build_server()
    app = build_application(server)
    headers = {"authorization": f"Bearer {token}"} if token else {}
    async with server.session_manager.run():
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url=BASE, headers=headers) as http:
            async with Client(streamable_http_client(f"{BASE}/mcp", http_client=http)) as client:
                yield client


@asynccontextmanager
async def http_client(headers: dict | None = None, *, address: str = "127.0.0.1"):
    """A plain HTTP client to the whole application (to see what /mcp answers without MCP),
    from ``address``."""
    server = mcp.build_server()
    app = build_application(server)
    async with server.session_manager.run():
        transport = httpx2.ASGITransport(app=app, client=(address, 123))
        async with httpx2.AsyncClient(
            transport=transport, base_url=BASE, headers=headers or {}
        ) as http:
            yield http


def orm(fn):
    """``fn`` (a function that uses the ORM) as a coroutine function for an async test: it runs
    in a worker thread, whose database connection is closed when it returns (none may be left
    open when the test database is dropped)."""

    def closing(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        finally:
            connection.close()

    return sync_to_async(closing, thread_sensitive=False)


def data(result):
    """The JSON a tool answered (its structured content, else its text)."""
    if result.structured_content is not None:
        content = result.structured_content
        return content.get("result", content) if set(content) == {"result"} else content
    return json.loads(result.content[0].text)


def error_text(result) -> str:
    assert result.is_error, result
    return result.content[0].text
