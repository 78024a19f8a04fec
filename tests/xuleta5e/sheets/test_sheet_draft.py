"""The jogador's draft of a Xuleta sheet: simple fields at the same URL as GURPS's draft,
saved through the data model; a refusal names the field and loses nothing typed; sent to the
Árbitro by the same button."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sheets.models import Character, SheetVersion

pytestmark = pytest.mark.django_db


def fields(data: dict, **changes) -> dict:
    """The draft page's fields for ``data`` (AINA's shape)."""
    post = {
        "name": data["name"],
        "level": str(data["level"]),
        "ac": str(data["ac"]),
        "max_hp": str(data["max_hp"]),
        "hit_die": str(data["hit_die"]),
        "speed_m": "9",
        "darkvision_m": "0",
        "attack_rows": str(len(data["attacks"])),
        "notes": "Guerrera del port",
    }
    for key, score in data["abilities"].items():
        post[f"abilities.{key}"] = str(score)
    for name in data["proficiencies"]["skills"]:
        post[f"skill.{name}"] = "1"
    for key in data["proficiencies"]["saves"]:
        post[f"save.{key}"] = "1"
    for i, attack in enumerate(data["attacks"]):
        post[f"attacks.{i}.name"] = attack["name"]
        post[f"attacks.{i}.damage"] = attack["damage"]
        post[f"attacks.{i}.damage_type"] = attack["damage_type"]
        post[f"attacks.{i}.proficient"] = "1"
        for flag in ("finesse", "light", "thrown", "ranged"):
            if attack.get(flag):
                post[f"attacks.{i}.{flag}"] = "1"
        if attack.get("range_m"):
            post[f"attacks.{i}.range_normal"] = str(attack["range_m"][0])
            post[f"attacks.{i}.range_long"] = str(attack["range_m"][1])
    post.update(changes)
    return post


def test_a_new_character_drafts_submits_and_is_homologated(campaign, people, client_of, sheet_data):
    bru = Character.objects.create(campaign=campaign, owner=people["jogador"], name="Bru")
    client = client_of("jogador")
    url = reverse("draft", args=[bru.code])
    page = client.get(url)
    assert page.status_code == 200
    assert [t.name for t in page.templates][0] == "sheets/draft_xuleta5e.html"
    post = fields(sheet_data, name="Bru", **{"spellcasting.class": "clergue", "slots.1": "2"})
    post["resistances.fire"] = "1"
    assert client.post(url, post).status_code == 302
    draft = SheetVersion.objects.get(character=bru)
    assert draft.status == SheetVersion.Status.DRAFT
    assert draft.data["abilities"]["str"] == 15
    assert draft.data["proficiencies"]["skills"] == ["Atletisme", "Percepció"]
    assert draft.data["attacks"][1]["range_m"] == [24.0, 96.0]
    assert draft.data["spellcasting"]["slots"] == {"1": 2}
    assert draft.data["resistances"] == ["fire"]
    assert draft.notes == "Guerrera del port"
    # The saved draft comes back as typed.
    html = client.get(url).content.decode()
    assert 'name="abilities.str" type="number" min="1" max="30" value="15"' in html
    assert client.post(reverse("draft-submit", args=[bru.code])).status_code == 302
    draft.refresh_from_db()
    assert draft.status == SheetVersion.Status.SUBMITTED


def test_a_refusal_names_the_field_and_keeps_what_was_typed(aina, client_of, sheet_data):
    client = client_of("jogador")
    url = reverse("draft", args=[aina.code])
    answer = client.post(url, fields(sheet_data, **{"abilities.dex": "31", "notes": "meu texto"}))
    assert answer.status_code == 422
    html = answer.content.decode()
    assert "Ficha inválida em «abilities.dex»" in html and "de 1 a 30" in html
    assert 'value="31"' in html and "meu texto" in html  # nothing typed is lost
    answer = client.post(url, fields(sheet_data, level="três"))
    assert answer.status_code == 422
    assert "«level»: deve ser um número inteiro" in answer.content.decode()
    assert not SheetVersion.objects.filter(character=aina, status="draft").exists()


def test_a_correction_starts_from_the_homologated_sheet_and_updates_the_draft(
    aina, client_of, sheet_data
):
    client = client_of("jogador")
    url = reverse("draft", args=[aina.code])
    assert 'value="Espasa llarga"' in client.get(url).content.decode()
    client.post(url, fields(sheet_data, level="4"))
    client.post(url, fields(sheet_data, level="5"))
    drafts = SheetVersion.objects.filter(character=aina, status="draft")
    assert [(d.number, d.data["level"]) for d in drafts] == [(2, 5)]


def test_only_the_owner_drafts(aina, client_of):
    assert client_of("outro").get(reverse("draft", args=[aina.code])).status_code == 403
