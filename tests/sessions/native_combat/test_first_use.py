"""What a new user met running a sistema001 fight (an AI Mestre through MCP, a jogador on a
phone): each fix with the chapter's sentence it follows."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.confirm import CONFIRMED
from campaigns.errors import ServiceError
from sessions.native_combat import services
from tests.sessions.native_combat.conftest import SWORD, numbers


def _start(scene, people, server_dice, *faces, ogro=None):
    server_dice(*faces)
    return services.fight_start(
        scene=scene,
        user=people["mestre"],
        combatants=[
            {"name": "Aria", "numbers": numbers(mobilidade=6, side="jogadores", weapons=[SWORD])},
            {"name": "Ogro", "numbers": ogro or numbers(mobilidade=4, forca=10, pv=20)},
        ],
    )


def test_a_condition_the_fighter_is_immune_to_has_no_effect_and_is_not_in_force(
    client, scene, people, server_dice
):
    """«Imunidade a uma condição anula completamente seus efeitos mecânicos.»"""
    immune = numbers(mobilidade=4, pv=20, condition_immunities=["envenenado", "sangrando"])
    combat = _start(scene, people, server_dice, 3, 7, ogro=immune)  # Ogro 11, Aria 9
    ogro = combat.combatants.get(name="Ogro")
    event = services.fight_condition(
        combat=combat,
        user=people["mestre"],
        target=ogro,
        condition="sangrando",
        rounds=2,
        turn_damage=(2, "corte"),
    )
    assert "imune" in event.text and "fica Sangrando" not in " ".join(event.lines)
    assert any("imune" in line for line in event.lines)
    combat.refresh_from_db()
    view = services.fight_view(combat)
    row = next(r for r in view["order"] if r["name"] == "Ogro")
    assert row["conditions"] == []
    client.force_login(people["jogador"])
    page = client.get(reverse("combat", kwargs={"code": scene.code})).content.decode()
    assert "Sangrando —" not in page


def test_the_read_and_the_panel_show_what_each_fighter_resists_in_the_engines_words(
    client, scene, people, server_dice
):
    """«Resistência: o personagem sofre apenas metade do dano daquele tipo» — what a fighter
    resists, is vulnerable or immune to (damage types and conditions) and its damage reduction
    are in the read and on the panel, with the engine's labels (accents and all), and the log
    names a damage type by its label, never its key."""
    ogro = numbers(
        mobilidade=4,
        pv=20,
        resistances=["quimico"],
        vulnerabilities=["fogo"],
        immunities=["psiquico"],
        condition_resistances=["atordoado"],
        condition_vulnerabilities=["amedrontado"],
        condition_immunities=["envenenado"],
        mundane_immune=True,
        damage_reduction=2,
    )
    combat = _start(scene, people, server_dice, 3, 7, ogro=ogro)  # Ogro 11, Aria 9
    row = next(r for r in services.fight_view(combat)["order"] if r["name"] == "Ogro")
    said = [d["text"] for d in row["defences"]]
    assert said == [
        "Resistente a (dano): Químico",
        "Vulnerável a (dano): Fogo",
        "Imune a (dano): Psíquico",
        "Resistente às condições: Atordoado",
        "Vulnerável às condições: Amedrontado",
        "Imune às condições: Envenenado",
        "Imune a efeitos mundanos (sofre os mágicos)",
        "Redução de dano 2",
    ]
    aria = combat.combatants.get(name="Aria")
    assert (
        next(r for r in services.fight_view(combat)["order"] if r["id"] == str(aria.code))[
            "defences"
        ]
        == []
    )
    client.force_login(people["jogador"])
    page = client.get(reverse("combat", kwargs={"code": scene.code})).content.decode()
    assert "Resistente a (dano): Químico" in page and "Redução de dano 2" in page
    services.fight_condition(
        combat=combat,
        user=people["mestre"],
        target=aria,
        condition="envenenado",
        rounds=2,
        turn_damage=(3, "quimico"),
    )
    ogro_row = combat.combatants.get(name="Ogro")
    server_dice()
    event = services.fight_turn(
        combat=combat, user=people["mestre"], combatant=ogro_row, plan=None, actions=[]
    )
    text = " ".join(event.lines)
    assert "3 de químico" in text and "quimico" not in text


def _headers(user) -> dict:
    from campaigns.auth import api_token_create

    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user)}"}


def test_the_scene_lists_a_sistema001_fight_as_a_fight_and_the_gurps_api_points_to_it(
    client, scene, people, server_dice
):
    """The overview's `running` (the scene's trackers) says `kind: "fight"` with its round and
    turn for a fight its ruleset plays whole; the GURPS combat API, given its id, refuses
    naming fight_read and /api/v1/fights instead of failing on a GURPS column."""
    combat = _start(scene, people, server_dice, 3, 7)
    for user in ("mestre", "jogador"):
        trackers = client.get(
            f"/api/v1/scenes/{scene.code}/trackers", **_headers(people[user])
        ).json()
        assert [(t["kind"], t["id"], t["round"], t["turn"]) for t in trackers] == [
            ("fight", str(combat.code), 1, 1)
        ]
        answer = client.get(f"/api/v1/combats/{combat.code}", **_headers(people[user]))
        assert answer.status_code == 422, answer.json()
        said = answer.json()
        assert "Sistema 001" in said["detail"] and "fight_read" in said["detail"]
        assert f"/api/v1/fights/{combat.code}" in said["detail"]
    outsider = client.get(f"/api/v1/combats/{combat.code}")
    assert outsider.status_code == 401


def test_a_quebrar_under_the_full_action_plan_is_told_which_plan_to_use(scene, people, server_dice):
    """«Não é possível “converter” Ações, apenas escolher uma das opções.» — striking an object
    is an Ação de Execução: the refusal names plan "movimento_execucao"."""
    combat = _start(scene, people, server_dice, 3, 7)  # Ogro 11 acts first
    ogro = combat.combatants.get(name="Ogro")
    server_dice()
    with pytest.raises(ServiceError) as refused:
        services.fight_turn(
            combat=combat,
            user=people["mestre"],
            combatant=ogro,
            plan="completa",
            actions=[{"kind": "quebrar", "object": "objeto-1"}],
        )
    assert 'plan: "movimento_execucao"' in refused.value.message
    assert refused.value.field == "actions"


def test_the_damage_is_shown_with_its_formula(scene, people, server_dice):
    """«Dano de Arma Corpo a Corpo: 1 + Aumento de Dano da arma + Bônus de Força.» — the log
    says the sum the engine made before the resolution's steps and the final damage."""
    combat = _start(scene, people, server_dice, 7, 3)  # Aria 13 acts first
    aria = combat.combatants.get(name="Aria")
    ogro = combat.combatants.get(name="Ogro")
    server_dice(8, 2)  # Aria 8 + 6 = 14 against the Ogro's 2 + 4 = 6
    event = services.fight_turn(
        combat=combat,
        user=people["mestre"],
        combatant=aria,
        plan="movimento_execucao",
        actions=[{"kind": "ataque", "target": str(ogro.code), "weapon": "Espada"}],
    )
    lines = list(event.lines)
    formula = lines.index("Dano de Espada: 1 + Aumento 1 + Bônus de Força 1 = 3.")
    assert lines.index("Dano final: 3 PV.") > formula
    services.fight_object(
        combat=combat,
        user=people["mestre"],
        spec={"name": "Porta", "size": "medio", "structure": "simples", "hardness": "madeira_leve"},
    )
    server_dice()
    struck = services.fight_turn(
        combat=combat,
        user=people["mestre"],
        combatant=ogro,
        plan="movimento_execucao",
        actions=[{"kind": "quebrar", "object": "objeto-1"}],
    )
    assert any(
        "golpeia Porta" in x and "1 + Bônus de Força 2 = 3 de dano" in x for x in struck.lines
    )


