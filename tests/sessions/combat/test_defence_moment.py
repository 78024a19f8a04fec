"""The defender chooses at the moment of the attack (§4.1, §4.3, §4.6, §4.10; docs/DESIGN.md,
invariant 11 (The defender chooses)): an attack on a jogador's character that hits stops before the
defence roll, the Mestre sees «aguardando a defesa de …», and the jogador's answer resolves it —
«não me defendo» keeping his aim; «decidir por mim» goes on at once; the Mestre's time applies
lazily."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest
from django.urls import reverse

from campaigns.errors import ServiceError
from sessions.combat import attack as combat_attack
from sessions.combat import maneuvers as combat_maneuvers
from sessions.combat import pending as combat_pending
from sessions.combat import services as combat_services
from sessions.combat import specs as combat_specs
from sessions.combat import state as combat_state
from sessions.combat import turns as combat_turns
from sessions.combat.messages import (
    DEFENCE_AWAITED,
    END_WAITS_FOR_DEFENCE,
    NO_DEFENCE_PENDING,
    ONLY_THE_PLAYER_ANSWERS,
    TURN_WAITS_FOR_DEFENCE,
)
from sessions.models import Combat, Combatant, CombatEvent, Roll
from tests.sessions.combat.helpers import cavador

RASTREADOR = "Rastreador de Uruk-Kalam"
KNIFE = 1  # his weapon lines: Arco curto, Faca (the arrows are not a weapon line)


@pytest.fixture
def hunt(scene, mestre, rastreador):
    """The rastreador and a murador (demo numbers: a cavador's); the murador's turn."""
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[rastreador])
    combat_services.combatant_add(combat=combat, user=mestre, creature=cavador("Murador"))
    combat_turns.combat_next_turn(combat=combat, user=mestre)
    return combat


def _get(combat, name) -> Combatant:
    return Combatant.objects.select_related("character").get(combat=combat, name=name)


def _turn_of(combat, mestre, name):
    for _ in range(4):
        combat.refresh_from_db()
        if combat_state.current(combat).name == name:
            return _get(combat, name)
        combat_turns.combat_next_turn(combat=combat, user=mestre)
    raise AssertionError(name)


def _rastreador_aims(combat, mestre, rastreadora):
    me = _turn_of(combat, mestre, RASTREADOR)
    weapon = next(i for i, w in enumerate(me.weapon_lines()) if w.name == "Arco curto")
    combat_maneuvers.maneuver_declare(
        combat=combat, combatant=me, user=mestre, maneuver="aim", weapon=weapon
    )


def _murador_bites(combat, mestre, server_dice, dice=(3, 3, 4)):
    _turn_of(combat, mestre, "Murador")
    combat_maneuvers.maneuver_declare(
        combat=combat, combatant=_get(combat, "Murador"), user=mestre, maneuver="move_and_attack"
    )
    server_dice(*dice)
    return combat_attack.attack_resolve(
        combat=combat,
        attacker=_get(combat, "Murador"),
        defender=_get(combat, RASTREADOR),
        user=mestre,
        attack=combat_specs.AttackSpec(weapon=0),
    )


def test_a_hit_on_a_jogadors_character_stops_before_the_defence_roll(hunt, mestre, server_dice):
    outcome = _murador_bites(hunt, mestre, server_dice)  # 10 against 12: a hit
    assert outcome.awaits_defence
    assert Roll.objects.count() == 1  # the attack roll only, in the chain
    me = _get(hunt, RASTREADOR)
    assert me.pending_defence["attacker_name"] == "Murador" and me.hp_lost == 0
    assert any("aguardando a defesa de Rastreador" in line for line in outcome.event.lines)


def test_a_miss_asks_nothing(hunt, mestre, server_dice):
    outcome = _murador_bites(hunt, mestre, server_dice, dice=(6, 6, 3))  # 15 against 12
    assert not outcome.awaits_defence and not _get(hunt, RASTREADOR).pending_defence


def test_the_mestres_page_says_it_awaits_and_the_jogadors_page_offers_each_answer(
    hunt, mestre, rastreadora, server_dice, client_for
):
    _murador_bites(hunt, mestre, server_dice)
    url = reverse("combat", kwargs={"code": hunt.scene.code})
    mestre_page = client_for(mestre).get(url).content.decode()
    assert "Aguardando a defesa de Rastreador de Uruk-Kalam" in mestre_page
    assert 'data-testid="defence-answers"' not in mestre_page
    page = client_for(rastreadora).get(url).content.decode()
    assert 'data-testid="defence-answers"' in page and "Não me defendo" in page
    assert "Esquiva" in page and "Aparar (Faca)" in page


def test_not_defending_keeps_the_aim_and_rolls_against_the_passive_defence(
    hunt, mestre, rastreadora, server_dice
):
    _rastreador_aims(hunt, mestre, rastreadora)
    _murador_bites(hunt, mestre, server_dice)
    server_dice(6, 6, 6, 1, 1)  # 18 against PD 1 fails; bite 2d = 2 cut, DR 1: 1 → 1
    event = combat_pending.defence_answer(
        combat=hunt, combatant=_get(hunt, RASTREADOR), user=rastreadora, answer="none"
    )
    me = _get(hunt, RASTREADOR)
    assert me.aim_turns == 1 and not me.pending_defence  # §4.3: only defending spoils it
    defence_roll = Roll.objects.get(details__event=str(event.code), details__step=5)
    assert defence_roll.effective_level == 1  # the jaqueta's PD alone
    assert event.data["hit"] and me.hp_lost == event.data["hp_lost"] > 0


def test_dodging_spoils_the_aim(hunt, mestre, rastreadora, server_dice):
    _rastreador_aims(hunt, mestre, rastreadora)
    _murador_bites(hunt, mestre, server_dice)
    server_dice(1, 1, 2)  # 4 always passes
    event = combat_pending.defence_answer(
        combat=hunt, combatant=_get(hunt, RASTREADOR), user=rastreadora, answer="dodge"
    )
    assert event.data["hit"] is False and _get(hunt, RASTREADOR).aim_turns == 0


def test_the_same_answer_twice_resolves_once(hunt, mestre, rastreadora, server_dice):
    _murador_bites(hunt, mestre, server_dice)
    server_dice(1, 1, 2)
    kwargs = dict(combatant=_get(hunt, RASTREADOR), user=rastreadora, answer="dodge")
    first = combat_pending.defence_answer(combat=hunt, request_key="k1", **kwargs)
    again = combat_pending.defence_answer(combat=hunt, request_key="k1", **kwargs)
    assert first.pk == again.pk and Roll.objects.count() == 2


def test_answering_when_nothing_waits_is_refused(hunt, rastreadora):
    with pytest.raises(ServiceError) as refused:
        combat_pending.defence_answer(
            combat=hunt, combatant=_get(hunt, RASTREADOR), user=rastreadora, answer="dodge"
        )
    assert refused.value.message == NO_DEFENCE_PENDING.format(name=RASTREADOR)


def test_only_his_jogador_answers(hunt, mestre, jogador, server_dice):
    _murador_bites(hunt, mestre, server_dice)
    for other in (jogador, mestre):
        with pytest.raises(ServiceError) as refused:
            combat_pending.defence_answer(
                combat=hunt, combatant=_get(hunt, RASTREADOR), user=other, answer="dodge"
            )
        assert refused.value.code == "forbidden"
        assert refused.value.message == ONLY_THE_PLAYER_ANSWERS.format(name=RASTREADOR)
    assert Roll.objects.count() == 1


def test_a_block_he_does_not_have_is_refused_and_rolls_nothing(
    hunt, mestre, rastreadora, server_dice
):
    _murador_bites(hunt, mestre, server_dice)
    with pytest.raises(ServiceError) as refused:
        combat_pending.defence_answer(
            combat=hunt, combatant=_get(hunt, RASTREADOR), user=rastreadora, answer="block"
        )
    assert refused.value.field == "defence"
    assert Roll.objects.count() == 1 and _get(hunt, RASTREADOR).pending_defence


def test_a_second_attack_his_turn_and_the_end_wait_for_his_answer(hunt, mestre, server_dice):
    _murador_bites(hunt, mestre, server_dice)
    with pytest.raises(ServiceError) as turn:
        combat_turns.combat_next_turn(combat=hunt, user=mestre)
    assert turn.value.message == TURN_WAITS_FOR_DEFENCE.format(name=RASTREADOR)
    with pytest.raises(ServiceError) as end:
        combat_services.combat_end(combat=hunt, user=mestre)
    assert end.value.message == END_WAITS_FOR_DEFENCE.format(name=RASTREADOR)
    assert DEFENCE_AWAITED  # a second attack on him is refused the same way (API test below)


def test_decidir_por_mim_goes_on_at_once(hunt, mestre, server_dice):
    Combatant.objects.filter(combat=hunt, name=RASTREADOR).update(
        standing_defence={"first": "dodge"}
    )
    outcome = _murador_bites(hunt, mestre, server_dice, dice=(3, 3, 4, 1, 1, 2))
    assert not outcome.awaits_defence and outcome.resolution.defended


def test_the_mestres_time_applies_when_the_combat_is_next_read(
    hunt, mestre, rastreadora, server_dice, client_for
):
    combat_pending.defence_wait_set(combat=hunt, user=mestre, minutes=5)
    _murador_bites(hunt, mestre, server_dice)
    me = _get(hunt, RASTREADOR)
    hunt.refresh_from_db()
    assert combat_pending.defences_overdue_apply(hunt) == 0  # five minutes not yet gone
    since = me.pending_defence["since"]
    me.pending_defence = {
        **me.pending_defence,
        "since": (datetime.fromisoformat(since) - timedelta(minutes=6)).isoformat(),
    }
    me.save(update_fields=["pending_defence"])
    server_dice(1, 1, 2)
    client_for(rastreadora).get(reverse("combat", kwargs={"code": hunt.scene.code}))
    event = hunt.events.filter(kind=CombatEvent.Kind.DEFENCE).latest("pk")
    assert any("prazo do Mestre" in line and "5 min" in line for line in event.lines)
    assert not _get(hunt, RASTREADOR).pending_defence


def test_the_mestres_time_takes_minutes_from_0_to_1440(hunt, mestre):
    for bad in (-1, 1441, True, "5"):
        with pytest.raises(ServiceError) as refused:
            combat_pending.defence_wait_set(combat=hunt, user=mestre, minutes=bad)
        assert refused.value.field == "minutes"
    assert Combat.objects.get(pk=hunt.pk).defence_wait_minutes is None


# --- the API -----------------------------------------------------------------------------------


def _answer(client, hunt, headers, key="", **body):
    me = _get(hunt, RASTREADOR)
    url = f"/api/v1/combats/{hunt.code}/combatants/{me.code}/defence/answer"
    if key:
        headers = {**headers, "HTTP_IDEMPOTENCY_KEY": key}
    return client.post(url, json.dumps(body), content_type="application/json", **headers)


def _bearer(user):
    from campaigns.auth import api_token_create

    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user)}"}


def test_the_api_shows_the_waiting_defence_and_takes_the_jogadors_answer(
    client, hunt, mestre, rastreadora, server_dice
):
    _murador_bites(hunt, mestre, server_dice)
    read = client.get(f"/api/v1/combats/{hunt.code}", **_bearer(mestre)).json()
    (waiting,) = read["pending_defences"]
    assert waiting["text"] == f"Aguardando a defesa de {RASTREADOR}."
    answers = {(o["answer"], o["parry_weapon"], o["retreat"]) for o in waiting["options"]}
    assert ("none", None, False) in answers and ("dodge", None, True) in answers
    server_dice(1, 1, 2)
    done = _answer(client, hunt, _bearer(rastreadora), key="a1", answer="parry", parry_weapon=KNIFE)
    assert done.status_code == 200, done.json()
    assert done.json()["hit"] is False and done.json()["combat"]["pending_defences"] == []
    assert [r["details"]["step"] for r in done.json()["rolls"]] == [5]


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"answer": "esquivar"}, 422, None),
        ({"answer": "dodge", "extra": 1}, 422, None),
        ({"answer": "dodge", "retreat": "sim"}, 422, None),
    ],
)
def test_the_api_refuses_a_bad_answer(
    client, hunt, mestre, rastreadora, server_dice, body, status, field
):
    _murador_bites(hunt, mestre, server_dice)
    refused = _answer(client, hunt, _bearer(rastreadora), **body)
    assert refused.status_code == status
    assert _get(hunt, RASTREADOR).pending_defence


def test_the_api_answers_403_to_another_jogador_and_409_when_nothing_waits(
    client, hunt, mestre, jogador, rastreadora, server_dice
):
    nothing = _answer(client, hunt, _bearer(rastreadora), answer="dodge")
    assert nothing.status_code == 409
    assert nothing.json()["detail"] == NO_DEFENCE_PENDING.format(name=RASTREADOR)
    _murador_bites(hunt, mestre, server_dice)
    other = _answer(client, hunt, _bearer(jogador), answer="dodge")
    assert other.status_code == 403
    assert _get(hunt, RASTREADOR).pending_defence


def test_the_api_refuses_a_second_attack_on_a_defender_who_has_not_answered(
    client, hunt, mestre, server_dice
):
    _murador_bites(hunt, mestre, server_dice)
    body = {
        "attacker": str(_get(hunt, "Murador").code),
        "defender": str(_get(hunt, RASTREADOR).code),
    }
    second = client.post(
        f"/api/v1/combats/{hunt.code}/attacks",
        json.dumps(body),
        content_type="application/json",
        **_bearer(mestre),
    )
    assert second.status_code == 409
    assert second.json()["detail"] == DEFENCE_AWAITED.format(name=RASTREADOR)


def test_the_mestre_sets_his_time_through_the_api(client, hunt, mestre, rastreadora):
    url = f"/api/v1/combats/{hunt.code}/defence-wait"
    done = client.put(
        url, json.dumps({"minutes": 10}), content_type="application/json", **_bearer(mestre)
    )
    assert done.status_code == 200 and done.json()["defence_wait_minutes"] == 10
    refused = client.put(
        url, json.dumps({"minutes": 10}), content_type="application/json", **_bearer(rastreadora)
    )
    assert refused.status_code == 403
    bad = client.put(
        url, json.dumps({"minutes": -3}), content_type="application/json", **_bearer(mestre)
    )
    assert bad.status_code == 422


def test_the_preview_says_the_attack_will_wait_for_the_jogador(hunt, mestre):
    from sessions.combat import acting as combat_acting
    from sessions.combat.messages import AWAITS_THE_PLAYER

    murador = _turn_of(hunt, mestre, "Murador")
    preview = combat_acting.combat_act(
        combat=hunt,
        combatant=murador,
        user=mestre,
        maneuver=combat_specs.ManeuverSpec(maneuver="move_and_attack"),
        attack=combat_specs.AttackSpec(weapon=0),
        defender=_get(hunt, RASTREADOR),
        dry_run=True,
    )
    assert AWAITS_THE_PLAYER.format(name=RASTREADOR) in preview.attack.notes
    assert preview.attack.rolled == ()  # nothing chosen for him


# --- «Turno inteiro»: the next step is the obvious one -----------------------------------------


def _act_default(client, scene) -> str:
    import re

    html = client.get(reverse("combat", kwargs={"code": scene.code})).content.decode()
    select = re.search(r'<select name="act-combatant".*?</select>', html, re.S).group(0)
    assert re.search(r'<details class="panel" data-testid="turn-act"[^>]* open>', html)
    return re.search(r'<option value="[^"]+" selected>([^<]+)</option>', select).group(1)


def test_turno_inteiro_is_open_and_defaults_to_the_next_once_the_current_cannot_act(
    hunt, mestre, client_for
):
    now = combat_state.current(Combat.objects.get(pk=hunt.pk))
    client = client_for(mestre)
    assert _act_default(client, hunt.scene).startswith(now.name)  # he has yet to choose
    Combatant.objects.filter(pk=now.pk).update(stunned=True)  # §5.2: no maneuver this turn
    assert "(próximo)" in _act_default(client, hunt.scene)
