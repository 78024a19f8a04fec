"""What the table (the ``sessions`` app, above sheets) shows on the sheet pages: a character's
running fights on its sheet, a campaign's open scenes and newest week on the home page.

sheets imports nothing of sessions: sessions hands its functions in when Django starts
(``sessions.apps.MesaConfig.ready`` calls ``provide``). Without it (sheets alone) a sheet shows
no fight and the home page no scene.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Table:
    # (character, *, answers) → sheets.live.SheetFight
    fight: Callable[..., Any] | None = None
    # campaign → (its open scenes with their week and characters, its newest week or None)
    campaign_table: Callable[[Any], tuple[Any, Any]] | None = None


PROVIDED = [Table()]


def provide(*, fight: Callable[..., Any], campaign_table: Callable[[Any], tuple[Any, Any]]) -> None:
    PROVIDED[0] = Table(fight=fight, campaign_table=campaign_table)


def table() -> Table:
    return PROVIDED[0]
