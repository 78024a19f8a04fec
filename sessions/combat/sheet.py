"""A character's running fights, for its sheet page (``sheets.live``): handed to sheets through
``sheets.table`` by ``sessions.apps``, since sheets sits below the table."""

from __future__ import annotations

from sessions.combat.pending import pending_of
from sessions.models import Combatant, Scene, Week
from sheets.live import SheetFight


def sheet_fight(character, *, answers: bool) -> SheetFight:
    """``character`` in the running combats, in one query (more only when an attack waits for
    his defence, §4.6); ``answers``: the reader is the one who answers."""
    fighting = list(
        Combatant.objects.select_related("combat__scene", "character").filter(
            character=character, combat__status="active"
        )
    )
    pending = [(pending_of(c.combat, c), True, answers) for c in fighting if c.pending_defence]
    return SheetFight(fighting, pending)


def campaign_table(campaign) -> tuple[list[Scene], Week | None]:
    """``campaign``'s open scenes (with their week and characters) and its newest week, for
    the home page (``sheets.views.home``)."""
    scenes = (
        Scene.objects.filter(week__campaign=campaign, status=Scene.Status.OPEN)
        .select_related("week")
        .prefetch_related("characters")
    )
    week = Week.objects.filter(campaign=campaign).order_by("-number").first()
    return scenes, week
