"""The tracker region of the scene page: who sees it, who runs it, errors next to the field."""

from __future__ import annotations

from django.urls import reverse

from sessions.combat import messages as combat_messages
from sessions.combat import services as combat_services
from sessions.combat import turns as combat_turns
from sessions.models import Combat, Roll
from tests.sessions.combat.helpers import decides_for_him


def _url(scene, name="combat"):
    return reverse(name, kwargs={"code": scene.code})


def test_it_works(client_for, mestre, scene):
    response = client_for(mestre).get(_url(scene))
    assert response.status_code == 200
    assert "Começar o combate" in response.content.decode()


def test_it_requires_login(client, scene):
    assert client.get(_url(scene)).status_code == 302


def test_it_checks_membership(client_for, outsider, scene):
    assert client_for(outsider).get(_url(scene)).status_code == 404


def test_a_jogador_sees_it_read_only(client_for, mestre, jogador, scene):
    combat_services.combat_start(scene=scene, user=mestre)
    html = client_for(jogador).get(_url(scene)).content.decode()
    assert "Jurado de Gapheim" in html
    assert "Próximo turno" not in html and "Primeiro turno" not in html
    assert client_for(jogador).post(_url(scene, "combat-turn")).status_code == 403


def test_the_mestre_starts_a_combat_once_for_a_form_posted_twice(client_for, mestre, scene):
    client = client_for(mestre)
    codes = [str(c.code) for c in scene.characters.all()]
    data = {"request_key": "k1", "characters": codes}
    for _ in range(2):
        client.post(_url(scene, "combat-start"), data, HTTP_HX_REQUEST="true")
    assert Combat.objects.count() == 1


def test_bad_input_comes_back_next_to_the_field(client_for, mestre, scene):
    combat_services.combat_start(scene=scene, user=mestre)
    response = client_for(mestre).post(
        _url(scene, "combatant-add"),
        {
            "name": "Cavador",
            "kind": "creature",
            "st": 9,
            "dx": 11,
            "iq": 3,
            "ht": 9,
            "move": 6,
            "dodge": 5,
            "passive_defense": 0,
            "damage_resistance": 0,
            "weapon_name": "Mordida",
            "weapon_skill": 12,
            "weapon_damage": "2d",
        },
    )
    assert response.status_code == 422
    assert combat_messages.DAMAGE_TYPE_NEEDED in response.content.decode()


def test_the_poller_gets_204_while_nothing_changed(client_for, mestre, jogador, scene):
    combat = combat_services.combat_start(scene=scene, user=mestre)
    combat.refresh_from_db()
    client = client_for(jogador)
    seen = f"{combat.code}.{combat.revision}"
    response = client.get(_url(scene) + f"?v={seen}", HTTP_HX_REQUEST="true")
    assert response.status_code == 204


def test_a_feint_without_a_target_comes_back_next_to_the_field(client_for, mestre, scene):
    combat = combat_services.combat_start(scene=scene, user=mestre)
    combat_turns.combat_next_turn(combat=combat, user=mestre)
    response = client_for(mestre).post(
        _url(scene, "combat-maneuver"), {"maneuver": "feint", "weapon": "0", "request_key": "f1"}
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert combat_messages.FEINT_TARGET_NEEDED in html
    assert not combat.events.filter(kind="maneuver").exists()


def test_the_card_shows_what_the_tables_left(client_for, mestre, scene):
    combat = combat_services.combat_start(scene=scene, user=mestre)
    combat.combatants.filter(name="Jurado de Gapheim").update(
        off_balance=True, blind="one_eye", dx_penalty=-2
    )
    html = client_for(mestre).get(_url(scene)).content.decode()
    assert "Perdeu o equilíbrio" in html and "Cego de um olho: DX -2" in html


def test_a_modifier_value_without_its_reason_is_refused_not_dropped():
    from sessions.combat.forms import AttackForm

    form = AttackForm({"mod_value": "-3", "mod_label": ""})
    form.is_valid()
    assert form.errors["mod_label"] == ["Diga o motivo do modificador, antes dos dados (§1.4)."]


# --- the turn in one form, its preview, and «Fugiu» -------------------------------------------


def _bout(scene, mestre, jurado):
    from tests.sessions.combat.helpers import cavador

    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[jurado])
    combat_services.combatant_add(combat=combat, user=mestre, creature=cavador("Cavador"))
    return combat


