"""Checks, saves and attacks in a Xuleta campaign's scene log (issue 22, item 2), through the
API: the server rolls the d20 (two under an edge) against the DC the Mestre says, the bonus from
the homologated sheet (``check_data``, built by hand here) or the Mestre's number, the state's
conditions and exhaustion as the edge with the reasons kept; contests; hidden rolls; the chain.
GURPS's requests refuse the Xuleta's fields, and the reverse."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model

from campaigns.auth import api_token_create
from campaigns.models import Membership
from garganta_site.founding import campaign_create
from sessions import entries
from sessions.log import levels
from sessions.log import services as log_services
from sessions.weeks import services as weeks_services
from sheets.models import Character
from tests.gurps.helpers import ScriptedSource
from tests.xuleta5e.checks.sheet import check_data

pytestmark = pytest.mark.django_db
PASSWORD = "senha-da-xuleta"  # pragma: allowlist secret


@pytest.fixture
def world(db):
    make = get_user_model().objects.create_user
    mestre = make("xu-mestre", password=PASSWORD)
    campaign = campaign_create(slug="xuleta", name="A Xuleta", ruleset="xuleta5e")
    Membership.objects.create(user=mestre, campaign=campaign, role=Membership.Role.MESTRE)
    aina = Character.objects.create(campaign=campaign, name="Aina")
    bernat = Character.objects.create(campaign=campaign, name="Bernat")
    week = weeks_services.week_open(campaign=campaign, user=mestre)
    scene = log_services.scene_create(
        week=week, user=mestre, title="El pas del riu", characters=[aina, bernat]
    )
    return {"mestre": mestre, "scene": scene, "aina": aina, "bernat": bernat}


@pytest.fixture
def sheets(monkeypatch, world):
    """Aina has a homologated sheet (``check_data`` by hand); Bernat has none. ``sheets(
    conditions=[…], exhaustion=n)`` sets Aina's state."""
    found = {"aina": check_data("Aina")}

    def sheet_of(character, **kwargs):
        return found.get(character.name.lower())

    monkeypatch.setattr(levels, "sheet_levels", sheet_of)

    def set_state(**state):
        found["aina"] = check_data("Aina", **state)

    return set_state


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


def _post(client, user, url: str, body: dict):
    token = api_token_create(user=user)
    return client.post(
        url, json.dumps(body), content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )


def _roll(client, world, body: dict):
    return _post(client, world["mestre"], f"/api/v1/scenes/{world['scene'].code}/rolls", body)


def test_a_skill_check_from_the_sheet_against_a_dc(client, world, sheets, server_dice, quote):
    quote("Si l'iguales o el superes, ho aconsegueixes.")
    server_dice(12)
    answer = _roll(
        client, world, {"character": str(world["aina"].code), "skill": "Percepció", "dc": 15}
    )
    assert answer.status_code == 201, answer.json()
    roll = answer.json()
    assert (roll["kind"], roll["kind_label"]) == ("check", "Teste de característica (prova)")
    assert (roll["dice"], roll["total"], roll["base_level"]) == ([12], 15, 3)
    assert (roll["effective_level"], roll["margin"], roll["outcome"]) == (15, 0, "success")
    assert roll["outcome_label"] == "Sucesso"
    assert roll["level_source"] == "sheet"
    assert roll["level_text"] == "Percepció +3 (ficha) contra 15"
    assert roll["details"]["level"]["asked"] == {"skill": "Percepció", "dc": 15}


def test_the_states_poison_gives_disadvantage_and_says_why(client, world, sheets, server_dice):
    sheets(conditions=["poisoned"])
    server_dice(17, 4)
    body = {"character": str(world["aina"].code), "ability": "str", "dc": 10}
    roll = _roll(client, world, body).json()
    assert (roll["dice"], roll["total"], roll["outcome"]) == ([17, 4], 6, "failure")
    level = roll["details"]["level"]
    assert level["edge"] == "disadvantage"
    assert level["reasons"] == ["Enverinat: desavantatge en proves de característica"]


def test_the_mestres_advantage_and_an_attacks_critical(client, world, sheets, server_dice):
    server_dice(20, 3)
    body = {
        "character": str(world["aina"].code),
        "roll": "attack",
        "skill": "Espasa llarga",
        "dc": 25,
        "edge": "advantage",
    }
    roll = _roll(client, world, body).json()
    assert (roll["kind"], roll["dice"], roll["outcome"]) == ("attack", [20, 3], "critical_success")
    assert roll["outcome_label"] == "Acerto crítico (20 natural)"


