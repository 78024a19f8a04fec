"""The API describes itself (garganta_site.api): the Mestre's AI client reads the schema."""

from __future__ import annotations

from django.test import Client


def test_the_docs_page_is_served(demo):
    assert Client().get("/api/v1/docs").status_code == 200


def test_the_openapi_schema_is_served_and_lists_every_operation(demo):
    response = Client(raise_request_exception=False).get("/api/v1/openapi.json")
    assert response.status_code == 200
    paths = set(response.json()["paths"])
    assert {
        "/api/v1/rules/odds",
        "/api/v1/rules/damage",
        "/api/v1/rules/derived",
        "/api/v1/sheets",
        "/api/v1/scenes",
    } <= paths
