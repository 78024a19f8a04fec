"""No phantom roll (issue 27): a skill name neither the sheet nor the Árbitro's catalogue knows
is refused with the nearest names, through the API, the MCP tools and the scene page; the
general rule's default (§3.3) applies to it only when the caller says it is new."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from gurps.levels import SKILL_UNKNOWN, SKILL_UNKNOWN_IF_NEW, SKILL_UNKNOWN_NEAREST
from sessions.models import Roll
from tests.api.conftest import post_json
from tests.sheets.pages import content

pytestmark = pytest.mark.django_db

RASTREADOR = "Rastreador de Uruk-Kalam"


@pytest.fixture
def as_mestre(client, bearer, mestre):
    headers = bearer(mestre)

    def post(scene, path, body, **extra):
        return post_json(client, f"/api/v1/scenes/{scene.code}/{path}", body, **headers, **extra)

    return post


def _misspelled(rastreador, **extra) -> dict:
    return {"character": str(rastreador.code), "skill": "Rastreamneto", **extra}


def test_a_misspelled_skill_is_refused_with_the_sheets_line(as_mestre, scene, rastreador):
    """The issue's case: the attribute and difficulty given rolled a default at 7 for a sheet
    with Rastreamento 13. Now nothing rolls, and the refusal names the line."""
    body = _misspelled(rastreador, attribute="iq", difficulty="A")
    response = as_mestre(scene, "rolls", body, HTTP_IDEMPOTENCY_KEY="r-typo")
    assert response.status_code == 422
    answer = response.json()
    assert answer["field"] == "skill"
    assert answer["detail"].startswith(SKILL_UNKNOWN.format(skill="Rastreamneto", name=RASTREADOR))
    assert SKILL_UNKNOWN_NEAREST.format(names="Rastreamento (ficha, 13)") in answer["detail"]
    assert answer["detail"].endswith(SKILL_UNKNOWN_IF_NEW)
    assert not Roll.objects.exists()
    # The refused request spent no key: the corrected name rolls at the sheet's 13.
    fixed = as_mestre(
        scene,
        "rolls",
        {"character": str(rastreador.code), "skill": "Rastreamento"},
        HTTP_IDEMPOTENCY_KEY="r-typo",
    )
    assert fixed.status_code == 201, fixed.json()
    assert fixed.json()["level_text"] == "Rastreamento 13 (ficha)"


def test_a_new_skill_said_new_takes_the_general_rule(as_mestre, scene, rastreador):
    """§3.3 (p. 44): Média on IQ defaults to IQ−5; the Rastreador's IQ 12 → 7."""
    body = {
        "character": str(rastreador.code),
        "skill": "Heráldica de Ônfalos",
        "attribute": "iq",
        "difficulty": "A",
        "new_skill": True,
    }
    response = as_mestre(scene, "rolls", body)
    assert response.status_code == 201, response.json()
    assert (
        response.json()["level_text"]
        == "Heráldica de Ônfalos 7 por pré-definido IQ−5 (regra geral)"
    )
    assert Roll.objects.get().details["level"]["asked"]["new_skill"] is True


def test_a_contest_side_with_a_misspelled_skill_is_refused(as_mestre, scene, rastreador):
    body = {
        "a": _misspelled(rastreador),
        "b": {"name": "Rato-da-fenda", "label": "Furtividade", "base_level": 12},
    }
    response = as_mestre(scene, "contests", body)
    assert response.status_code == 422
    assert response.json()["field"] == "a.skill"
    assert "Rastreamento (ficha, 13)" in response.json()["detail"]
    assert not Roll.objects.exists()


def test_new_skill_is_published_in_the_schema():
    from garganta_site.api import api

    schemas = api.get_openapi_schema()["components"]["schemas"]
    for name in ("RollIn", "ContestSideIn"):
        assert schemas[name]["properties"]["new_skill"]["type"] == "boolean"


def test_the_scene_page_refuses_a_misspelled_skill(client_for, mestre, scene, rastreador):
    url = reverse("roll-add", kwargs={"code": scene.code})
    data = {
        "target": "custom",
        "label": "Rastreamneto",
        "custom_character": str(rastreador.code),
        "default_attribute": "iq",
        "difficulty": "A",
        "kind": "skill",
    }
    response = client_for(mestre).post(url, data)
    assert response.status_code == 422
    assert escape("Você quis dizer Rastreamento (ficha, 13)?") in content(response)
    assert not Roll.objects.exists()
    response = client_for(mestre).post(url, {**data, "label": "Heráldica", "new_skill": "on"})
    assert response.status_code == 302
    assert (
        Roll.objects.get().details["level"]["text"]
        == "Heráldica 7 por pré-definido IQ−5 (regra geral)"
    )
