"""Who is asking, for the API and the MCP server: per-user bearer tokens (only their SHA-256 is
stored) and the ``Idempotency-Key`` of unsafe requests, which names one request per user.

The rows are ``campaigns.ApiToken`` and ``campaigns.IdempotencyKey`` (a user's own); the rules about
them live here, once, for every app's router.
"""

from __future__ import annotations

import hashlib
import json
import secrets

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.decorators import sync_and_async_middleware
from ninja.errors import HttpError
from ninja.security import HttpBearer, SessionAuth
from ninja.throttling import SimpleRateThrottle

from campaigns.errors import ServiceError
from campaigns.models import ApiToken, IdempotencyKey, Membership

# Messages are constants so tests import them instead of repeating them.
IDEMPOTENCY_KEY_REUSED = (
    "Esta Idempotency-Key já foi usada para outro pedido (outro caminho ou outro corpo). "
    "Use uma chave nova para um pedido novo; a mesma chave só repete o mesmo pedido."
)


# The longest Idempotency-Key taken (what campaigns.IdempotencyKey and each entry's request_key
# store); a longer one is refused, never cut (two long keys cut alike would collide).
IDEMPOTENCY_KEY_MAX = 64
IDEMPOTENCY_KEY_TOO_LONG = (
    "Idempotency-Key longa demais: {length} caracteres, e o limite é {limit}. Use uma chave "
    "mais curta (um UUID tem 36)."
)


