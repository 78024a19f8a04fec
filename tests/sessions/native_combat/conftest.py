"""A campaign on the sistema001 (the combat chapter, issue 23), with its Mestre, Árbitro and a
jogador, its first week open and a scene; fighters given by the Mestre's numbers; a scripted
random source for the server's dice."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from campaigns.models import Membership
from garganta_site.founding import campaign_create
from sessions import entries
from sessions.log import services as log_services
from sessions.weeks import services as weeks_services
from tests.gurps.helpers import ScriptedSource

PASSWORD = "senha-do-sistema-001"  # pragma: allowlist secret
KEY = "sistema001"


@pytest.fixture
def people(db):
    make = get_user_model().objects.create_user
    return {
        name: make(f"s1-{name}", password=PASSWORD) for name in ("mestre", "arbitro", "jogador")
    }


@pytest.fixture
def campaign(people):
    made = campaign_create(slug="s001", name="Campanha do Sistema 001", ruleset=KEY)
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
    return log_services.scene_create(week=week, user=people["mestre"], title="A ponte")


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


def numbers(
    mobilidade=5,
    acuidade=5,
    forca=5,
    resistencia=3,
    espirito=3,
    astucia=3,
    die=10,
    pv=10,
    side="inimigos",
    **more,
) -> dict:
    """A fighter's numbers as the Mestre gives them: every die ``die`` faces."""
    attributes = {
        "mobilidade": mobilidade,
        "acuidade": acuidade,
        "forca": forca,
        "resistencia": resistencia,
        "espirito": espirito,
        "astucia": astucia,
    }
    return {
        "attributes": attributes,
        "dice": dict.fromkeys(attributes, die),
        "pv_max": pv,
        "side": side,
        **more,
    }


SWORD = {"name": "Espada", "kind": "corpo_a_corpo", "damage_increase": 1, "damage_types": ["corte"]}
TORCH = {"name": "Tocha", "kind": "corpo_a_corpo", "damage_types": ["fogo"]}
BOW = {
    "name": "Arco",
    "kind": "disparo",
    "damage_increase": 2,
    "damage_types": ["perfuracao"],
    "ammunition": 5,
}
