"""The sheet page lives during a fight (issue 24; docs/DESIGN.md, invariant 12 (The state is live)):
its live region answers 204 while nothing it is drawn from moved, and the new PV, the waiting
defence and the crippled limb once they did; outsiders get 404, as for the page."""

from __future__ import annotations

import re

from django.urls import reverse

from sessions.combat import services as combat_services
from sessions.models import Combatant


def _token(html: str) -> str:
    return re.search(r'vivo/\?r=([^"]+)"', html).group(1)


def test_the_live_region_answers_204_until_a_wound_then_the_new_pv(
    client_for, jogador, mestre, scene, jurado
):
    client = client_for(jogador)
    page = client.get(reverse("sheet", kwargs={"code": jurado.code})).content.decode()
    live = reverse("sheet-live", kwargs={"code": jurado.code})
    from urllib.parse import unquote

    token = unquote(_token(page))
    assert client.get(live, {"r": token}, HTTP_HX_REQUEST="true").status_code == 204
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[jurado])
    c = Combatant.objects.get(combat=combat, character=jurado)
    combat_services.combatant_adjust(
        combat=combat, combatant=c, user=mestre, hp_lost=3, reason="erro crítico 5 (§4.8)"
    )
    Combatant.objects.filter(pk=c.pk).update(crippled=["arm"])
    answer = client.get(live, {"r": token}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    html = answer.content.decode()
    c.refresh_from_db()
    assert f'data-testid="sheet-hp">{c.hp_now}/{c.hp}<' in html
    assert "braço incapacitado" in html and 'id="sheet-live"' in html


def test_an_outsider_gets_404(client_for, outsider, jurado):
    live = reverse("sheet-live", kwargs={"code": jurado.code})
    assert client_for(outsider).get(live).status_code == 404
    events = reverse("sheet-events", kwargs={"code": jurado.code})
    assert client_for(outsider).get(events).status_code == 404
