"""The defender chooses at the moment of the attack (§4.1, §4.3, §4.6), on his phone: the
Mestre's murador bites the Rastreador; the jogadora's 390-px scene page shows the choice live,
she picks «não me defendo» and keeps his aim, then, bitten again, picks Aparar and sees the roll;
a second window of his sheet page follows every wound without a reload."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from sessions import entries
from sessions.combat import attack as combat_attack
from sessions.combat import maneuvers as combat_maneuvers
from sessions.combat import services as combat_services
from sessions.combat import specs as combat_specs
from sessions.combat import state as combat_state
from sessions.combat import turns as combat_turns
from sessions.models import Combatant, Scene
from sheets.models import Character
from tests.browser.conftest import assert_not_reloaded, login, screenshot, set_marker
from tests.gurps.helpers import ScriptedSource
from tests.sessions.combat.helpers import cavador

SCENE = "A galeria do andar 3"
RASTREADOR = "Rastreador de Uruk-Kalam"
LIVE_MS = 8_000  # the fallback poll runs every 2 s here (conftest); a loaded CI needs a margin
PHONE = {"width": 390, "height": 844}


def _turn_of(combat, mestre, name) -> Combatant:
    for _ in range(5):
        combat.refresh_from_db()
        now = combat_state.current(combat)
        if now is not None and now.name == name:
            return Combatant.objects.select_related("character").get(combat=combat, name=name)
        combat_turns.combat_next_turn(combat=combat, user=mestre)
    raise AssertionError(name)


def _rastreador_aims(combat, mestre) -> None:
    me = _turn_of(combat, mestre, RASTREADOR)
    bow = next(i for i, w in enumerate(me.weapon_lines()) if w.name == "Arco curto")
    combat_maneuvers.maneuver_declare(
        combat=combat, combatant=me, user=mestre, maneuver="aim", weapon=bow
    )


def _murador_bites(combat, mestre) -> None:
    """The Mestre's creature bites (as his AI would, through the same services)."""
    murador = _turn_of(combat, mestre, "Murador")
    combat_maneuvers.maneuver_declare(
        combat=combat, combatant=murador, user=mestre, maneuver="move_and_attack"
    )
    outcome = combat_attack.attack_resolve(
        combat=combat,
        attacker=murador,
        defender=Combatant.objects.get(combat=combat, name=RASTREADOR),
        user=mestre,
        attack=combat_specs.AttackSpec(weapon=0),
    )
    assert outcome.awaits_defence


def _hp_text(combat) -> str:
    me = Combatant.objects.get(combat=combat, name=RASTREADOR)
    return f"{me.hp_now}/{me.hp}"


def test_the_jogadora_chooses_on_her_phone_and_the_sheet_follows(
    chromium_browser, site, new_page, monkeypatch
):
    # The bite 10 hits (NH 12); «não me defendo»: 18 against PD 1 fails, 2d = 1+1. Bitten
    # again, 10 hits; Aparar: 17 always fails (§4.6), 2d = 2+2.
    source = ScriptedSource([3, 3, 4, 6, 6, 6, 1, 1, 3, 3, 4, 6, 6, 5, 2, 2])
    monkeypatch.setattr(entries, "dice_source", lambda: source)
    from django.contrib.auth import get_user_model

    mestre = get_user_model().objects.get(username="mestre")
    scene = Scene.objects.get(title=SCENE)
    rastreador = Character.objects.get(name=RASTREADOR)
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[rastreador])
    combat_services.combatant_add(combat=combat, user=mestre, creature=cavador("Murador"))
    _rastreador_aims(combat, mestre)

    phone_context = chromium_browser.new_context(base_url=site.url, viewport=PHONE, locale="pt-BR")
    try:
        phone = phone_context.new_page()
        login(phone, "rastreadora")
        phone.goto(f"/cenas/{scene.code}/")
        tracker = phone.get_by_test_id("combat")
        expect(tracker.get_by_test_id("card-rastreador-de-uruk-kalam")).to_be_visible()
        sheet = new_page()
        login(sheet, "rastreadora")
        sheet.goto(f"/fichas/{rastreador.code}/")
        expect(sheet.get_by_test_id("sheet-hp")).to_have_text(_hp_text(combat))
        set_marker(sheet)
        set_marker(phone)

        # The bite: the choice comes to her phone and to the sheet, live.
        _murador_bites(combat, mestre)
        asked = tracker.get_by_test_id("pending-defence")
        expect(asked).to_contain_text("Murador ataca Rastreador", timeout=LIVE_MS)
        expect(asked).to_contain_text("Mordida")
        buttons = asked.get_by_test_id("defence-answers")
        expect(buttons.get_by_role("button", name=re.compile("^Esquiva · total"))).to_be_visible()
        expect(
            buttons.get_by_role("button", name=re.compile("^Aparar \\(Faca\\) · total"))
        ).to_be_visible()
        expect(sheet.get_by_test_id("pending-defence")).to_be_visible(timeout=LIVE_MS)
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(phone, "defence-asked-390")

        buttons.get_by_test_id("answer-none").click()
        expect(tracker.get_by_test_id("pending-defence")).to_have_count(0)
        expect(tracker.get_by_test_id("card-rastreador-de-uruk-kalam")).to_contain_text("mira 1")
        assert Combatant.objects.get(combat=combat, name=RASTREADOR).aim_turns == 1  # §4.3
        expect(sheet.get_by_test_id("sheet-hp")).to_have_text(_hp_text(combat), timeout=LIVE_MS)
        expect(sheet.get_by_test_id("pending-defence")).to_have_count(0, timeout=LIVE_MS)

        # Bitten again: she parries with the knife, and sees the roll.
        _rastreador_aims(combat, mestre)
        _murador_bites(combat, mestre)
        asked = tracker.get_by_test_id("pending-defence")
        expect(asked).to_be_visible(timeout=LIVE_MS)
        asked.get_by_role("button", name=re.compile("^Aparar \\(Faca\\) · total")).click()
        expect(tracker).to_contain_text("Aparar de Rastreador de Uruk-Kalam")
        expect(tracker).to_contain_text("6+6+5 = 17")
        assert Combatant.objects.get(combat=combat, name=RASTREADOR).aim_turns == 0
        expect(sheet.get_by_test_id("sheet-hp")).to_have_text(_hp_text(combat), timeout=LIVE_MS)
        assert Combatant.objects.get(combat=combat, name=RASTREADOR).hp_lost > 1
        screenshot(sheet, "defence-sheet-after-two-wounds")
        assert_not_reloaded(sheet)
        assert_not_reloaded(phone)
    finally:
        phone_context.close()
