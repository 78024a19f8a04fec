"""Light on a Xuleta check (issue 22, item 5: «light and darkvision»): the Mestre's light level
for a check by sight (``light``) or, for a Percepció check, the scene's (its exploration in
total darkness), applied as the text says: «Llum tènue (…) Desavantatge en Percepció amb la
vista»; «Foscor: (…) A efectes pràctics estàs encegat», and Encegat «Falles sense tirar
qualsevol prova que depengui de la vista»; darkvision from the sheet turns darkness to dim and
dim to bright."""

# ruff: noqa: F811 - the fixtures of test_scene_checks, used by name
from __future__ import annotations

import pytest

from campaigns.errors import ServiceError
from garganta_site.founding import campaign_create
from rulesets.base import CheckRequest
from rulesets.xuleta5e.checks import CHECKS, DARK_BLIND, DIM_PERCEPTION
from sessions.log import levels
from sessions.log import services as log_services
from sessions.models import Exploration, Roll
from tests.xuleta5e.checks.sheet import check_data
from tests.xuleta5e.checks.test_scene_checks import (  # noqa: F401
    _post,
    offered,
    server_dice,
    world,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheets(monkeypatch, world):
    """Aina's sheet (no darkvision unless ``sheets(darkvision_m=18)``)."""
    found = {"aina": check_data("Aina")}
    monkeypatch.setattr(levels, "sheet_levels", lambda c, **kw: found.get(c.name.lower()))

    def set_sheet(**changes):
        found["aina"] = {**check_data("Aina"), **changes}

    return set_sheet


def _roll(client, world, **body):
    body = {"character": str(world["aina"].code), "dc": 12, **body}
    answer = _post(client, world["mestre"], f"/api/v1/scenes/{world['scene'].code}/rolls", body)
    assert answer.status_code == 201, answer.json()
    return answer.json()


def test_dim_light_gives_disadvantage_on_perception_by_sight(
    client,
    world,
    sheets,
    server_dice,
    quote,
):
    quote("Llum tènue (penombra, lluna plena, la vora d'una torxa): zona lleugerament fosca.")
    quote("Desavantatge en Percepció amb la vista.")
    server_dice(16, 7)
    roll = _roll(client, world, skill="Percepció", light="dim")
    # Percepció +3, the lower of 16 and 7: 10 against 12.
    assert (roll["dice"], roll["total"], roll["outcome"]) == ([16, 7], 10, "failure")
    level = roll["details"]["level"]
    assert level["edge"] == "disadvantage"
    assert DIM_PERCEPTION in level["reasons"]
    assert level["light"]["light"] == "dim" and level["light"]["source"] == "mestre"
    assert level["asked"]["light"] == "dim"


def test_dim_light_is_nothing_to_another_check(client, world, sheets, server_dice):
    server_dice(12)
    roll = _roll(client, world, skill="Investigació", light="dim")
    assert (roll["dice"], roll["details"]["level"]["edge"]) == ([12], "none")


def test_bright_light_is_seeing_normally(client, world, sheets, server_dice, quote):
    quote("Llum brillant: hi veus amb normalitat.")
    server_dice(9)
    roll = _roll(client, world, skill="Percepció", light="bright")
    assert (roll["dice"], roll["total"]) == ([9], 12)


def test_darkness_without_darkvision_fails_a_sight_check_without_a_die(
    client,
    world,
    sheets,
    server_dice,
    quote,
):
    quote("Foscor: zona molt fosca. A efectes pràctics estàs encegat.")
    quote("Falles sense tirar qualsevol prova que depengui de la vista.")
    server_dice()
    for skill in ("Percepció", "Investigació"):
        roll = _roll(client, world, skill=skill, light="darkness")
        assert (roll["dice"], roll["outcome"], roll["margin"]) == ([], "failure", None)
        level = roll["details"]["level"]
        assert level["auto_fail"] is True
        assert level["reasons"][0] == DARK_BLIND


def test_darkvision_sees_darkness_as_dim_and_dim_as_bright(
    client,
    world,
    sheets,
    server_dice,
    quote,
):
    quote(
        "Dins del seu abast (normalment 18 m) hi veus amb llum tènue com si fos brillant, i a "
        "les fosques com si fos tènue."
    )
    sheets(darkvision_m=18)
    server_dice(15, 4, 6)
    dark = _roll(client, world, skill="Percepció", light="darkness")
    assert (dark["dice"], dark["details"]["level"]["edge"]) == ([15, 4], "disadvantage")
    assert dark["details"]["level"]["light"]["seen"] == "dim"
    dim = _roll(client, world, skill="Percepció", light="dim")
    assert (dim["dice"], dim["details"]["level"]["edge"]) == ([6], "none")


def test_the_scenes_total_darkness_is_a_perception_checks_light(
    client,
    world,
    sheets,
    server_dice,
):
    Exploration.objects.create(
        scene=world["scene"], total_darkness=True, started_by=world["mestre"]
    )
    server_dice(11)
    perception = _roll(client, world, skill="Percepció")
    assert perception["outcome"] == "failure" and perception["dice"] == []
    assert perception["details"]["level"]["light"]["source"] == "scene"
    # Another check is not taken as by sight unless the Mestre says the light.
    athletics = _roll(client, world, skill="Atletisme")
    assert athletics["dice"] == [11] and "light" not in athletics["details"]["level"]


def test_a_save_or_an_attack_takes_no_light():
    sheet = check_data("Aina")
    save = CHECKS.sheet_level(
        sheet, CheckRequest(kind="save", attribute="dex", dc=10, light="darkness"), lambda: None
    )
    assert "light" not in save.record and save.record["auto_fail"] is False


def test_a_bad_light_is_refused_naming_the_field(client, world, sheets):
    body = {"character": str(world["aina"].code), "skill": "Percepció", "dc": 12, "light": "dusk"}
    answer = _post(client, world["mestre"], f"/api/v1/scenes/{world['scene'].code}/rolls", body)
    assert answer.status_code == 422
    assert "light" in str(answer.json())
    assert not Roll.objects.exists()


def test_gurps_has_no_light(db):
    campaign = campaign_create(slug="gurps-llum", name="G", ruleset="gurps3e")
    with pytest.raises(ServiceError) as refused:
        log_services.ensure_d20_fields(campaign, light="dim")
    assert refused.value.field == "light"


def test_the_roll_form_takes_the_light(client, world, offered, server_dice):
    client.force_login(world["mestre"])
    scene = world["scene"]
    page = client.get(f"/cenas/{scene.code}/").content.decode()
    assert 'name="light"' in page and "Llum tènue" in page
    server_dice(17, 5)
    client.post(
        f"/cenas/{scene.code}/rolar/",
        {
            "target": f"{world['aina'].code}|skill:Percepció",
            "dc": 10,
            "light": "dim",
            "request_key": "llum-1",
        },
    )
    roll = Roll.objects.get(scene=scene)
    assert (roll.dice, roll.total, roll.outcome) == ([17, 5], 8, "failure")
    assert DIM_PERCEPTION in roll.details["level"]["reasons"]


def test_a_contests_side_takes_its_light(client, world, sheets, server_dice):
    """Sigil against Percepció in the half-light: the watcher's Percepció has disadvantage."""
    server_dice(14, 6, 9)
    body = {
        "a": {"character": str(world["aina"].code), "skill": "Percepció", "light": "dim"},
        "b": {"name": "Lladre", "base_level": 2, "label": "Sigil"},
    }
    url = f"/api/v1/scenes/{world['scene'].code}/contests"
    answer = _post(client, world["mestre"], url, body)
    assert answer.status_code == 201, answer.json()
    a = answer.json()["details"]["a"]
    # Aina: the lower of 14 and 6, + 3 = 9; the thief 9 + 2 = 11.
    assert (a["dice"], a["total"]) == ([14, 6], 9)
    assert DIM_PERCEPTION in a["level"]["reasons"]
    assert answer.json()["details"]["winner"] == "b"
