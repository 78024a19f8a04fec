"""The journey keeps its books (issue 25): food, water and ammunition as changes the
procedure's steps make («Cada membro do grupo consome 1 unidade de comida e 1 de água»), the
party lost that does not advance, the forced march's DC as an HT modifier the roll must carry,
the Árbitro's regional encounter table, the dungeon's sleep run as Descansar, the last light
out making it dark, and one exhaustion count per character. Each reading is a pendência."""

from __future__ import annotations

import pytest

from campaigns.errors import ServiceError
from sessions.exploration import journey, supplies
from sessions.exploration import services as exploration_services
from sessions.exploration.steps import DARKNESS_FELL, DARKNESS_LIFTED
from sessions.log import chain
from sessions.log import services as log_services
from sessions.models import (
    Exploration,
    ExplorationTest,
    RandomTableRowChange,
    StateChange,
)
from sessions.procedure import services as procedure_services
from tests.gurps.helpers import ScriptedSource

JURADO, HOPLITA, RASTREADOR = "Jurado de Gapheim", "Hoplita de Ônfalos", "Rastreador de Uruk-Kalam"
PARTY = [JURADO, HOPLITA, RASTREADOR]
PASS = (3, 3, 3)
NOTHING = 6  # weather: the drift's faces 3–6 say nothing; encounter: 6 never meets (1:6 … 3:6)


def begin(scene, mestre, server_dice, *, region="plains"):
    """A journey with no dungeon: «No início da sessão, role o clima inicial»; no danger level."""
    exploration = exploration_services.exploration_start(scene=scene, user=mestre, danger="")
    server_dice(4)
    journey.exploration_journey_start(
        exploration=exploration, user=mestre, season="spring", region=region
    )
    exploration.refresh_from_db()
    return exploration


def travel(exploration, mestre, activity, **kwargs):
    event = journey.exploration_travel(
        exploration=exploration, user=mestre, activity=activity, **kwargs
    )
    exploration.refresh_from_db()
    return event


def give(exploration, mestre, holder, kind, delta, reason="Compradas no Limiar"):
    return supplies.exploration_supply_adjust(
        exploration=exploration, user=mestre, holder=holder, kind=kind, delta=delta, reason=reason
    )


def counts(exploration):
    return supplies.supply_counts(exploration)


def keys(event) -> set[str]:
    return {p["key"] for p in event.data["pendencies"]}


def ht_roll(scene, mestre, character, faces=PASS, modifier=0):
    return log_services.roll_create(
        scene=scene,
        user=mestre,
        attribute="ht",
        character=scene.characters.get(name=character),
        modifiers=[log_services.Modifier("Tabela B (leitura)", modifier)] if modifier else (),
        source=ScriptedSource(faces),
    )


def resolve_all(scene, mestre, exploration, event):
    for test in ExplorationTest.objects.filter(asked_in=event):
        made = ht_roll(scene, mestre, test.character, PASS, test.modifier or 0)
        journey.exploration_journey_test(
            exploration=exploration, user=mestre, test=test.code, roll=made.sequence
        )
    exploration.refresh_from_db()


# --- a journey needs no dungeon -------------------------------------------------------------------


def test_a_journey_starts_without_a_danger_level_and_the_dungeon_asks_for_one(
    scene, mestre, server_dice
):
    exploration = begin(scene, mestre, server_dice)
    assert exploration.danger == "" and not exploration.in_dungeon
    with pytest.raises(ServiceError) as refused:
        exploration_services.exploration_turn_start(exploration=exploration, user=mestre)
    assert refused.value.message == exploration_services.NO_DANGER_FOR_THE_DUNGEON
    with pytest.raises(ServiceError):
        exploration_services.exploration_sleep(exploration=exploration, user=mestre)
    view = exploration_services.exploration_view(exploration)
    assert view.check_every == 0 and not view.check_due


# --- food and water ------------------------------------------------------------------------------


