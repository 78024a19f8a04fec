"""A campaign on the Xuleta (issue 22) with its Mestre, Árbitro and a jogador, and Aina, the
jogador's character, with a homologated sheet."""

from __future__ import annotations

import copy

import pytest
from django.contrib.auth import get_user_model

from campaigns.models import Membership
from garganta_site.founding import campaign_create
from sheets import ruleset_data
from sheets.homologation import sheet_homologate, sheet_submit
from sheets.models import Character
from tests.xuleta.conftest import quote  # noqa: F401 - the text's sentences, here too
from tests.xuleta.test_sheet_data import AINA

PASSWORD = "senha-da-xuleta-1"  # pragma: allowlist secret
KEY = "xuleta5e"


@pytest.fixture
def people(db):
    make = get_user_model().objects.create_user
    return {
        name: make(f"x-{name}", password=PASSWORD)
        for name in ("mestre", "arbitro", "jogador", "outro")
    }


@pytest.fixture
def campaign(people):
    made = campaign_create(slug="xuleta", name="Campanha da Xuleta", ruleset=KEY)
    for name, role in (
        ("mestre", Membership.Role.MESTRE),
        ("arbitro", Membership.Role.ARBITRO),
        ("jogador", Membership.Role.JOGADOR),
        ("outro", Membership.Role.JOGADOR),
    ):
        Membership.objects.create(user=people[name], campaign=made, role=role)
    return made


@pytest.fixture
def sheet_data():
    return copy.deepcopy(AINA)


@pytest.fixture
def aina(campaign, people, sheet_data):
    """Aina, the jogador's, homologated from ``AINA`` (no warnings)."""
    character = Character.objects.create(campaign=campaign, owner=people["jogador"], name="Aina")
    draft = ruleset_data.data_draft_create(
        character=character, user=people["jogador"], data=sheet_data
    )
    sheet_submit(version=draft, user=people["jogador"])
    sheet_homologate(version=draft, user=people["arbitro"])
    return character


@pytest.fixture
def client_of(client, people):
    def login(name: str):
        client.force_login(people[name])
        return client

    return login
