"""A ruleset's closed sets as plain data (``PagesPart.vocabularies``): each a name, a Portuguese
title, the canon section and its terms (key, Portuguese label, details). The API and the MCP make
enums of them (``garganta_site.vocabulary``). Pure Python.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Term:
    """One word of a vocabulary: the ``key`` the API takes, its Portuguese ``label``, and
    whatever else a client needs to choose it (``details``: a maneuver's defences, a location's
    NH penalty …)."""

    key: str
    label: str
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ClosedSet:
    """A named closed set: ``name`` (the API's word for it, e.g. "maneuver"), ``title`` and the
    canon ``section`` it comes from, and its ``terms`` in the order they are offered."""

    name: str
    title: str
    section: str
    terms: tuple[Term, ...]


def closed_set(name: str, title: str, section: str, terms: Iterable[Term]) -> ClosedSet:
    """A ``ClosedSet`` of ``terms`` (any iterable, kept in order)."""
    return ClosedSet(name, title, section, tuple(terms))
