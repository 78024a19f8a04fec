"""What every entry of the table shares, whichever capability writes it (the scene log, the weeks,
the trackers, the procedure): who may write it, whether the scene and its week still take
entries, the replay of an entry by its request key, and where the server's dice come from.
"""

from __future__ import annotations

import secrets

from campaigns.access import membership_for
from campaigns.errors import ServiceError
from campaigns.models import Campaign, Membership
from gurps.dice import RandomSource
from sessions.models import (
    Scene,
    Week,
)

# Messages are constants so tests import them instead of repeating them.
SCENE_CLOSED = "A cena está encerrada; nada mais entra no registro."
ENTRY_IDEMPOTENCY_CONFLICT = (
    "Esta chave de idempotência já foi usada para outra entrada: gere uma chave nova."
)
# Who may not, and what: "Só o Mestre de Cena ou o Árbitro conduzem o combate." (issue 27: a
# refusal says what is refused, never "fazem isso").
ONLY_THE_TABLE = "Só o Mestre de Cena ou o Árbitro {what}."
OPENS_SCENES = "abrem cenas"
CONDUCTS_SCENE = "conduzem a cena: anunciam, rolam e narram"
CLOSES_SCENE = "encerram a cena ou mudam PV e fadiga"
RUNS_COMBAT = "conduzem o combate"
RUNS_EXPLORATION = "conduzem a exploração"
ROLLS_PROCEDURE = "rolam nas tabelas do procedimento"
OPENS_WEEKS = "abrem a semana e publicam o Boletim"
RESOLVES_WORLD_ACTIONS = "resolvem ações de mundo"
WRITES_REPORT = "escrevem e enviam o relatório da semana"
TRACKER_WHAT = {"combat": RUNS_COMBAT, "exploration": RUNS_EXPLORATION}
ONLY_THE_ARBITRO = "Só o Árbitro homologa, devolve ou corrige o relatório da semana."
WEEK_CLOSED_FOR_ENTRIES = "A Semana {number} não recebe mais entradas: {state}."


def dice_source() -> RandomSource:
    return secrets.SystemRandom()


# --- who may do what --------------------------------------------------------------------------


def require_table(user, campaign: Campaign, *, what: str = CONDUCTS_SCENE) -> Membership:
    """The Mestre's or the Árbitro's membership of ``campaign``; ServiceError "forbidden" saying
    ``what`` only they do (one of the phrases above) for anyone else."""
    membership = membership_for(user, campaign)
    if membership is None or not membership.runs_the_table:
        raise ServiceError(ONLY_THE_TABLE.format(what=what), code="forbidden")
    return membership


def require_arbitro(user, campaign: Campaign) -> Membership:
    membership = membership_for(user, campaign)
    if membership is None or membership.role != Membership.Role.ARBITRO:
        raise ServiceError(ONLY_THE_ARBITRO, code="forbidden")
    return membership


def ensure_week_accepts_entries(week: Week) -> None:
    """Refuse an entry once the week's report is with the Árbitro (or later). Read from the
    database, not from the instance: a report submitted since the week was read counts."""
    fresh = Week.objects.select_related("report").get(pk=week.pk)
    if not fresh.accepts_entries:
        raise ServiceError(
            WEEK_CLOSED_FOR_ENTRIES.format(
                number=fresh.number, state=fresh.get_state_display().lower()
            ),
            code="week_closed",
        )


def ensure_scene_accepts_entries(scene: Scene) -> None:
    if not scene.is_open:
        raise ServiceError(SCENE_CLOSED, code="scene_closed")
    ensure_week_accepts_entries(scene.week)


def entry_replayed(queryset, request_key: str, user, **same):
    """The entry an earlier request with ``request_key`` made, or None.

    A key is its asker's own: an entry another user made, or one made with other content
    (``same``: field → value), is a conflict (ServiceError "idempotency_conflict", 409) and
    is never handed back — returning it would give one user's entry to another. Callers check
    permissions before calling this.
    """
    if not request_key:
        return None
    existing = queryset.filter(request_key=request_key).first()
    if existing is None:
        return None
    author_id = getattr(existing, "author_id", user.pk)
    if author_id != user.pk or any(getattr(existing, f) != v for f, v in same.items()):
        raise ServiceError(
            ENTRY_IDEMPOTENCY_CONFLICT, field="request_key", code="idempotency_conflict"
        )
    return existing