def test_a_save_the_stunned_fail_without_a_die(client, world, sheets, server_dice):
    sheets(conditions=["stunned"])
    server_dice()
    body = {"character": str(world["aina"].code), "roll": "save", "ability": "dex", "dc": 5}
    roll = _roll(client, world, body).json()
    assert (roll["dice"], roll["outcome"], roll["margin"]) == ([], "failure", None)
    assert roll["details"]["level"]["auto_fail"] is True


def test_a_creature_without_a_sheet_rolls_the_mestres_bonus(client, world, sheets, server_dice):
    server_dice(9)
    body = {
        "character": str(world["bernat"].code),
        "roll": "save",
        "ability": "con",
        "base_level": 2,
        "dc": 12,
    }
    roll = _roll(client, world, body).json()
    assert (roll["total"], roll["outcome"], roll["level_source"]) == (11, "failure", "given")


def test_a_hidden_roll_works_as_today(client, world, sheets, server_dice):
    server_dice(15)
    body = {"character": str(world["aina"].code), "skill": "Sigil", "dc": 12, "hidden": True}
    roll = _roll(client, world, body).json()
    assert roll["hidden"] is True and roll["outcome"] == "success"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"skill": "Percepció"}, "dc"),
        ({"attribute": "st", "dc": 10}, "attribute"),
        ({"kind": "skill", "skill": "Percepció", "dc": 10}, "kind"),
        ({"skill": "Stealth", "dc": 10}, "skill"),
        ({"roll": "save", "dc": 10}, "ability"),  # the body says ability, not attribute
        ({"skill": "Percepció", "dc": 10, "edge": "double"}, "edge"),
        ({"skill": "Percepció", "dc": 61}, "dc"),
    ],
)
def test_bad_input_is_refused_naming_the_field_and_rolls_nothing(
    client, world, sheets, body, field
):
    answer = _roll(client, world, {"character": str(world["aina"].code), **body})
    assert answer.status_code == 422, answer.json()
    assert answer.json()["field"] == field
    assert not log_services.Roll.objects.filter(scene=world["scene"]).exists()


def test_a_contest_higher_total_wins_and_a_tie_leaves_things(client, world, sheets, server_dice):
    url = f"/api/v1/scenes/{world['scene'].code}/contests"
    server_dice(10, 12)
    body = {
        "a": {"character": str(world["aina"].code), "skill": "Atletisme"},
        "b": {"name": "L'ós", "base_level": 2, "label": "Atletisme"},
    }
    roll = _post(client, world["mestre"], url, body).json()
    # Aina 10 + 4 = 14, the bear 12 + 2 = 14: a tie.
    assert (roll["details"]["a"]["total"], roll["details"]["b"]["total"]) == (14, 14)
    assert roll["details"]["winner"] is None
    server_dice(15, 3)
    roll = _post(client, world["mestre"], url, body).json()
    assert roll["details"]["winner"] == "a"


def test_the_chain_verifies_after_xuleta_rolls(client, world, sheets, server_dice):
    server_dice(5, 16)
    _roll(client, world, {"character": str(world["aina"].code), "skill": "Medicina", "dc": 10})
    _roll(client, world, {"character": str(world["aina"].code), "ability": "wis", "dc": 10})
    token = api_token_create(user=world["mestre"])
    report = client.get(
        "/api/v1/rolls/verify", {"campaign": "xuleta"}, HTTP_AUTHORIZATION=f"Bearer {token}"
    ).json()
    assert report == {"ok": True, "count": 2, "first_broken": None}


def test_a_gurps_roll_refuses_the_xuletas_fields(client, mestre, scene, jurado):
    url = f"/api/v1/scenes/{scene.code}/rolls"
    for body, field in (
        ({"attribute": "dx", "dc": 10}, "dc"),
        ({"attribute": "dx", "edge": "advantage"}, "edge"),
        ({"ability": "dex"}, "ability"),
        ({"attribute": "dx", "roll": "save"}, "roll"),
    ):
        answer = _post(client, mestre, url, {"character": str(jurado.code), **body})
        assert answer.status_code == 422, body
        assert answer.json()["field"] == field


