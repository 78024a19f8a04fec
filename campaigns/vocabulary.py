"""Closed vocabularies for the API and the MCP tools (docs/DESIGN.md,
invariant 13 (Closed sets are published)): every field that takes one of a fixed set is an enum of
keys in the published schema, with each key's Portuguese label (and its canon section) in the
description; a Portuguese label is accepted in place of its key, whatever its case and accents, and
anything else is refused listing the keys.

The vocabularies themselves are the campaign's ruleset's (``sessions.vocabularies`` asks it);
this module only makes types of them.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from rulesets.vocabulary import Term

__all__ = ["Term", "Vocabulary", "normalized"]


def normalized(text: str) -> str:
    """Casefolded, without accents and spaces at the ends: "Ataque Total" → "ataque total"."""
    decomposed = unicodedata.normalize("NFKD", str(text).strip().casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@dataclass(frozen=True)
class Vocabulary:
    name: str
    title: str
    section: str
    terms: tuple[Term, ...]

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(term.key for term in self.terms)

    def key_of(self, value: object) -> object:
        """The key ``value`` names (the key itself, or a label in any case and accents); the
        value as it came when it names none (the enum then refuses it, listing the keys)."""
        if not isinstance(value, str):
            return value
        wanted = normalized(value)
        for term in self.terms:
            if wanted in (normalized(term.key), normalized(term.label)):
                return term.key
        return value

    def description(self) -> str:
        said = "; ".join(f"{t.key} = {t.label}" for t in self.terms)
        where = f" (§{self.section})" if self.section else ""
        return f"{self.title}{where}: {said}. Aceita também o nome em português."

    def annotated(self, *, blank: bool = False) -> Any:
        """The type of a field that takes one of these keys (``blank``: "" too, for none)."""
        keys = ("", *self.keys) if blank else self.keys
        return Annotated[
            Literal[keys],  # type: ignore[valid-type]
            BeforeValidator(self.key_of),
            Field(description=self.description()),
        ]
