"""Exports: a scene or a week as Markdown and as JSON, with every roll the reader may see
(sessions.log.views.scene_export_*, sessions.weeks.views.week_export_*; sessions.log.timeline.scene_export, sessions.weeks.services.week_export)."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from sessions.log import services as log_services
from sessions.log.services import Modifier
from sessions.weeks import services as weeks_services
from tests.gurps.helpers import ScriptedSource
from tests.sheets.pages import content


@pytest.fixture
def played(scene, mestre, rastreadora, rastreador, hoplita, jurado, jogador):
    """A short scene: a declaration, its modifiers, the roll, damage, a contest, narration."""
    declaration = log_services.declaration_create(
        scene=scene, character=rastreador, user=rastreadora, text="Atiro na sombra."
    )
    log_services.announcement_create(
        scene=scene, user=mestre, declaration=declaration, modifiers=[Modifier("escuro", -3)]
    )
    log_services.roll_create(
        scene=scene,
        user=mestre,
        label="Arco",
        base_level=15,
        kind="skill",
        character=rastreador,
        declaration=declaration,
        source=ScriptedSource((2, 3, 4)),
    )
    log_services.damage_roll_create(
        scene=scene, user=mestre, expression="1d", character=rastreador, source=ScriptedSource((5,))
    )
    log_services.contest_create(
        scene=scene,
        user=mestre,
        a=log_services.ContestSide(hoplita, "ST", 12, "attribute"),
        b=log_services.ContestSide(jurado, "ST", 13, "attribute"),
        source=ScriptedSource((3, 3, 3, 6, 6, 6)),
    )
    log_services.narration_create(scene=scene, user=mestre, text="A sombra cai.")
    weeks_services.world_action_create(
        week=scene.week, character=jurado, user=jogador, text="Vender o espólio"
    )
    return scene


def _get(client, name, **kwargs):
    response = client.get(reverse(name, kwargs=kwargs))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment; filename=")
    return response


def test_the_scene_as_json_has_every_entry_in_order(client_for, rastreadora, played):
    response = _get(client_for(rastreadora), "scene-export-json", code=played.code)
    assert response["Content-Type"] == "application/json"
    assert response.streaming  # a page of entries at a time, never the whole log in memory
    data = json.loads(content(response))
    assert data["scene"]["title"] == played.title
    assert [e["type"] for e in data["entries"]] == [
        "declaration",
        "announcement",
        "roll",
        "roll",
        "roll",
        "narration",
    ]
    rolls = [e for e in data["entries"] if e["type"] == "roll"]
    assert [r["kind"] for r in rolls] == ["skill", "damage", "contest"]
    assert [r["sequence"] for r in rolls] == [1, 2, 3]
    assert rolls[0]["dice"] == [2, 3, 4] and rolls[0]["effective_level"] == 12
    assert rolls[0]["modifiers"] == [{"label": "escuro", "value": -3}]
    assert rolls[2]["details"]["winner"] == "a"
    for roll in rolls:
        import hashlib

        recomputed = hashlib.sha256((roll["previous_hash"] + roll["canonical"]).encode())
        assert recomputed.hexdigest() == roll["hash"]


def test_the_scene_as_markdown_reads_the_timeline(client_for, rastreadora, played):
    response = _get(client_for(rastreadora), "scene-export-md", code=played.code)
    assert response["Content-Type"].startswith("text/markdown")
    md = content(response)
    assert md.startswith("# Cena: A galeria do andar 3")
    for line in (
        "Rastreador de Uruk-Kalam** (rastreadora) declara: Atiro na sombra.",
        "modificadores anunciados** por mestre: escuro −3",
        "rolagem #1: Arco** — dados 2 3 4 = 9 contra 12 (NH 15: Arco 15 (ficha), escuro −3): Sucesso, margem +3",
        "rolagem #2: Dano 1d** — dano 1d: dados 5 = 5",
        "vence Hoplita de Ônfalos",
        "mestre narra:** A sombra cai.",
        # Both sides of the contest in words, not the codes (critical_failure).
        "= 9 contra 12 (Sucesso, margem +3)",
        "= 18 contra 13 (Falha crítica, margem −5)",
    ):
        assert line in md, line
    assert "critical_failure" not in md


def test_the_week_as_json_and_markdown(client_for, mestre, played):
    week = played.week
    client = client_for(mestre)
    kwargs = {"campaign": week.campaign.slug, "number": week.number}
    data = json.loads(_get(client, "week-export-json", **kwargs).content)
    assert (data["week"], data["state"]) == (1, "open")
    assert data["world_actions"][0]["text"] == "Vender o espólio"
    assert len(data["scenes"]) == 1 and len(data["scenes"][0]["entries"]) == 6
    md = content(_get(client, "week-export-md", **kwargs))
    assert md.startswith("# a-garganta — Semana 1")
    assert "Jurado de Gapheim, ação 1: Vender o espólio" in md
    assert "## Cena: A galeria do andar 3" in md


def test_exports_check_membership(client_for, outsider, played):
    client = client_for(outsider)
    assert client.get(reverse("scene-export-json", kwargs={"code": played.code})).status_code == 404
    url = reverse("week-export-md", kwargs={"campaign": "a-garganta", "number": 1})
    assert client.get(url).status_code == 404


def test_exports_require_login(client, played):
    response = client.get(reverse("scene-export-md", kwargs={"code": played.code}))
    assert response.url.startswith("/entrar/")


def test_the_streamed_scene_exports_are_the_whole_ones(
    client_for, rastreadora, mestre, played, monkeypatch
):
    """Read a page of entries at a time (three entries a page here, so several pages), the
    exports are byte for byte what the whole timeline renders to (and what the API's export
    gives as data)."""
    from django.template.loader import render_to_string

    from sessions.exports import as_json, tidy_markdown
    from sessions.log import timeline

    for n in range(4):
        log_services.narration_create(scene=played, user=mestre, text=f"Mais & mais {n}.")
    pages = []
    paged = timeline.log_entries_paged

    def small_pages(*args, **kwargs):
        pages.append(1)
        return paged(*args, **{**kwargs, "chunk": 3})

    monkeypatch.setattr(timeline, "log_entries_paged", small_pages)
    client = client_for(rastreadora)
    membership = rastreadora.membership_set.get()
    whole = timeline.scene_export(played, membership=membership, user=rastreadora)
    assert len(whole["entries"]) == 10
    streamed = content(_get(client, "scene-export-json", code=played.code))
    assert streamed == as_json(whole)
    md = content(_get(client, "scene-export-md", code=played.code))
    expected = render_to_string("log/export.md", {"scenes": [whole], "week": None})
    assert md == tidy_markdown(expected)
    assert "Mais & mais 3." in md  # Markdown, not HTML: nothing escaped
    assert pages == [1, 1]
