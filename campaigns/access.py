"""Who plays in a campaign and in which role, and the one role check every app uses.

A refusal is a ``ServiceError`` with ``code="forbidden"`` and the situation's own Portuguese
message (each app keeps its sentence: what only the Árbitro, or the table, does there).
"""

from __future__ import annotations

from campaigns.errors import ServiceError
from campaigns.models import Campaign, Membership

ARBITRO = Membership.Role.ARBITRO
TABLE_ROLES = (Membership.Role.MESTRE, Membership.Role.ARBITRO)


def membership_for(user, campaign: Campaign) -> Membership | None:
    """``user``'s membership of ``campaign``; ``None`` for an anonymous user or an outsider."""
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(user=user, campaign=campaign).first()


def memberships_of(user) -> list[Membership]:
    """Every membership of ``user``, with its campaign; ``[]`` for an anonymous user."""
    if not user.is_authenticated:
        return []
    return list(Membership.objects.filter(user=user).select_related("campaign"))


def campaigns_where(user, roles) -> list[Campaign]:
    """The campaigns where ``user`` has one of ``roles``."""
    return [m.campaign for m in memberships_of(user) if m.role in roles]


def has_role(membership: Membership | None, *roles: str) -> bool:
    return membership is not None and membership.role in roles


def require_role(membership: Membership | None, *roles: str, message: str) -> Membership:
    """``membership`` when it has one of ``roles``; else ``ServiceError(message,
    code="forbidden")``, ``message`` saying what only those roles do there."""
    if not has_role(membership, *roles):
        raise ServiceError(message, code="forbidden")
    return membership


def campaign_role_required(user, campaign: Campaign, *roles: str, message: str) -> Membership:
    """``require_role`` for ``user``'s membership of ``campaign`` (an outsider is refused with
    the same ``message``)."""
    return require_role(membership_for(user, campaign), *roles, message=message)
