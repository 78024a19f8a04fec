"""The engine's own exceptions.

``Sistema001Error(message, field="")``: a value or a request the chapter's rules cannot take;
``.message`` is the Portuguese sentence the user reads, ``.field`` names the input at fault
(``"attributes.forca"``, ``"pv"``…) or is empty. ``AwaitsArbitro`` is the refusal of a rule
that can only run once the Árbitro has answered one of the pendências in
``sistema001.readings``: it names the reading (``.reading``) and says so in Portuguese, never
guessing a number.

The site translates these errors at its edges (the adapter lists ``Sistema001Error`` in the
ruleset's ``errors``).
"""

from __future__ import annotations

from ruletexts import RuleError


class Sistema001Error(RuleError):
    """A request the chapter's rules refuse. ``message``: Portuguese; ``field``: the input at
    fault, or ``""``."""


class AwaitsArbitro(Sistema001Error):
    """A rule the chapter cites without stating it: it runs only once the Árbitro has decided
    the pendência ``reading`` (a key of ``sistema001.readings.READINGS``)."""

    def __init__(self, message: str, field: str = "", reading: str = "") -> None:
        super().__init__(message, field)
        self.reading = reading