def test_resting_each_member_eats_his_own_then_the_common_stock_and_who_has_none_pays_the_canon(
    scene, mestre, server_dice
):
    exploration = begin(scene, mestre, server_dice)
    give(exploration, mestre, JURADO, "food", 2)
    give(exploration, mestre, JURADO, "water", 1)
    give(exploration, mestre, "", "water", 1)
    server_dice(NOTHING, NOTHING, 4)  # Tabela H 4: Nada
    event = travel(exploration, mestre, "rest")
    books = counts(exploration)
    # «Cada membro do grupo consome 1 unidade de comida e 1 de água.»
    assert books[JURADO]["food"] == 1 and books[JURADO]["water"] == 0
    assert books[supplies.COMMON]["water"] == 0  # the Hoplita drank the common stock's
    assert books[HOPLITA]["food"] == books[RASTREADOR]["water"] == 0
    # the text is silent; the reading is the canon's §6.1: «Refeição perdida» and «Sem água»
    assert "procedure:running-out" in keys(event)
    charged = {c.character.name: (c.hp, c.fatigue) for c in StateChange.objects.filter(scene=scene)}
    assert charged == {HOPLITA: (0, -1), RASTREADOR: (-1, -1)}
    assert any(RASTREADOR in line and "Sem água" in line for line in event.lines)


def test_a_found_forage_gives_each_searcher_food_and_water(scene, mestre, server_dice):
    exploration = begin(scene, mestre, server_dice, region="forest")
    server_dice(NOTHING, NOTHING, 1)  # Tabela E, Floresta, Forragear 5:6: found
    travel(exploration, mestre, "forage", region="forest")
    assert all(counts(exploration)[n]["food"] == 1 for n in PARTY)
    assert all(counts(exploration)[n]["water"] == 1 for n in PARTY)


def test_mishap_6_loses_its_1d4_rations_from_the_common_stock_first(scene, mestre, server_dice):
    exploration = begin(scene, mestre, server_dice)
    give(exploration, mestre, "", "food", 2)
    for name in PARTY:
        give(exploration, mestre, name, "food", 2)
        give(exploration, mestre, name, "water", 1)
    server_dice(NOTHING, NOTHING, 6, 3)  # Tabela H 6, its 1d4: 3
    event = travel(exploration, mestre, "rest")
    # «Perca 1d4 rações entre o grupo»: 2 from the stock, 1 from the first in the marching order
    books = counts(exploration)
    assert books[supplies.COMMON]["food"] == 0
    order = exploration.party_names
    assert [books[n]["food"] for n in order] == [0, 1, 1]  # then each eats one
    assert "3 perdida(s)" in " ".join(event.lines)


def test_the_mestre_adjusts_with_a_reason_and_cannot_take_what_is_not_there(
    scene, mestre, server_dice
):
    exploration = begin(scene, mestre, server_dice)
    give(exploration, mestre, HOPLITA, "ammunition", 12, "Flechas do arsenal")
    with pytest.raises(ServiceError) as refused:
        give(exploration, mestre, HOPLITA, "ammunition", -13)
    assert refused.value.field == "delta"
    for bad, field in (
        ({"holder": "Ninguém"}, "holder"),
        ({"kind": "gold"}, "kind"),
        ({"delta": 0}, "delta"),
        ({"reason": " "}, "reason"),
    ):
        args = {"holder": HOPLITA, "kind": "food", "delta": 1, "reason": "r", **bad}
        with pytest.raises(ServiceError) as refused:
            supplies.exploration_supply_adjust(exploration=exploration, user=mestre, **args)
        assert refused.value.field == field
    assert counts(exploration)[HOPLITA]["ammunition"] == 12


def test_criar_makes_ammunition_equal_to_the_test_s_margin(scene, mestre, server_dice):
    exploration = begin(scene, mestre, server_dice, region="forest")
    server_dice(NOTHING, NOTHING)
    event = travel(
        exploration,
        mestre,
        "craft",
        region="forest",
        per_character={HOPLITA: "other", RASTREADOR: "other"},
    )
    test = ExplorationTest.objects.get(asked_in=event)
    assert test.kind == "craft" and "Tabela G" in test.asks
    made = ht_roll(scene, mestre, JURADO, (3, 3, 3))
    journey.exploration_journey_test(
        exploration=exploration, user=mestre, test=test.code, roll=made.sequence
    )
    # «O personagem cria munição igual ao resultado do teste»: the margin of success
    assert counts(exploration)[JURADO]["ammunition"] == made.margin > 0


