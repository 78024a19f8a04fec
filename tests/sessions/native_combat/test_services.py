"""A sistema001 fight through the services: initiative, a turn, every die in the chain."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.errors import ServiceError
from sessions.log import chain
from sessions.models import Combat, Roll
from sessions.native_combat import services
from tests.sessions.native_combat.conftest import SWORD, numbers


def _start(scene, people, server_dice, *faces):
    server_dice(*faces)
    return services.fight_start(
        scene=scene,
        user=people["mestre"],
        combatants=[
            {"name": "Aria", "numbers": numbers(mobilidade=6, side="jogadores", weapons=[SWORD])},
            {"name": "Ogro", "numbers": numbers(mobilidade=4, forca=10, pv=20)},
        ],
    )


def test_the_fight_starts_with_everyones_initiative_rolled_by_the_server(
    scene, people, server_dice
):
    """«Iniciativa = Dado de Mobilidade + Mobilidade + Modificadores» — «Após todos rolarem a
    iniciativa, organize em ordem decrescente quem começa primeiro, do maior resultado ao
    menor.»"""
    combat = _start(scene, people, server_dice, 3, 7)
    view = services.fight_view(combat)
    assert [(r["name"], r["initiative"]) for r in view["order"]] == [("Ogro", 11), ("Aria", 9)]
    assert view["turn"]["name"] == "Ogro" and combat.round == 1
    rolls = list(Roll.objects.filter(campaign=scene.week.campaign).order_by("sequence"))
    assert [(r.kind, r.ruleset, r.dice) for r in rolls] == [
        ("iniciativa", "sistema001", [3]),
        ("iniciativa", "sistema001", [7]),
    ]
    assert chain.rolls_verify(scene.week.campaign).ok


def test_a_turn_attacks_and_the_server_rolls_the_defence(scene, people, server_dice):
    """«Ataque maior que a Defesa: o ataque acerta e causa dano total.» — «Dano de Arma Corpo a
    Corpo: 1 + Aumento de Dano da arma + Bônus de Força.»"""
    combat = _start(scene, people, server_dice, 7, 3)
    aria = combat.combatants.get(name="Aria")
    ogro = combat.combatants.get(name="Ogro")
    server_dice(8, 2)  # Aria's attack 8 + 6 = 14 against the Ogro's defence 2 + 4 = 6
    services.fight_turn(
        combat=combat,
        user=people["mestre"],
        combatant=aria,
        plan="movimento_execucao",
        actions=[{"kind": "ataque", "target": str(ogro.code), "weapon": "Espada"}],
    )
    ogro.refresh_from_db()
    assert ogro.hp_now == 20 - (1 + 1 + 1)  # 1 + aumento 1 + bônus de Força (5 → 1)
    combat.refresh_from_db()
    assert services.fight_view(combat)["turn"]["name"] == "Ogro"


def test_a_player_may_not_start_a_fight(scene, people, server_dice):
    with pytest.raises(ServiceError) as refused:
        services.fight_start(scene=scene, user=people["jogador"], combatants=[])
    assert refused.value.code == "forbidden"
    assert not Combat.objects.exists()


def test_the_scene_page_shows_the_order_pv_and_when_each_condition_ends(
    client, scene, people, server_dice
):
    """«Uma condição permanece ativa até que sua duração termine» — the panel says when."""
    combat = _start(scene, people, server_dice, 3, 7)
    ogro = combat.combatants.get(name="Ogro")
    services.fight_condition(
        combat=combat, user=people["mestre"], target=ogro, condition="amedrontado", rounds=2
    )
    client.force_login(people["jogador"])
    page = client.get(reverse("combat", kwargs={"code": scene.code}))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Sistema 001 (capítulo de combate)" in text
    assert "Amedrontado — termina imediatamente antes do turno de Iniciativa 11 da rodada 3" in text
    assert "11/20" not in text and "20/20" in text  # PV
    assert "Iniciativa de Ogro" in text  # the log


def test_a_gurps_combat_is_refused_in_a_sistema001_campaign(scene, people):
    from sessions.combat import services as gurps_services

    with pytest.raises(ServiceError) as refused:
        gurps_services.combat_start(scene=scene, user=people["mestre"])
    assert refused.value.code == "wrong_ruleset" and "fight_*" in refused.value.message


def test_the_registers_have_the_chapters_pendencias_and_slips(campaign):
    """«What the chapter cites and does not contain is not invented»: each reading an open
    pendência with its answer; the chapter's slips (the palisade's «35 × 1,5 = 70») as
    divergences; none of the GURPS canon's."""
    from canon.models import Divergence
    from sistema001.readings import READINGS, SLIPS

    found = Divergence.objects.filter(campaign=campaign)
    readings = found.filter(source_key__startswith="reading:sistema001:")
    assert readings.count() == len(READINGS)
    assert all(d.reading and d.status == Divergence.Status.OPEN for d in readings)
    slips = found.filter(source_key__startswith="slip:sistema001:")
    assert {d.source_key.rsplit(":", 1)[1] for d in slips} == {s.key for s in SLIPS}
    assert any("1,5" in d.side_a for d in slips)
    assert not found.filter(source_key__startswith="slip:4").exists()


def test_the_rules_page_of_a_sistema001_campaign_shows_the_chapters_tables(
    client, campaign, people
):
    client.force_login(people["jogador"])
    page = client.get(reverse("rules"), {"campanha": campaign.slug})
    assert page.status_code == 200
    text = page.content.decode()
    assert "Tabela de Dureza do Material" in text or "Dureza" in text
    assert "Lista de Condições" in text


def test_the_mcp_instructions_name_the_fight_tools_for_a_sistema001_campaign():
    from garganta_site.mcp import instructions_for

    said = instructions_for([("Ponte", "s001", "sistema001", "Sistema 001 (capítulo de combate)")])
    assert "fight_start" in said and "fight_turn" in said
    assert "fight_turn" not in instructions_for([("G", "g", "gurps3e", "GURPS")])


def test_a_poison_deals_what_the_mestre_says_at_each_start_of_turn(scene, people, server_dice):
    """«Envenenado: … o veneno define os efeitos sofridos, podendo causar perda recorrente de PV
    como dano de veneno» — the Mestre gives the poison's damage; the type's resistance applies:
    «qualquer regra, resistência ou imunidade relacionada a esse tipo de dano aplica-se
    normalmente»."""
    combat = _start(scene, people, server_dice, 3, 7)  # Ogro 11 acts first, then Aria 9
    aria = combat.combatants.get(name="Aria")
    ogro = combat.combatants.get(name="Ogro")
    services.fight_condition(
        combat=combat,
        user=people["mestre"],
        target=aria,
        condition="envenenado",
        rounds=2,
        turn_damage=(3, "quimico"),
    )
    server_dice()
    services.fight_turn(combat=combat, user=people["mestre"], combatant=ogro, plan=None, actions=[])
    aria.refresh_from_db()
    assert aria.hp_now == 10 - 3


def test_a_text_no_ruleset_reads_is_refused_in_portuguese_by_both():
    from rulesets.registry import dice_readable, rule_errors, ruleset_for

    dice_readable("2d8")  # the sistema001's common notation reads it
    with pytest.raises(rule_errors()) as refused:
        dice_readable("dois dados")
    assert "ilegível" in refused.value.message
    with pytest.raises(rule_errors()):
        ruleset_for("sistema001").dice.parse("dois dados")
