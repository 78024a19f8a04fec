"""A campaign on the minimal test ruleset (``tests.rulesets.minimal``), with its people, a
character with a homologated sheet of that ruleset, and its first week open."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from campaigns.models import Membership
from garganta_site.founding import campaign_create
from rulesets.registry import ruleset_register, ruleset_unregister
from sessions.weeks import services as weeks_services
from sheets import ruleset_data
from sheets.homologation import sheet_homologate, sheet_submit
from sheets.models import Character
from tests.rulesets.minimal import KEY, MINIMAL

PASSWORD = "senha-do-minimo-1"  # pragma: allowlist secret


@pytest.fixture
def minimal_ruleset():
    ruleset_register(MINIMAL)
    yield MINIMAL
    ruleset_unregister(KEY)


@pytest.fixture
def people(db):
    make = get_user_model().objects.create_user
    return {name: make(f"m-{name}", password=PASSWORD) for name in ("mestre", "arbitro", "jogador")}


@pytest.fixture
def minimal_campaign(minimal_ruleset, people):
    campaign = campaign_create(slug="minima", name="Campanha mínima")
    campaign.ruleset = KEY
    campaign.save(update_fields=["ruleset"])
    for name, role in (
        ("mestre", Membership.Role.MESTRE),
        ("arbitro", Membership.Role.ARBITRO),
        ("jogador", Membership.Role.JOGADOR),
    ):
        Membership.objects.create(user=people[name], campaign=campaign, role=role)
    return campaign


@pytest.fixture
def heroine(minimal_campaign, people):
    """Ana, the jogador's, with a homologated sheet: Furtividade +2, Luta +1."""
    ana = Character.objects.create(campaign=minimal_campaign, owner=people["jogador"], name="Ana")
    draft = ruleset_data.data_draft_create(
        character=ana, user=people["jogador"], data={"skills": {"Furtividade": 2, "Luta": 1}}
    )
    sheet_submit(version=draft, user=people["jogador"])
    sheet_homologate(version=draft, user=people["arbitro"])
    return ana


@pytest.fixture
def minimal_week(minimal_campaign, people):
    return weeks_services.week_open(campaign=minimal_campaign, user=people["mestre"])
