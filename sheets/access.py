"""Who reaches a character's pages: the members of its campaign (404 to anybody else), and for
a draft its owner only (403 to the other members)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import F, FilteredRelation, Q
from django.http import Http404
from django.shortcuts import get_object_or_404

from campaigns.http import HtmxHttpRequest
from campaigns.models import Membership
from sheets.models import Character


def character_for_member(request: HtmxHttpRequest, code) -> tuple[Character, Membership]:
    """The character if the user is a member of its campaign; 404 to outsiders.

    One query: the asker's membership comes joined to the character (FilteredRelation), and
    the state with it, and the owner's username (not the whole user row)."""
    if not request.user.is_authenticated:
        raise Http404
    viewer = FilteredRelation(
        "campaign__membership", condition=Q(campaign__membership__user=request.user)
    )
    character = get_object_or_404(
        Character.objects.annotate(
            viewer_membership=viewer,
            owner_username=F("owner__username"),
            campaign_ruleset=F("campaign__ruleset"),  # the page to draw (sheets.data_sheet)
        ).select_related("state", "viewer_membership"),
        code=code,
    )
    # No membership: the join found no row and Django sets no attribute at all.
    membership = getattr(character, "viewer_membership", None)
    if membership is None:
        raise Http404
    return character, membership


def character_for_owner(request: HtmxHttpRequest, code) -> tuple[Character, Membership]:
    """The character if the user owns it; 403 to the other members, 404 to outsiders."""
    character, membership = character_for_member(request, code)
    if not character.is_owned_by(request.user):
        raise PermissionDenied
    return character, membership
