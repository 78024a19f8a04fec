"""Who reaches what, for every page of the table: a scene, a campaign or a week is found only by
its members (404 to anyone else, the same 404 as for an id that does not exist), and the
Mestre's or the Árbitro's pages refuse the others (403).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from campaigns.access import membership_for
from campaigns.models import Campaign, Membership
from sessions.models import Scene, Week

# --- access -----------------------------------------------------------------------------------


def get_scene(request, code) -> tuple[Scene, Membership]:
    scene = get_object_or_404(
        Scene.objects.select_related("week__campaign", "week__report").prefetch_related(
            "characters"
        ),
        code=code,
    )
    membership = membership_for(request.user, scene.week.campaign)
    if membership is None:
        raise Http404
    return scene, membership


def get_scene_for_table(request, code) -> tuple[Scene, Membership]:
    scene, membership = get_scene(request, code)
    if not membership.runs_the_table:
        raise PermissionDenied
    return scene, membership


def get_campaign(request, slug) -> tuple[Campaign, Membership]:
    campaign = get_object_or_404(Campaign, slug=slug)
    membership = membership_for(request.user, campaign)
    if membership is None:
        raise Http404
    return campaign, membership


def get_week(request, slug, number) -> tuple[Week, Membership]:
    campaign, membership = get_campaign(request, slug)
    week = get_object_or_404(
        Week.objects.select_related("campaign", "report"), campaign=campaign, number=number
    )
    return week, membership


def deny_unless_table(membership: Membership) -> None:
    if not membership.runs_the_table:
        raise PermissionDenied


def deny_unless_arbitro(membership: Membership) -> None:
    if membership.role != Membership.Role.ARBITRO:
        raise PermissionDenied
