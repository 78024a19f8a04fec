"""The MCP server for the AI Mestre de Cena: the official ``mcp`` SDK (2.x), streamable HTTP at
``/mcp`` on the site's own host and port (garganta_site.asgi mounts it).

- **Who**: the same per-user bearer tokens as the API (``Authorization: Bearer <token>``; the
  SDK's bearer middleware asks ``SiteTokens``). Without one, the SDK answers 401.
- **What**: about twenty tools, grouped by what a Mestre does, each described in Portuguese;
  each capability keeps its tools next to its API (``sessions/log/tools.py`` …) and lists them
  in ``TOOLS``. A tool calls the API in-process with the caller's token
  (campaigns.mcp_api), so a jogador's token does only what a jogador may.
- **Refusals**: MCP tool errors (``is_error``) carrying the API's Portuguese message; arguments
  that do not fit a tool's schema are said in Portuguese too, with the same messages
  (campaigns.api_errors).
- **Stateless**: every request stands alone (no MCP session held in a worker's memory), so any
  worker of any app server answers any call, and answers are plain JSON.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import ValidationError
from starlette.responses import JSONResponse

from campaigns.api_errors import validation_message
from campaigns.auth import BearerFailures, user_for_token
from campaigns.models import Membership
from console import tools as console_tools
from rules import tools as rules_tools
from rulesets.registry import GURPS3E
from sessions.combat import tools as combat_tools
from sessions.exploration import tools as exploration_tools
from sessions.log import tools as log_tools
from sessions.native_combat import tools as native_combat_tools
from sessions.weeks import tools as weeks_tools
from sheets import tools as sheets_tools

INSTRUCTIONS = """\
Garganta: o site da campanha A Garganta (GURPS Classic, Módulo Básico, com as regras da casa).
Quem rola é sempre o servidor: nenhuma ferramenta aceita um dado. Comece por campaign_overview
(campanhas, seu papel, fichas, semanas, cenas abertas, combates e explorações em andamento).
Os níveis vêm da ficha homologada; os vocabulários fechados (manobras, terrenos, locais, tabelas)
estão nos esquemas das ferramentas e em rules_lookup. Rolagem escondida: hidden=true.
Toda escrita aceita idempotency_key: repita-a ao repetir um pedido que não teve resposta."""

# When the caller has a campaign of another system, the instructions name none (each campaign
# says its own below them), and rules_lookup needs the campaign's key.
INSTRUCTIONS_ANY_SYSTEM = INSTRUCTIONS.replace(
    " (GURPS Classic, Módulo Básico, com as regras da casa).",
    ": cada campanha joga o seu sistema de regras.",
).replace(" (manobras, terrenos, locais, tabelas)", "")
YOUR_CAMPAIGNS = "Suas campanhas e o sistema de regras de cada uma: {campaigns}."
OTHER_SYSTEMS = (
    "Os vocabulários de cada sistema: rules_lookup com topic=vocabularies e o ruleset da "
    "campanha; as ferramentas de combate (combat_*) e as tabelas (3d) são as do GURPS."
)
# A campaign whose system plays its fights whole through the fight_* tools (and, for the Xuleta,
# rolls its d20 checks and the procedure's saves itself).
NATIVE_FIGHTS = {
    "sistema001": (
        "Numa campanha do Sistema 001 [sistema001] o combate é pelas ferramentas fight_*: "
        "fight_start (os números de cada combatente, dados pelo Mestre; o servidor rola a "
        "Iniciativa), fight_turn (o turno inteiro de um combatente numa chamada: plano, ataque "
        "com arma, manobra, situações e tipos de dano; o servidor rola ataque e defesa), "
        "fight_condition, fight_object (ND Estrutural), fight_join (Entrada Tardia), fight_read "
        "e fight_end. As pendências do capítulo (o que ele cita e não traz) estão no console do "
        "Árbitro com a leitura que o site usa; regra que aguarda o Árbitro é recusada."
    ),
    "xuleta5e": (
        "Numa campanha da Xuleta [xuleta5e] (d20, regras rápidas): roll_check rola d20 + o bônus "
        "da ficha contra dc (obrigatório; a CD), com edge (advantage, disadvantage, none) e roll "
        "(check, save, attack); os estados e o esgotamento do personagem dão a vantagem ou a "
        "desvantagem sozinhos, e o log diz por quê. O combate é pelas ferramentas fight_*: "
        "fight_start (personagens pela ficha homologada, monstros pelos números do Mestre; um "
        "grupo de monstros iguais rola uma iniciativa), fight_turn (o turno inteiro numa "
        "chamada: movimento, ação, ação bônus, reações), fight_condition, fight_read, fight_end; "
        "salvações contra a morte no início do turno a 0 PC. Na jornada e na masmorra o site rola "
        "as salvações do procedimento pela ficha de cada um; descansos curto e longo: "
        "exploration_act com act=rest. As pendências da Xuleta estão no console do Árbitro."
    ),
}

UNEXPECTED = "Erro inesperado em {tool}: nada foi confirmado; tente de novo com a mesma chave."
UNKNOWN_TOOL = "Ferramenta desconhecida: {tool}. A lista está em tools/list."

TOOL_MODULES = (
    sheets_tools,
    weeks_tools,
    log_tools,
    combat_tools,
    native_combat_tools,
    exploration_tools,
    rules_tools,
    console_tools,
)


def instructions_for(campaigns: list[tuple[str, str, str, str]]) -> str:
    """The server's instructions for someone in ``campaigns`` (``(name, slug, ruleset key,
    ruleset label)`` each): the canon's text when every one is GURPS (or there is none), the
    same without naming a system otherwise; then which system each campaign uses."""
    if not campaigns:
        return INSTRUCTIONS
    systems = {key for _, _, key, _ in campaigns}
    said = "; ".join(f"«{name}» ({slug}): {label} [{key}]" for name, slug, key, label in campaigns)
    lines = [INSTRUCTIONS if systems == {GURPS3E} else INSTRUCTIONS_ANY_SYSTEM]
    lines.append(YOUR_CAMPAIGNS.format(campaigns=said))
    if systems != {GURPS3E}:
        lines.append(OTHER_SYSTEMS)
    lines.extend(NATIVE_FIGHTS[key] for key in sorted(systems) if key in NATIVE_FIGHTS)
    return "\n".join(lines)


class SiteAccessToken(AccessToken):
    """The SDK's token, with the instructions for its holder (made with the token check, in a
    worker thread: the server's initialize answer runs where the ORM may not)."""

    instructions: str = INSTRUCTIONS


