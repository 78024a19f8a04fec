"""Levels come from the sheet (docs/DESIGN.md, invariant 10 (Levels from the sheet); issue 14 part
4): a roll for a character names the skill or attribute, and the server reads the level from the
homologated sheet and the state (§3.1, §6.2, §7.1) or takes the best default (§3.3), and says which;
a creature or NPC without a sheet takes the Mestre's level."""

from __future__ import annotations

import pytest
from django.urls import reverse

from garganta_site.api import api
from sessions.log import levels as log_levels
from sessions.log.chain import rolls_verify
from sessions.models import Roll
from sheets.models import Character, CharacterState
from tests.api.conftest import post_json
from tests.sheets.pages import content

pytestmark = pytest.mark.django_db


@pytest.fixture
def as_mestre(client, bearer, mestre):
    headers = bearer(mestre)

    def post(scene, path, body, **extra):
        return post_json(client, f"/api/v1/scenes/{scene.code}/{path}", body, **headers, **extra)

    return post


def _check(as_mestre, scene, body, **extra):
    return as_mestre(scene, "rolls", body, **extra)


# --- the sheet's level, read back -------------------------------------------------------------


def test_a_skill_named_rolls_at_the_sheets_level_and_says_so(
    as_mestre, client_for, mestre, scene, rastreador
):
    body = {"character": str(rastreador.code), "skill": "rastreamento"}
    response = _check(as_mestre, scene, body)
    assert response.status_code == 201, response.json()
    answer = response.json()
    assert (answer["base_level"], answer["kind"], answer["label"]) == (13, "skill", "Rastreamento")
    assert (answer["level_source"], answer["level_text"]) == ("sheet", "Rastreamento 13 (ficha)")
    roll = Roll.objects.get()
    assert roll.details["level"]["asked"] == {"skill": "rastreamento"}
    assert roll.details["level"]["source"] == "sheet"
    html = content(client_for(mestre).get(reverse("scene", kwargs={"code": scene.code})))
    assert "Rastreamento 13 (ficha)" in html  # the log entry the table sees
    assert rolls_verify(scene.week.campaign).ok


def test_a_skill_the_sheet_lacks_takes_the_catalogues_best_default(as_mestre, scene, rastreador):
    """§3.3 (p. 87): Escalada is ST−5 or DX−5; the Rastreador, ST 11 and DX 14, climbs at 9."""
    body = {"character": str(rastreador.code), "skill": "Escalada", "label": "Escalar o poço"}
    answer = _check(as_mestre, scene, body).json()
    assert (answer["base_level"], answer["label"]) == (9, "Escalar o poço")
    assert answer["level_source"] == "default"
    assert answer["level_text"] == "Escalada 9 por pré-definido DX−5"
    assert answer["details"]["level"]["computation"] == "DX−5: DX 14 − 5 = 9"


def test_a_skill_nobody_describes_takes_the_general_rule_from_the_caller(
    as_mestre, scene, rastreador
):
    """Acrobacia: the catalogue names it without attribute or difficulty; Difícil on DX is
    DX−6 (§3.3, p. 44): DX 14 → 8."""
    body = {
        "character": str(rastreador.code),
        "skill": "Acrobacia",
        "attribute": "dx",
        "difficulty": "H",
    }
    answer = _check(as_mestre, scene, body).json()
    assert answer["base_level"] == 8
    assert answer["level_text"] == "Acrobacia 8 por pré-definido DX−6 (regra geral)"


def test_an_st_test_under_fatigue(as_mestre, scene, rastreador):
    """§6.2 (p. 134): ST-based tests run with ST reduced by fatigue: ST 11 with 2 → 9."""
    CharacterState.objects.update_or_create(character=rastreador, defaults={"fatigue_lost": 2})
    answer = _check(as_mestre, scene, {"character": str(rastreador.code), "attribute": "st"}).json()
    assert (answer["base_level"], answer["kind"], answer["label"]) == (9, "attribute", "ST")
    assert answer["level_text"] == "ST 11 − 2 por fadiga = 9"
    dx = _check(as_mestre, scene, {"character": str(rastreador.code), "attribute": "DX"}).json()
    assert dx["level_text"] == "DX 14 (ficha)"  # fatigue is ST's alone


def test_vontade_is_an_attribute_test(as_mestre, scene, rastreador):
    answer = _check(as_mestre, scene, {"character": str(rastreador.code), "attribute": "Vontade"})
    assert answer.json()["level_text"] == "Vontade 12 (ficha)"  # IQ 12, no Força de Vontade


# --- refusals -----------------------------------------------------------------------------------


def test_a_base_level_that_disagrees_with_the_sheet_is_refused(as_mestre, scene, rastreador):
    """The issue's case: Rastreamento 15 for a sheet that says 13."""
    body = {"character": str(rastreador.code), "skill": "Rastreamento", "base_level": 15}
    response = _check(as_mestre, scene, body, HTTP_IDEMPOTENCY_KEY="r-15")
    assert response.status_code == 422
    assert response.json()["field"] == "base_level"
    assert response.json()["detail"] == log_levels.LEVEL_DISAGREES.format(
        given=15, name="Rastreador de Uruk-Kalam", text="Rastreamento 13 (ficha)"
    )
    assert not Roll.objects.exists()
    # The refused request spent no key; the level that agrees is accepted.
    body["base_level"] = 13
    assert _check(as_mestre, scene, body, HTTP_IDEMPOTENCY_KEY="r-15").status_code == 201


