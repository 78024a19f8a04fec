"""The text import replaces whole parts of the draft (its skills, traits or items): before
anything is written, the page lists the lines the text does not have — which would be lost —
and asks; confirmed, it imports; a text that loses nothing imports at once."""

from __future__ import annotations

from django.urls import reverse

from campaigns.confirm import CONFIRMED
from sheets import importing
from sheets.models import SheetVersion
from tests.sheets.pages import content
from tests.sheets.test_import import FULL_SHEET


def _url(character) -> str:
    return reverse("draft-import", kwargs={"code": character.code})


def test_it_lists_what_the_text_would_drop_and_writes_nothing(client_for, jogador, jurado):
    before = SheetVersion.objects.filter(character=jurado).count()
    response = client_for(jogador).post(_url(jurado), {"text": FULL_SHEET})
    assert response.status_code == 200
    html = content(response)
    for lost in ("perícia Observação", "item Cota de malha", "item Gládio", "item Escudo médio"):
        assert lost in html
    assert "item Aspis" not in html  # in the text: not lost
    assert SheetVersion.objects.filter(character=jurado).count() == before  # not even a draft


def test_confirmed_it_imports(client_for, jogador, jurado):
    response = client_for(jogador).post(_url(jurado), {"text": FULL_SHEET, **CONFIRMED})
    assert response.status_code == 302
    draft = SheetVersion.objects.get(character=jurado, status="draft")
    assert "Observação" not in {s.name for s in draft.skills.all()}


def test_a_text_that_loses_nothing_imports_without_asking(client_for, jogador, jurado):
    only_attributes = "ST 13 DX 13 IQ 10 HT 12\n"
    assert importing.import_losses(character=jurado, text=only_attributes) == []
    response = client_for(jogador).post(_url(jurado), {"text": only_attributes})
    assert response.status_code == 302
