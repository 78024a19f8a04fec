"""Where the Xuleta is silent or leaves it to the DM: the site's stated readings.

Each is shown where its number is shown and seeded as an open pendência in a campaign on the
Xuleta, as the canon's are (``gurps.readings``). Each module of the engine that needs one
defines its own ``READINGS`` (a tuple of ``Reading``) beside the rule that uses it and is named
in ``READING_MODULES``; ``all_readings()`` gathers them, in that order."""

from __future__ import annotations

import importlib
from dataclasses import dataclass

# The modules whose ``READINGS`` the pages and the registers publish, in order.
READING_MODULES: tuple[str, ...] = (
    "xuleta.conditions",
    "xuleta.derived",
    "xuleta.sheet",
    "xuleta.initiative",
    "xuleta.attacks",
    "xuleta.damage",
    "xuleta.rest",
    "xuleta.travel",
    "xuleta.environment",
)


@dataclass(frozen=True)
class Reading:
    """One open question, in Portuguese, with the answer the engine uses until the Árbitro
    decides. ``section``: the ``xuleta.text`` number; ``kind``: ``"leitura"`` (the site's
    stated reading) or ``"mestre"`` (the Mestre's choice, an input)."""

    key: str
    section: str
    question: str
    answer: str
    kind: str = "leitura"


def all_readings() -> tuple[Reading, ...]:
    """Every module's ``READINGS``, in ``READING_MODULES`` order; keys are unique."""
    found: list[Reading] = []
    for name in READING_MODULES:
        found.extend(importlib.import_module(name).READINGS)
    keys = [reading.key for reading in found]
    if len(keys) != len(set(keys)):
        raise AssertionError(f"duplicate reading keys: {sorted(keys)}")
    return tuple(found)
