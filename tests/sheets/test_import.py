"""A 3e character pasted as text (sheets.importing, sheets.draft_views.draft_import): a draft
holding every line read and listing every line not read; importing never homologates."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from campaigns.confirm import CONFIRMED
from gurps.audit import FindingCode
from sheets import importing, services
from sheets.forms import IMPORT_MAX_CHARS, IMPORT_TOO_LONG
from sheets.models import SheetVersion
from tests.sheets.pages import content, text

FULL_SHEET = """Hoplita de Ônfalos
Atributos:
ST 12 DX 14 IQ 10 HT 12
Perícias:
Lança 17 (16)
Escudo 14 (1)
Espada Curta DX/Média 15 (4)
Tática (IQ/D) 11 (4)
Vantagens:
Reflexos em Combate [15]
Honestidade [-10]
Fala sozinho [−1]
Equipamento:
Lança 2,5 kg GDP+1 perf
Aspis 8 kg PD 2 escudo
Couraça de couro 5 kg PD 2 RD 2
Flechas 0,05 kg ×20
"""


def _url(character) -> str:
    return reverse("draft-import", kwargs={"code": character.code})


def _draft(character) -> SheetVersion:
    return SheetVersion.objects.get(character=character, status=SheetVersion.Status.DRAFT)


def test_it_reads_a_full_sheet_into_a_draft(client_for, jogador, jurado):
    response = client_for(jogador).post(_url(jurado), {"text": FULL_SHEET, **CONFIRMED})
    assert response.status_code == 302
    assert response.url == reverse("draft", kwargs={"code": jurado.code})
    draft = _draft(jurado)
    assert draft.attributes() == {"st": 12, "dx": 14, "iq": 10, "ht": 12}
    assert sorted((s.name, s.attribute, s.difficulty, s.level, s.points) for s in draft.skills.all()) == [
        ("Escudo", "dx", "E", 14, Decimal("1")),
        ("Espada Curta", "dx", "A", 15, Decimal("4")),
        ("Lança", "dx", "A", 17, Decimal("16")),
        ("Tática", "iq", "H", 11, Decimal("4")),
    ]  # fmt: skip
    traits = {t.name: (t.kind, t.key, t.points) for t in draft.traits.all()}
    assert traits == {
        "Reflexos em Combate": ("advantage", "combat_reflexes", 15),
        "Honestidade": ("disadvantage", "", -10),
        "Fala sozinho": ("quirk", "", -1),
    }
    items = {i.name: i for i in draft.items.all()}
    assert items["Lança"].damage == "GDP+1 perf"
    assert (items["Aspis"].passive_defense, items["Aspis"].is_shield) == (2, True)
    assert (items["Couraça de couro"].damage_resistance, items["Flechas"].quantity) == (2, 20)
    assert draft.unread_line_list == [
        "Hoplita de Ônfalos — linha que não parece atributo, perícia, vantagem nem item"
    ]


def test_importing_never_homologates_nor_submits(client_for, jogador, jurado):
    before = list(jurado.versions.values_list("number", "status"))
    client_for(jogador).post(_url(jurado), {"text": FULL_SHEET, **CONFIRMED})
    assert list(jurado.versions.values_list("number", "status")) == [*before, (2, "draft")]
    assert services.homologated_version(jurado).number == 1


def test_a_garbled_sheet_keeps_what_it_read_and_lists_the_rest(client_for, jogador, jurado):
    garbled = "ST 13 DX 12 IQ 10 HT 12\nEscudo 14 (4)\nEscudo tortto ((\n%%% 12 kg\nLança 3\n"
    client = client_for(jogador)
    assert client.post(_url(jurado), {"text": garbled, **CONFIRMED}).status_code == 302
    draft = _draft(jurado)
    assert [s.name for s in draft.skills.all()] == ["Escudo"]
    unread = draft.unread_line_list
    assert unread[0].startswith("Escudo tortto (( — ")
    assert unread[1].startswith("%%% 12 kg — ")
    assert unread[2].startswith("Lança 3 — NH 3 é DX−9: abaixo da primeira linha")
    html = text(content(client.get(reverse("draft", kwargs={"code": jurado.code}))))
    assert "Linhas da importação que não foram lidas" in html
    assert "3 linha(s) do texto importado não foram lidas" in html


def test_a_sheet_in_another_language_reads_its_numbers_and_lists_its_words(jogador, jurado):
    english = "ST 12 DX 14 IQ 10 HT 12\nSpear 17 (16)\nCombat Reflexes [15]\n"
    draft, result = importing.sheet_import(
        character=jurado, user=jogador, text=english, table=_table(jurado)
    )
    assert draft.attributes()["dx"] == 14
    assert [t.name for t in draft.traits.all()] == ["Combat Reflexes"]
    assert "«Spear» não está no catálogo" in result.unread[0]


def _table(character):
    from canon import skills

    return skills.cost_table(character.campaign)


@pytest.mark.parametrize(
    "pasted",
    ["Только русский текст\nи ничего больше", "这是一段中文文本", "lorem ipsum dolor sit amet"],
)
def test_text_that_holds_no_sheet_changes_nothing(client_for, jogador, jurado, pasted):
    response = client_for(jogador).post(_url(jurado), {"text": pasted})
    assert response.status_code == 422
    assert importing.NOTHING_READ in content(response)
    assert not jurado.versions.filter(status="draft").exists()  # not even a new draft


def test_a_1_mb_paste_is_refused_and_the_draft_stays(client_for, jogador, jurado):
    draft = services.sheet_draft_create(character=jurado, user=jogador)
    before = sorted((s.name, s.level) for s in draft.skills.all())
    pasted = "Lança 17 (16)\n" * (1024 * 1024 // 14)
    response = client_for(jogador).post(_url(jurado), {"text": pasted})
    assert response.status_code == 422
    count = f"{len(pasted):,}".replace(",", ".")
    assert IMPORT_TOO_LONG.format(count=count) in content(response)
    assert len(pasted) > IMPORT_MAX_CHARS
    assert sorted((s.name, s.level) for s in draft.skills.all()) == before


def test_import_into_a_character_waiting_for_the_arbitro_is_refused(client_for, jogadora, hoplita):
    response = client_for(jogadora).post(_url(hoplita), {"text": FULL_SHEET})
    assert response.status_code == 422
    assert services.PENDING_EXISTS in content(response)


def test_the_import_shows_on_the_audit_until_the_list_is_cleared(client_for, jogador, jurado):
    client = client_for(jogador)
    client.post(_url(jurado), {"text": "ST 13 DX 12 IQ 10 HT 12\nAlgo estranho\n"})
    from canon import checks

    draft = _draft(jurado)
    codes = [f.code for f in checks.version_audit(draft).warnings]
    assert FindingCode.UNREAD_LINES in codes


def test_it_requires_login(client, jurado):
    assert client.post(_url(jurado), {"text": FULL_SHEET}).url.startswith("/entrar/")


def test_it_checks_ownership(client_for, jogadora, jurado):
    assert client_for(jogadora).post(_url(jurado), {"text": FULL_SHEET}).status_code == 403
    assert not jurado.versions.filter(status="draft").exists()
