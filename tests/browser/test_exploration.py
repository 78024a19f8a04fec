"""Three exploration turns on a risky floor with a torch, then a night's sleep. The encounter
check comes on the cadence of Arriscado (every 2 turns: turn 2), the encounter arrives at the
end of that turn, the torch runs down a turn at a time and goes out in the night, and sleeping
rolls a mishap of Tabela B and the rest encounters of Tabela C (3:6 every 2 hours). The jogador
follows it on his open page, read-only; every die is in the log and the chain verifies."""

from __future__ import annotations

from playwright.sync_api import expect

from campaigns.models import Campaign
from sessions import entries
from sessions.log import chain
from sessions.models import Exploration, Roll
from tests.browser.conftest import HANG_MS, login, screenshot
from tests.gurps.helpers import ScriptedSource

SCENE = "A galeria do andar 3"
LIVE_MS = HANG_MS  # the live server polls every 2 s (conftest); the ceiling is for a hang
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


# --- the journey ---------------------------------------------------------------------------------

JURADO, RASTREADOR = "Jurado de Gapheim", "Rastreador de Uruk-Kalam"
# The autumn's initial weather (4: Ameno e ventoso); then, a round at a time, the weather's 1d6,
# the day's encounter (Floresta: 2:6) and the activity's dice.
JOURNEY_DICE = (
    4,
    *(2, 6, 4, 1),  # 1 Avançar in the forest: weather up, nothing, on course, Ponto de Interesse
    *(5, 1, 6, 3),  # 2 Avançar in the hills: an encounter, on course, Peregrinos
    *(1, 6, 2, 6),  # 3 Avançar again: lost, Nada — the forced march asks its test
    *(3, 6, 3),  # 4 Levantar Acampamento (safe on 3), the Jurado rests the rounds he owes
    *(6, 6),  # 5 Descansar in the safe camp; the Rastreador crafts instead
    *(2, 6, 5, 7),  # 6 Forragear in the hills fails; Tabela F 7: carrapatos
)
NARROW = {"width": 390, "height": 844}


def travel(tracker, activity, *, region="", mode="", choose=None):
    form = tracker.get_by_test_id("travel-form")
    form.get_by_label("Atividade do grupo").select_option(label=activity)
    if region:
        form.get_by_label("O grupo está em").select_option(label=region)
    if mode:
        form.get_by_label("Avançando (Tabela A)").select_option(label=mode)
    if choose:
        form.locator("summary", has_text="Um jogador pode escolher").click()
        for name, other in choose.items():
            form.get_by_label(name).select_option(label=other)
    label = form.get_by_role("button").inner_text().split(":")[0]  # «Dia 1, rodada 2»
    form.get_by_role("button", name="viajar 4 h").click()
    expect(tracker.get_by_test_id("exploration-history")).to_contain_text(f"{label} de 6")


def element_shot(locator, name: str) -> None:
    """The panel alone, into /tmp/garganta-shots/, when GARGANTA_SCREENSHOTS is set."""
    import os

    from tests.browser.conftest import SHOTS_DIR

    if os.environ.get("GARGANTA_SCREENSHOTS"):
        SHOTS_DIR.mkdir(parents=True, exist_ok=True)
        locator.screenshot(path=str(SHOTS_DIR / f"{name}.png"))


def test_a_day_of_travel_as_the_mestre_runs_it(new_page, monkeypatch):
    from django.contrib.auth import get_user_model

    from sessions.log import services as log_services
    from sessions.models import ExplorationTest, Scene

    source = ScriptedSource(JOURNEY_DICE)
    monkeypatch.setattr(entries, "dice_source", lambda: source)
    mestre, player = new_page(), new_page()
    tracker = open_scene(mestre, "mestre")
    player_tracker = open_scene(player, "jogador")

    tracker.get_by_label("Nível de perigo (o Mestre declara)").select_option(label="Inseguro")
    tracker.get_by_label("Região (para o fechamento)").fill("A estrada do norte")
    tracker.get_by_role("button", name="Começar a exploração").click()
    tracker.locator("summary", has_text="Jornada").click()
    tracker.get_by_label("Estação do ano (o clima inicial)").select_option(label="Outono")
    tracker.locator('form[action$="/jornada/"]').get_by_label("O grupo está em").select_option(
        label="Floresta"
    )
    tracker.get_by_role("button", name="Começar a jornada").click()
    expect(tracker.get_by_test_id("journey-weather")).to_have_text("Ameno e ventoso")

    travel(tracker, "Avançar", mode="Andando")
    expect(tracker.get_by_test_id("journey-weather")).to_have_text("Ameno e chuvoso")
    expect(tracker.get_by_test_id("journey-region")).to_have_text("Floresta")
    travel(tracker, "Avançar", region="Colinas")
    history = tracker.get_by_test_id("exploration-history")
    expect(history).to_contain_text("ENCONTRO")
    travel(tracker, "Avançar")
    tests = tracker.get_by_test_id("journey-test")
    expect(tests).to_have_count(3)
    expect(tests.first).to_contain_text("teste de CON DC 12")
    expect(player_tracker.get_by_test_id("journey-tests")).to_be_visible(timeout=LIVE_MS)

    # The Mestre rolls each one's GURPS test in the scene, and names the roll here.
    scene = Scene.objects.get(title=SCENE)
    user = get_user_model().objects.get(username="mestre")
    for test in ExplorationTest.objects.order_by("pk"):
        roll = log_services.roll_create(
            scene=scene,
            user=user,
            attribute="ht",
            character=scene.characters.get(name=test.character),
            source=ScriptedSource((6, 6, 5) if test.character == JURADO else (3, 3, 3)),
        )
        row = tracker.get_by_test_id("journey-test").filter(has_text=test.character)
        row.get_by_label("Rolagem GURPS nº").fill(str(roll.sequence))
        row.get_by_role("button", name="Registrar").click()
        expect(
            tracker.get_by_test_id("journey-test").filter(has_text=test.character)
        ).to_have_count(0)
    party = tracker.get_by_test_id("journey-party")
    expect(party).to_contain_text("deve 2 rodada(s) de Descansar")

    travel(tracker, "Levantar Acampamento", choose={JURADO: "Descansar"})
    travel(tracker, "Descansar", choose={RASTREADOR: "Criar"})
    travel(tracker, "Forragear")
    expect(history).to_contain_text("Fim do dia 1.")
    expect(party.get_by_test_id("journey-exhaustion")).to_have_text("exaustão 1")
    expect(tracker.get_by_test_id("journey-day")).to_have_text("Dia 1 · 6/6")
    history.locator("details.pendencies").first.click()
    element_shot(tracker, "exploration-journey-mestre-1280")
    mestre.set_viewport_size(NARROW)
    element_shot(tracker, "exploration-journey-mestre-390")
    width = mestre.evaluate("document.documentElement.scrollWidth")
    assert width <= NARROW["width"], f"the page scrolls sideways at 390 px ({width} px)"

    # The jogador follows the journey, read-only; every die is in the chain.
    expect(player_tracker.get_by_test_id("journey-day")).to_have_text(
        "Dia 1 · 6/6", timeout=LIVE_MS
    )
    expect(player_tracker.get_by_role("button")).to_have_count(0)
    assert source.values == []
    assert chain.rolls_verify(Campaign.objects.get(slug="a-garganta")).ok
