"""The draft page adds blank rows one press at a time, as many as the player wants, for skills,
traits and items; nothing is saved until he saves, and what he typed stays."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from sheets.drafts import sheet_draft_create
from tests.sheets.pages import content
from tests.sheets.test_draft import _form_data


@pytest.mark.parametrize(
    ("part", "testid"), [("skills", "skill-row"), ("traits", "trait"), ("items", "item")]
)
def test_each_press_adds_one_blank_row_and_saves_nothing(client_for, jogador, jurado, part, testid):
    draft = sheet_draft_create(character=jurado, user=jogador)
    client = client_for(jogador)
    url = reverse("draft", kwargs={"code": jurado.code})
    page = content(client.get(url))
    rows = len(re.findall(rf'data-testid="{testid}-\d+"', page))
    management = {
        k: v
        for k, v in re.findall(r'name="((?:skills|traits|items)-[A-Z_]+)"[^>]*value="(\d+)"', page)
    }
    data = {**_form_data(draft, notes="não salvar"), **management, "add": part}
    first = content(client.post(url, data))
    assert len(re.findall(rf'data-testid="{testid}-\d+"', first)) == rows + 1
    key = f"{part}-TOTAL_FORMS"
    data[key] = str(int(data.get(key, rows)) + 1)
    second = content(client.post(url, data))
    assert len(re.findall(rf'data-testid="{testid}-\d+"', second)) == rows + 2
    draft.refresh_from_db()
    assert draft.notes != "não salvar"