def _user_instructions(user) -> str:
    memberships = (
        Membership.objects.filter(user=user).select_related("campaign").order_by("campaign__slug")
    )
    return instructions_for(
        [
            (m.campaign.name, m.campaign.slug, m.campaign.ruleset, m.campaign.get_ruleset_display())
            for m in memberships
        ]
    )


def _access_token(token: str) -> AccessToken | None:
    try:
        user = user_for_token(token)
        said = _user_instructions(user) if user is not None else ""
    finally:
        connection.close()  # a worker thread of the SDK's: it keeps no connection open
    if user is None:
        return None
    return SiteAccessToken(token=token, client_id=str(user.pk), scopes=[], instructions=said)


def _client_meta(scope) -> SimpleNamespace:
    """What ninja's throttle reads of a request (its address, the proxy's header), from an
    ASGI scope."""
    headers = {k.decode("latin1").lower(): v.decode("latin1") for k, v in scope["headers"]}
    meta = {"REMOTE_ADDR": (scope.get("client") or ("", 0))[0]}
    if "x-forwarded-for" in headers:
        meta["HTTP_X_FORWARDED_FOR"] = headers["x-forwarded-for"]
    return SimpleNamespace(META=meta)


def _exhausted(request) -> tuple[str, int] | None:
    """The refusal's message and seconds to wait, when the address is past its limit."""
    failures = BearerFailures()
    if failures.exhausted(request):
        refusal = failures.refusal()
        return str(refusal), refusal.retry_after
    return None


def _count_failure(request) -> None:
    failures = BearerFailures()
    failures.exhausted(request)  # loads the address's count
    failures.throttle_success()  # one more failure on it


