"""The Xuleta's combat tests on the site: the text's ``quote`` fixture (tests.xuleta), a
campaign on the Xuleta with its Mestre, Árbitro and a jogador, its first week open and a scene,
and a scripted random source for the server's dice."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from campaigns.models import Membership
from garganta_site.founding import campaign_create
from sessions import entries
from sessions.log import services as log_services
from sessions.weeks import services as weeks_services
from tests.gurps.helpers import ScriptedSource
from tests.xuleta.conftest import quote  # noqa: F401 - a fixture

PASSWORD = "senha-da-xuleta"  # pragma: allowlist secret
KEY = "xuleta5e"


@pytest.fixture
def people(db):
    make = get_user_model().objects.create_user
    return {
        name: make(f"xu-{name}", password=PASSWORD) for name in ("mestre", "arbitro", "jogador")
    }


@pytest.fixture
def campaign(people):
    made = campaign_create(slug="xuleta", name="Campanya de la Xuleta", ruleset=KEY)
    for name, role in (
        ("mestre", Membership.Role.MESTRE),
        ("arbitro", Membership.Role.ARBITRO),
        ("jogador", Membership.Role.JOGADOR),
    ):
        Membership.objects.create(user=people[name], campaign=made, role=role)
    return made


@pytest.fixture
def scene(campaign, people):
    week = weeks_services.week_open(campaign=campaign, user=people["mestre"])
    return log_services.scene_create(week=week, user=people["mestre"], title="La cripta")


@pytest.fixture
def server_dice(monkeypatch):
    """``server_dice(4, 7, …)``: the server's next dice, in order (a test fails if one is left
    or one more is drawn)."""
    scripted = {}

    def script(*faces: int) -> ScriptedSource:
        source = ScriptedSource(faces)
        scripted["source"] = source
        monkeypatch.setattr(entries, "dice_source", lambda: source)
        return source

    yield script
    if "source" in scripted:
        assert scripted["source"].values == [], "dados roteirizados não usados"


SCORES = {"str": 16, "dex": 14, "con": 14, "int": 10, "wis": 12, "cha": 10}


def numbers(**more) -> dict:
    """A combatant's numbers as the Mestre gives them (a Xuleta body)."""
    return {"abilities": dict(SCORES), "ac": 12, "max_hp": 12, **more}
