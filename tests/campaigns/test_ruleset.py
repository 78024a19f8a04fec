"""A campaign's ruleset: chosen at creation from the registry, fixed once it has a sheet or a
roll; the admin shows it, read-only then."""

import pytest

from campaigns.errors import ServiceError
from campaigns.models import Campaign
from campaigns.services import (
    RULESET_FIXED,
    UNKNOWN_RULESET,
    campaign_ruleset_set,
    ruleset_fixed,
)
from garganta_site.admin import CampaignAdmin
from garganta_site.founding import campaign_create
from rulesets import registry
from sheets.models import Character

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_ruleset(monkeypatch):
    monkeypatch.setitem(registry.LABELS, "teste", "Sistema de teste")
    return "teste"


def test_a_campaign_is_created_under_gurps3e_unless_told():
    assert campaign_create(slug="c", name="C").ruleset == registry.GURPS3E


def test_an_unknown_ruleset_is_refused_at_creation_in_portuguese():
    with pytest.raises(ServiceError) as refused:
        campaign_create(slug="c", name="C", ruleset="d&d")
    assert refused.value.field == "ruleset"
    assert refused.value.message == UNKNOWN_RULESET.format(
        ruleset="d&d", known="gurps3e, xuleta5e, sistema001"
    )
    assert not Campaign.objects.filter(slug="c").exists()


def test_the_ruleset_changes_until_the_first_sheet_then_is_fixed(other_ruleset):
    campaign = campaign_create(slug="c", name="C")
    campaign = campaign_ruleset_set(campaign=campaign, ruleset=other_ruleset)
    assert campaign.ruleset == other_ruleset and not ruleset_fixed(campaign)
    Character.objects.create(campaign=campaign, name="Alguém")
    assert ruleset_fixed(campaign)
    with pytest.raises(ServiceError) as refused:
        campaign_ruleset_set(campaign=campaign, ruleset=registry.GURPS3E)
    assert refused.value.message == RULESET_FIXED
    assert Campaign.objects.get(pk=campaign.pk).ruleset == other_ruleset
    # the one it has is no change
    campaign_ruleset_set(campaign=campaign, ruleset=other_ruleset)


def test_the_demo_campaign_says_its_ruleset(demo):
    assert Campaign.objects.get(slug="a-garganta").ruleset == registry.GURPS3E


def test_the_admin_shows_the_ruleset_read_only_once_fixed(rf, admin_user):
    from django.contrib.admin.sites import site

    campaign = campaign_create(slug="c", name="C")
    admin = CampaignAdmin(Campaign, site)
    request = rf.get("/")
    request.user = admin_user
    assert admin.get_readonly_fields(request, campaign) == ()
    Character.objects.create(campaign=campaign, name="Alguém")
    assert admin.get_readonly_fields(request, campaign) == ("ruleset",)
