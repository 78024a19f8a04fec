"""Services of the sheets app that concern the campaign's members.

The rest of what this module held lives by job beside it: ``sheets.reads`` (versions,
possessions, state, the sheet's fingerprint), ``sheets.computed`` (the sheet's numbers),
``sheets.possessions``, ``sheets.drafts``, ``sheets.homologation`` (with ``sheets.audit``, the
Árbitro's checks), ``sheets.diff`` and ``sheets.history``.
"""

from __future__ import annotations

from campaigns.models import Campaign, Membership

# --- reads -------------------------------------------------------------------------------


def membership_for(user, campaign: Campaign) -> Membership | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(user=user, campaign=campaign).first()
