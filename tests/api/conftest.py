"""Helpers of the API tests: bearer tokens and JSON posts."""

from __future__ import annotations

import json

import pytest

from campaigns.auth import api_token_create


@pytest.fixture
def bearer():
    """``bearer(user)``: the header of a fresh API token of that user."""

    def header(user) -> dict[str, str]:
        return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user)}"}

    return header


def post_json(client, url: str, body, **headers):
    return client.post(url, json.dumps(body), content_type="application/json", **headers)
