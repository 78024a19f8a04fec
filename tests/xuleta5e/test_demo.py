"""The Xuleta demo (``manage.py demo_xuleta``, in ``make run``): three homologated sheets, a fight
against a pack of three identical wolves that rolls one initiative, a journey day whose third
round is a forced march with each character's Constitution saves rolled from the sheet; the
chain verifies, and running it twice changes nothing."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command

from garganta_site.demo_xuleta import WOLVES, demo_xuleta_seed
from sessions.log import chain
from sessions.models import Roll
from sessions.native_combat import services as fights
from sheets.models import SheetVersion
from sheets.ruleset_data import data_state

pytestmark = pytest.mark.django_db


def test_the_demo_campaign_plays_the_xuleta(quote):
    quote("El DM sol tirar una sola vegada per cada grup de monstres iguals.")
    quote(
        "Marxa forçada: per cada hora de més, salvació de Constitució CD 10 + 1 per hora extra. "
        "Si falles, un nivell d'esgotament."
    )
    made = demo_xuleta_seed(random.Random(22))
    campaign = made["campaign"]
    assert campaign.ruleset == "xuleta5e"
    homologated = SheetVersion.objects.filter(
        character__campaign=campaign, status=SheetVersion.Status.HOMOLOGATED
    )
    assert sorted(v.character.name for v in homologated) == ["Aina", "Bru", "Ona"]

    fight = made["combat"]
    assert fight.ruleset == "xuleta5e" and fight.combatants.count() == 6
    initiative = Roll.objects.filter(scene=made["fight_scene"], kind="initiative")
    # Three characters and one roll for the pack.
    assert initiative.count() == 4
    order = fights.fight_view(fight)["order"]
    pack = {row["initiative"] for row in order if row["name"] in WOLVES}
    assert len(order) == 6 and len(pack) == 1

    saves = Roll.objects.filter(scene=made["journey_scene"], kind="save")
    # The forced march: hours 9–12, one Constitution save per extra hour for each of the three.
    assert saves.count() == 12
    assert {(r.details["ability"], r.details["dc"]) for r in saves} == {
        ("con", dc) for dc in (11, 12, 13, 14)
    }
    failures = saves.filter(outcome=Roll.Outcome.FAILURE).count()
    levels = sum(data_state(c)["exhaustion"] for c in made["characters"])
    assert levels == failures
    assert chain.rolls_verify(campaign).ok


def test_the_demo_twice_changes_nothing():
    demo_xuleta_seed(random.Random(1))
    rolls = Roll.objects.count()
    call_command("demo_xuleta", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert Roll.objects.count() == rolls