# --- lost ----------------------------------------------------------------------------------------


def test_the_party_lost_does_not_advance(scene, mestre, server_dice):
    exploration = begin(scene, mestre, server_dice)
    server_dice(NOTHING, NOTHING, 1, 5)  # Tabela C, Planície 2:6: 1 is lost; Tabela D 5
    event = travel(exploration, mestre, "advance", mode="walking")
    assert event.data["lost"] is True and exploration.hexes == "0"
    assert "procedure:lost" in keys(event)
    server_dice(NOTHING, NOTHING, 6, 5)
    travel(exploration, mestre, "advance")
    assert exploration.hexes == "1/2"  # «Andando 1/2», on course


# --- the forced march's DC as a GURPS modifier ----------------------------------------------------


def test_a_forced_march_at_dc_15_asks_ht_minus_1_and_refuses_a_roll_without_it(
    scene, mestre, server_dice
):
    exploration = begin(scene, mestre, server_dice)
    for _ in range(2):
        server_dice(NOTHING, NOTHING, 6, 5)
        travel(exploration, mestre, "advance", mode="walking")
    server_dice(NOTHING, NOTHING, 6, 5)
    third = travel(exploration, mestre, "advance")
    assert {t.modifier for t in ExplorationTest.objects.filter(asked_in=third)} == {0}  # DC 12
    resolve_all(scene, mestre, exploration, third)
    server_dice(NOTHING, NOTHING, 6, 5)
    fourth = travel(exploration, mestre, "advance")
    asked = ExplorationTest.objects.filter(asked_in=fourth)
    # Tabela B: «1 rodada extra 12», «rodadas subsequentes +3»
    assert {(t.asks, t.modifier) for t in asked} == {("teste de CON DC 15", -1)}
    assert "HT −1" in " ".join(fourth.lines)
    test = asked.get(character=JURADO)
    plain = ht_roll(scene, mestre, JURADO)
    with pytest.raises(ServiceError) as refused:
        journey.exploration_journey_test(
            exploration=exploration, user=mestre, test=test.code, roll=plain.sequence
        )
    assert refused.value.message == journey.ROLL_WITHOUT_MODIFIER.format(
        asks="teste de CON DC 15", roll=plain.sequence, modifier="−1"
    )
    carried = ht_roll(scene, mestre, JURADO, modifier=-1)
    journey.exploration_journey_test(
        exploration=exploration, user=mestre, test=test.code, roll=carried.sequence
    )
    assert ExplorationTest.objects.get(pk=test.pk).passed is True


# --- an interrupted rest, the Árbitro's regional table ------------------------------------------


def test_an_encounter_without_a_regional_table_says_so_and_interrupts_the_rest(
    scene, mestre, server_dice
):
    exploration = begin(scene, mestre, server_dice)
    server_dice(NOTHING, 1, 4)  # «Estepe e Planície: 1:6» meets; Tabela H 4
    event = travel(exploration, mestre, "rest")
    assert journey.NO_REGIONAL_TABLE.format(region="Planície") in event.lines
    assert journey.SURPRISE_OFFERED in event.lines
    # «Cada interrupção do descanso necessita um teste de CON DC 12»
    asked = ExplorationTest.objects.filter(asked_in=event)
    assert sorted(t.character for t in asked) == sorted(PARTY)
    assert {t.asks for t in asked} == {"teste de CON DC 12"}
    view = exploration_services.exploration_view(exploration)
    assert view.journey.encounter_now


