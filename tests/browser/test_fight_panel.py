"""A sistema001 fight on a phone: the jogador opens the scene of the demo's second campaign (A
Ponte de Cordas, ``demo_fight_seed``) on a 375×812 window and sees the order by Iniciativa, the
PV, the Ogro's condition with when it ends, and the dice of the fight in the scene's log named
in Portuguese; the Mestre plays a turn (through the service, as the API and MCP do) and the
jogador's panel follows without a reload."""

from __future__ import annotations

import random

from playwright.sync_api import expect

from sessions.models import Combat
from sessions.native_combat import services
from tests.browser.axe import axe_violations, describe
from tests.browser.conftest import HANG_MS, assert_not_reloaded, login, screenshot, set_marker
from tests.gurps.helpers import ScriptedSource

PHONE = {"width": 375, "height": 812}
SCENE = "A ponte de cordas"
LIVE_MS = HANG_MS  # the live server polls every 2 s (conftest); the ceiling is for a hang


def _card(panel, name: str):
    return panel.get_by_test_id(f"fight-{name.lower().replace(' ', '-')}")


def test_the_jogador_follows_a_sistema001_fight_on_a_phone(new_page):
    from garganta_site.demo import demo_fight_seed

    made = demo_fight_seed(source=random.Random(23))
    combat = Combat.objects.get(pk=made["combat"].pk)
    view = services.fight_view(combat)

    page = new_page()
    page.set_viewport_size(PHONE)
    login(page, "jogador")
    expect(page.locator("main")).to_contain_text("Sistema 001 (capítulo de combate)")
    page.get_by_role("link", name=SCENE, exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(SCENE)
    panel = page.get_by_test_id("combat")

    # The order by Iniciativa, each card with its PV; the Ogro's condition says when it ends.
    cards = panel.get_by_test_id("fight-order").locator(":scope > li")
    expect(cards).to_have_count(2)
    for index, row in enumerate(view["order"]):
        card = cards.nth(index)
        expect(card).to_contain_text(row["name"])
        expect(card.get_by_test_id("initiative")).to_have_text(str(row["initiative"]))
        expect(card.get_by_test_id("pv")).to_have_text(f"PV {row['pv']}/{row['pv_max']}")
    ogro = next(r for r in view["order"] if r["name"] == "Ogro da ponte")
    (condition,) = ogro["conditions"]
    assert condition["ends"].startswith("termina imediatamente antes do turno de Iniciativa")
    expect(_card(panel, "Ogro da ponte").get_by_test_id("conditions")).to_have_text(
        f"Amedrontado — {condition['ends']}"
    )
    expect(panel.get_by_test_id("combat-current")).to_have_text(view["turn"]["name"])
    # The scene's log names each die of the fight in Portuguese.
    expect(page.get_by_test_id("roll-kind").filter(has_text="Iniciativa")).to_have_count(2)
    expect(page.get_by_test_id("roll-kind").filter(has_text="Ataque").first).to_be_visible()
    # Nothing sticks out of the phone's width, and axe-core finds nothing serious.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    violations = axe_violations(page)
    assert not violations, describe(violations)
    screenshot(page, "fight-phone-jogador")

    # The Mestre plays the next turn (the API's and the MCP's service): a hit, 9 + Mobilidade
    # against 1 + Mobilidade. The jogador's open page follows it by itself.
    set_marker(page)
    actor = view["turn"]
    target = next(r for r in view["order"] if r["id"] != actor["fighter"])
    before = services.fight_view(combat)["log"]
    played = Combat.objects.get(pk=combat.pk)
    services.fight_turn(
        combat=played,
        user=_mestre(),
        combatant=services.combatant_of(played, actor["fighter"], "combatant"),
        plan="movimento_execucao",
        actions=[{"kind": "ataque", "target": target["id"]}],
        source=ScriptedSource([9, 1]),
    )
    after = services.fight_view(Combat.objects.get(pk=combat.pk))
    hit = next(r for r in after["order"] if r["id"] == target["id"])
    assert hit["pv"] < target["pv"] and len(after["log"]) == len(before) + 1
    expect(_card(panel, target["name"]).get_by_test_id("pv")).to_have_text(
        f"PV {hit['pv']}/{hit['pv_max']}", timeout=LIVE_MS
    )
    expect(panel.get_by_test_id("combat-current")).to_have_text(after["turn"]["name"])
    expect(panel.get_by_test_id("fight-log").locator(":scope > li").first).to_contain_text(
        after["log"][-1]["text"]
    )
    assert_not_reloaded(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "fight-phone-jogador-after-turn")


def _mestre():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username="mestre")
