"""The engine's own exceptions.

``XuletaError(message, field="")``: a value or a request the text's rules cannot take;
``.message`` is the Portuguese sentence the user reads, ``.field`` names the input at fault
(``"abilities.str"``, ``"level"``…) or is empty. The site translates it at its edges (the
adapter lists it in the ruleset's ``errors``).
"""

from __future__ import annotations

from ruletexts import RuleError


class XuletaError(RuleError):
    """A request the Xuleta's rules refuse. ``message``: Portuguese; ``field``: the input at
    fault, or ``""``."""