class throttled_bearers:  # noqa: N801 - used as a wrapping function: throttled_bearers(app)
    """The MCP endpoint with the API's count of failed bearer tokens per address
    (campaigns.auth.BearerFailures): a token the SDK answers 401 counts one, and past the
    limit every call from that address is a 429 in Portuguese, with Retry-After, before its
    token is checked — as on /api/v1/ (issue 27). A class, not a closure: Starlette's Route
    takes a plain function for a request handler, an object for an ASGI application."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        request = _client_meta(scope)
        refused = await sync_to_async(_exhausted, thread_sensitive=False)(request)
        if refused is not None:
            message, wait = refused
            answer = JSONResponse(
                {"code": "throttled", "detail": message},
                status_code=429,
                headers={"Retry-After": str(wait)},
            )
            return await answer(scope, receive, send)
        status = {}

        async def watching(event):
            if event["type"] == "http.response.start":
                status["code"] = event["status"]
            await send(event)

        await self.app(scope, receive, watching)
        # Only a token that failed counts (not a client without one, finding the metadata).
        if status.get("code") == 401 and b"authorization" in dict(scope["headers"]):
            await sync_to_async(_count_failure, thread_sensitive=False)(request)


class SiteTokens:
    """The SDK's TokenVerifier over the site's API tokens (campaigns.auth): an active
    token of an active user, or None (the SDK then answers 401)."""

    async def verify_token(self, token: str) -> AccessToken | None:
        return await sync_to_async(_access_token, thread_sensitive=False)(token)


def _argument_errors(error: ValidationError) -> str:
    lines = []
    for item in error.errors():
        where = ".".join(str(part) for part in item.get("loc", ()))
        lines.append(f"{where}: {validation_message(item)}")
    return "Argumentos recusados: " + " ".join(lines) + " [código: invalid]"


class GargantaMCP(MCPServer):
    """MCPServer whose refusals speak Portuguese. The SDK checks a call's arguments against the
    tool's schema before the tool runs and words that refusal in pydantic's English: here each
    field's message is the API's (api_errors.validation_message). A tool's own refusal (the
    API's message) reaches the client as it is, without the SDK's English prefix."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context=None):
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError as error:
            raise UnexpectedToolError(UNEXPECTED.format(tool=name)) from error.__cause__
        except ToolError as error:
            cause = error.__cause__
            if isinstance(cause, ValidationError):
                raise ToolError(_argument_errors(cause)) from cause
            if isinstance(cause, ToolError):
                raise ToolError(str(cause)) from cause
            raise ToolError(UNKNOWN_TOOL.format(tool=name)) from error


def site_url() -> str:
    """The site's public address (``GARGANTA_SITE_URL``; by default the address of `make run`):
    the MCP server names itself by it in its protected-resource metadata."""
    return settings.GARGANTA_SITE_URL.rstrip("/")


def transport_security() -> TransportSecuritySettings:
    """DNS-rebinding protection from the site's own ALLOWED_HOSTS: a Host header the site
    would refuse is refused at /mcp too (any port), and so is a browser Origin of another site."""
    hosts = [h for h in settings.ALLOWED_HOSTS if h and h != "*"]
    if "*" in settings.ALLOWED_HOSTS:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    allowed_hosts = [pattern for h in hosts for pattern in (h, f"{h}:*")]
    origins = [f"{scheme}://{h}" for h in hosts for scheme in ("http", "https")]
    allowed_origins = [pattern for o in origins for pattern in (o, f"{o}:*")]
    allowed_origins += list(settings.CSRF_TRUSTED_ORIGINS)
    return TransportSecuritySettings(allowed_hosts=allowed_hosts, allowed_origins=allowed_origins)


def build_server() -> GargantaMCP:
    """The server with every capability's tools registered (``TOOLS`` of each tools module)."""
    url = site_url()
    server = GargantaMCP(
        name="garganta",
        title="Garganta — a mesa da campanha A Garganta",
        instructions=INSTRUCTIONS,
        token_verifier=SiteTokens(),
        auth=AuthSettings(
            issuer_url=url,
            resource_server_url=f"{url}/mcp",
            validate_token_resource=False,  # the site's tokens are for the site, not an audience
        ),
        warn_on_duplicate_tools=True,
    )
    for module in TOOL_MODULES:
        for tool in module.TOOLS:
            server.add_tool(tool, annotations=getattr(tool, "annotations", None))
    _instructions_per_caller(server)
    return server


def _instructions_per_caller(server: GargantaMCP) -> None:
    """The instructions the server answers (on initialize and on discover) are the caller's
    (``SiteAccessToken``): which system each of their campaigns uses. The SDK reads them from
    its low-level server's ``instructions``, made here a property of the caller's token."""
    lowlevel = server._lowlevel_server  # noqa: SLF001  (the SDK offers no per-caller hook)
    plain = lowlevel.instructions
    lowlevel.__class__ = _per_caller_class(type(lowlevel))
    lowlevel.__dict__.pop("instructions", None)
    lowlevel.site_instructions = plain


def _per_caller_class(base: type) -> type:
    def instructions(self) -> str | None:
        token = get_access_token()
        if isinstance(token, SiteAccessToken):
            return token.instructions
        return self.site_instructions

    def set_instructions(self, value: str | None) -> None:
        self.site_instructions = value

    return type(
        f"PerCaller{base.__name__}",
        (base,),
        {"instructions": property(instructions, set_instructions)},
    )


server = build_server()


def streamable_http_app(server: GargantaMCP):
    """The Starlette app of ``/mcp`` (and the protected-resource metadata under
    ``/.well-known/``) of ``server``; whoever mounts it runs ``server.session_manager.run()``
    in its lifespan."""
    return server.streamable_http_app(
        streamable_http_path="/mcp",
        stateless_http=True,
        json_response=True,
        transport_security=transport_security(),
    )
