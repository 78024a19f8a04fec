"""The sheet's play region: picking up loot changes Carga and Esquiva without a reload."""

from __future__ import annotations

from playwright.sync_api import expect

from sheets.models import Character, Possession
from sheets.possessions import WEIGHT_NOT_NEGATIVE
from tests.browser.conftest import assert_not_reloaded, login, screenshot, set_marker

LOOT = (
    "Espólio de Barnabé (morto no andar 6)",
    "Espólio de Tálio (morto no andar 6)",
)


def open_jurado(page):
    login(page, "jogador")
    page.get_by_role("link", name="Jurado de Gapheim", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Jurado de Gapheim")
    return page.locator("#play")


def test_picking_up_loot_updates_carga_and_dodge_without_reload(new_page):
    page = new_page()
    play = open_jurado(page)
    encumbrance = play.get_by_test_id("encumbrance").locator(".v")
    dodge = play.get_by_test_id("dodge").locator(".v")
    expect(encumbrance).to_have_text("Leve (1)")
    expect(dodge).to_have_text("5")
    screenshot(page, "sheet-jurado-before-loot")

    set_marker(page)
    for name in LOOT:
        page.get_by_role("button", name=f"pegar {name}", exact=True).click()
        # The play region is swapped in place; the button now offers to drop it.
        expect(
            page.get_by_role("button", name=f"✓ carregando — largar {name}", exact=True)
        ).to_be_visible()

    expect(encumbrance).to_have_text("Média (2)")
    expect(dodge).to_have_text("4")
    for name in LOOT:
        expect(
            page.get_by_role("button", name=f"✓ carregando — largar {name}", exact=True)
        ).to_have_attribute("aria-pressed", "true")
    assert_not_reloaded(page)
    screenshot(page, "sheet-jurado-after-loot")

    jurado = Character.objects.get(name="Jurado de Gapheim")
    assert set(
        Possession.objects.filter(character=jurado, loot_name__in=LOOT, carried=True).values_list(
            "loot_name", flat=True
        )
    ) == set(LOOT)


def test_negative_loot_weight_shows_the_error_next_to_the_field_and_adds_nothing(new_page):
    page = new_page()
    play = open_jurado(page)
    jurado = Character.objects.get(name="Jurado de Gapheim")
    before = Possession.objects.filter(character=jurado).count()
    rows = play.locator("table.items tbody tr")
    expect(rows).to_have_count(before)

    set_marker(page)
    form = play.locator("form.loot")
    form.locator('input[name="name"]').fill("Pedra do andar 6")
    form.locator('input[name="weight_kg"]').fill("-2")
    form.locator('input[name="quantity"]').fill("1")
    form.get_by_role("button", name="Pegar", exact=True).click()

    weight_label = page.locator("form.loot label").filter(
        has=page.locator('input[name="weight_kg"]')
    )
    expect(weight_label.locator(".error")).to_have_text(WEIGHT_NOT_NEGATIVE)
    # What was typed is kept, so nothing is lost.
    expect(page.locator('form.loot input[name="weight_kg"]')).to_have_value("-2")
    expect(page.locator('form.loot input[name="name"]')).to_have_value("Pedra do andar 6")
    expect(page.locator("#play table.items tbody tr")).to_have_count(before)
    expect(page.get_by_test_id("encumbrance").locator(".v")).to_have_text("Leve (1)")
    assert_not_reloaded(page)

    assert Possession.objects.filter(character=jurado).count() == before
    assert not Possession.objects.filter(loot_name="Pedra do andar 6").exists()