def test_the_arbitro_s_regional_table_is_rolled_on_when_it_is_whole(
    scene, mestre, arbitro, server_dice
):
    campaign = scene.week.campaign
    table = procedure_services.random_table_add(
        campaign=campaign, user=arbitro, name="Encontros da Planície", die="1d6", region="plains"
    )
    procedure_services.random_table_row_add(
        table=table, user=arbitro, label="1-3", text="Lobos famintos", reason="Da campanha"
    )
    exploration = begin(scene, mestre, server_dice)
    server_dice(NOTHING, 1, 5, 5)  # meets; the table is not whole yet: no die on it; Tabela D
    half = travel(exploration, mestre, "explore")
    assert journey.REGIONAL_TABLE_INCOMPLETE.format(name=table.name, die="1d6") in half.lines
    procedure_services.random_table_row_add(
        table=table, user=arbitro, label="4-6", text="Peregrinos armados", reason="Da campanha"
    )
    server_dice(NOTHING, 1, 2, 5)  # meets; «role na Tabela de Encontros da Região atual»: 2
    event = travel(exploration, mestre, "explore")
    assert event.data["regional_table"] == "encontros-plains"
    assert any("Lobos famintos" in line for line in event.lines)
    history = RandomTableRowChange.objects.filter(row__table=table)
    assert sorted(c.new_cells[0] for c in history) == ["Lobos famintos", "Peregrinos armados"]
    assert all(c.old_cells == [] for c in history)
    assert chain.rolls_verify(campaign).ok


def test_only_the_arbitro_adds_tables_and_rows_only_to_his_own(scene, mestre, arbitro):
    campaign = scene.week.campaign
    with pytest.raises(ServiceError) as refused:
        procedure_services.random_table_add(campaign=campaign, user=mestre, name="Minha", die="1d6")
    assert refused.value.message == procedure_services.ONLY_THE_ARBITRO_EDITS
    seeded = procedure_services.procedure_table("camp_mishaps", campaign)
    with pytest.raises(ServiceError) as refused:
        procedure_services.random_table_row_add(
            table=seeded, user=arbitro, label="11", text="x", reason="y"
        )
    assert refused.value.message == procedure_services.ROW_ADD_ONLY_OWN
    own = procedure_services.random_table_add(
        campaign=campaign, user=arbitro, name="Encontros da Floresta", die="1d4", region="forest"
    )
    with pytest.raises(ServiceError) as refused:
        procedure_services.random_table_add(
            campaign=campaign, user=arbitro, name="Outra", die="1d4", region="forest"
        )
    assert refused.value.field == "region"
    procedure_services.random_table_row_add(
        table=own, user=arbitro, label="1-2", text="Javalis", reason="r"
    )
    for label, field in (("2-3", "label"), ("5", "label"), ("x", "label")):
        with pytest.raises(ServiceError) as refused:
            procedure_services.random_table_row_add(
                table=own, user=arbitro, label=label, text="t", reason="r"
            )
        assert refused.value.field == field


def test_percalco_10_points_to_the_disease_pendency(scene, mestre, server_dice):
    exploration = begin(scene, mestre, server_dice)
    server_dice(NOTHING, NOTHING, 10)  # «Roedores/pestes infestam. Doença.»
    event = travel(exploration, mestre, "rest")
    assert "procedure:disease" in keys(event)


# --- one exhaustion count per character -----------------------------------------------------------


def test_exhaustion_is_one_count_per_character_in_the_dungeon_and_the_journey(
    scene, mestre, server_dice
):
    exploration = exploration_services.exploration_start(scene=scene, user=mestre, danger="unsafe")
    server_dice(6, 6)  # Inseguro checks on turns 3 and 6: nothing
    for _ in range(7):  # «A cada 1 hora de exploração … ou sofrer 1 ponto de exaustão»
        exploration_services.exploration_turn_start(exploration=exploration, user=mestre)
        exploration_services.exploration_turn_end(exploration=exploration, user=mestre)
    exploration.refresh_from_db()
    view = exploration_services.exploration_view(exploration)
    assert [(x.name, x.level) for x in view.exhaustion] == [(n, 1) for n in exploration.party_names]
    assert {x.effect for x in view.exhaustion} == {"DESV em todas as rolagens"}  # Tabela I, 1
    assert (
        view.exhaustion_reading.key == "procedure:exhaustion-effects"
        and view.exhaustion_reading.code
    )
    server_dice(4)
    journey.exploration_journey_start(
        exploration=exploration, user=mestre, season="spring", region="plains"
    )
    server_dice(NOTHING, NOTHING, 4)
    travel(exploration, mestre, "rest")  # «Recupera … 1 de exaustão»
    view = exploration_services.exploration_view(exploration)
    assert {x.level for x in view.exhaustion} == {0}
    assert {m["exhaustion"] for _, m in view.journey.members} == {0}  # the same count