def test_the_scene_page_shows_a_xuleta_roll(client, world, sheets, server_dice):
    server_dice(12)
    _roll(client, world, {"character": str(world["aina"].code), "skill": "Percepció", "dc": 15})
    client.force_login(world["mestre"])
    page = client.get(f"/cenas/{world['scene'].code}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Percepció +3 (ficha) contra 15" in text and "Sucesso" in text
    assert "bônus +3" in text and "NH 3" not in text
    answer = client.get(f"/cenas/{world['scene'].code}/exportar.md")
    export = b"".join(answer.streaming_content).decode()
    assert "contra 15 (bônus +3: Percepció +3 (ficha) contra 15): Sucesso, margem +0" in export


def test_the_scene_page_shows_a_xuleta_contest(client, world, sheets, server_dice):
    server_dice(10, 12)
    body = {
        "a": {"character": str(world["aina"].code), "skill": "Atletisme"},
        "b": {"name": "L'ós", "base_level": 2, "label": "Atletisme"},
    }
    _post(client, world["mestre"], f"/api/v1/scenes/{world['scene'].code}/contests", body)
    client.force_login(world["mestre"])
    text = client.get(f"/cenas/{world['scene'].code}/").content.decode()
    assert "tudo continua como estava" in text and "Xuleta §4.6" in text
    assert "bônus +4" in text


def test_the_mestres_forms_say_the_d20s_words_not_gurpss(client, world):
    from xuleta.text import cite

    client.force_login(world["mestre"])
    text = client.get(f"/cenas/{world['scene'].code}/").content.decode()
    assert "Prova enfrontada (disputa)" in text and "Disputa Rápida" not in text
    assert f"(Xuleta {cite('Proves enfrontades')})" in text
    assert "Bônus (sem ficha)" in text and "Bônus (só criatura ou NPC sem ficha)" in text
    assert "NH (" not in text and "PV e fadiga" not in text


@pytest.fixture
def offered(monkeypatch, world, sheets):
    """The roll form offers Aina's sheet (its checks, skills and saves, as ``CHECKS.choices``
    gives them) until the sheets part lands."""
    from rulesets.xuleta5e.checks import CHECKS
    from sessions.log import targets, views

    def lines(character):
        sheet = levels.sheet_levels(character)
        return [targets._target(c) for c in CHECKS.choices(sheet)] if sheet else []

    monkeypatch.setattr(targets, "roll_targets", lines)
    monkeypatch.setattr(views, "roll_targets", lines)


def test_the_roll_form_rolls_a_save_against_the_dc_with_the_mestres_edge(
    client, world, offered, server_dice
):
    client.force_login(world["mestre"])
    scene = world["scene"]
    page = client.get(f"/cenas/{scene.code}/").content.decode()
    assert 'data-testid="d20-fields"' in page and "Rolar d20 no servidor" in page
    # GURPS's default (§3.3) fields are not offered; the d20's kind is.
    assert 'name="difficulty"' not in page and 'name="roll"' in page
    assert "Xuleta §4.5" in page and "§1.1" not in page
    target = f"{world['aina'].code}|save:con"
    assert f'value="{target}"' in page
    server_dice(4, 18)
    answer = client.post(
        f"/cenas/{scene.code}/rolar/",
        {"target": target, "dc": 12, "edge": "advantage", "request_key": "form-1"},
    )
    assert answer.status_code in (200, 302)
    roll = log_services.Roll.objects.get(scene=scene)
    assert (roll.kind, roll.dice, roll.total, roll.outcome) == ("save", [4, 18], 22, "success")
    assert roll.details["level"]["edge"] == "advantage"


def test_the_roll_form_without_a_dc_says_so_and_rolls_nothing(client, world, offered):
    client.force_login(world["mestre"])
    scene = world["scene"]
    answer = client.post(
        f"/cenas/{scene.code}/rolar/",
        {"target": f"{world['aina'].code}|skill:Percepció", "request_key": "form-2"},
    )
    assert "Diga a CD (dc)" in answer.content.decode()
    assert not log_services.Roll.objects.filter(scene=scene).exists()


def test_the_roll_form_for_a_creature_without_a_sheet(client, world, offered, server_dice):
    client.force_login(world["mestre"])
    scene = world["scene"]
    server_dice(11)
    client.post(
        f"/cenas/{scene.code}/rolar/",
        {
            "target": "custom",
            "custom_character": str(world["bernat"].code),
            "label": "Mossegada",
            "base_level": 5,
            "roll": "attack",
            "dc": 16,
            "request_key": "form-3",
        },
    )
    roll = log_services.Roll.objects.get(scene=scene)
    assert (roll.kind, roll.total, roll.outcome, roll.label) == (
        "attack",
        16,
        "success",
        "Mossegada",
    )


def test_a_skill_named_without_accents_is_the_text_s_and_a_near_miss_is_suggested(
    client, world, sheets, server_dice
):
    """The schema's promise for ``skill``: «maiúsculas e acentos não importam»."""
    server_dice(12)
    body = {"character": str(world["aina"].code), "skill": "PERCEPCIO", "dc": 15}
    answer = _roll(client, world, body)
    assert answer.status_code == 201, answer.json()
    assert answer.json()["level_text"] == "Percepció +3 (ficha) contra 15"
    refused = _roll(client, world, {**body, "skill": "Percepsio"})
    assert refused.status_code == 422 and refused.json()["field"] == "skill"
    assert "Você quis dizer Percepció" in refused.json()["detail"]
