"""The API under /api/v1/: one NinjaAPI, each app's router, errors mapped in one place.

The Mestre de Cena of this campaign is an AI that works through this API, with a bearer
token (``python manage.py api_token USERNAME``); the browser uses its session and CSRF.
"""

from __future__ import annotations

import json
import re
import sys
from urllib.parse import urlencode

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.views import defaults
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser

from campaigns.api_errors import (
    BODY_NOT_JSON,
    ErrorOut,
    errors,
    validation_message,
)
from campaigns.auth import AUTH
from campaigns.errors import ServiceError
from gurps.errors import GurpsError, InvalidValue, NoRollAtThreeOrLess, OutsideCanon
from rulesets.base import RulesetError

NUL_REFUSED = "Caracteres nulos não são permitidos."
BODY_TOO_LARGE = (
    "O corpo do pedido é grande demais: o limite é {limit} bytes ({megabytes} MB). Nenhum "
    "pedido da API precisa de tanto."
)
BODY_TOO_DEEP = (
    "O JSON do pedido é aninhado demais (listas ou objetos uns dentro dos outros além do que "
    "o servidor lê). Nenhum pedido da API precisa disso."
)
NOT_FOUND = "Não encontrado (ou não é de uma campanha sua)."


def _nul_at(value, path: tuple = ()) -> tuple | None:
    """Where the first NUL character is in a parsed JSON body, or None."""
    if isinstance(value, str):
        return path if "\x00" in value else None
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, item in items:
        if isinstance(key, str) and "\x00" in key:
            return (*path, key)
        found = _nul_at(item, (*path, key))
        if found is not None:
            return found
    return None


class NulRefused(ValueError):
    """A NUL character at ``field`` (dotted path) of a JSON body."""

    def __init__(self, field: str) -> None:
        super().__init__(NUL_REFUSED)
        self.field = field


class BodyTooDeep(Exception):
    """A JSON body nested deeper than Python's recursion limit lets the parser read."""


class NoNulParser(Parser):
    """JSON bodies as usual, but a NUL character anywhere is refused, as the page forms refuse
    it (Django's form fields) and PostgreSQL cannot store it in text."""

    def parse_body(self, request):
        try:
            data = super().parse_body(request)
            where = _nul_at(data)
        except RecursionError:
            raise BodyTooDeep from None
        if where is not None:
            # Ninja turns a parser error into HttpError(400) from it; on_http_error says 422.
            raise NulRefused(".".join(str(part) for part in where))
        return data


api = NinjaAPI(
    title="Garganta",
    version="1",
    description="O site da campanha A Garganta. Quem rola é sempre o servidor.",
    urls_namespace="api",
    docs_url="/docs",
    parser=NoNulParser(),
)


def _error(request, status: int, code: str, detail, **extra):
    """The one body of every refusal (``ErrorOut``): a code, the detail, the field at fault."""
    body = {"code": code, "detail": detail, "field": None, **extra}
    return api.create_response(request, body, status=status)


LIST_ITEM = "{list} nº {number}{named}: {message}"
LIST_ITEM_NAMED = " («{name}»)"
# The keys that name an item of a list of the API's bodies (a modifier's label, a change's
# reason, a creature's name), said with the item's number in a refusal about it.
ITEM_NAMES = ("label", "reason", "name")


def _body(request):
    try:
        return json.loads(request.body or b"null")
    except (ValueError, RecursionError):
        return None


def _item_said(body, loc: list, message: str) -> str:
    """``message`` about an item of a list (``modifiers.1.value``) said with which one:
    "modifiers nº 2 («queda»): O maior valor aceito é 50." — the number counted from 1 and
    the item's label, reason or name when it has one."""
    for i in range(len(loc) - 1, -1, -1):
        if not loc[i].isdigit() or i == 0:
            continue
        node = body
        try:
            for part in loc[: i + 1]:
                node = node[int(part)] if part.isdigit() else node[part]
        except (KeyError, IndexError, TypeError):
            return message
        name = next(
            (
                node[k]
                for k in ITEM_NAMES
                if isinstance(node, dict) and isinstance(node.get(k), str)
            ),
            "",
        )
        named = LIST_ITEM_NAMED.format(name=name[:60]) if name.strip() else ""
        where = ".".join(loc[:i])
        return LIST_ITEM.format(list=where, number=int(loc[i]) + 1, named=named, message=message)
    return message


