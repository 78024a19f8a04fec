"""The rules pages in a browser: the index, the calculator through htmx, and the sheet's
links to the rule behind each number."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from gurps.errors import ST_TOO_LOW
from tests.browser.conftest import assert_not_reloaded, login, screenshot, set_marker


def test_a_player_reads_the_rules_uses_the_calculator_and_follows_a_rule_from_the_sheet(
    new_page,
):
    page = new_page()
    login(page, "jogador")

    page.goto("/regras/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("tabelas do cânone")
    expect(page.locator('table.canon-table[data-table="odds"] tbody tr')).to_have_count(4)
    screenshot(page, "rules-index")

    page.get_by_role("link", name="Calculadora", exact=True).click()
    expect(page).to_have_url(re.compile(r"/regras/calculadora/$"))
    set_marker(page)

    odds = page.locator("#calc-odds")
    odds.get_by_label("NH").fill("12")
    odds.get_by_role("button", name="Calcular").click()
    expect(page.locator('#calc-odds [data-testid="odds-percent"]')).to_have_text("74%")

    damage = page.locator("#calc-damage")
    damage.get_by_label("ST").fill("0")
    damage.get_by_role("button", name="Calcular").click()
    expect(page.locator('#calc-damage [data-field="damage-st"] .error')).to_have_text(ST_TOO_LOW)
    page.locator("#calc-damage").get_by_label("ST").fill("12")
    page.locator("#calc-damage").get_by_role("button", name="Calcular").click()
    expect(page.locator('#calc-damage [data-testid="thrust"]')).to_have_text("1d−1")
    expect(page.locator('#calc-damage [data-testid="swing"]')).to_have_text("1d+2")
    # The odds panel was not touched by the damage calculator's swap.
    expect(page.locator('#calc-odds [data-testid="odds-percent"]')).to_have_text("74%")
    assert_not_reloaded(page)
    screenshot(page, "rules-calculator")

    page.goto("/")
    page.get_by_role("link", name="Jurado de Gapheim", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Jurado de Gapheim")
    page.get_by_test_id("encumbrance").get_by_role("link", name="§2.2").click()
    expect(page).to_have_url(re.compile(r"/regras/#tabela-encumbrance$"))
    card = page.locator("#tabela-encumbrance")
    expect(card).to_be_in_viewport()
    expect(card.locator("table.canon-table tbody tr").first).to_contain_text("Nenhuma (0)")
