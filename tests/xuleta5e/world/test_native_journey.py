"""The session procedure played natively in a Xuleta campaign (issue 22, item 6): the journey's
forced march, the interrupted rest's «teste de CON DC 12», exhaustion and the rest's benefits
rolled and applied by the site from each character's sheet and state, into the chain."""

from __future__ import annotations

from canon.models import Decision
from rulesets.xuleta5e import house
from sessions.exploration import journey, native, supplies
from sessions.exploration import services as exploration_services
from sessions.log import chain
from sessions.models import ExplorationTest, Roll
from sheets.ruleset_data import data_state, data_state_write

NOTHING = 6  # encounter (plains 1:6) and Tabela C (plains 2:6): a 6 is nothing
STAY = 3  # the weather's drift: 3–6 say nothing, it stays


def begin(scene, mestre, server_dice):
    exploration = exploration_services.exploration_start(scene=scene, user=mestre, danger="")
    server_dice(4)
    journey.exploration_journey_start(
        exploration=exploration, user=mestre, season="summer", region="plains"
    )
    exploration.refresh_from_db()
    return exploration


def travel(exploration, mestre, activity, **kwargs):
    event = journey.exploration_travel(
        exploration=exploration, user=mestre, activity=activity, **kwargs
    )
    exploration.refresh_from_db()
    return event


def advance(exploration, mestre, server_dice, *saves, mode="walking"):
    server_dice(STAY, NOTHING, *saves, NOTHING, 5)
    return travel(exploration, mestre, "advance", mode=mode)


def test_a_forced_march_rolls_each_sheet_s_con_save_per_extra_hour(
    scene, people, characters, server_dice, quote
):
    quote(
        "Marxa forçada: per cada hora de més, salvació de Constitució CD 10 + 1 per hora extra. "
        "Si falles, un nivell d'esgotament."
    )
    mestre = people["mestre"]
    exploration = begin(scene, mestre, server_dice)
    advance(exploration, mestre, server_dice)
    advance(exploration, mestre, server_dice)
    # The 3rd round: hours 9–12, DC 11, 12, 13, 14 for each, in the marching order.
    # Aina +4: 10 → 14 passes all four. Bru +1: 10, 5, 15, 2 → 11 ✓, 6 ✗, 16 ✓, 3 ✗.
    # Carme +4: 20s.
    event = advance(exploration, mestre, server_dice, 10, 10, 10, 10, 10, 5, 15, 2, 20, 20, 20, 20)
    saves = [r for r in event.rolls.order_by("sequence") if r.kind == "save"]
    assert [(r.character.name, r.effective_level, r.total, r.outcome) for r in saves[4:8]] == [
        ("Bru", 11, 11, Roll.Outcome.SUCCESS),
        ("Bru", 12, 6, Roll.Outcome.FAILURE),
        ("Bru", 13, 16, Roll.Outcome.SUCCESS),
        ("Bru", 14, 3, Roll.Outcome.FAILURE),
    ]
    assert len(saves) == 12 and all(r.details["ability"] == "con" for r in saves)
    assert data_state(characters["Bru"])["exhaustion"] == 2
    assert data_state(characters["Aina"])["exhaustion"] == 0
    assert (
        exploration.party["Bru"]["exhaustion"] == 2 and exploration.party["Bru"]["rest_owed"] == 0
    )
    tests = ExplorationTest.objects.filter(exploration=exploration)
    assert tests.count() == 12 and not tests.filter(roll__isnull=True).exists()
    assert tests.filter(passed=False, character="Bru").count() == 2
    assert any("Bru: esgotamento 0 → 2" in line for line in event.lines)
    assert any("Padrão até o Árbitro decidir" in line for line in event.lines)
    assert chain.rolls_verify(scene.week.campaign).ok
    # Nothing waits for the Mestre: the next round goes on.
    server_dice(STAY, NOTHING, 5)
    travel(exploration, mestre, "make_camp")


