"""The Xuleta's engine tests: each rule's test quotes its sentence, and ``in_text`` checks the
quote is the text's (``docs/canon/xuleta-5e-ca.txt``), so a test cannot cite words the text
does not have."""

from __future__ import annotations

from pathlib import Path

import pytest

TEXT = (Path(__file__).resolve().parents[2] / "docs" / "canon" / "xuleta-5e-ca.txt").read_text(
    encoding="utf-8"
)
_FLAT = " ".join(TEXT.split())


def in_text(sentence: str) -> bool:
    """Whether ``sentence`` (whitespace folded) is in the Xuleta as printed."""
    return " ".join(sentence.split()) in _FLAT


@pytest.fixture
def quote():
    """``quote(sentence)`` asserts the sentence is the text's and returns it."""

    def check(sentence: str) -> str:
        assert in_text(sentence), f"not in the Xuleta: {sentence!r}"
        return sentence

    return check
