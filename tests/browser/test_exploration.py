"""Three exploration turns on a risky floor with a torch, then a night's sleep. The encounter
check comes on the cadence of Arriscado (every 2 turns: turn 2), the encounter arrives at the
end of that turn, the torch runs down a turn at a time and goes out in the night, and sleeping
rolls a mishap of Tabela B and the rest encounters of Tabela C (3:6 every 2 hours). The jogador
follows it on his open page, read-only; every die is in the log and the chain verifies."""

from __future__ import annotations

from playwright.sync_api import expect

from sessions import entries
from sessions.log import chain
from sessions.models import Exploration, Roll
from sheets.models import Campaign
from tests.browser.conftest import login, screenshot
from tests.gurps.helpers import ScriptedSource

SCENE = "A galeria do andar 3"
LIVE_MS = 4_000
# turn 2's check (1: an encounter), its arrival (5: an adjacent room); the night: the mishap
# (7 on 1d10: ticks and leeches), four rest checks of Arriscado in 8 hours (6: nothing).
DICE = (1, 5, 7, 6, 6, 6, 6)


def open_scene(page, username):
    login(page, username)
    page.get_by_role("link", name=SCENE, exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(SCENE)
    return page.get_by_test_id("exploration")


def play_turn(tracker, number):
    tracker.get_by_role("button", name=f"Começar o turno {number}").click()
    tracker.get_by_role("button", name=f"Fim do turno {number}").click()
    expect(tracker.get_by_role("button", name=f"Começar o turno {number + 1}")).to_be_visible()


def test_three_turns_on_a_risky_floor_with_a_torch(new_page, monkeypatch):
    source = ScriptedSource(DICE)
    monkeypatch.setattr(entries, "dice_source", lambda: source)
    mestre, player = new_page(), new_page()
    tracker = open_scene(mestre, "mestre")
    player_tracker = open_scene(player, "jogador")
    expect(player_tracker).to_contain_text("Nenhuma exploração nesta cena.")

    tracker.get_by_label("Nível de perigo (o Mestre declara)").select_option(label="Arriscado")
    tracker.get_by_label("Região (para o fechamento)").fill("Andar 3, a galeria")
    tracker.get_by_label("Ordem de marcha, um por linha, da frente para trás").fill(
        "Jurado de Gapheim\nHoplita de Ônfalos\nRastreador de Uruk-Kalam"
    )
    tracker.get_by_role("button", name="Começar a exploração").click()
    expect(tracker.get_by_test_id("exploration-danger")).to_have_text("Arriscado")
    expect(tracker.get_by_test_id("marching-order").locator("li").first).to_contain_text(
        "Jurado de Gapheim"
    )

    tracker.locator("summary", has_text="Luz ou magia").click()
    timer_form = tracker.locator('form[action$="/marcadores/"]')
    timer_form.get_by_label("Nome").fill("Tocha")
    timer_form.get_by_label("Duração em turnos (informada pelo Mestre)").fill("6")
    timer_form.get_by_role("button", name="Acender / lançar").click()
    torch = tracker.get_by_test_id("timer-tocha")
    expect(torch.get_by_test_id("timer-left")).to_have_text("6/6 turnos")

    # Turn 1: Arriscado checks every 2 turns — no die.
    play_turn(tracker, 1)
    expect(torch.get_by_test_id("timer-left")).to_have_text("5/6 turnos")
    assert Roll.objects.count() == 0

    # Turn 2: the check (1:6) comes up 1 — an encounter, which arrives at the end of the turn.
    tracker.get_by_role("button", name="Começar o turno 2").click()
    expect(tracker.get_by_test_id("encounter-pending")).to_be_visible()
    expect(player_tracker.get_by_test_id("encounter-pending")).to_be_visible(timeout=LIVE_MS)
    tracker.get_by_role("button", name="Fim do turno 2").click()
    expect(tracker.get_by_test_id("encounter-pending")).to_have_count(0)
    history = tracker.get_by_test_id("exploration-history")
    expect(history).to_contain_text("Os monstros chegam numa sala adjacente #2.")
    expect(history).to_contain_text("à frente: Jurado de Gapheim")

    # Turn 3: no check again; the torch is at half.
    play_turn(tracker, 3)
    expect(tracker.get_by_test_id("exploration-turn")).to_have_text("3")
    expect(torch.get_by_test_id("timer-left")).to_have_text("3/6 turnos")
    screenshot(mestre, "exploration-mestre-mid-descent")

    # The jogador follows: turn count and torch, and no button to press.
    expect(player_tracker.get_by_test_id("exploration-turn")).to_have_text("3", timeout=LIVE_MS)
    expect(player_tracker.get_by_test_id("timer-tocha")).to_contain_text("3/6 turnos")
    expect(player_tracker.get_by_role("button")).to_have_count(0)

    # The night: a mishap of Tabela B, four checks of Tabela C; the torch goes out.
    tracker.locator("summary", has_text="Dormir").click()
    tracker.get_by_role("button", name="Dormir: o servidor rola").click()
    expect(history).to_contain_text("Percalço #3: Atacados por carrapatos/sanguessugas.")
    expect(torch.get_by_test_id("timer-left")).to_have_text("apagou")
    expect(tracker.get_by_test_id("tally-dice")).to_have_text("6 d6 · 1 d10")

    # Every die is in the log, in order, and the chain verifies.
    rolls = list(Roll.objects.order_by("sequence"))
    assert [r.details["procedure_table"] for r in rolls] == [
        "danger_levels",
        "monster_arrival",
        "dungeon_mishaps",
        *["dungeon_rest"] * 4,
    ]
    assert [face for r in rolls for face in r.dice] == list(DICE)
    exploration = Exploration.objects.get()
    linked = {r.sequence for e in exploration.events.all() for r in e.rolls.all()}
    assert linked == {r.sequence for r in rolls}
    log = mestre.locator("#log")
    expect(log.locator("li.entry.roll")).to_have_count(len(rolls), timeout=LIVE_MS)
    expect(player.locator("#log li.entry.roll")).to_have_count(len(rolls), timeout=LIVE_MS)
    assert chain.rolls_verify(Campaign.objects.get(slug="a-garganta")).ok