# --- the dungeon's sleep runs Descansar -----------------------------------------------------------


def test_a_quiet_dungeon_sleep_recovers_a_point_of_exhaustion(scene, mestre, server_dice):
    exploration = exploration_services.exploration_start(scene=scene, user=mestre, danger="unsafe")
    server_dice(6, 6)
    for _ in range(7):
        exploration_services.exploration_turn_start(exploration=exploration, user=mestre)
        exploration_services.exploration_turn_end(exploration=exploration, user=mestre)
    server_dice(1, 6, 6)  # Tabela B 1 (Nada); Tabela C, Inseguro «3:6 a cada 4 horas»: 2 checks
    event = exploration_services.exploration_sleep(exploration=exploration, user=mestre, hours=8)
    exploration.refresh_from_db()
    assert {exploration.party[n]["exhaustion"] for n in exploration.party_names} == {0}
    assert not ExplorationTest.objects.filter(asked_in=event).exists()
    assert any(line.startswith("Descansar — 2. Cada membro") for line in event.lines)


def test_dungeon_mishap_6_asks_each_one_the_test_for_the_benefits(scene, mestre, server_dice):
    exploration = exploration_services.exploration_start(scene=scene, user=mestre, danger="unsafe")
    server_dice(6, 6, 6)
    event = exploration_services.exploration_sleep(exploration=exploration, user=mestre, hours=8)
    asked = ExplorationTest.objects.filter(asked_in=event)
    # «Dormir na Dungeon não é nada confortável. Teste de CON DC 12 para ter os benefícios do
    # Descanso.»
    assert {(t.kind, t.asks) for t in asked} == {
        ("dungeon_rest", "Teste de CON DC 12 para ter os benefícios do Descanso")
    }
    assert sorted(t.character for t in asked) == sorted(exploration.party_names)
    assert "procedure:dungeon-mishaps-con-dc12" in keys(event)


def test_an_encounter_during_the_dungeon_sleep_interrupts_it(scene, mestre, server_dice):
    exploration = exploration_services.exploration_start(scene=scene, user=mestre, danger="unsafe")
    server_dice(1, 2, 6)  # Tabela B 1; at the 4th hour 2 (3:6: an encounter), at the 8th 6
    event = exploration_services.exploration_sleep(exploration=exploration, user=mestre, hours=8)
    assert event.data["interruptions"] == 1
    asked = ExplorationTest.objects.filter(asked_in=event)
    assert {(t.kind, t.asks) for t in asked} == {("rest", "teste de CON DC 12")}
    assert exploration_services.SURPRISE_OFFERED in event.lines
    resolve_all(scene, mestre, exploration, event)
    assert all(t.passed for t in ExplorationTest.objects.filter(asked_in=event))


# --- light and darkness --------------------------------------------------------------------------


def test_the_last_light_going_out_makes_it_total_darkness_and_a_new_one_lifts_it(
    scene, mestre, server_dice
):
    exploration = exploration_services.exploration_start(scene=scene, user=mestre, danger="unsafe")
    exploration_services.exploration_timer_add(
        exploration=exploration, user=mestre, name="Tocha", turns=2
    )
    events = []
    for _ in range(2):
        exploration_services.exploration_turn_start(exploration=exploration, user=mestre)
        events.append(
            exploration_services.exploration_turn_end(exploration=exploration, user=mestre)
        )
    exploration.refresh_from_db()
    # «Total escuridão sempre torna o nível de perigo Mortal.»
    assert DARKNESS_FELL in events[-1].lines and DARKNESS_FELL not in events[0].lines
    assert exploration.total_darkness and exploration.effective_danger == Exploration.Danger.DEADLY
    assert "procedure:darkness-lights" in keys(events[-1])
    exploration_services.exploration_timer_add(
        exploration=exploration, user=mestre, name="Lampião", turns=30
    )
    exploration.refresh_from_db()
    assert not exploration.total_darkness
    assert DARKNESS_LIFTED in exploration.events.order_by("-pk").first().lines
