"""A homologated sheet printed on A4 (issue 15 §8): the print stylesheet keeps what a player
wants at the table — attributes, derived numbers with their §, the Carga table, defences,
weapons with damage, skills with NH, points and chance — and drops navigation, buttons and
forms; each demo sheet fits two A4 pages. Chromium prints the PDF (``page.pdf``); the PDF's
text is compressed, so what shows is read in the page with the print media emulated."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import login

# A PDF's page objects are "/Type /Page"; the tree's nodes are "/Type /Pages".
PAGE_OBJECT = re.compile(rb"/Type\s*/Page(?!s)")
OWNERS = {
    "Jurado de Gapheim": "jogador",
    "Hoplita de Ônfalos": "jogadora",
    "Rastreador de Uruk-Kalam": "rastreadora",
}


def open_sheet(new_page, name):
    page = new_page()
    login(page, OWNERS[name])
    page.get_by_role("link", name=name, exact=True).first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)
    return page


@pytest.mark.parametrize("name", OWNERS)
def test_a_demo_sheet_prints_on_at_most_two_a4_pages(new_page, name):
    page = open_sheet(new_page, name)
    pdf = page.pdf(format="A4", print_background=True)
    assert pdf.startswith(b"%PDF")
    pages = len(PAGE_OBJECT.findall(pdf))
    assert 1 <= pages <= 2, f"{name} prints on {pages} A4 pages"


def test_the_printed_sheet_keeps_the_numbers_and_drops_the_controls(new_page):
    page = open_sheet(new_page, "Jurado de Gapheim")
    page.emulate_media(media="print")
    for hidden in ("header.top", "button", "form.loot", "a.button", "details.how"):
        for element in page.locator(hidden).all():
            expect(element).to_be_hidden()
    play = page.locator("#play")
    # ST 13, DX 12, IQ 10, HT 12; PV = HT (§2.1); fatigue = ST (§2.1).
    attributes = page.locator("section.card", has=page.get_by_role("heading", name="Atributos"))
    expect(attributes).to_contain_text(re.compile(r"ST\s*13\s*DX\s*12\s*IQ\s*10\s*HT\s*12"))
    expect(attributes).to_contain_text(re.compile(r"PV\s*§2\.1\s*12/12"))
    expect(attributes).to_contain_text(re.compile(r"Fadiga\s*§2\.1\s*13/13"))
    # 23.5 kg against ST 13 is Leve (1) (§2.2: up to 2×ST = 26 kg).
    expect(play.get_by_test_id("encumbrance")).to_contain_text(re.compile(r"§2\.2\s*Leve \(1\)"))
    carga = play.locator("table.carga")
    expect(carga).to_be_visible()
    expect(carga.locator("tr.current")).to_contain_text("26 kg")
    defences = play.locator("table.defences")
    expect(defences).to_be_visible()
    expect(defences.locator("tr", has_text="Esquiva")).to_contain_text(re.compile(r"5\s*10"))
    expect(defences).to_contain_text("§4.7")
    # The items keep quantity and weight, not the pegar/largar controls.
    items = play.locator("table.items")
    expect(items.locator("tr", has_text="Cota de malha")).to_contain_text("11,5 kg")
    expect(items.locator("tr.dropped").first).to_be_hidden()
    # Gládio, "Bal corte" at ST 13: swing 2d−1 (§4.9, MB p. 73).
    weapons = page.locator("table.weapons")
    expect(weapons.locator("tr", has_text="Gládio")).to_contain_text("2d−1")
    # Espada Curta NH 13: 83% on 3d6, truncated (§1.1).
    skills = page.locator("table.skills")
    expect(skills.locator("tr", has_text="Espada Curta")).to_contain_text(
        re.compile(r"13\s*\(4\)\s*83%")
    )
    expect(skills.locator("svg.odds-curve").first).to_be_visible()
