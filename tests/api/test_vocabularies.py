"""Closed sets are published (docs/DESIGN.md, invariant 13 (Closed sets are published)): every field
that takes one of a fixed set is an enum of keys in the OpenAPI, its Portuguese labels in the
description; a label is accepted in any case and accents, anything else is refused listing the keys;
one operation lists every vocabulary."""

from __future__ import annotations

import pytest

from garganta_site.api import api
from sessions.combat import services as combat_services
from sessions.models import Roll
from tests.api.conftest import post_json

pytestmark = pytest.mark.django_db

# The string fields of request bodies and queries that are free text (names, texts, reasons,
# dice written as text, slugs): every other string field must be an enum.
FREE_TEXT = {
    "name",
    "label",
    "text",
    "note",
    "reason",
    "title",
    "description",
    "section",
    "page",
    "side_a",
    "side_b",
    "side_a_label",
    "side_b_label",
    "reading",
    "resolution",
    "source",
    "fixes",
    "after",
    "before",
    "new_text",
    "notes",
    "spoils",
    "demo_note",
    "damage",
    "expression",
    "weight_kg",
    "terrain",
    "boss",
    "campaign",
    "skill",
    "region",
    "marching_order",
    "character",  # a name of this exploration's marching order, not a fixed set
    "region_row",
    "kind",
    "field",
    "house_key",
    "bulletin",
    # a sistema001 fight's: the name of one of the combatant's own weapons, and the key of an
    # object the fight holds — sets of the fight, not closed sets of the system
    "weapon",
    "object",
    # a Xuleta fight's spell: the text lists no spells, so its name is the Mestre's words
    "spell",
}


def _strings(schema, components, path, found, seen=()):
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name not in seen:
            _strings(components[name], components, path, found, (*seen, name))
        return
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in schema.get(key, []):
            _strings(sub, components, path, found, seen)
    if schema.get("type") == "string" and not {"enum", "const", "format"} & set(schema):
        found.append(path)
    if schema.get("type") == "array":
        _strings(schema.get("items", {}), components, path, found, seen)
    for prop, sub in (schema.get("properties") or {}).items():
        _strings(sub, components, prop, found, seen)


def test_the_openapi_has_no_free_string_where_a_fixed_set_is_taken():
    spec = api.get_openapi_schema()
    components = spec["components"]["schemas"]
    free = []
    for route, operations in spec["paths"].items():
        for method, operation in operations.items():
            found = []
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "query":
                    _strings(parameter.get("schema", {}), components, parameter["name"], found)
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body:
                _strings(body["schema"], components, "body", found)
            free += [
                f"{method.upper()} {route} {field}" for field in found if field not in FREE_TEXT
            ]
    assert not free, free


def test_the_maneuver_is_an_enum_with_its_portuguese_names():
    spec = api.get_openapi_schema()
    maneuver = spec["components"]["schemas"]["ManeuverIn"]["properties"]["maneuver"]
    assert "all_out_attack" in maneuver["enum"]
    assert "Ataque Total" in maneuver["description"] and "§4.3" in maneuver["description"]


def test_one_operation_lists_every_vocabulary(client, bearer, mestre):
    found = {
        v["name"]: v for v in client.get("/api/v1/rules/vocabularies", **bearer(mestre)).json()
    }
    assert {"maneuver", "terrain", "hit_location", "table", "roll_kind", "all_out_option"} <= set(
        found
    )
    aim = next(t for t in found["maneuver"]["terms"] if t["key"] == "aim")
    assert aim["label"] == "Apontar" and "dodge" in aim["details"]["defences_left"]
    vitals = next(t for t in found["hit_location"]["terms"] if t["key"] == "vitals")
    assert vitals["details"]["penalty"] == -3
    fright = next(t for t in found["table"]["terms"] if t["key"] == "fright_check")
    assert fright["details"]["required"] == ["margin_of_failure"]


def test_a_portuguese_label_is_taken_and_an_unknown_word_refused_with_the_keys(
    client, bearer, mestre, scene, jurado
):
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[jurado])
    headers = bearer(mestre)
    url = f"/api/v1/combats/{combat.code}/declarations"
    taken = post_json(client, url, {"terrain": ["Água pela cintura"]}, **headers)
    assert taken.status_code == 200, taken.json()
    assert taken.json()["terrain"] == ["waist_deep_water"]
    refused = post_json(client, url, {"terrain": ["lamaçal"]}, **headers)
    assert refused.status_code == 422
    message = refused.json()["detail"][0]["message"]
    assert "'bad'" in message and "'very_bad'" in message


def test_a_table_roll_names_an_existing_table_or_nothing_is_rolled(client, bearer, mestre, scene):
    url = f"/api/v1/scenes/{scene.code}/table-rolls"
    answer = post_json(client, url, {"table": "tabela_inventada"}, **bearer(mestre))
    assert answer.status_code == 422
    assert "critical_miss" in answer.json()["detail"][0]["message"]
    assert not Roll.objects.exists()
