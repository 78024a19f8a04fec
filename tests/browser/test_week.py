"""A short week, played in three browsers: the jogadora declares; the Mestre announces the
modifier, rolls with it and rolls hidden; the jogadora sees each entry arrive without a reload;
the Mestre reports, the Árbitro homologates, the hidden roll is revealed on the jogadora's open
page; the Boletim is published and week 2 opens."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from sessions.models import Declaration
from sheets.models import Character
from tests.browser.conftest import (
    HANG_MS,
    accept_dialogs,
    assert_not_reloaded,
    login,
    screenshot,
    set_marker,
)

SCENE = "A galeria do andar 3"
RASTREADOR = "Rastreador de Uruk-Kalam"
DECLARATION = "Procuro marcas de mordida na rocha, com a tocha baixa"
LIVE_MS = HANG_MS  # the live server polls every 2 s (conftest); the ceiling is for a hang
WEEK_1 = "/campanhas/a-garganta/semanas/1/"


def open_scene(page, username):
    login(page, username)
    page.get_by_role("link", name=SCENE, exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(SCENE)
    return page.locator("#log")


def observation_target() -> str:
    """The roll form's option for the rastreador's Observação (a sheet line, by its name)."""
    rastreador = Character.objects.get(name=RASTREADOR)
    return f"{rastreador.code}|skill:Observação"


def test_a_short_week(new_page):
    player, mestre, arbitro = new_page(), new_page(), new_page()
    accept_dialogs(mestre)
    accept_dialogs(arbitro)
    player_log = open_scene(player, "rastreadora")
    mestre_log = open_scene(mestre, "mestre")
    set_marker(player)

    # The jogadora declares what she does, and with what.
    player.locator('textarea[name="text"]').fill(DECLARATION)
    player.get_by_role("button", name="Declarar", exact=True).click()
    expect(mestre_log.locator("li.entry.declaration")).to_contain_text(DECLARATION, timeout=LIVE_MS)
    declaration = Declaration.objects.get(text=DECLARATION)

    # The Mestre announces the modifier for it, as its own entry, before any die.
    announce = mestre.locator("#id_announce-declaration")
    expect(announce.locator(f'option[value="{declaration.pk}"]')).to_have_count(1)
    announce.select_option(value=str(declaration.pk))
    mestre.get_by_label("Modificador anunciado 1", exact=True).fill("penumbra")
    mestre.get_by_label("Valor anunciado 1", exact=True).fill("-2")
    mestre.get_by_role("button", name="Anunciar", exact=True).click()
    announced = player_log.locator("li.entry.announcement")
    expect(announced).to_contain_text(re.compile(r"penumbra\s+[−-]2"), timeout=LIVE_MS)
    expect(player_log.locator("li.entry.roll")).to_have_count(0)
    # The Mestre's own answer to «Anunciar» redraws his workspace (a blank announcement): wait
    # for it, or it may land after his next choice below and draw that choice away.
    expect(mestre.get_by_label("Modificador anunciado 1", exact=True)).to_have_value("")

    # The roll answers the declaration and uses exactly the announced modifier.
    mestre.get_by_label("Rolar contra").select_option(value=observation_target())
    mestre.locator("#id_declaration").select_option(value=str(declaration.pk))
    # A new declaration meanwhile reaches the Mestre's list; his choice stays as it was.
    player.locator('textarea[name="text"]').fill("E fico de costas para a parede")
    player.get_by_role("button", name="Declarar", exact=True).click()
    expect(mestre.locator('#id_declaration option:has-text("de costas")')).to_have_count(
        1, timeout=LIVE_MS
    )
    expect(mestre.locator("#id_declaration")).to_have_value(str(declaration.pk))
    mestre.get_by_role("button", name="Rolar 3d6 no servidor").click()
    seen = player_log.locator("li.entry.roll").filter(has_text="Observação")
    expect(seen).to_have_count(1, timeout=LIVE_MS)
    expect(seen).to_contain_text(re.compile(r"contra\s+11\b"))
    expect(seen).to_contain_text(re.compile(r"NH 13, penumbra [−-]2"))
    expect(seen).to_contain_text("Responde a: Rastreador de Uruk-Kalam")

    # A hidden roll: the jogadora sees at once that it exists, its name and its commitment.
    mestre.get_by_label("Rolar contra").select_option(value=observation_target())
    mestre.get_by_label("Rolagem escondida (§1.6)").check()
    mestre.get_by_role("button", name="Rolar 3d6 no servidor").click()
    hidden = player_log.locator("li.entry.hidden-roll")
    expect(hidden).to_contain_text("Rolagem escondida semana-01-rolagem-01", timeout=LIVE_MS)
    expect(hidden).to_contain_text("Compromisso (SHA-256)")
    expect(hidden.locator(".die")).to_have_count(0)

    mestre.get_by_label("Narração").fill("Nada na rocha. A tocha chia.")
    mestre.get_by_role("button", name="Narrar", exact=True).click()
    expect(player_log.locator("li.entry.narration")).to_contain_text(
        "A tocha chia.", timeout=LIVE_MS
    )
    screenshot(player, "week-rastreadora-before-homologation")

    # The Mestre writes the report and sends it; the Árbitro homologates it.
    mestre.goto(WEEK_1 + "relatorio/")
    mestre.get_by_label("Relatório da semana").fill(
        "Semana 1: o rastreador procurou marcas na galeria; semana-01-rolagem-01 foi Observação."
    )
    mestre.get_by_role("button", name="Salvar o relatório").click()
    mestre.get_by_role("button", name="Enviar ao Árbitro").click()
    expect(mestre.get_by_test_id("report-status")).to_contain_text("Enviado ao Árbitro")

    login(arbitro, "arbitro")
    arbitro.goto(WEEK_1 + "relatorio/")
    arbitro.get_by_role("button", name="Homologar o relatório").click()
    expect(arbitro.get_by_test_id("report-status")).to_contain_text("Homologado")

    # On the jogadora's open page the hidden roll shows its dice and target.
    revealed = player_log.locator("li.entry.roll.was-hidden")
    expect(revealed).to_contain_text("revelada na homologação", timeout=LIVE_MS)
    expect(revealed).to_contain_text(re.compile(r"contra\s+13\b"))
    expect(revealed.locator(".die")).to_have_count(3)
    expect(revealed).to_contain_text("O servidor recalculou agora: confere.")
    assert_not_reloaded(player)
    screenshot(player, "week-rastreadora-revealed")

    # The Boletim, and week 2.
    mestre.goto(WEEK_1)
    mestre.get_by_label("Boletim da semana").fill("Boletim da Semana 1: a galeria segue fechada.")
    mestre.get_by_role("button", name="Publicar o Boletim").click()
    expect(mestre.get_by_test_id("week-state")).to_contain_text("Boletim publicado")
    mestre.get_by_role("button", name="Abrir a Semana 2").click()
    expect(mestre.get_by_role("heading", level=1)).to_have_text("Semana 2")
    expect(mestre.get_by_test_id("week-state")).to_contain_text("Aberta")

    player.goto(WEEK_1)
    expect(player.locator("#boletim")).to_contain_text("a galeria segue fechada")
    expect(player.get_by_role("link", name="Semana 2 →")).to_be_visible()
