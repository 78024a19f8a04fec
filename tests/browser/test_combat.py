"""A short fight on the scene page: the jurado de Gapheim and the hoplita against two
cavadores-cinzentos (demo numbers the Mestre enters). The hoplita's spear fells one at 0 HP —
out of the fight; the other bites the jurado, who takes a major wound and is stunned. The
jogador sees it on his open page; the log holds every die in order, and the chain verifies."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from campaigns.models import Campaign
from sessions import entries
from sessions.log import chain
from sessions.models import Combat, Combatant, Roll
from tests.browser.conftest import HANG_MS, login, screenshot
from tests.gurps.helpers import ScriptedSource
from tests.sessions.combat.helpers import B_WOUNDS_JURADO, CAVADOR, HOPLITA_FELLS_A

SCENE = "A galeria do andar 3"
LIVE_MS = HANG_MS  # the live server polls every 2 s (conftest); the ceiling is for a hang


def open_scene(page, username):
    login(page, username)
    page.get_by_role("link", name=SCENE, exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(SCENE)
    return page.get_by_test_id("combat")


def add_cavador(tracker, name):
    form = tracker.locator('form[action$="/combatentes/"]')
    form.get_by_label("Nome", exact=True).fill(name)
    for label, key in (("ST", "st"), ("DX", "dx"), ("IQ", "iq"), ("HT", "ht"), ("PV", "hp")):
        form.get_by_label(label, exact=True).fill(str(CAVADOR[key]))
    form.get_by_label("Deslocamento", exact=True).fill(str(CAVADOR["move"]))
    form.get_by_label("Esquiva", exact=True).fill(str(CAVADOR["dodge"]))
    form.get_by_label("PD", exact=True).fill(str(CAVADOR["passive_defense"]))
    form.get_by_label("RD", exact=True).fill(str(CAVADOR["damage_resistance"]))
    form.get_by_label("Ataque", exact=True).fill("Mordida")
    form.get_by_label("NH", exact=True).fill("12")
    form.get_by_label("Dano (ex.: 2d cort)", exact=True).fill("2d cort")
    form.get_by_label("A espécie foge").check()
    form.get_by_role("button", name="Pôr na luta").click()
    expect(tracker.get_by_test_id(f"card-{name.lower().replace(' ', '-')}")).to_be_visible()


def next_turn_until(tracker, name):
    current = tracker.get_by_test_id("combat-current")
    for _ in range(6):
        before = current.inner_text() if current.count() else None
        if before == name:
            return
        tracker.get_by_role("button", name=re.compile("Primeiro turno|Próximo turno")).click()
        # Wait for this turn's answer before reading it: a slow server (PostgreSQL in CI)
        # answering after a fixed pause let the loop click twice and skip past the name.
        if before is None:
            expect(current).to_be_visible()
        else:
            expect(current).not_to_have_text(before)
    expect(current).to_have_text(name)


def attack(tracker, *, defender, defence, lighting=""):
    tracker.get_by_label("Manobra (§4.3)").select_option(label="Avançar e Atacar")
    tracker.get_by_role("button", name="Declarar a manobra").click()
    expect(tracker.locator(".combat-card.current")).to_contain_text("Avançar e Atacar")
    tracker.locator('select[name="defender"]').select_option(label=defender)
    if lighting:
        tracker.get_by_label("Iluminação ruim (−1 a −9)").fill(lighting)
    tracker.locator('select[name="defence"]').select_option(value=defence)
    tracker.get_by_role("button", name="Atacar: o servidor rola").click()


def test_a_short_fight(new_page, monkeypatch):
    source = ScriptedSource([*HOPLITA_FELLS_A, *B_WOUNDS_JURADO])
    monkeypatch.setattr(entries, "dice_source", lambda: source)
    mestre, player = new_page(), new_page()
    tracker = open_scene(mestre, "mestre")
    player_tracker = open_scene(player, "jogador")
    expect(player_tracker).to_contain_text("Nenhum combate nesta cena.")

    tracker.get_by_label("Rastreador de Uruk-Kalam").uncheck()
    tracker.get_by_role("button", name="Começar o combate").click()
    expect(tracker.get_by_test_id("card-jurado-de-gapheim")).to_be_visible()
    add_cavador(tracker, "Cavador A")
    add_cavador(tracker, "Cavador B")

    # The order of §4.2 is set once, and the hoplita's spear fells cavador A.
    next_turn_until(tracker, "Hoplita de Ônfalos")
    attack(tracker, defender="Cavador A", defence="dodge", lighting="-2")
    card_a = tracker.get_by_test_id("card-cavador-a")
    expect(card_a).to_contain_text("Em fuga")
    expect(card_a.get_by_test_id("hp")).to_contain_text("PV 0/9")
    expect(tracker).to_contain_text("travados desde a rolagem #1")

    # The jogador chooses his own defence on his card (§4.1, §4.6): Bloquear — once his page
    # has caught up with the blow (its poll redraws the region, his form with it).
    expect(player_tracker.get_by_test_id("card-cavador-a")).to_contain_text(
        "Em fuga", timeout=LIVE_MS
    )
    mine = player_tracker.get_by_test_id("card-jurado-de-gapheim").get_by_test_id("my-defence")
    mine.get_by_label("Defendo com").select_option(label="Bloquear")
    mine.get_by_role("button", name="Minha defesa").click()
    expect(player_tracker.get_by_test_id("standing-defence").first).to_contain_text("Bloquear")

    # Cavador B bites the jurado, who blocks as he chose: a major wound, and he is stunned.
    next_turn_until(tracker, "Cavador B")
    attack(tracker, defender="Jurado de Gapheim", defence="")
    jurado = tracker.get_by_test_id("card-jurado-de-gapheim")
    expect(jurado.get_by_test_id("stunned")).to_be_visible()
    expect(jurado.get_by_test_id("hp")).to_contain_text("PV 2/12")
    screenshot(mestre, "combat-mestre-mid-fight")

    # The jogador sees it on his open page, read-only: no forms.
    expect(
        player_tracker.get_by_test_id("card-jurado-de-gapheim").get_by_test_id("stunned")
    ).to_be_visible(timeout=LIVE_MS)
    expect(player_tracker.get_by_role("button")).to_have_count(1)  # his defence, nothing else
    expect(player_tracker.get_by_role("button")).to_have_text("Minha defesa")

    # The log holds every die, in order, each linked to the combat.
    combat = Combat.objects.get()
    rolls = list(Roll.objects.filter(scene=combat.scene).order_by("sequence"))
    # Cavador A, out at 0 HP, has no Prostração roll (§5.4.1); the jurado has his.
    assert [r.details["step"] for r in rolls] == [3, 5, 6, 3, 5, 6, 10]
    dice = [face for r in rolls for face in r.dice]
    assert dice == [*HOPLITA_FELLS_A, *B_WOUNDS_JURADO]
    assert {r.details["combat"] for r in rolls} == {str(combat.code)}
    log = mestre.locator("#log")
    expect(log.locator("li.entry.roll")).to_have_count(len(rolls), timeout=LIVE_MS)
    expect(log.get_by_test_id("combat-step").first).to_contain_text("§4.10 linha")
    assert chain.rolls_verify(Campaign.objects.get(slug="a-garganta")).ok


def test_a_turn_in_one_form_with_its_preview_and_a_flight(new_page, monkeypatch):
    """The Mestre runs cavador A's whole turn in one form — first its preview, which rolls
    nothing, then for real — and marks him fled, confirming first."""
    source = ScriptedSource([2, 3, 4, 1, 1, 1])  # the bite 9 hits; the jurado's block 3 holds
    monkeypatch.setattr(entries, "dice_source", lambda: source)
    mestre = new_page()
    tracker = open_scene(mestre, "mestre")
    tracker.get_by_label("Rastreador de Uruk-Kalam").uncheck()
    tracker.get_by_role("button", name="Começar o combate").click()
    expect(tracker.get_by_test_id("card-jurado-de-gapheim")).to_be_visible()
    # His jogador left «decidir por mim: a de maior total» (§4.6): the bite goes on at once.
    Combatant.objects.filter(name="Jurado de Gapheim").update(standing_defence={"first": "best"})
    add_cavador(tracker, "Cavador A")

    panel = tracker.get_by_test_id("turn-act")
    panel.locator("summary").first.click()
    panel.get_by_label("Quem age").select_option(label="Cavador A (próximo)")
    panel.get_by_label("Manobra do turno").select_option(label="Avançar e Atacar")
    panel.get_by_label("Ataca quem").select_option(label="Jurado de Gapheim")
    panel.get_by_label("Luz ruim, de −1 a −9").fill("-2")
    panel.get_by_role("button", name="Prévia (sem rolar)").click()
    preview = tracker.get_by_test_id("turn-preview")
    expect(preview.get_by_test_id("preview-level")).to_have_text("NH efetivo 10")
    expect(preview).to_contain_text("Bloquear 7 + PD 5 = 12")
    assert not Roll.objects.exists()

    tracker.get_by_test_id("turn-act").get_by_role("button", name="Rodar o turno").click()
    expect(tracker.get_by_test_id("combat-current")).to_have_text("Cavador A")
    expect(tracker.locator(".combat-card.current")).to_contain_text("Avançar e Atacar")
    assert [r.kind for r in Roll.objects.order_by("sequence")] == ["skill", "defence"]

    tracker.get_by_test_id("card-cavador-a").get_by_test_id("flee").click()
    confirm = tracker.get_by_test_id("fled-confirm")
    expect(confirm).to_contain_text("Cavador A fugiu?")
    confirm.get_by_role("button", name="Sim, Cavador A fugiu").click()
    card = tracker.get_by_test_id("card-cavador-a")
    expect(card).to_contain_text("Em fuga")
    expect(card).to_contain_text("Fugiu na rodada 1")
    expect(tracker.get_by_test_id("fled-confirm")).to_have_count(0)
    screenshot(mestre, "combat-turn-in-one-form")
