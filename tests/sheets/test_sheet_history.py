"""The history of a sheet (sheets.views.sheet_history): every version with its state and who
moved it, and the differences between any two versions (sheets.diff.version_changes)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from sheets.diff import version_changes
from sheets.drafts import version_lines_copy
from sheets.history import HISTORY_PICK_TWO, HISTORY_PICK_VERSION
from sheets.homologation import sheet_return
from sheets.models import Item, SheetVersion, Skill, Trait
from sheets.reads import homologated_version
from tests.sheets.pages import content, row, text


@pytest.fixture
def submitted(hoplita) -> SheetVersion:
    """The seed's pending change: the hoplita's version 2 (Espada Curta 14 → 15)."""
    return SheetVersion.objects.get(character=hoplita, number=2, status="submitted")


def _url(character) -> str:
    return reverse("sheet-history", args=[character.code])


def test_it_is_under_the_sheet(jurado):
    assert _url(jurado) == f"/fichas/{jurado.code}/historico/"


def test_it_works(client_for, jogadora, hoplita, submitted):
    response = client_for(jogadora).get(_url(hoplita))
    assert response.status_code == 200
    html = content(response)
    # By default it compares the two newest versions.
    assert "Da versão 1 para a versão 2" in html
    assert row(html, "Espada Curta")[1:] == ["14 (2)", "15 (4)"]
    assert 'data-testid="step-submitted-2"' in html
    assert 'data-testid="step-homologated-1"' in html


def test_it_requires_login(client, hoplita):
    assert client.get(_url(hoplita)).url.startswith("/entrar/")


def test_it_checks_membership(client_for, outsider, hoplita):
    assert client_for(outsider).get(_url(hoplita)).status_code == 404


def test_another_jogador_sees_only_the_homologated_versions(
    client_for, jogador, hoplita, submitted
):
    html = content(client_for(jogador).get(_url(hoplita)))
    assert 'data-testid="version-1"' in html
    assert 'data-testid="version-2"' not in html
    assert "A ficha tem uma versão só" in html


def test_the_mestre_sees_every_version(client_for, mestre, hoplita, submitted):
    html = content(client_for(mestre).get(_url(hoplita)))
    assert 'data-testid="version-2"' in html


def test_two_versions_are_picked_by_number(client_for, arbitro, hoplita, submitted):
    html = content(client_for(arbitro).get(_url(hoplita), {"de": 2, "para": 1}))
    assert "Da versão 2 para a versão 1" in html
    assert row(html, "Espada Curta")[1:] == ["15 (4)", "14 (2)"]


def test_a_bad_pick_is_said_next_to_the_field(client_for, arbitro, hoplita, submitted):
    html = content(client_for(arbitro).get(_url(hoplita), {"de": 1, "para": 1}))
    assert HISTORY_PICK_TWO in html
    html = content(client_for(arbitro).get(_url(hoplita), {"de": "x", "para": 9}))
    assert html.count(HISTORY_PICK_VERSION) == 2


def test_the_sheet_page_links_to_the_history(client_for, jogador, jurado):
    html = content(client_for(jogador).get(reverse("sheet", args=[jurado.code])))
    assert f'href="{_url(jurado)}"' in html


def test_a_returned_version_shows_who_returned_it_and_why(
    client_for, arbitro, jogadora, hoplita, submitted
):
    sheet_return(version=submitted, user=arbitro, reason="Faltou pagar o ponto.")
    html = text(content(client_for(jogadora).get(_url(hoplita))))
    assert "Versão 2: Devolvida ao jogador por arbitro “Faltou pagar o ponto.”" in html


# --- version_changes -----------------------------------------------------------------------------


def _copy(version: SheetVersion, number: int) -> SheetVersion:
    copy = SheetVersion.objects.create(
        character=version.character, number=number, status="draft", **version.attributes()
    )
    version_lines_copy(version, copy)
    return copy


def _fresh(version):
    return SheetVersion.objects.prefetch_related("traits", "skills", "items").get(pk=version.pk)


def test_the_diff_covers_attributes_traits_skills_and_items(jurado):
    old = homologated_version(jurado)
    new = _copy(old, 2)
    SheetVersion.objects.filter(pk=new.pk).update(st=14, notes="Treinou.")
    Trait.objects.create(version=new, name="Reflexos em Combate", kind="advantage", points=15)
    Skill.objects.filter(version=new, name="Escudo").update(level=15, points=Decimal("12"))
    Skill.objects.filter(version=new, name="Observação").update(attribute="ht")
    Skill.objects.filter(version=new, name="Espada Curta").delete()
    Item.objects.filter(version=new, name="Cota de malha").update(damage_resistance=5)
    Item.objects.filter(version=new, name="Gládio").delete()
    changes = {
        (c.group, c.what): (c.before, c.after) for c in version_changes(_fresh(old), _fresh(new))
    }
    assert changes == {
        ("Atributos", "ST"): ("13", "14"),
        ("Vantagens, desvantagens e peculiaridades", "Reflexos em Combate"): (
            "",
            "vantagem, 15 pts",
        ),
        ("Perícias", "Escudo"): ("14 (4)", "15 (12)"),
        ("Perícias", "Espada Curta"): ("DX/Média 13 (4)", ""),
        ("Perícias", "Observação"): ("IQ/Média 10 (2)", "HT/Média 10 (2)"),
        ("Itens", "Cota de malha"): ("11,5 kg, PD 3/RD 4", "11,5 kg, PD 3/RD 5"),
        ("Itens", "Gládio"): ("1,5 kg, Bal corte, perícia Espada Curta, apara Comum (½)", ""),
        ("Notas", "Notas"): ("", "Treinou."),
    }


def test_the_diff_of_a_version_with_itself_is_empty(jurado):
    version = homologated_version(jurado)
    assert version_changes(version, version) == []
