"""The body of the API's refusals, as its operations declare them (one place, no router import,
so any app's api module can use it). The handlers that write these bodies are in
garganta_site.api."""

from __future__ import annotations

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