def test_exhaustion_gives_disadvantage_on_the_next_saves(scene, people, characters, server_dice):
    """«3 Desavantatge en tirades d'atac i salvacions»: Bru at 3 rolls two d20, the lower kept."""
    mestre = people["mestre"]
    state = data_state(characters["Bru"])
    data_state_write(character=characters["Bru"], data={**state, "exhaustion": 3})
    exploration = begin(scene, mestre, server_dice)
    advance(exploration, mestre, server_dice)
    advance(exploration, mestre, server_dice)
    # Bru: (18, 4) → 4 + 1 = 5 ✗ → level 4; then (20, 20) etc.
    event = advance(
        exploration,
        mestre,
        server_dice,
        *(20,) * 4,
        18, 4, 20, 20, 20, 20, 20, 20,
        *(20,) * 4,
    )  # fmt: skip
    bru = [r for r in event.rolls.all() if r.kind == "save" and r.character.name == "Bru"]
    assert bru[0].dice == [18, 4] and bru[0].details["edge"] == "disadvantage"
    assert bru[0].total == 5 and bru[0].outcome == Roll.Outcome.FAILURE
    assert data_state(characters["Bru"])["exhaustion"] == 4


def test_the_procedure_s_table_b_when_the_arbitro_decides_so(
    scene, campaign, people, characters, server_dice
):
    Decision.objects.create(
        campaign=campaign,
        number=1,
        title="Marcha forçada",
        text="Vale a Tabela B.",
        house_key="xuleta5e_marcha_forcada_procedimento",
    )
    mestre = people["mestre"]
    exploration = begin(scene, mestre, server_dice)
    advance(exploration, mestre, server_dice)
    advance(exploration, mestre, server_dice)
    # DC 12: Aina 8 + 4 ✓, Bru 10 + 1 ✗, Carme 7 + 4 ✗ (11).
    event = advance(exploration, mestre, server_dice, 8, 10, 7)
    assert [r.effective_level for r in event.rolls.all() if r.kind == "save"] == [12, 12, 12]
    assert exploration.party["Bru"]["rest_owed"] == 2
    assert exploration.party["Carme"]["rest_owed"] == 2
    assert exploration.party["Aina"]["rest_owed"] == 0
    assert any("Em vigor: marcha forçada pela Tabela B" in line for line in event.lines)


def test_an_interrupted_rest_rolls_con_dc_12_and_the_long_rest_follows(
    scene, people, characters, server_dice, quote
):
    quote("Recuperes tots els PC.")
    quote("En acabar un descans llarg baixes un nivell, si has menjat i begut.")
    mestre = people["mestre"]
    for name, lost in (("Aina", 10), ("Bru", 5), ("Carme", 0)):
        state = data_state(characters[name])
        data_state_write(
            character=characters[name],
            data={**state, "hp_lost": lost, "exhaustion": 1, "hit_dice_spent": 2},
        )
    exploration = begin(scene, mestre, server_dice)
    for kind in ("food", "water"):
        supplies.exploration_supply_adjust(
            exploration=exploration,
            user=mestre,
            holder="Aina",
            kind=kind,
            delta=1,
            reason="mochila",
        )
    exploration.refresh_from_db()
    server_dice(STAY, NOTHING, 5)
    travel(exploration, mestre, "make_camp")
    # Rest round: the camp is safe (no Tabela H) but an encounter comes (1 on the 1:6).
    # CON DC 12: Aina 8 + 4 ✓, Bru 10 + 1 ✗, Carme 12 + 4 ✓.
    server_dice(STAY, 1, 8, 10, 12)
    event = travel(exploration, mestre, "rest")
    saves = [r for r in event.rolls.all() if r.kind == "save"]
    assert [(r.character.name, r.effective_level, r.outcome) for r in saves] == [
        ("Aina", 12, Roll.Outcome.SUCCESS),
        ("Bru", 12, Roll.Outcome.FAILURE),
        ("Carme", 12, Roll.Outcome.SUCCESS),
    ]
    aina, bru = data_state(characters["Aina"]), data_state(characters["Bru"])
    assert aina["hp_lost"] == 0 and aina["hit_dice_spent"] == 1 and aina["exhaustion"] == 0
    assert aina["last_long_rest"] != ""
    assert bru["hp_lost"] == 5 and bru["exhaustion"] == 1  # no benefits
    carme = data_state(characters["Carme"])
    assert carme["exhaustion"] == 1  # rested, but did not eat and drink
    assert any("Bru não recebe os benefícios" in line for line in event.lines)
    assert not ExplorationTest.objects.filter(exploration=exploration, roll__isnull=True).exists()


