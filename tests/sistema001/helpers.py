"""Shared by the sistema001 tests: a scripted random source, a fighter builder, the chapter's
text (to check a quoted sentence is really there)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from sistema001.attributes import ATTRIBUTES
from sistema001.fighters import Fighter

CHAPTER_PATH = Path(__file__).resolve().parents[2] / "docs" / "canon" / "outro-sistema-combate.txt"


def chapter() -> str:
    """The chapter's text with its whitespace collapsed."""
    return re.sub(r"\s+", " ", CHAPTER_PATH.read_text(encoding="utf-8"))


class ScriptedSource:
    """A random source whose randint returns preset values, in order; it checks the range."""

    def __init__(self, values: Iterable[int]) -> None:
        self.values = list(values)

    def randint(self, a: int, b: int) -> int:
        value = self.values.pop(0)
        assert a <= value <= b, f"scripted {value} outside [{a}, {b}]"
        return value


def fighter(key: str = "a", *, mobilidade: int = 5, die: int = 10, **extra) -> Fighter:
    """A fighter with every attribute 3 but Mobilidade, every die ``die`` faces, 10 PV."""
    attributes = {name: 3 for name in ATTRIBUTES}
    attributes["mobilidade"] = mobilidade
    attributes.update(extra.pop("attributes", {}))
    return Fighter(
        key=key,
        name=key.title(),
        attributes=attributes,
        dice={name: die for name in ATTRIBUTES},
        pv_max=extra.pop("pv_max", 10),
        pv=extra.pop("pv", 10),
        **extra,
    )
