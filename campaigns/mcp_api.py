"""How an MCP tool does what it does: by calling the site's own API, in the same process, with
the caller's own bearer token.

A tool is one or a few operations of ``/api/v1/``, sent through httpx's in-process ASGI
transport to Django — no socket, no second server. So a tool reaches exactly what its user's
token reaches on the API: the same permissions, the same validation and vocabularies, the same
``Idempotency-Key`` (the tool's ``idempotency_key`` argument), the same Portuguese refusals.
There is one code path for every rule of access; the MCP layer adds none of its own.

This module imports no app: the tools of each capability (``sessions/<capability>/tools.py``,
``sheets/tools.py``, ``canon/tools.py``) import it, and ``garganta_site.mcp`` registers them.
"""

from __future__ import annotations

from typing import Annotated, Any

import httpx2
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import Field

from campaigns.http import DRY_RUN_HEADER

API = "/api/v1"

# The tool argument every writing tool takes: the REST API's Idempotency-Key header. Capped
# below the stored 64 characters so a tool of several steps can derive one key per step.
IdempotencyKey = Annotated[
    str,
    Field(
        default="",
        max_length=48,
        description=(
            "Chave de idempotência (até 48 caracteres): o mesmo pedido com a mesma chave devolve "
            "o que o primeiro fez, sem rolar de novo; a mesma chave com outro pedido é recusada. "
            "Um pedido recusado deixa a chave livre para o pedido corrigido."
        ),
    ),
]

NO_TOKEN = (
    "Mande o token Bearer do site no cabeçalho Authorization (crie-o na página Token da API)."
)
# The headers of the MCP request that the in-process API request keeps: the scheme the proxy
# saw (the HTTPS redirect) and the client's address and agent (the logs). The host goes in the
# base URL (ALLOWED_HOSTS checks it).
FORWARDED = ("x-forwarded-proto", "x-forwarded-for", "user-agent")

_django_app = None


def _django():
    global _django_app
    if _django_app is None:
        # Each API call in its view's one mode, as the site serves it (campaigns.django_asgi).
        from campaigns.django_asgi import DjangoByViewMode

        _django_app = DjangoByViewMode()
    return _django_app


# The API's names a tool's caller knows by another: the header is the tool's argument.
MCP_NAMES = {"Idempotency-Key": "idempotency_key"}


def _as_mcp(text: str) -> str:
    for api_name, mcp_name in MCP_NAMES.items():
        text = text.replace(api_name, mcp_name)
    return text


def refusal_text(status: int, body: Any) -> str:
    """The tool error's text for an API refusal: the Portuguese detail (each field's message for
    a body that did not validate), then the field, the code and the HTTP status, so a client
    may act on it (``…  [campo: label; código: invalid; HTTP 422]``). The API's names the
    tool's caller sends otherwise are said as it sends them (``MCP_NAMES``: the
    ``Idempotency-Key`` header is the ``idempotency_key`` argument)."""
    if not isinstance(body, dict):
        return f"Recusado (HTTP {status})."
    detail = body.get("detail")
    if isinstance(detail, list):
        detail = " ".join(f"{item.get('field')}: {item.get('message')}" for item in detail)
    if isinstance(detail, str):
        detail = _as_mcp(detail)
    tags = [f"campo: {_as_mcp(str(body['field']))}"] if body.get("field") else []
    tags += [f"código: {body.get('code')}", f"HTTP {status}"]
    extra = {k: v for k, v in body.items() if k not in ("code", "detail", "field") and v}
    tags += [f"{k}: {v}" for k, v in extra.items()]
    return f"{detail} [{'; '.join(tags)}]"


async def api_call(
    ctx: Context,
    method: str,
    path: str,
    *,
    body: Any = None,
    query: dict[str, Any] | None = None,
    key: str = "",
    dry_run: bool = False,
) -> Any:
    """Send one API operation as the MCP caller: ``method`` and ``path`` under ``/api/v1``
    (``"/scenes/<uuid>/rolls"``), a JSON ``body``, ``query`` parameters (None values left
    out) and the ``Idempotency-Key``. Returns the answer's JSON (a dict or a list). With
    ``dry_run``, the API runs it and keeps nothing (``campaigns.http.dry_run_requests``):
    a tool of several calls tries them first, so a refusal leaves nothing half-written.

    Raises ToolError with the API's Portuguese refusal (``refusal_text``) for any answer of 400
    or more, and with NO_TOKEN when the MCP request carried no bearer token."""
    token = get_access_token()
    if token is None:
        raise ToolError(NO_TOKEN)
    headers = {"authorization": f"Bearer {token.token}"}
    incoming = ctx.headers or {}
    headers |= {name: incoming[name] for name in FORWARDED if name in incoming}
    if key:
        headers["idempotency-key"] = key
    if dry_run:
        headers[DRY_RUN_HEADER.lower()] = "1"
    host = incoming.get("host", "localhost")
    params = {k: v for k, v in (query or {}).items() if v is not None}
    transport = httpx2.ASGITransport(app=_django())
    async with httpx2.AsyncClient(transport=transport, base_url=f"http://{host}") as client:
        response = await client.request(
            method, API + path, json=body, params=params, headers=headers
        )
    try:
        data = response.json()
    except ValueError:
        data = None
    if response.status_code >= 400:
        raise ToolError(refusal_text(response.status_code, data))
    return data


def step_key(key: str, step: str) -> str:
    """The Idempotency-Key of one step of a tool of several (``"k1/combatente-2"``): a replay
    of the whole tool with the same key replays each step, and a step refused leaves its key
    free for the corrected call."""
    return f"{key}/{step}" if key else ""


def payload(model) -> dict:
    """A tool argument that is one of the API's request schemas, as the JSON the API takes
    (unset optional fields left out, so the API's defaults apply)."""
    return model.model_dump(mode="json", exclude_unset=True)


def tool(*, read_only: bool = False, destructive: bool = False):
    """Mark a function as an MCP tool of its capability's ``TOOLS``, with the hints a client
    shows its user: ``read_only`` (changes nothing), ``destructive`` (cannot be undone: ending
    a combat, sending a report). Every writing tool is idempotent given its key."""

    def mark(fn):
        fn.annotations = ToolAnnotations(
            read_only_hint=read_only,
            destructive_hint=destructive,
            idempotent_hint=True,
            open_world_hint=False,
        )
        return fn

    return mark