def token_hash(token: str) -> str:
    """What is stored of an API token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


TOKEN_ALREADY_CREATED = (
    "Este formulário já criou um token (começa com {prefix}…), e ele não pode ser mostrado de "
    "novo. Se você não o copiou, revogue-o e crie outro."
)


def api_token_create(*, user, request_key: str = "") -> str:
    """Create a bearer token for ``user``; return it once. Only its SHA-256 is stored.

    The same ``request_key`` twice (the account form posted twice: a double click, a reload)
    makes one token: the second call raises ``ServiceError`` (code ``idempotency_conflict``),
    since the token itself cannot be shown again.
    """
    request_key = (request_key or "")[:64]
    earlier = ApiToken.objects.filter(user=user, request_key=request_key)

    def already_created() -> ServiceError:
        prefix = earlier.values_list("prefix", flat=True).get()
        return ServiceError(
            TOKEN_ALREADY_CREATED.format(prefix=prefix), code="idempotency_conflict"
        )

    if request_key and earlier.exists():
        raise already_created()
    token = secrets.token_urlsafe(32)
    try:
        with transaction.atomic():
            ApiToken.objects.create(
                user=user, key_hash=token_hash(token), prefix=token[:8], request_key=request_key
            )
    except IntegrityError:
        if not request_key:
            raise
        raise already_created() from None  # the same form, posted twice at once
    return token


def api_token_revoke(*, token: ApiToken) -> bool:
    """Revoke one token at once (its row stays, stamped). False if it was already revoked:
    the first ``revoked_at`` is kept."""
    now = timezone.now()
    done = ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=now)
    token.refresh_from_db(fields=["revoked_at"])
    return bool(done)


def api_tokens_revoke(*, user) -> int:
    """Revoke every active token of ``user``; returns how many."""
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


def request_fingerprint(method: str, path: str, body: bytes) -> str:
    """SHA-256 (hex) of what an API request asks for: method, path and body. A JSON body is
    read and written back with its keys sorted, so a client that re-serialises the same
    request differently is still asking for the same thing."""
    try:
        canonical = json.dumps(json.loads(body or b"null"), sort_keys=True, separators=(",", ":"))
        content = canonical.encode()
    except (ValueError, RecursionError):  # the parser refuses it next, with its own 400
        content = body
    return hashlib.sha256(f"{method} {path}\n".encode() + content).hexdigest()


def idempotency_claim(*, user, key: str, fingerprint: str) -> IdempotencyKey | None:
    """Take ``key`` for this request, or check that it was taken for this same request.
    Returns the row when this request took the key (to release it if the request fails), None
    when an earlier request with the same content took it.

    Raises ServiceError (code ``idempotency_conflict``, the API's 409) when the user sent the
    key before with another request. Two requests racing with one key: the database's unique
    constraint lets one insert, and the other compares fingerprints."""
    key = key[:64]
    try:
        with transaction.atomic():
            return IdempotencyKey.objects.create(user=user, key=key, fingerprint=fingerprint)
    except IntegrityError:
        pass
    earlier = (
        IdempotencyKey.objects.filter(user=user, key=key)
        .values_list("fingerprint", flat=True)
        .first()
    )
    if earlier != fingerprint:
        raise ServiceError(
            IDEMPOTENCY_KEY_REUSED, field="Idempotency-Key", code="idempotency_conflict"
        )
    return None


def idempotency_release(claim: IdempotencyKey | None) -> None:
    """A refused request leaves its key free (issue «The Mestre's tools»): the claim it took
    is deleted, so the corrected request may come with the same key. A key a request that
    succeeded took is never released."""
    if claim is not None:
        IdempotencyKey.objects.filter(pk=claim.pk).delete()


def claim_idempotency_key(request, user) -> None:
    """An unsafe request with an ``Idempotency-Key``: the key is taken for what this request
    asks (method, path, body), once the asker is known, before any operation runs. The same
    key with another request is a 409; the same request again goes on to the operation, whose
    service hands back what the first one made."""
    key = request.headers.get("Idempotency-Key", "")
    if len(key) > IDEMPOTENCY_KEY_MAX:
        raise ServiceError(
            IDEMPOTENCY_KEY_TOO_LONG.format(length=len(key), limit=IDEMPOTENCY_KEY_MAX),
            field="Idempotency-Key",
        )
    if key and request.method not in ("GET", "HEAD", "OPTIONS"):
        fingerprint = request_fingerprint(request.method, request.path, request.body)
        request.idempotency_claim = idempotency_claim(user=user, key=key, fingerprint=fingerprint)


@sync_and_async_middleware
def release_refused_keys(get_response):
    """Middleware: an API request that was refused (4xx or 5xx) releases the key it took.
    Sync and async alike; the async one reaches the database (in the request's thread for
    sync code) only for a refused request that had taken a key."""
    if iscoroutinefunction(get_response):

        async def async_middleware(request):
            response = await get_response(request)
            claim = getattr(request, "idempotency_claim", None)
            if response.status_code >= 400 and claim is not None:
                await sync_to_async(idempotency_release, thread_sensitive=True)(claim)
            return response

        return async_middleware

    def middleware(request):
        response = get_response(request)
        if response.status_code >= 400:
            idempotency_release(getattr(request, "idempotency_claim", None))
        return response

    return middleware


def _user_for_token_sql() -> str:
    users = get_user_model()._meta.db_table
    return (
        f'SELECT "user".* FROM "{users}" AS "user" INNER JOIN "{ApiToken._meta.db_table}" '
        'AS token ON token."user_id" = "user"."id" WHERE token."key_hash" = %s '
        'AND token."revoked_at" IS NULL AND "user"."is_active" = %s'
    )


def user_for_token(token: str):
    """The active user a bearer token belongs to, or None (revoked, unknown, inactive).

    Written out, not built by the ORM: every API request and MCP call asks it, and compiling
    the token-and-user queryset cost four times running it (bench/run.py). ``key_hash`` is
    unique: at most one row."""
    found = get_user_model().objects.raw(_user_for_token_sql(), [token_hash(token), True])
    return next(iter(found), None)


TOO_MANY_BAD_TOKENS = (
    "Tokens inválidos demais deste endereço: {count} em {minutes} min. Espere {wait} s antes "
    "de tentar de novo (até lá, nenhum token deste endereço é conferido)."
)


class BearerFailures(SimpleRateThrottle):
    """Failed bearer tokens per client address (django-ninja's rate throttle, counting only
    failures): ``GARGANTA_BEARER_FAILURES`` ("20/10m"). Past it, every bearer request from that
    address is refused with 429 before its token is checked, so guessing gets no faster by
    guessing right."""

    scope = "bearer_failures"

    def __init__(self) -> None:
        super().__init__(rate=settings.GARGANTA_BEARER_FAILURES)

    def get_cache_key(self, request) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def exhausted(self, request) -> bool:
        self.key = self.get_cache_key(request)
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        return len(self.history) >= self.num_requests

    def refusal(self) -> HttpError:
        wait = max(1, int(self.wait() or 1) + 1)
        error = HttpError(
            429,
            TOO_MANY_BAD_TOKENS.format(
                count=self.num_requests, minutes=self.duration // 60, wait=wait
            ),
        )
        error.retry_after = wait
        return error


SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def _pass_gate(gate, request, user) -> None:
    """An unsafe request's permission, before its body is read or its key replayed: ``gate``
    (the router's, e.g. "only the table writes in this scene") raises the refusal."""
    if gate is not None and request.method not in SAFE_METHODS:
        gate(request, user)


class TokenAuth(HttpBearer):
    """``Authorization: Bearer <token>``; only the token's SHA-256 is stored. Failed tokens
    are counted per address (``BearerFailures``). With a ``gate``, an unsafe request's
    permission is checked here, before validation and before any Idempotency-Key replay."""

    def __init__(self, gate=None) -> None:
        super().__init__()
        self.gate = gate

    def authenticate(self, request, token: str):
        failures = BearerFailures()
        if failures.exhausted(request):
            raise failures.refusal()
        user = user_for_token(token)
        if user is None:
            failures.throttle_success()  # one more failure on the count
            return None
        request.user = user
        _pass_gate(self.gate, request, user)
        claim_idempotency_key(request, user)
        return user


class SessionUnlessBearer(SessionAuth):
    """Django's session, with its CSRF check — unless the request brings a bearer token: then
    the token alone decides, and a bad one is a 401, not a confusing CSRF failure."""

    def __init__(self, gate=None) -> None:
        super().__init__()
        self.gate = gate

    def __call__(self, request):
        if request.headers.get("Authorization", "").lower().startswith("bearer "):
            return None
        user = super().__call__(request)
        if user:
            _pass_gate(self.gate, request, user)
            claim_idempotency_key(request, user)
        return user


AUTH = [TokenAuth(), SessionUnlessBearer()]


def gated(gate) -> list:
    """The API's authentication with ``gate(request, user)`` run for every unsafe request
    once the user is known — the permission checked first, so a refused caller learns
    nothing about the body or a replay (issue 27). ``gate`` raises ServiceError "forbidden"
    (403) or Http404; the path's parameters are in ``request.resolver_match.kwargs``."""
    return [TokenAuth(gate), SessionUnlessBearer(gate)]


def runs_a_table(user) -> bool:
    """Whether ``user`` is the Mestre or the Árbitro of some campaign (a gate for an operation
    whose campaign is in its body: who is neither anywhere is refused before the body)."""
    roles = (Membership.Role.MESTRE, Membership.Role.ARBITRO)
    return Membership.objects.filter(user=user, role__in=roles).exists()


def arbitrates(user) -> bool:
    """Whether ``user`` is the Árbitro of some campaign (the same kind of gate)."""
    return Membership.objects.filter(user=user, role=Membership.Role.ARBITRO).exists()
