"""«Apara com» lists each combatant's own weapons under his name, and only the defender's
count: the Jurado parries with his Gládio, never with the Cavador's bite (§4.7)."""

from __future__ import annotations

import re

from django.urls import reverse

from sessions.combat import services as combat_services
from sessions.combat.forms import PARRY_NOT_THE_DEFENDERS
from sessions.models import Roll
from tests.sessions.combat.helpers import cavador


def _url(scene, name="combat"):
    return reverse(name, kwargs={"code": scene.code})


def _bout(scene, mestre, jurado):
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[jurado])
    combat_services.combatant_add(combat=combat, user=mestre, creature=cavador("Cavador"))
    return combat


def _groups(html: str, name: str) -> dict[str, list[str]]:
    select = re.search(rf'<select name="{name}".*?</select>', html, re.S).group()
    return {
        label: re.findall(r">([^<]+)</option>", body)
        for label, body in re.findall(r'<optgroup label="([^"]+)">(.*?)</optgroup>', select, re.S)
    }


def test_each_defender_has_his_own_weapons_under_his_name(client_for, mestre, scene, jurado):
    combat = _bout(scene, mestre, jurado)
    html = client_for(mestre).get(_url(scene)).content.decode()
    groups = _groups(html, "act-parry_weapon")
    jurado_lines = [
        w.name for w in combat.combatants.get(name=jurado.name).weapon_lines() if w.parries
    ]
    assert groups[jurado.name] == jurado_lines
    # The bite does not parry: the Cavador has no group; no name is joined with another's.
    assert "Cavador" not in groups
    assert not [w for names in groups.values() for w in names if " / " in w]
    defender_id = re.search(r'<select name="act-defender"[^>]* id="([^"]+)"', html).group(1)
    assert f'data-follows="{defender_id}"' in html


def test_another_combatants_weapon_is_refused_next_to_the_field(
    client_for, mestre, scene, jurado, hoplita
):
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[jurado, hoplita])
    combat_services.combatant_add(combat=combat, user=mestre, creature=cavador("Cavador"))
    jurado_c = combat.combatants.get(name=jurado.name)
    hoplita_c = combat.combatants.get(name=hoplita.name)
    bite = combat.combatants.get(name="Cavador")
    spear = next(i for i, w in enumerate(hoplita_c.weapon_lines()) if w.parries)
    data = {
        "act-request_key": "turno-1",
        "act-combatant": str(bite.code),
        "act-maneuver": "move_and_attack",
        "act-defender": str(jurado_c.code),
        "act-attack_weapon": "0",
        "act-location": "torso",
        "act-defence": "parry",
        "act-parry_weapon": f"{hoplita_c.code}:{spear}",
    }
    response = client_for(mestre).post(_url(scene, "combat-act"), data)
    assert response.status_code == 422
    assert PARRY_NOT_THE_DEFENDERS in response.content.decode()
    assert not Roll.objects.exists()
