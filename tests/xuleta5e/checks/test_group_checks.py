"""Group checks in a Xuleta scene (issue 22, item 2): «Quan tot el grup fa el mateix
(travessar un aiguamoll d'amagat), tira cadascú i, si almenys la meitat ho aconsegueix, ho
aconsegueix el grup.» The Mestre names the characters, the skill or ability and the DC; the
server rolls each from his sheet into the chain and logs the group's result."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model

from campaigns.auth import api_token_create
from campaigns.models import Membership
from garganta_site.founding import campaign_create
from sessions import entries
from sessions.log import levels, timeline
from sessions.log import services as log_services
from sessions.models import Roll
from sessions.weeks import services as weeks_services
from sheets.models import Character
from tests.gurps.helpers import ScriptedSource
from tests.xuleta5e.checks.sheet import check_data

pytestmark = pytest.mark.django_db
PASSWORD = "senha-do-grupo"  # pragma: allowlist secret
GROUP_RULE = (
    "Quan tot el grup fa el mateix (travessar un aiguamoll d'amagat), tira cadascú i, si "
    "almenys la meitat ho aconsegueix, ho aconsegueix el grup."
)


@pytest.fixture
def world(db, monkeypatch):
    make = get_user_model().objects.create_user
    mestre = make("grup-mestre", password=PASSWORD)
    jogador = make("grup-jogador", password=PASSWORD)
    campaign = campaign_create(slug="grup", name="El grup", ruleset="xuleta5e")
    Membership.objects.create(user=mestre, campaign=campaign, role=Membership.Role.MESTRE)
    Membership.objects.create(user=jogador, campaign=campaign, role=Membership.Role.JOGADOR)
    names = ("Aina", "Bru", "Ona", "Pol")
    people = {
        n.lower(): Character.objects.create(
            campaign=campaign, name=n, owner=jogador if n == "Aina" else None
        )
        for n in names
    }
    stranger = Character.objects.create(campaign=campaign, name="Estrany")
    week = weeks_services.week_open(campaign=campaign, user=mestre)
    scene = log_services.scene_create(
        week=week, user=mestre, title="L'aiguamoll", characters=[*people.values(), stranger]
    )
    # Aina, Bru and Ona have homologated sheets (Sigil +1, Percepció +3); Pol is poisoned;
    # the stranger has none.
    sheets = {n: check_data(n.capitalize()) for n in ("aina", "bru", "ona")}
    sheets["pol"] = check_data("Pol", conditions=["poisoned"])
    monkeypatch.setattr(
        levels, "sheet_levels", lambda character, **kw: sheets.get(character.name.lower())
    )
    return {"mestre": mestre, "jogador": jogador, "scene": scene, "stranger": stranger, **people}


@pytest.fixture
def server_dice(monkeypatch):
    scripted = {}

    def script(*faces: int) -> ScriptedSource:
        source = ScriptedSource(faces)
        scripted["source"] = source
        monkeypatch.setattr(entries, "dice_source", lambda: source)
        return source

    yield script
    if "source" in scripted:
        assert scripted["source"].values == [], "dados roteirizados não usados"


def _group(client, world, body: dict, user=None, key: str = ""):
    token = api_token_create(user=user or world["mestre"])
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    if key:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return client.post(
        f"/api/v1/scenes/{world['scene'].code}/group-checks",
        json.dumps(body),
        content_type="application/json",
        **headers,
    )


def _ids(world, *names: str) -> list[str]:
    return [str(world[n].code) for n in names]


def test_half_of_the_group_succeeding_is_the_group_succeeding(client, world, server_dice, quote):
    quote(GROUP_RULE)
    # Sigil +1 against DC 12: Aina 11 + 1 = 12 passes, Bru 4 + 1 fails, Ona 15 + 1 passes,
    # Pol (poisoned: the lower of two) 3 + 1 fails: two of four, «almenys la meitat».
    server_dice(11, 4, 15, 3, 18)
    body = {"characters": _ids(world, "aina", "bru", "ona", "pol"), "skill": "Sigil", "dc": 12}
    answer = _group(client, world, body)
    assert answer.status_code == 201, answer.json()
    made = answer.json()
    members, result = made["members"], made["result"]
    assert [m["total"] for m in members] == [12, 5, 16, 4]
    assert [m["outcome"] for m in members] == ["success", "failure", "success", "failure"]
    assert [m["character"] for m in members] == body["characters"]
    assert all(m["kind"] == "check" and m["level_source"] == "sheet" for m in members)
    assert (result["kind"], result["kind_label"]) == ("group", "Prova de grup")
    assert (result["total"], result["effective_level"], result["dice"]) == (2, 12, [])
    assert (result["outcome"], result["character"]) == ("success", None)
    group = result["details"]["group"]
    assert (group["successes"], group["count"], group["needed"]) == (2, 4, 2)
    assert [m["sequence"] for m in group["members"]] == [m["sequence"] for m in members]
    assert result["sequence"] == members[-1]["sequence"] + 1
    assert group["text"] == "2 de 4 conseguem (precisam 2): o grupo consegue"


def test_less_than_half_is_the_group_failing(client, world, server_dice):
    # Three roll; one passes: fewer than half (1.5).
    server_dice(11, 4, 3)
    body = {"characters": _ids(world, "aina", "bru", "ona"), "skill": "Sigil", "dc": 12}
    result = _group(client, world, body).json()["result"]
    assert (result["total"], result["outcome"]) == (1, "failure")
    assert result["details"]["group"]["needed"] == 2


def test_each_bonus_from_his_sheet_and_each_edge_from_his_state(client, world, server_dice, quote):
    quote("Desavantatge en tirades d'atac i proves de característica.")
    # Pol is poisoned: two dice, the lower kept; Aina one die. The Mestre's ability (wis).
    server_dice(9, 18, 5)
    body = {"characters": _ids(world, "aina", "pol"), "ability": "wis", "dc": 10}
    members = _group(client, world, body).json()["members"]
    assert (members[0]["dice"], members[0]["total"]) == ([9], 10)
    assert (members[1]["dice"], members[1]["total"]) == ([18, 5], 6)
    assert members[1]["details"]["level"]["edge"] == "disadvantage"


def test_a_hidden_group_check_hides_each_roll_and_the_result(client, world, server_dice):
    server_dice(11, 15)
    body = {"characters": _ids(world, "aina", "bru"), "skill": "Sigil", "dc": 12, "hidden": True}
    made = _group(client, world, body).json()
    assert made["result"]["hidden"] is True
    assert all(m["hidden"] for m in made["members"])
    # The jogador sees Aina's roll masked, and neither Bru's nor the group's result.
    membership = Membership.objects.get(user=world["jogador"])
    seen = timeline.scene_log_entries(world["scene"], membership=membership, user=world["jogador"])
    rolls = [e for e in seen if e.kind == "roll"]
    assert [(e.roll.character_id, e.masked) for e in rolls] == [(world["aina"].pk, True)]


def test_the_same_key_twice_rolls_once_and_the_chain_verifies(client, world, server_dice):
    server_dice(11, 4)
    body = {"characters": _ids(world, "aina", "bru"), "skill": "Percepció", "dc": 14}
    first = _group(client, world, body, key="grup-1").json()
    again = _group(client, world, body, key="grup-1")
    assert again.status_code == 201
    assert again.json()["result"]["id"] == first["result"]["id"]
    assert [m["id"] for m in again.json()["members"]] == [m["id"] for m in first["members"]]
    assert Roll.objects.filter(scene=world["scene"]).count() == 3
    other = _group(client, world, {**body, "dc": 15}, key="grup-1")
    assert other.status_code == 409
    token = api_token_create(user=world["mestre"])
    report = client.get(
        "/api/v1/rolls/verify?campaign=grup", HTTP_AUTHORIZATION=f"Bearer {token}"
    ).json()
    assert report == {"ok": True, "count": 3, "first_broken": None}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"characters": ["aina"], "skill": "Sigil", "dc": 12}, "characters"),
        ({"characters": ["aina", "aina"], "skill": "Sigil", "dc": 12}, "characters.1"),
        ({"characters": ["aina", "stranger"], "skill": "Sigil", "dc": 12}, "characters.1"),
        ({"characters": ["aina", "bru"], "dc": 12}, "skill"),
        ({"characters": ["aina", "bru"], "skill": "Stealth", "dc": 12}, "skill"),
        ({"characters": ["aina", "bru"], "skill": "Sigil"}, "dc"),
        ({"characters": ["aina", "bru"], "skill": "Sigil", "dc": 12, "roll": "save"}, "roll"),
    ],
)
def test_bad_input_is_refused_naming_the_field_and_rolls_nothing(
    client, world, server_dice, body, field
):
    server_dice()
    body = {**body, "characters": [str(world[n].code) for n in body["characters"]]}
    answer = _group(client, world, body)
    assert answer.status_code == 422, answer.json()
    assert answer.json()["field"] == field, answer.json()
    assert not Roll.objects.filter(scene=world["scene"]).exists()


def test_a_jogador_cannot_call_a_group_check(client, world, server_dice):
    server_dice()
    body = {"characters": _ids(world, "aina", "bru"), "skill": "Sigil", "dc": 12}
    assert _group(client, world, body, user=world["jogador"]).status_code == 403


def test_a_gurps_campaign_has_no_group_check(db):
    from sessions.log.group import group_check_create

    mestre = get_user_model().objects.create_user("g-mestre", password=PASSWORD)
    campaign = campaign_create(slug="gurps-g", name="G", ruleset="gurps3e")
    Membership.objects.create(user=mestre, campaign=campaign, role=Membership.Role.MESTRE)
    a = Character.objects.create(campaign=campaign, name="A")
    b = Character.objects.create(campaign=campaign, name="B")
    week = weeks_services.week_open(campaign=campaign, user=mestre)
    scene = log_services.scene_create(week=week, user=mestre, title="S", characters=[a, b])
    with pytest.raises(log_services.ServiceError) as refused:
        group_check_create(scene=scene, user=mestre, characters=[a, b], skill="Furtividade", dc=12)
    assert refused.value.field == "characters"
    assert "Xuleta" in refused.value.message


def test_the_scene_page_shows_the_groups_result(client, world, server_dice):
    server_dice(11, 4)
    body = {"characters": _ids(world, "aina", "bru"), "skill": "Sigil", "dc": 12}
    _group(client, world, body)
    client.force_login(world["mestre"])
    page = client.get(f"/cenas/{world['scene'].code}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-testid="group-result"' in text
    assert "1 de 2 conseguem (precisam 1): o grupo consegue" in text
    assert "Prova de grup" in text


def test_the_scenes_exports_carry_the_group_check(client, world, server_dice):
    server_dice(11, 4)
    body = {"characters": _ids(world, "aina", "bru"), "skill": "Sigil", "dc": 12}
    _group(client, world, body)
    client.force_login(world["mestre"])
    markdown = client.get(f"/cenas/{world['scene'].code}/exportar.md")
    assert markdown.status_code == 200
    text = b"".join(markdown.streaming_content).decode()
    assert "Teste de grupo: Sigil contra 12" in text
    exported = client.get(f"/cenas/{world['scene'].code}/exportar.json")
    assert exported.status_code == 200
    assert "Teste de grupo: Sigil contra 12" in b"".join(exported.streaming_content).decode()


def test_the_markdown_export_takes_a_check_failed_without_a_die(client, world, server_dice):
    """A check that fails without a die has no margin: the export says the outcome alone
    (it used to stop on the missing margin)."""
    server_dice()
    body = {"characters": _ids(world, "aina", "bru"), "skill": "Percepció", "dc": 12}
    _group(client, world, {**body, "light": "darkness"})
    client.force_login(world["mestre"])
    markdown = client.get(f"/cenas/{world['scene'].code}/exportar.md")
    text = b"".join(markdown.streaming_content).decode()
    assert "Foscor" in text and "0 de 2 conseguem" in text