def test_a_typed_level_with_a_label_that_is_a_sheet_line_is_checked(as_mestre, scene, rastreador):
    body = {"character": str(rastreador.code), "label": "Rastreamento", "base_level": 15}
    response = _check(as_mestre, scene, {**body, "kind": "skill"})
    assert (response.status_code, response.json()["field"]) == (422, "base_level")


def test_a_level_without_a_line_for_a_character_with_a_sheet_is_refused(
    as_mestre, scene, rastreador
):
    body = {"character": str(rastreador.code), "label": "Sentir", "base_level": 12, "kind": "skill"}
    response = _check(as_mestre, scene, body)
    assert (response.status_code, response.json()["field"]) == (422, "skill")
    assert response.json()["detail"] == log_levels.NAME_THE_LINE.format(
        name="Rastreador de Uruk-Kalam"
    )


def test_a_skill_without_default_is_refused_saying_so(as_mestre, scene, rastreador):
    """§3.3: «sem treino você não lê a escrita antiga de Ámenti»."""
    body = {"character": str(rastreador.code), "skill": "Escrita antiga de Ámenti"}
    response = _check(as_mestre, scene, body)
    assert (response.status_code, response.json()["field"]) == (422, "skill")
    assert response.json()["detail"] == (
        "Rastreador de Uruk-Kalam não tem Escrita antiga de Ámenti e Escrita antiga de Ámenti "
        "não tem pré-definido (§3.3)."
    )


def test_a_kind_that_disagrees_with_the_line_is_refused(as_mestre, scene, rastreador):
    body = {"character": str(rastreador.code), "skill": "Rastreamento", "kind": "attribute"}
    response = _check(as_mestre, scene, body)
    assert (response.status_code, response.json()["field"]) == (422, "kind")


# --- creatures and NPCs without a sheet ----------------------------------------------------------


@pytest.fixture
def rato(scene):
    creature = Character.objects.create(
        campaign=scene.week.campaign, name="Rato-da-galeria", kind=Character.Kind.CREATURE
    )
    scene.characters.add(creature)
    return creature


def test_a_creature_without_a_sheet_takes_the_mestres_level(as_mestre, scene, rato):
    body = {"character": str(rato.code), "skill": "Furtividade", "base_level": 12}
    answer = _check(as_mestre, scene, body).json()
    assert (answer["base_level"], answer["level_source"]) == (12, "given")
    assert answer["level_text"] == "Furtividade 12 (dito pelo Mestre)"
    missing = _check(as_mestre, scene, {"character": str(rato.code), "skill": "Furtividade"})
    assert (missing.status_code, missing.json()["field"]) == (422, "base_level")


def test_a_contest_between_a_character_and_a_creature(as_mestre, scene, rastreador):
    contest = {
        "a": {"character": str(rastreador.code), "skill": "Furtividade"},
        "b": {"name": "Rato-da-galeria", "label": "Percepção", "base_level": 11},
    }
    response = as_mestre(scene, "contests", contest)
    assert response.status_code == 201, response.json()
    answer = response.json()
    a, b = answer["details"]["a"], answer["details"]["b"]
    assert (a["base_level"], a["level"]["text"]) == (14, "Furtividade 14 (ficha)")
    assert (b["character"], b["name"], b["base_level"]) == (None, "Rato-da-galeria", 11)
    assert b["level"]["text"] == "Percepção 11 (dito pelo Mestre)"
    assert answer["label"] == "Furtividade × Percepção"
    assert rolls_verify(scene.week.campaign).ok


def test_a_contest_side_with_a_sheet_may_not_type_its_level(as_mestre, scene, rastreador, jurado):
    contest = {
        "a": {"character": str(rastreador.code), "skill": "Furtividade", "base_level": 16},
        "b": {"character": str(jurado.code), "skill": "Observação"},
    }
    response = as_mestre(scene, "contests", contest)
    assert (response.status_code, response.json()["field"]) == (422, "a.base_level")


def test_a_contest_side_without_character_needs_a_name(as_mestre, scene, rastreador):
    contest = {
        "a": {"character": str(rastreador.code), "skill": "Furtividade"},
        "b": {"label": "Percepção", "base_level": 11},
    }
    response = as_mestre(scene, "contests", contest)
    assert (response.status_code, response.json()["field"]) == (422, "b.name")


def test_the_same_key_twice_with_a_skill_rolls_once(as_mestre, scene, rastreador):
    body = {"character": str(rastreador.code), "skill": "Observação"}
    first = _check(as_mestre, scene, body, HTTP_IDEMPOTENCY_KEY="obs")
    again = _check(as_mestre, scene, body, HTTP_IDEMPOTENCY_KEY="obs")
    other = _check(as_mestre, scene, {**body, "skill": "Rastreamento"}, HTTP_IDEMPOTENCY_KEY="obs")
    assert again.json()["id"] == first.json()["id"]
    assert other.status_code == 409
    assert Roll.objects.count() == 1


# --- the schema ----------------------------------------------------------------------------------


def test_the_closed_sets_of_the_new_fields_are_enums():
    schemas = api.get_openapi_schema()["components"]["schemas"]

    def enum_of(schema: dict) -> list[str]:
        for option in schema.get("anyOf", [schema]):
            if "enum" in option:
                return option["enum"]
        raise AssertionError(schema)

    for name in ("RollIn", "ContestSideIn"):
        properties = schemas[name]["properties"]
        assert enum_of(properties["attribute"]) == ["st", "dx", "iq", "ht", "will"]
        assert enum_of(properties["difficulty"]) == ["E", "A", "H", "VH"]
        assert "Vontade" in str(properties["attribute"])
    out = schemas["RollOut"]["properties"]["level_source"]
    assert enum_of(out) == ["sheet", "default", "given"]
