"""Proposals the tests (and the screenshots) submit: the issue's sheet with three problems."""

from __future__ import annotations

from decimal import Decimal

from sheets.drafts import sheet_draft_create, sheet_draft_update
from sheets.homologation import sheet_submit
from sheets.models import SheetVersion

# The issue: "a player proposed DX 30 and «Arco Longo DX/Difícil 40 (0,5)»", and the demo's
# Escudo 14 (8) as it was before the demo was made to add up.
THREE_PROBLEMS = {
    "attributes": {"st": 13, "dx": 30, "iq": 10, "ht": 12},
    "skills": [
        {"name": "Arco Longo", "attribute": "dx", "difficulty": "H", "level": 40, "points": Decimal("0.5")},
        {"name": "Escudo", "attribute": "dx", "difficulty": "E", "level": 14, "points": Decimal("8")},
        {"name": "Espada Curta", "attribute": "dx", "difficulty": "A", "level": 31, "points": Decimal("4")},
    ],
}  # fmt: skip


def submit_three_problems(character, user) -> SheetVersion:
    """A draft of ``character`` with DX 30, Arco Longo 40 (½) and Escudo 14 (8), submitted."""
    draft = sheet_draft_create(character=character, user=user)
    sheet_draft_update(
        version=draft,
        attributes=THREE_PROBLEMS["attributes"],
        notes="Treinei muito na descida.",
        skills=THREE_PROBLEMS["skills"],
    )
    return sheet_submit(version=draft, user=user)
