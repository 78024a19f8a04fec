"""The service error: the one refusal type every app's services raise and every edge translates
(a form shows it next to its field; the API answers it as its error body, garganta_site.api)."""

from __future__ import annotations


class ServiceError(Exception):
    """A refusal a user can read: ``field`` names what was wrong (or "" for the whole);
    ``code`` is the API's error code ("invalid", "forbidden", "not_found",
    "idempotency_conflict" …), which decides its HTTP status."""

    def __init__(self, message: str, *, field: str = "", code: str = "invalid") -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code
