"""A character's running fights, for its sheet page (``sheets.live``): handed to sheets through
``sheets.table`` by ``sessions.apps``, since sheets sits below the table."""

from __future__ import annotations

from django.db import connection

from sessions.combat.pending import pending_of
from sessions.models import Combat, Combatant, Scene, Week
from sheets.live import SheetFight

# Whether the character fights at all, written out once: the sheet page and its stream ask it
# on every request, almost always of a character in no fight, and compiling the combatants'
# queryset (four tables, a hundred columns) cost five times running it (bench/run.py).
_IN_A_FIGHT_SQL = (
    f'SELECT 1 FROM "{Combatant._meta.db_table}" AS fighter '
    f'INNER JOIN "{Combat._meta.db_table}" AS fight ON fighter."combat_id" = fight."id" '
    'WHERE fighter."character_id" = %s AND fight."status" = %s LIMIT 1'
)


def _in_a_fight(character) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(_IN_A_FIGHT_SQL, [character.pk, Combat.Status.ACTIVE.value])
        return cursor.fetchone() is not None


def sheet_fight(character, *, answers: bool) -> SheetFight:
    """``character`` in the running combats, in one query (more only when it fights, and when
    an attack waits for his defence, §4.6); ``answers``: the reader is the one who answers."""
    if not _in_a_fight(character):
        return SheetFight([], [])
    fighting = list(
        Combatant.objects.select_related("combat__scene", "character").filter(
            character=character, combat__status=Combat.Status.ACTIVE
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
