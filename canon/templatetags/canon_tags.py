"""Template tags of the console: who may open a divergence, for the offer include."""

from __future__ import annotations

from django import template
from django.urls import reverse

from campaigns.access import membership_for, memberships_of
from canon import services
from canon.models import place

register = template.Library()


@register.simple_tag(takes_context=True)
def may_propose_divergence(context, campaign=None) -> bool:
    """True if the user is Mestre or Árbitro (in ``campaign``, or in any of theirs)."""
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    if user is None or not user.is_authenticated:
        return False
    if campaign is not None and campaign != "":
        return services.may_propose(membership_for(user, campaign))
    return any(services.may_propose(m) for m in memberships_of(user))


@register.simple_tag(takes_context=True)
def house_decision_urls(context, campaign=None) -> dict[str, str]:
    """For the rules pages: each house setting key → the page of the decision behind it, in
    ``campaign`` (or the user's first campaign). One query. Use with ``lookup``:
    ``{% house_decision_urls as urls %} … {% with url=urls|lookup:setting.key %}``."""
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    if campaign in (None, ""):
        memberships = memberships_of(user) if user is not None else []
        campaign = memberships[0].campaign if memberships else None
    if campaign is None:
        return {}
    return {
        key: reverse("decision", args=[decision.code])
        for key, decision in services.house_decisions(campaign, with_corrections=False).items()
    }


@register.filter
def lookup(mapping, key):
    """``mapping[key]``, or "" when there is none."""
    return mapping.get(key, "") if mapping else ""


@register.filter
def where(section: str) -> str:
    """``canon.models.place`` for templates: "§4.9", or "Descansar" as it is."""
    return place(section)
