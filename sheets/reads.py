"""The plain reads of a character's sheet: its versions, its possessions, its state in play,
and the fingerprint of all of them. Nothing here knows a rule; ``sheets.computed`` turns a
version plus the state into the numbers.
"""

from __future__ import annotations

import hashlib
from decimal import Decimal
from typing import NamedTuple

from django.db import connection
from django.db.models import Prefetch, QuerySet

from campaigns.models import Campaign
from sheets.models import Character, CharacterState, Possession, SheetVersion


def homologated_version(character: Character) -> SheetVersion | None:
    """The newest homologated version, with its lines prefetched (4 queries)."""
    return (
        SheetVersion.objects.filter(character=character, status=SheetVersion.Status.HOMOLOGATED)
        .select_related("decided_by")
        .prefetch_related("traits", "skills", "items")
        .order_by("-number")
        .first()
    )


def sheet_versions(character: Character) -> tuple[SheetVersion | None, list[SheetVersion]]:
    """The newest homologated version and the versions not homologated, newest first.

    One query for both, and none for the lines: the sheet page reads them lazily, and only
    when its cached block for that version is missing (a homologated version never changes).
    """
    versions = list(SheetVersion.objects.filter(character=character).order_by("-number"))
    homologated = next((v for v in versions if v.status == SheetVersion.Status.HOMOLOGATED), None)
    pending = [v for v in versions if v.status != SheetVersion.Status.HOMOLOGATED]
    return homologated, pending


def possessions_of(character: Character, *, with_items: bool = True) -> list[Possession]:
    """What the character has, in order; ``with_items=False`` leaves the items (lines of the
    immutable version) to be fetched later, for a page that may not need them."""
    possessions = Possession.objects.filter(character=character).order_by("pk")
    if with_items:
        possessions = possessions.select_related("item")
    return list(possessions)


def state_of(character: Character) -> CharacterState:
    """The character's state in play; no query when it came with the character
    (``select_related("state")``)."""
    if Character.state.is_cached(character):
        try:
            return character.state
        except CharacterState.DoesNotExist:  # select_related found none: make it below
            pass
    state, _ = CharacterState.objects.get_or_create(character=character)
    return state


def _rows_sql(vendor: str) -> str | None:
    """One statement reading every column of the character's versions and of its possessions
    as two strings (columns joined by the unit separator, rows by the record separator), and
    the number of its newest homologated version; ``%s`` three times, the character's pk.
    Written out, not built by the ORM: the sheet page and the API ask it on every request,
    and compiling querysets cost more than running them. ``None`` on a database other than
    SQLite and PostgreSQL (nothing is reused there)."""
    parts = []
    for model in (SheetVersion, Possession):
        table = model._meta.db_table
        columns = [f'"{f.column}"' for f in model._meta.concrete_fields]
        if vendor == "postgresql":
            row = " || chr(31) || ".join(f"coalesce({c}::text, '~')" for c in columns)
            parts.append(
                f"(SELECT string_agg({row}, chr(30) ORDER BY id) FROM {table} "
                "WHERE character_id = %s)"
            )
        elif vendor == "sqlite":
            row = " || char(31) || ".join(f"coalesce({c}, '~')" for c in columns)
            parts.append(
                f"(SELECT group_concat({row}, char(30)) FROM "
                f"(SELECT * FROM {table} WHERE character_id = %s ORDER BY id))"
            )
        else:
            return None
    homologated = (
        f"(SELECT max(number) FROM {SheetVersion._meta.db_table} "
        f"WHERE character_id = %s AND status = '{SheetVersion.Status.HOMOLOGATED}')"
    )
    return "SELECT " + ", ".join([*parts, homologated])


_ROWS_SQL: dict[str, str | None] = {}


class SheetRevision(NamedTuple):
    key: str
    homologated: int | None  # the number of the newest homologated version, if any


def sheet_revision(character: Character, state: CharacterState, *extra) -> SheetRevision | None:
    """A fingerprint (hex SHA-256) of everything the sheet's numbers and its page are computed
    from: every column of the character, of its state, of each of its versions (a homologated
    version's lines never change: a correction is a new version, so its code stands for them)
    and of each possession, and any ``extra`` values. One query (the character and its state
    came already). Equal fingerprints mean equal numbers, so a rendering or an answer may be
    reused by it; a change made anywhere — a service, the admin, straight to the table —
    changes it, and nothing has to remember to invalidate anything. ``None``: not knowable
    here (another database), so nothing is reused."""
    vendor = connection.vendor
    if vendor not in _ROWS_SQL:
        _ROWS_SQL[vendor] = _rows_sql(vendor)
    sql = _ROWS_SQL[vendor]
    if sql is None:
        return None
    with connection.cursor() as cursor:
        cursor.execute(sql, [character.pk] * 3)
        versions, possessions, homologated = cursor.fetchone()

    def columns(row) -> tuple:
        return tuple(getattr(row, f.attname) for f in row._meta.concrete_fields)

    parts = [columns(character), columns(state), versions, possessions, extra]
    return SheetRevision(hashlib.sha256(repr(parts).encode()).hexdigest(), homologated)


def carried_kg(possessions: list[Possession]) -> Decimal:
    return sum((p.total_weight_kg for p in possessions if p.carried), Decimal("0"))


def characters_visible_to(user, campaign: Campaign) -> QuerySet[Character]:
    return (
        Character.objects.filter(campaign=campaign)
        .select_related("owner")
        .prefetch_related(
            Prefetch(
                "versions",
                queryset=SheetVersion.objects.filter(status=SheetVersion.Status.HOMOLOGATED),
                to_attr="homologated_versions",
            )
        )
    )