# A loc's parts that are pydantic's wrappers (``function-wrap[_run_root_validator()]``) or a
# discriminated union's tag (``Tag("tag:xuleta5e")``), not a field of the body.
_NOT_A_FIELD = re.compile(r"^(function-[a-z-]+\[.*\]|tag:.*)$")


@api.exception_handler(ValidationError)
def on_validation_error(request, exc: ValidationError):
    fields, messages = [], []
    body = None
    for error in exc.errors:
        where = error.get("loc", ())
        loc = [str(part) for part in where if part not in ("body", "query", "path")]
        loc = [part for part in loc if not _NOT_A_FIELD.match(part)]
        if loc and loc[0] == "payload":
            loc = loc[1:]
        fields.append(".".join(loc))
        message = validation_message(error)
        if "body" in where and any(part.isdigit() for part in loc[1:]):
            body = _body(request) if body is None else body
            message = _item_said(body, loc, message)
        messages.append(message)
    return _error(
        request,
        422,
        "invalid",
        [{"field": f, "message": m} for f, m in zip(fields, messages, strict=True)],
        field=fields[0] if fields else None,
    )


@api.exception_handler(NoRollAtThreeOrLess)
def on_no_roll(request, exc: NoRollAtThreeOrLess):
    return _error(
        request, 422, "no_roll_at_3_or_less", exc.message, effective_level=exc.effective_level
    )


@api.exception_handler(OutsideCanon)
def on_outside_canon(request, exc: OutsideCanon):
    # The canon has no number: say so, and point a client at the divergence form, filled in
    # (the Mestre may propose it; the Árbitro decides).
    query = urlencode(
        {"secao": exc.rule, "contexto": f"{request.method} {request.get_full_path()}"}
    )
    offer = f"{reverse('divergence-new')}?{query}"
    return _error(request, 422, "outside_canon", exc.message, rule=exc.rule, divergence_form=offer)


@api.exception_handler(InvalidValue)
def on_invalid_value(request, exc: InvalidValue):
    return _error(request, 422, "invalid", exc.message, field=exc.field)


@api.exception_handler(GurpsError)
def on_gurps_error(request, exc: GurpsError):
    return _error(request, 422, "invalid", exc.message)


@api.exception_handler(RulesetError)
def on_ruleset_error(request, exc: RulesetError):
    # Another ruleset's refusal (a roll its rules forbid, an unknown ruleset …).
    return _error(request, 422, "invalid", exc.message, field=exc.field or None)


@api.exception_handler(RequestDataTooBig)
def on_body_too_large(request, exc):
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    detail = BODY_TOO_LARGE.format(limit=limit, megabytes=f"{limit / 1_048_576:.1f}")
    return _error(request, 413, "too_large", detail, field="body")


@api.exception_handler(BodyTooDeep)
def on_body_too_deep(request, exc):
    return _error(request, 400, "invalid_json", BODY_TOO_DEEP, field="body")


@api.exception_handler(ServiceError)
def on_service_error(request, exc: ServiceError):
    conflicts = {
        "idempotency_conflict": 409,
        "already_resolved": 409,
        "already_answered": 409,
        # A defence awaited, or none to answer (§4.6): the fight's state, not the body, is wrong.
        "defence_pending": 409,
        "no_pending_defence": 409,
    }
    status = {"forbidden": 403, "not_found": 404, **conflicts}.get(exc.code, 422)
    return _error(request, status, exc.code, exc.message, field=exc.field or None)


@api.exception_handler(AuthenticationError)
def on_unauthenticated(request, exc):
    return _error(request, 401, "unauthenticated", "Entre no site ou mande um token Bearer.")


@api.exception_handler(Http404)
def on_not_found(request, exc):
    return _error(request, 404, "not_found", NOT_FOUND)


