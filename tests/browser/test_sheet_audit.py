"""The level is derived as the player types, and the queue says what does not add up: the draft
page shows level and points side by side without a reload; the Árbitro reads the three problems
of a proposal, and homologates anyway only by saying why; "e sem a perícia?" of each sheet."""

from __future__ import annotations

from playwright.sync_api import expect

from sheets.models import Character, SheetVersion
from tests.browser.conftest import (
    accept_dialogs,
    assert_not_reloaded,
    login,
    screenshot,
    set_marker,
)
from tests.sheets.proposals import submit_three_problems

PHONE = {"width": 390, "height": 844}
NOTE = "DX 30 pela bênção da Casa; registro a Decisão em seguida."


def _both_widths(page, name: str) -> None:
    screenshot(page, f"{name}-1280")
    page.set_viewport_size(PHONE)
    screenshot(page, f"{name}-390")
    page.set_viewport_size({"width": 1280, "height": 900})


def test_the_draft_shows_the_level_the_points_buy_as_they_are_typed(new_page):
    jurado = Character.objects.get(name="Jurado de Gapheim")
    page = new_page()
    login(page, "jogador")
    page.goto(f"/fichas/{jurado.code}/")
    page.get_by_role("link", name="Propor alteração da ficha").click()
    page.get_by_role("button", name="Começar rascunho").click()
    set_marker(page)

    shield = page.locator("tr", has=page.locator('input[value="Escudo"]'))
    derived = shield.locator("td.derived")
    expect(derived).to_contain_text("4 pontos → NH 14")
    shield.locator('input[name$="-points"]').fill("8")
    expect(derived).to_contain_text("8 pontos → NH 15")
    expect(derived).to_contain_text("não bate")
    expect(page.locator("#draft-live")).to_contain_text(
        "A ficha diz NH 14, mas 8 pontos em Física/Fácil compram DX+3: 12 + 3 = 15."
    )
    shield.locator('input[name$="-level"]').fill("")
    expect(derived).not_to_contain_text("não bate")

    blank = page.get_by_test_id("skill-row-3")
    blank.locator('input[name$="-name"]').fill("Arco")
    blank.locator('select[name$="-attribute"]').select_option("dx")
    blank.locator('select[name$="-difficulty"]').select_option("H")
    blank.locator('input[name$="-level"]').fill("13")
    expect(blank.locator("td.derived")).to_contain_text("NH 13 → 8 pontos")
    assert_not_reloaded(page)
    _both_widths(page, "i16-draft-level-and-points")

    page.get_by_role("button", name="Salvar rascunho").click()
    expect(page.locator(".messages")).to_contain_text("Rascunho salvo.")
    draft = SheetVersion.objects.get(character=jurado, status="draft")
    saved = {s.name: (s.level, s.points) for s in draft.skills.all()}
    assert saved["Escudo"][0] == 15 and saved["Arco"] == (13, 8)


def test_the_queue_shows_three_problems_and_homologating_anyway_needs_a_note(new_page):
    from django.contrib.auth import get_user_model

    jurado = Character.objects.get(name="Jurado de Gapheim")
    version = submit_three_problems(jurado, get_user_model().objects.get(username="jogador"))
    page = new_page()
    accept_dialogs(page)
    login(page, "arbitro")
    page.goto("/homologacao/")
    item = page.locator("article.queue-item", has_text="Jurado de Gapheim — versão 2")
    expect(item.locator(".audit h3")).to_contain_text("3 avisos")
    expect(item.locator(".finding.warning")).to_have_count(3)
    expect(item.locator(".finding.warning").nth(1)).to_contain_text(
        "½ ponto em Física/Difícil compra DX−3: 30 − 3 = 27"
    )
    _both_widths(page, "i16-queue-three-problems")

    item.get_by_role("button", name="Homologar apesar dos avisos").click()
    item = page.locator("article.queue-item", has_text="Jurado de Gapheim — versão 2")
    expect(item.locator("form.homologate .error")).to_contain_text("Diga por que homologa")
    version.refresh_from_db()
    assert version.status == "submitted"

    item.get_by_label("Por que homologa mesmo assim").fill(NOTE)
    item.get_by_role("button", name="Homologar apesar dos avisos").click()
    expect(page.locator(".messages")).to_contain_text("versão 2 homologada")
    expect(page.locator("body")).to_contain_text("apesar de 3 avisos")
    version.refresh_from_db()
    assert (version.status, version.decision_note) == ("homologated", NOTE)


def test_e_sem_a_pericia_for_the_demo_characters(new_page):
    page = new_page()
    login(page, "mestre")
    for name, slug in (
        ("Rastreador de Uruk-Kalam", "rastreador"),
        ("Jurado de Gapheim", "jurado"),
        ("Hoplita de Ônfalos", "hoplita"),
    ):
        character = Character.objects.get(name=name)
        page.goto(f"/fichas/{character.code}/")
        page.get_by_test_id("defaults-link").click()
        expect(page.locator("h1")).to_contain_text(name)
        if slug == "rastreador":
            climb = page.get_by_test_id("default-Escalada")
            expect(climb).to_contain_text("9")
            expect(climb).to_contain_text("DX−5: DX 14 − 5 = 9")
        _both_widths(page, f"i16-sem-a-pericia-{slug}")
