"""The Árbitro approves the change, not the whole sheet again: a jogador raises a skill of a
homologated sheet, the Árbitro sees the diff in the queue and returns it with a reason, the
jogador fixes it and sends it again, the Árbitro homologates; the history shows every step."""

from __future__ import annotations

from playwright.sync_api import expect

from sheets.models import Character, SheetVersion
from tests.browser.conftest import accept_dialogs, login, screenshot

REASON = "NH 11 em Observação (IQ/Média, IQ 10) custa 4 pontos, não 2."


def _send_observation(page, *, level: str, points: str) -> None:
    """From the jurado's sheet: start a draft, set Observação, save and send it."""
    page.get_by_role("link", name="Propor alteração da ficha").click()
    page.get_by_role("button", name="Começar rascunho").click()
    line = page.locator("tr", has=page.locator('input[value="Observação"]'))
    line.locator('input[name$="-level"]').fill(level)
    line.locator('input[name$="-points"]').fill(points)
    page.get_by_role("button", name="Salvar e enviar ao Árbitro").click()
    expect(page.locator(".messages")).to_contain_text("enviada ao Árbitro para homologação")


def _queue_item(page, number: int):
    page.goto("/homologacao/")
    item = page.locator("article.queue-item", has_text=f"Jurado de Gapheim — versão {number}")
    expect(item).to_be_visible()
    return item


def test_a_change_is_returned_fixed_and_homologated_and_the_history_shows_it(new_page):
    jurado = Character.objects.get(name="Jurado de Gapheim")
    jogador = new_page()
    accept_dialogs(jogador)  # «Salvar e enviar ao Árbitro» asks first
    login(jogador, "jogador")
    jogador.goto(f"/fichas/{jurado.code}/")

    # 1. The jogador raises Observação by one, but forgets to pay for it.
    _send_observation(jogador, level="11", points="2")

    # 2. The Árbitro sees only what changes, against the homologated version 1.
    arbitro = new_page()
    accept_dialogs(arbitro)
    login(arbitro, "arbitro")
    item = _queue_item(arbitro, 2)
    expect(item.locator("table.diff tbody tr:not(.group)")).to_have_count(1)
    diff_row = item.locator("table.diff tr", has_text="Observação")
    expect(diff_row.locator("td.before")).to_have_text("10 (2)")
    expect(diff_row.locator("td.after")).to_have_text("11 (2)")
    screenshot(arbitro, "console-queue-diff")
    item.get_by_label("Motivo da devolução").fill(REASON)
    item.get_by_role("button", name="Devolver ao jogador").click()
    expect(arbitro.locator(".messages")).to_contain_text("versão 2 devolvida ao jogador")

    # 3. The jogador reads why, fixes the points and sends it again.
    jogador.goto(f"/fichas/{jurado.code}/")
    expect(jogador.locator(".versions")).to_contain_text(REASON)
    _send_observation(jogador, level="11", points="4")

    # 4. The Árbitro sees the new diff, still against version 1, and homologates.
    item = _queue_item(arbitro, 3)
    diff_row = item.locator("table.diff tr", has_text="Observação")
    expect(diff_row.locator("td.before")).to_have_text("10 (2)")
    expect(diff_row.locator("td.after")).to_have_text("11 (4)")
    item.get_by_role("button", name="Homologar").click()
    expect(arbitro.locator(".messages")).to_contain_text("versão 3 homologada")

    # The history shows the four steps, and the sheet now reads version 3.
    jogador.goto(f"/fichas/{jurado.code}/")
    expect(jogador.locator(".homologated")).to_contain_text("versão 3")
    jogador.get_by_role("link", name="Histórico", exact=True).click()
    steps = jogador.locator("ol.timeline")
    expect(steps.get_by_test_id("step-submitted-2")).to_contain_text("Enviada ao Árbitro")
    expect(steps.get_by_test_id("step-returned-2")).to_contain_text("por arbitro")
    expect(steps.get_by_test_id("step-returned-2")).to_contain_text(REASON)
    expect(steps.get_by_test_id("step-submitted-3")).to_contain_text("por jogador")
    expect(steps.get_by_test_id("step-homologated-3")).to_contain_text("Homologada por arbitro")
    # By default the two newest versions are compared: the fix of the points.
    diff_row = jogador.locator("#diferencas table.diff tr", has_text="Observação")
    expect(diff_row.locator("td.after")).to_have_text("11 (4)")
    screenshot(jogador, "console-sheet-history")

    statuses = dict(SheetVersion.objects.filter(character=jurado).values_list("number", "status"))
    assert statuses == {1: "homologated", 2: "returned", 3: "homologated"}


def test_the_console_home_counts_what_waits(new_page):
    page = new_page()
    login(page, "arbitro")
    page.goto("/console/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Console do Árbitro")
    expect(page.get_by_test_id("count-sheets").locator(".n")).to_have_text("1")
    expect(page.locator("#fichas")).to_contain_text("Hoplita de Ônfalos — versão 2")
    newest = page.locator("#pendencias table a").first
    title = newest.inner_text()
    newest.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(title)
    screenshot(page, "console-home")
