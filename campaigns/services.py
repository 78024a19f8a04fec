"""A campaign's ruleset: chosen at creation from the registry (``rulesets.registry``), fixed
once the campaign has a sheet or a roll (what was written under one ruleset is read under it).
"""

from __future__ import annotations

from django.db import transaction

from campaigns.errors import ServiceError
from campaigns.models import Campaign
from rulesets.registry import ruleset_choices

UNKNOWN_RULESET = "Sistema de regras desconhecido: «{ruleset}». Os conhecidos: {known}."
RULESET_FIXED = (
    "O sistema de regras desta campanha não muda mais: ela já tem ficha ou rolagem, "
    "escritas nas regras dele."
)


def ruleset_checked(ruleset: str) -> str:
    """``ruleset`` if the registry knows it; else ``ServiceError`` (field ``ruleset``)."""
    known = dict(ruleset_choices())
    if ruleset not in known:
        raise ServiceError(
            UNKNOWN_RULESET.format(ruleset=ruleset, known=", ".join(known)),
            code="invalid",
            field="ruleset",
        )
    return ruleset


def ruleset_fixed(campaign: Campaign) -> bool:
    """Whether ``campaign`` has a character (its sheet) or a roll: then its ruleset is fixed.
    Asked through the reverse relations, so this app imports neither sheets nor sessions."""
    return campaign.characters.exists() or campaign.rolls.exists()


@transaction.atomic
def campaign_ruleset_set(*, campaign: Campaign, ruleset: str) -> Campaign:
    """Change ``campaign``'s ruleset; ``ServiceError`` for an unknown one or once it is fixed
    (``ruleset_fixed``). Setting the one it has is no change and always accepted."""
    ruleset_checked(ruleset)
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if campaign.ruleset == ruleset:
        return campaign
    if ruleset_fixed(campaign):
        raise ServiceError(RULESET_FIXED, field="ruleset")
    campaign.ruleset = ruleset
    campaign.save(update_fields=["ruleset"])
    return campaign
