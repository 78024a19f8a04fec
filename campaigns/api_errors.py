"""The body of the API's refusals, as its operations declare them (one place, no router import,
so any app's api module can use it). The handlers that write these bodies are in
garganta_site.api."""

from __future__ import annotations

from asgiref.sync import iscoroutinefunction
from django.utils.decorators import sync_and_async_middleware
from ninja import Schema


class FieldErrorOut(Schema):
    field: str
    message: str


class ErrorOut(Schema):
    """The body of every refusal of the API: a code, what is wrong (a sentence, or one line
    per field for a body that does not validate) and the field at fault."""

    code: str
    detail: str | list[FieldErrorOut]
    field: str | None = None
    effective_level: int | None = None  # no_roll_at_3_or_less
    rule: str | None = None  # outside_canon: the canon's section that has no number
    divergence_form: str | None = None  # outside_canon: the form that opens a pendência


def errors(*statuses: int, database: bool = True) -> dict:
    """The refusals an operation declares, for ``response={200: X, **errors(401, 404)}``:
    400 a body that is not JSON, 401 no login or token, 403 the role may not, 404 not found (or
    not of a campaign of yours), 409 an Idempotency-Key reused for something else, 422 invalid
    input or a rule refuses; and 503, the database did not answer (garganta_site.api), for every
    operation that reads it (``database=False`` for the few that touch no table)."""
    return {frozenset(statuses) | ({503} if database else set()): ErrorOut}


# pydantic's error types, said in Portuguese once, here (its own messages are English).
VALIDATION_MESSAGES = {
    "missing": "Campo obrigatório.",
    "missing_argument": "Campo obrigatório.",
    "extra_forbidden": "Campo desconhecido: esta operação não o aceita.",
    "int_type": "Use um número inteiro.",
    "int_parsing": "Use um número inteiro.",
    "int_from_float": "Use um número inteiro, sem casas decimais.",
    "float_type": "Use um número.",
    "float_parsing": "Use um número.",
    "bool_type": "Use true ou false.",
    "bool_parsing": "Use true ou false.",
    "string_type": "Use um texto.",
    "string_too_short": "Texto curto demais: pelo menos {min_length} caractere(s).",
    "string_too_long": "Texto longo demais: no máximo {max_length} caracteres.",
    "string_pattern_mismatch": "Formato inválido.",
    "greater_than_equal": "O menor valor aceito é {ge}.",
    "greater_than": "Use um valor maior que {gt}.",
    "less_than_equal": "O maior valor aceito é {le}.",
    "less_than": "Use um valor menor que {lt}.",
    "literal_error": "Valor desconhecido: use {expected}.",
    "enum": "Valor desconhecido: use {expected}.",
    "uuid_type": "Use um identificador (UUID).",
    "uuid_parsing": "Identificador inválido: use um UUID.",
    "list_type": "Use uma lista.",
    "too_short": "Poucos itens: pelo menos {min_length}.",
    "too_long": "Itens demais: no máximo {max_length}.",
    "dict_type": "Use um objeto.",
    "model_type": "Use um objeto.",
    "model_attributes_type": "Use um objeto.",
    "json_invalid": "JSON inválido.",
    "json_type": "JSON inválido.",
    "decimal_parsing": "Use um número.",
    "decimal_type": "Use um número.",
    "datetime_parsing": "Use uma data e hora ISO 8601.",
    "date_parsing": "Use uma data (AAAA-MM-DD).",
}
GENERIC_INVALID = "Valor inválido."
BODY_NOT_JSON = "O corpo do pedido não é JSON válido ({reason})."
STATUS_MESSAGES = {
    400: "Pedido inválido.",
    401: "Entre no site ou mande um token Bearer.",
    403: "Você não pode fazer isto.",
    404: "Não encontrado (ou não é de uma campanha sua).",
    405: "Método não aceito aqui: use {allowed}.",
    409: "Conflito com um pedido anterior.",
    413: "Pedido grande demais.",
    415: "Mande o corpo como application/json.",
    422: "Pedido recusado.",
    429: "Pedidos demais; espere um pouco.",
}
STATUS_CODES = {
    400: "invalid",
    401: "unauthenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    422: "invalid",
    429: "too_many_requests",
}


def validation_message(error: dict) -> str:
    """One pydantic error as the API says it, in Portuguese, with the limits it names. A
    message of the project's own (a validator's ValueError) is kept as it is."""
    kind = error.get("type", "")
    ctx = dict(error.get("ctx") or {})
    if isinstance(ctx.get("expected"), str):
        # pydantic lists the allowed values as "'a', 'b' or 'c'": the last "or" in Portuguese.
        ctx["expected"] = " ou ".join(ctx["expected"].rsplit(" or ", 1))
    if kind == "value_error" and "error" in ctx:
        return str(ctx["error"])
    template = VALIDATION_MESSAGES.get(kind)
    if template is None:
        return GENERIC_INVALID
    try:
        return template.format(**ctx)
    except (KeyError, IndexError):
        return template.split(":")[0].rstrip(".") + "."


@sync_and_async_middleware
def api_error_bodies(get_response):
    """Middleware: under /api/, a 4xx answer that is not already the API's JSON body (Django's
    own 404 page under DEBUG, a plain-text 405 for a wrong method, a 413…) becomes it, in
    Portuguese: every refusal of the API has one shape. Sync and async alike, no thread hop."""
    if iscoroutinefunction(get_response):

        async def async_middleware(request):
            return _api_error_body(request, await get_response(request))

        return async_middleware

    def middleware(request):
        return _api_error_body(request, get_response(request))

    return middleware


def _api_error_body(request, response):
    is_api = request.path.startswith("/api/")
    if not is_api or not 400 <= response.status_code < 500:
        return response
    if response.get("Content-Type", "").startswith("application/json"):
        return response
    return _json_error(response)


def _json_error(response):
    from django.http import JsonResponse

    status = response.status_code
    allowed = response.get("Allow", "")
    detail = STATUS_MESSAGES.get(status, STATUS_MESSAGES[400])
    if status == 405:
        detail = detail.format(allowed=allowed.replace(",", ", ") or "outro método")
    body = {"code": STATUS_CODES.get(status, "invalid"), "detail": detail, "field": None}
    answer = JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})
    for header in ("Allow", "Retry-After", "WWW-Authenticate"):
        if header in response:
            answer[header] = response[header]
    return answer
