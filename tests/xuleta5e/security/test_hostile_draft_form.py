"""The attacker's findings on the Xuleta draft page (issue 22): the range refusal said its own
template («veio [{normal:g}, {long:g}]») instead of the numbers; a name with a NUL character."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sheets.models import SheetVersion
from tests.xuleta5e.sheets.test_sheet_draft import fields

pytestmark = pytest.mark.django_db


def test_the_range_refusal_says_the_numbers_typed(aina, client_of, sheet_data):
    client = client_of("jogador")
    url = reverse("draft", args=[aina.code])
    post = fields(sheet_data, **{"attacks.1.range_normal": "96", "attacks.1.range_long": "24"})
    answer = client.post(url, post)
    assert answer.status_code == 422
    html = answer.content.decode()
    assert "Ficha inválida em «attacks.1.range_m»" in html
    assert "veio [96, 24]" in html and "{normal" not in html
    assert not SheetVersion.objects.filter(character=aina, status="draft").exists()


def test_a_nul_in_the_name_is_not_saved(aina, client_of, sheet_data):
    client = client_of("jogador")
    url = reverse("draft", args=[aina.code])
    client.post(url, fields(sheet_data, name="Ai\x00na"))
    for draft in SheetVersion.objects.filter(character=aina, status="draft"):
        assert "\x00" not in draft.data["name"]