def test_a_day_without_rest_is_a_level_of_exhaustion(scene, people, characters, server_dice):
    mestre = people["mestre"]
    exploration = begin(scene, mestre, server_dice)
    for _ in range(5):
        server_dice(STAY, NOTHING, 5)
        travel(exploration, mestre, "make_camp")
    server_dice(STAY, NOTHING, 5)
    event = travel(exploration, mestre, "make_camp")
    assert all(data_state(c)["exhaustion"] == 1 for c in characters.values())
    assert any("Aina: esgotamento 0 → 1" in line for line in event.lines)
    assert exploration.exhaustion_points == 0  # nothing waits for the Mestre's consequence


def test_house_settings_have_a_default_and_the_newest_decision_wins():
    found = house.answers([])
    assert {q: a.value for q, a in found.items()} == dict(house.DEFAULTS)
    assert all(a.default for a in found.values())
    found = house.answers(
        [
            {"key": "xuleta5e_descanso_procedimento", "decision": "Decisão 1"},
            {"key": "xuleta5e_descanso_xuleta", "decision": "Decisão 2"},
            {"key": "sistema001_teste_supera_nd", "decision": "Decisão 3"},
        ]
    )
    assert found[house.REST].value == house.XULETA and found[house.REST].decision == "Decisão 2"
    assert len(house.HOUSE_SETTINGS) == 6


def test_who_has_no_sheet_is_asked_and_the_mestre_s_roll_decides(
    scene, people, characters, server_dice
):
    """A marcher with no homologated sheet in the scene: the tracker asks his saves (one per
    extra hour) as tests; the Mestre's roll resolves each, a failure a level of exhaustion in
    the journey's count (the Mestre notes it on the sheet he keeps)."""
    mestre = people["mestre"]
    exploration = exploration_services.exploration_start(
        scene=scene, user=mestre, danger="", marching_order=["Aina", "Dídac"]
    )
    server_dice(4)
    journey.exploration_journey_start(
        exploration=exploration, user=mestre, season="summer", region="plains"
    )
    exploration.refresh_from_db()
    advance(exploration, mestre, server_dice)
    advance(exploration, mestre, server_dice)
    event = advance(exploration, mestre, server_dice, 20, 20, 20, 20)
    assert any("Dídac: sem ficha homologada na cena" in line for line in event.lines)
    open_tests = list(
        ExplorationTest.objects.filter(exploration=exploration, roll__isnull=True).order_by("pk")
    )
    assert [t.asks for t in open_tests] == [
        f"salvació de Constitució CD {dc}" for dc in (11, 12, 13, 14)
    ]
    made = chain.append_roll(
        campaign=scene.week.campaign,
        scene=scene,
        label="Salvació de Constitució CD 11 (Dídac)",
        kind="save",
        dice=[3],
        total=5,
        outcome=Roll.Outcome.FAILURE,
        margin=-6,
        rolled_by=mestre,
    )
    done = journey.exploration_journey_test(
        exploration=exploration, user=mestre, test=str(open_tests[0].code), roll=made.sequence
    )
    exploration.refresh_from_db()
    assert exploration.party["Dídac"]["exhaustion"] == 1
    assert any("Dídac: 1 nível(is) de esgotamento" in line for line in done.lines)


def test_the_tracker_page_shows_the_native_saves(client, scene, people, characters, server_dice):
    from django.urls import reverse

    mestre = people["mestre"]
    exploration = begin(scene, mestre, server_dice)
    advance(exploration, mestre, server_dice)
    advance(exploration, mestre, server_dice)
    advance(exploration, mestre, server_dice, *(20,) * 12)
    client.force_login(mestre)
    page = client.get(reverse("exploration", kwargs={"code": scene.code}))
    assert page.status_code == 200
    html = page.content.decode()
    assert "salvação de Constitució CD 14" in html and "Marxa forçada (§8.1)" in html


