"""The attacker's fixtures: the sheets' Xuleta campaign (Mestre, Árbitro, two jogadores, Aina
homologated), a second Xuleta campaign with its own character, a GURPS campaign, an outsider,
and API tokens."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from campaigns.auth import api_token_create
from campaigns.models import Membership
from garganta_site.founding import campaign_create
from sheets.models import Character
from tests.xuleta5e.sheets.conftest import (  # noqa: F401 - fixtures
    aina,
    campaign,
    client_of,
    people,
    sheet_data,
)


@pytest.fixture
def outsider(db):
    return get_user_model().objects.create_user(
        "x-fora",
        password="senha-de-fora-1",  # pragma: allowlist secret
    )  # pragma: allowlist secret


@pytest.fixture
def other_campaign(people):  # noqa: F811
    """Another Xuleta campaign: its own Mestre, and Ona, its jogador's character."""
    made = campaign_create(slug="xuleta-2", name="Outra Xuleta", ruleset="xuleta5e")
    mestre2 = get_user_model().objects.create_user(
        "x-mestre2",
        password="senha-m2-longa-1",  # pragma: allowlist secret
    )  # pragma: allowlist secret
    Membership.objects.create(user=mestre2, campaign=made, role=Membership.Role.MESTRE)
    return made


@pytest.fixture
def ona(other_campaign):
    owner = get_user_model().objects.create_user(
        "x-jog2",
        password="senha-j2-longa-1",  # pragma: allowlist secret
    )  # pragma: allowlist secret
    Membership.objects.create(user=owner, campaign=other_campaign, role=Membership.Role.JOGADOR)
    return Character.objects.create(campaign=other_campaign, owner=owner, name="Ona")


@pytest.fixture
def gurps_character(people):  # noqa: F811
    made = campaign_create(slug="garganta-x", name="Uma GURPS", ruleset="gurps3e")
    Membership.objects.create(user=people["jogador"], campaign=made, role=Membership.Role.JOGADOR)
    Membership.objects.create(user=people["arbitro"], campaign=made, role=Membership.Role.ARBITRO)
    return Character.objects.create(campaign=made, owner=people["jogador"], name="Gurpsina")


@pytest.fixture
def bearer(people):  # noqa: F811
    def headers(user) -> dict:
        if isinstance(user, str):
            user = people[user]
        return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user)}"}

    return headers
