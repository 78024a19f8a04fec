"""The scene page: the Mestre's roll and a player's declaration reach the other browser
without a reload (the log polls every 2 s)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from sheets.models import Character
from tests.browser.conftest import HANG_MS, assert_not_reloaded, login, screenshot, set_marker

SCENE = "A galeria do andar 3"
RASTREADOR = "Rastreador de Uruk-Kalam"
DECLARATION = "Procuro marcas na rocha com a tocha"
POLL_WAIT_MS = HANG_MS  # the live server polls every 2 s (conftest); the ceiling is for a hang


def open_scene(page, username):
    login(page, username)
    page.get_by_role("link", name=SCENE, exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(SCENE)
    return page.locator("#log")


def test_mestre_roll_appears_on_the_players_page_without_reload(new_page):
    player, mestre = new_page(), new_page()
    player_log = open_scene(player, "rastreadora")
    mestre_log = open_scene(mestre, "mestre")
    set_marker(player)

    # "Observação 13 · 83%" under the Rastreador's optgroup (the Jurado has an Observação too).
    option = mestre.locator(f'select[name="target"] optgroup[label="{RASTREADOR}"] option').filter(
        has_text=re.compile(r"^Observação")
    )
    expect(option).to_have_count(1)
    expect(option).to_have_text("Observação 13 · 83%")
    value = option.get_attribute("value")
    rastreador = Character.objects.get(name=RASTREADOR)
    # The option names the skill; the server reads its level from the sheet.
    assert value == f"{rastreador.code}|skill:Observação"
    mestre.get_by_label("Rolar contra").select_option(value=value)

    mestre.get_by_label("Modificador 1", exact=True).fill("penumbra")
    mestre.get_by_label("Valor do modificador 1", exact=True).fill("-2")
    mestre.get_by_role("button", name="Rolar 3d6 no servidor").click()

    roll = mestre_log.locator("li.entry.roll").filter(has_text="Observação")
    expect(roll).to_have_count(1)
    expect(roll).to_contain_text(f"{RASTREADOR}: Observação")
    expect(roll).to_contain_text(re.compile(r"contra\s+11\b"))
    expect(roll).to_contain_text(re.compile(r"NH 13, penumbra [−-]2"))
    expect(roll).to_contain_text("a pedido de mestre")
    expect(roll.get_by_test_id("level-source")).to_have_text("Observação 13 (ficha)")
    # The form is fresh again for the next roll.
    expect(mestre.get_by_label("Modificador 1", exact=True)).to_have_value("")
    screenshot(mestre, "scene-mestre-after-roll")

    seen = player_log.locator("li.entry.roll").filter(has_text="Observação")
    expect(seen).to_have_count(1, timeout=POLL_WAIT_MS)
    expect(seen).to_contain_text(re.compile(r"contra\s+11\b"))
    expect(seen).to_contain_text("penumbra")
    assert_not_reloaded(player)
    screenshot(player, "scene-rastreadora-after-roll")


def test_players_declaration_appears_on_the_mestres_page_without_reload(new_page):
    player, mestre = new_page(), new_page()
    player_log = open_scene(player, "rastreadora")
    mestre_log = open_scene(mestre, "mestre")
    set_marker(player)
    set_marker(mestre)

    # The rastreadora owns only the Rastreador in this scene.
    expect(player.locator('select[name="character"] option')).to_have_text([RASTREADOR])
    player.locator('textarea[name="text"]').fill(DECLARATION)
    player.get_by_role("button", name="Declarar", exact=True).click()

    mine = player_log.locator("li.entry.declaration").filter(has_text=DECLARATION)
    expect(mine).to_have_count(1)
    expect(player.locator('textarea[name="text"]')).to_have_value("")

    seen = mestre_log.locator("li.entry.declaration").filter(has_text=DECLARATION)
    expect(seen).to_have_count(1, timeout=POLL_WAIT_MS)
    expect(seen).to_contain_text(RASTREADOR)
    expect(seen).to_contain_text("(rastreadora) declara:")
    assert_not_reloaded(player)
    assert_not_reloaded(mestre)


def test_a_bad_damage_expression_shows_its_message_next_to_the_field(new_page):
    # The server answers 422 with the form again; htmx must swap it in (htmx-config in base).
    mestre = new_page()
    open_scene(mestre, "mestre")
    set_marker(mestre)
    mestre.locator("summary").filter(
        has=mestre.get_by_role("heading", name="Dano", exact=True)
    ).click()
    mestre.get_by_label("Dados de dano").fill("abc")
    mestre.get_by_role("button", name="Rolar dano no servidor").click()
    expect(mestre.locator(".error").filter(has_text="Expressão de dados ilegível")).to_be_visible()
    assert_not_reloaded(mestre)
