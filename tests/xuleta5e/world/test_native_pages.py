"""The exploration tracker of a Xuleta campaign speaks the Xuleta, never GURPS: its exhaustion
levels (§1.16) beside each character, the streak card's saves, and no GURPS reading."""

from __future__ import annotations

from django.urls import reverse

from sessions.exploration import services as exploration_services
from tests.xuleta5e.world.test_native_journey import advance, begin


def test_the_tracker_shows_the_xuleta_s_exhaustion_and_saves_not_gurps(
    client, scene, people, characters, server_dice, quote
):
    quote("Velocitat a la meitat")
    mestre = people["mestre"]
    exploration = begin(scene, mestre, server_dice)
    advance(exploration, mestre, server_dice)
    advance(exploration, mestre, server_dice)
    # Bru fails two of the four saves: esgotament 2.
    advance(exploration, mestre, server_dice, 10, 10, 10, 10, 10, 5, 15, 2, 20, 20, 20, 20)
    view = exploration_services.exploration_view(exploration)
    bru = next(x for x in view.exhaustion if x.name == "Bru")
    assert bru.level == 2
    assert bru.effect == "Desavantatge en proves de característica; Velocitat a la meitat"
    assert not view.exhaustion_reading.code  # no GURPS pendência read for Tabela I
    client.force_login(mestre)
    html = client.get(reverse("exploration", kwargs={"code": scene.code})).content.decode()
    assert "GURPS" not in html and "None" not in html
    assert "§1.16" in html and "Velocitat a la meitat" in html
    assert "Fadiga" not in html and "além da Tabela I" not in html
    # The 4th Avançar in a row: hours 13–16, extra hours 5–8, DC 15 to 18 (§8.1).
    assert "a próxima pede salvació de Constitució CD 15, 16, 17, 18" in html