def test_the_log_keeps_each_event_in_its_round_and_an_ending_before_the_turn(
    scene, people, server_dice
):
    """«termina imediatamente antes do turno que possui a mesma Iniciativa, após transcorrer a
    quantidade indicada de rodadas» — the ending is written before that turn begins; a turn's
    event is its own round's (not the next one's it passes to), and the Iniciativa is rolled
    for round 1."""
    from sessions.models import Roll

    combat = _start(scene, people, server_dice, 3, 7)  # Ogro 11, Aria 9
    assert {r.details["round"] for r in Roll.objects.filter(kind="iniciativa")} == {1}
    aria = combat.combatants.get(name="Aria")
    ogro = combat.combatants.get(name="Ogro")
    services.fight_condition(
        combat=combat, user=people["mestre"], target=aria, condition="amedrontado", rounds=1
    )
    server_dice()
    first = services.fight_turn(
        combat=combat, user=people["mestre"], combatant=ogro, plan=None, actions=[]
    )
    last = services.fight_turn(
        combat=combat, user=people["mestre"], combatant=aria, plan=None, actions=[]
    )
    assert (first.round, last.round) == (1, 1) and "rodada 1" in last.text
    lines = list(last.lines)
    assert (
        lines.index("Rodada 2.")
        < lines.index("Termina: Amedrontado em Aria.")
        < lines.index("Turno de Ogro (Iniciativa 11).")
    )
    combat.refresh_from_db()
    assert combat.round == 2


def test_a_sistema001_scene_offers_no_check_form_and_says_why(client, scene, people):
    """The chapter is combat only: the scene of a campaign on it offers the Mestre no roll of a
    check (GURPS's 3d6) and says in Portuguese that this system has no checks outside the
    fight; a check posted anyway is refused in Portuguese, never naming an internal part."""
    client.force_login(people["mestre"])
    url = reverse("scene", kwargs={"code": scene.code})
    page = client.get(url).content.decode()
    assert "Rolar 3d6 no servidor" not in page
    assert "não tem testes fora do combate" in page
    posted = client.post(
        reverse("roll-add", kwargs={"code": scene.code}),
        {"target": "custom", "label": "Escalar", "base_level": "12", "kind": "skill"},
    )
    text = posted.content.decode()
    assert "a parte «" not in text and "«checks»" not in text
    assert posted.status_code == 422 and "não tem testes fora do combate" in text


def test_a_sistema001_scene_offers_no_pv_form_and_says_why(client, scene, people):
    """No sheets, no state outside the fight: the scene offers no «PV e fadiga» panel (it could
    only be refused) and says where the PV change; a change posted anyway is refused in
    Portuguese."""
    client.force_login(people["mestre"])
    page = client.get(reverse("scene", kwargs={"code": scene.code})).content.decode()
    assert "PV e fadiga" not in page and 'name="state-hp"' not in page
    assert "não tem fichas de personagem: os PV mudam só no combate" in page
    posted = client.post(
        reverse("state-change-add", kwargs={"code": scene.code}),
        {"state-hp": "-2", "state-reason": "Queda", **CONFIRMED},
    )
    assert posted.status_code == 422
    assert "não tem fichas de personagem" in posted.content.decode()
