"""The procedure engine's errors; each message is Portuguese, for the user."""

from __future__ import annotations


class ProcedureError(ValueError):
    """Base of the engine's errors: ``str(error)`` is the Portuguese message."""


class UnknownTable(ProcedureError):
    """A table key the procedure does not have."""


class BadDie(ProcedureError):
    """A die that is not «1dN»."""


class UnknownChoice(ProcedureError):
    """A value outside one of the journey's closed sets (season, region, activity, mode)."""
