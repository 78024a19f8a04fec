"""The main paths with the keyboard alone (issue 15 §9): on the sheet, Tab to "pegar" and
press Enter picks the loot up; on the scene, Tab into the declaration, type it, Tab to
"Declarar" and press Enter sends it. No mouse click anywhere."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import login

TABS = 80


def tab_to(page, locator) -> None:
    """Press Tab until ``locator`` has the focus (at most TABS times)."""
    target = locator.element_handle()
    for _ in range(TABS):
        page.keyboard.press("Tab")
        if page.evaluate("el => document.activeElement === el", target):
            return
    raise AssertionError(f"{TABS} presses of Tab never reached {locator}")


def test_the_loot_is_picked_up_with_the_keyboard(new_page):
    page = new_page()
    login(page, "jogador")
    page.goto(page.get_by_role("link", name="Jurado de Gapheim").first.get_attribute("href"))
    loot = "Espólio de Barnabé (morto no andar 6)"
    expect(page.get_by_test_id("encumbrance")).to_contain_text("Leve (1)")
    tab_to(page, page.get_by_role("button", name=f"pegar {loot}", exact=True))
    page.keyboard.press("Enter")
    expect(
        page.get_by_role("button", name=f"✓ carregando — largar {loot}", exact=True)
    ).to_be_visible()
    # 23.5 kg + 5 kg = 28.5 kg against ST 13: Média (2), over 2×ST = 26 kg (§2.2).
    expect(page.get_by_test_id("encumbrance")).to_contain_text("Média (2)")


def test_a_declaration_is_sent_with_the_keyboard(new_page):
    page = new_page()
    login(page, "jogador")
    page.goto(page.get_by_role("link", name="A galeria do andar 3").first.get_attribute("href"))
    text = "Ergo o escudo e avanço devagar"
    tab_to(page, page.get_by_label("O que faz, e com quê"))
    page.keyboard.type(text)
    tab_to(page, page.get_by_role("button", name="Declarar", exact=True))
    page.keyboard.press("Enter")
    expect(page.locator("#log")).to_contain_text(text)