def _act_data(combat, **more):
    jurado = combat.combatants.get(name="Jurado de Gapheim")
    cavador = combat.combatants.get(name="Cavador")
    return {
        "act-request_key": "turno-1",
        "act-combatant": str(cavador.code),
        "act-maneuver": "move_and_attack",
        "act-defender": str(jurado.code),
        "act-attack_weapon": "0",
        "act-location": "torso",
        **more,
    }


def test_the_mestre_runs_a_whole_turn_in_one_form(client_for, mestre, scene, jurado, server_dice):
    combat = _bout(scene, mestre, jurado)
    decides_for_him(combat, jurado)  # his jogador left «decidir por mim» (§4.6)
    html = client_for(mestre).get(_url(scene)).content.decode()
    assert "Turno inteiro numa ação" in html and 'name="act-combatant"' in html
    server_dice(2, 3, 4, 1, 1, 1)  # the bite hits, the jurado's best defence holds
    response = client_for(mestre).post(
        _url(scene, "combat-act"), _act_data(combat), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert [e.kind for e in combat.events.order_by("pk")][-3:] == ["turn", "maneuver", "attack"]
    assert Roll.objects.count() == 2  # the attack and the defence: it did not pass


def test_the_preview_shows_the_level_and_writes_nothing(client_for, mestre, scene, jurado):
    combat = _bout(scene, mestre, jurado)
    data = _act_data(combat, **{"act-lighting": "-2", "act-dry_run": "1"})
    response = client_for(mestre).post(_url(scene, "combat-act"), data)
    assert response.status_code == 200  # the whole page, without JavaScript
    html = response.content.decode()
    # The bite's NH 12, penumbra −2 (§4.5): 10.
    assert "NH efetivo 10" in html and "Iluminação ruim −2 (§4.5)" in html
    assert "nada rolado, nada gravado" in html
    assert not Roll.objects.exists() and combat.events.count() == 2  # start, combatant
    combat.refresh_from_db()
    assert combat.round == 0


def test_a_refused_turn_comes_back_next_to_the_field(client_for, mestre, scene, jurado):
    combat = _bout(scene, mestre, jurado)
    data = _act_data(combat, **{"act-maneuver": "all_out_defense"})
    response = client_for(mestre).post(_url(scene, "combat-act"), data)
    assert response.status_code == 422
    assert (
        combat_messages.NOT_AN_ATTACK_MANEUVER.format(name="Cavador", maneuver="Defesa Total")
        in response.content.decode()
    )
    assert not combat.events.filter(kind="turn").exists()


def test_fled_is_asked_first_and_then_marked(client_for, mestre, scene, jurado):
    combat = _bout(scene, mestre, jurado)
    combat_turns.combat_next_turn(combat=combat, user=mestre)
    cavador = combat.combatants.get(name="Cavador")
    client = client_for(mestre)
    asked = client.get(_url(scene) + f"?fugir={cavador.code}")
    html = asked.content.decode()
    assert "Cavador fugiu?" in html and "Sim, Cavador fugiu" in html
    assert combat.combatants.get(pk=cavador.pk).status == "fighting"  # nothing yet
    done = client.post(
        _url(scene, "combat-fled"), {"combatant": str(cavador.code), "request_key": "f-1"}
    )
    assert done.status_code == 302
    assert combat.combatants.get(pk=cavador.pk).status == "fled"
    html = client.get(_url(scene)).content.decode()
    assert "Fugiu na rodada 1: fora da ordem do turno" in html
    assert "Cavador fugiu?" not in html


def test_a_jogador_neither_runs_a_turn_nor_marks_a_flight(
    client_for, mestre, jogador, scene, jurado
):
    combat = _bout(scene, mestre, jurado)
    client = client_for(jogador)
    assert client.post(_url(scene, "combat-act"), _act_data(combat)).status_code == 403
    cavador = combat.combatants.get(name="Cavador")
    assert (
        client.post(_url(scene, "combat-fled"), {"combatant": str(cavador.code)}).status_code == 403
    )
    assert "Fugiu…" not in client.get(_url(scene)).content.decode()
    assert "fugiu?" not in client.get(_url(scene) + f"?fugir={cavador.code}").content.decode()
