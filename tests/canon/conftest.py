"""The seed's pending change: the hoplita's version 2 (Espada Curta 14 → 15), submitted."""

from __future__ import annotations

import pytest

from sheets.models import SheetVersion


@pytest.fixture
def submitted(hoplita) -> SheetVersion:
    return SheetVersion.objects.get(character=hoplita, number=2, status="submitted")