def test_crafting_rolls_each_dex_check_with_table_g(scene, people, characters, server_dice):
    """«Role um Teste de DES modificado pela Tabela G» (plains: −6); «O personagem cria munição
    igual ao resultado do teste»: the total, never fewer than 0."""
    mestre = people["mestre"]
    exploration = begin(scene, mestre, server_dice)
    server_dice(STAY, NOTHING, 15, 3, 20)  # DEX check +1: 10, −2, 15
    event = travel(exploration, mestre, "craft")
    checks = [r for r in event.rolls.order_by("sequence") if r.kind == "check"]
    assert [(r.character.name, r.total) for r in checks] == [
        ("Aina", 10),
        ("Bru", -2),
        ("Carme", 15),
    ]
    counts = supplies.supply_counts(exploration)
    assert [counts[n]["ammunition"] for n in ("Aina", "Bru", "Carme")] == [10, 0, 15]
    tests = ExplorationTest.objects.filter(exploration=exploration, kind="craft")
    assert tests.count() == 3 and not tests.filter(roll__isnull=True).exists()


def test_camp_mishaps_9_and_7_are_played_from_the_sheets(scene, people, characters, server_dice):
    """Tabela H 9: «Teste de DES DC 12 ou perde 1 item aleatório» — each one's Destresa save;
    Tabela H 7: «DESV nas próximas duas rodadas» — disadvantage on the procedure's saves."""
    mestre = people["mestre"]
    exploration = begin(scene, mestre, server_dice)
    server_dice(STAY, NOTHING, 9, 11, 5, 20)  # not safe: Tabela H 9; DEX save +1: 12, 6, 21
    event = travel(exploration, mestre, "rest")
    saves = [r for r in event.rolls.order_by("sequence") if r.kind == "save"]
    assert [(r.character.name, r.details["ability"], r.outcome) for r in saves] == [
        ("Aina", "dex", Roll.Outcome.SUCCESS),
        ("Bru", "dex", Roll.Outcome.FAILURE),
        ("Carme", "dex", Roll.Outcome.SUCCESS),
    ]
    assert any("Bru perde 1 item aleatório" in line for line in event.lines)
    server_dice(STAY, NOTHING, 7)
    travel(exploration, mestre, "rest")
    assert native.disadvantages_of(exploration, "Aina") == (
        "Percalço 7: DESV nas próximas duas rodadas",
    )


def test_a_new_journey_starts_from_and_adds_to_the_sheets_exhaustion(
    scene, people, characters, server_dice
):
    """One truth, ``CharacterState.data``: Bru's 2 levels of an earlier day are on his sheet;
    the journey shows them from its start and the forced march adds to them (2 → 4, not 0 → 2),
    even when the sheet changes during the round (a fight's write)."""
    bru = characters["Bru"]
    data_state_write(character=bru, data={**data_state(bru), "exhaustion": 2})
    mestre = people["mestre"]
    exploration = begin(scene, mestre, server_dice)
    levels = {row.name: row.level for row in exploration_services.exhaustion_levels(exploration)}
    assert levels == {"Aina": 0, "Bru": 2, "Carme": 0}
    advance(exploration, mestre, server_dice)
    advance(exploration, mestre, server_dice)
    event = advance(exploration, mestre, server_dice, 10, 10, 10, 10, 10, 5, 15, 2, 20, 20, 20, 20)
    assert any("Bru: esgotamento 2 → 4" in line for line in event.lines)
    assert data_state(bru)["exhaustion"] == 4
    levels = {row.name: row.level for row in exploration_services.exhaustion_levels(exploration)}
    assert levels["Bru"] == 4


def test_the_dead_make_no_forced_march_saves(scene, people, characters, server_dice):
    bru = characters["Bru"]
    data_state_write(character=bru, data={**data_state(bru), "dead": True})
    mestre = people["mestre"]
    exploration = begin(scene, mestre, server_dice)
    advance(exploration, mestre, server_dice)
    advance(exploration, mestre, server_dice)
    # Aina's four and Carme's four: none of Bru's.
    event = advance(exploration, mestre, server_dice, 10, 10, 10, 10, 20, 20, 20, 20)
    saves = [r for r in event.rolls.order_by("sequence") if r.kind == "save"]
    assert [r.character.name for r in saves] == ["Aina"] * 4 + ["Carme"] * 4
    assert any("Bru está morto: não faz salvação da marcha forçada." in x for x in event.lines)
    assert data_state(bru)["exhaustion"] == 0