def page_not_found(request, exception):
    """The site's handler404: under /api/ a URL no operation matches (an id that is not a UUID,
    a week number that is not a number) gets the API's JSON 404, not the HTML page."""
    if request.path.startswith("/api/"):
        return on_not_found(request, exception)
    return defaults.page_not_found(request, exception)


@api.exception_handler(HttpError)
def on_http_error(request, exc: HttpError):
    cause = exc.__cause__
    if isinstance(cause, BodyTooDeep):
        return on_body_too_deep(request, cause)
    if isinstance(cause, RequestDataTooBig):
        return on_body_too_large(request, cause)
    if isinstance(cause, NulRefused):
        return _error(request, 422, "invalid", NUL_REFUSED, field=cause.field)
    if exc.status_code == 400 and isinstance(cause, json.JSONDecodeError):
        where = f"linha {cause.lineno}, coluna {cause.colno}"
        return _error(
            request, 400, "invalid_json", BODY_NOT_JSON.format(reason=where), field="body"
        )
    if exc.status_code == 400 and isinstance(cause, ValueError | UnicodeDecodeError):
        return _error(
            request, 400, "invalid_json", BODY_NOT_JSON.format(reason="ilegível"), field="body"
        )
    codes = {403: "forbidden", 404: "not_found", 429: "too_many_requests"}
    response = _error(request, exc.status_code, codes.get(exc.status_code, "invalid"), str(exc))
    if getattr(exc, "retry_after", None):
        response["Retry-After"] = str(exc.retry_after)
    return response


def _register_routers() -> None:
    from rules.api import router as rules_router
    from sessions.log.api import rolls_router
    from sessions.log.api import router as scenes_router
    from sessions.weeks.api import router as weeks_router
    from sheets.api import me_router
    from sheets.api import router as sheets_router

    api.add_router("/rules", rules_router, tags=["regras"])
    api.add_router("/me", me_router, tags=["fichas"])
    api.add_router("/sheets", sheets_router, tags=["fichas"])
    api.add_router("/scenes", scenes_router, tags=["cenas"])
    api.add_router("/scenes", "sessions.log.scene_api.router", tags=["cenas"])
    api.add_router("/weeks", weeks_router, tags=["semanas"])
    api.add_router("/rolls", rolls_router, tags=["rolagens"])
    api.add_router("/console", "console.api.router", tags=["console do Árbitro"])
    api.add_router("/console", "console.skills_api.router", tags=["console do Árbitro"])
    api.add_router("/combats", "sessions.combat.api.router", tags=["combate"])
    api.add_router("/fights", "sessions.native_combat.api.router", tags=["combate (sistema001)"])
    api.add_router("/explorations", "sessions.exploration.api.router", tags=["exploração"])


_register_routers()

__all__ = ["AUTH", "ErrorOut", "api", "errors"]


# --- the database did not answer ---------------------------------------------------------------

DATABASE_UNAVAILABLE = "O banco de dados não respondeu; tente de novo."


def on_database_unavailable(request, exc):
    """PostgreSQL restarting (or SQLite's write lock held past its timeout): a JSON 503 that
    says to try again, instead of Django's HTML 500. A write sent again with the same
    Idempotency-Key is never doubled. Django logs the 503 (django.request)."""
    response = _error(request, 503, "database_unavailable", DATABASE_UNAVAILABLE)
    response["Retry-After"] = "2"
    return response


# OperationalError: the server refused or dropped the connection; InterfaceError: Django's
# connection object was already closed under the request.
api.add_exception_handler(OperationalError, on_database_unavailable)
api.add_exception_handler(InterfaceError, on_database_unavailable)


def server_error(request):
    """The site's handler500. A database that did not answer (a PostgreSQL restart) is a 503
    that says to try again — JSON under /api/, else a page that needs no database (the site's
    layout reads the session and the user); anything else is Django's own 500."""
    error = sys.exc_info()[1]
    if not isinstance(error, (OperationalError, InterfaceError)):
        return defaults.server_error(request)
    if request.path.startswith("/api/"):
        return on_database_unavailable(request, error)
    response = HttpResponse(render_to_string("503.html"), status=503)
    response["Retry-After"] = "2"
    return response
