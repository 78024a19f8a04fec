"""The journey: the hexcrawl half of the Mestre's session procedure. The season's weather rolled
at the start and drifted each round; days of six 4-hour rounds whose encounter chance is the
region the day began in; each activity's steps in the text's order, every die on the server
into the chain; the forced march and the day's rest counted; the text's tests of another game
shown with their pendência and resolved by the Mestre's GURPS roll."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from campaigns.errors import ServiceError
from procedure.tables import ACTIVITIES, BY_KEY, REGION_BY_KEY
from sessions.exploration import journey
from sessions.exploration import services as exploration_services
from sessions.log import chain
from sessions.log import services as log_services
from sessions.models import Exploration, ExplorationTest, Roll
from tests.gurps.helpers import ScriptedSource

JURADO, HOPLITA, RASTREADOR = "Jurado de Gapheim", "Hoplita de Ônfalos", "Rastreador de Uruk-Kalam"
PARTY = [JURADO, HOPLITA, RASTREADOR]


def begin(scene, mestre, server_dice, *, season="spring", face=4, region="plains"):
    """A descent with its journey begun: the initial weather comes up ``face``."""
    exploration = exploration_services.exploration_start(scene=scene, user=mestre, danger="unsafe")
    server_dice(face)
    journey.exploration_journey_start(
        exploration=exploration, user=mestre, season=season, region=region
    )
    exploration.refresh_from_db()
    return exploration


def travel(exploration, mestre, activity, **kwargs):
    event = journey.exploration_travel(
        exploration=exploration, user=mestre, activity=activity, **kwargs
    )
    exploration.refresh_from_db()
    return event


def cell(key, face, column=None):
    """What the text's table ``key`` says for ``face`` (in ``column``)."""
    table = BY_KEY[key]
    row = next(r for r in table.rows if r.low <= face and (r.high is None or face <= r.high))
    return row.cells[table.columns.index(column or table.columns[0])]


def gurps_roll(scene, mestre, character, faces, modifier=0):
    """The Mestre's GURPS test of ``character`` (HT, the level its sheet's), its 3d6 scripted,
    with the modifier the pendência's reading names for the text's DC, announced."""
    return log_services.roll_create(
        scene=scene,
        user=mestre,
        attribute="ht",
        character=scene.characters.get(name=character),
        modifiers=[log_services.Modifier("Tabela B (leitura)", modifier)] if modifier else (),
        source=ScriptedSource(faces),
    )


def test_the_journey_begins_with_the_season_s_weather(scene, mestre, server_dice):
    exploration = begin(scene, mestre, server_dice, season="winter", face=2)
    assert (exploration.season, exploration.weather) == ("winter", 2)
    assert exploration.weather_text == cell("weather_winter", 2) == "Congelante e com neve"
    assert exploration.party == {
        name: {"rested_today": False, "rest_owed": 0, "exhaustion": 0} for name in PARTY
    }
    roll = Roll.objects.get(scene=scene)
    assert roll.details["procedure_table"] == "weather_winter"


def test_a_round_rolls_the_weather_then_the_encounter_then_the_activity(scene, mestre, server_dice):
    exploration = begin(scene, mestre, server_dice)
    server_dice(1, 6, 8)  # drift 1 (diminua), encounter 6 (nothing), Tabela D 1d8 = 8
    event = travel(exploration, mestre, "explore")
    rolls = list(event.rolls.order_by("sequence"))
    assert [r.details["procedure_table"] for r in rolls] == [
        "weather_drift",
        "encounter_by_region",
        "events",
    ]
    assert exploration.weather == 3 and exploration.weather_text == cell("weather_spring", 3)
    assert rolls[2].details["die"] == "1d8"
    assert rolls[2].details["text"] == cell("events", 8, "Planície e Estepes")
    assert (exploration.day, exploration.day_round) == (1, 1)
    assert event.text == "Dia 1, rodada 1 de 6 (4 h): Explorar."
    assert chain.rolls_verify(scene.week.campaign).ok


# --- three days through each activity and each region -------------------------------------------


@dataclass(frozen=True)
class Die:
    """One die of a round as the text's table gives it: a rolled table (``column``) or a chance
    row (``row``, in ``column`` when the table has several)."""

    key: str
    face: int
    column: str | None = None
    row: str | None = None
    die: str = ""


def weather(face):
    return Die("weather_drift", face)


def meets(day_region, face):
    return Die("encounter_by_region", face, row=REGION_BY_KEY[day_region].encounter)


def lost(region, face):
    return Die("losing_direction", face, row=REGION_BY_KEY[region].losing)


def events(region, face, die="1d6"):
    return Die("events", face, column=REGION_BY_KEY[region].events, die=die)


def food(region, column, face):
    return Die("forage_hunt_fish", face, row=REGION_BY_KEY[region].food, column=column)


@dataclass(frozen=True)
class Leg:
    region: str
    activity: str
    dice: tuple[Die, ...]
    kwargs: dict = field(default_factory=dict)
    # (character, 3d6 faces) for each test the round asks, in the order asked
    tests: tuple[tuple[str, tuple[int, int, int]], ...] = ()


PASS, FAIL = (3, 3, 3), (6, 6, 5)  # HT 11 or 12: 9 passes, 17 fails
DAYS = (
    # Day 1 begins in Planície: its encounters are Estepe e Planície's, 1:6.
    Leg(
        "plains",
        "advance",
        (weather(1), meets("plains", 6), lost("plains", 6), events("plains", 3)),
        {"mode": "walking"},
    ),
    Leg("hills", "advance", (weather(2), meets("plains", 1), lost("hills", 2), events("hills", 2))),
    Leg(
        "forest",
        "advance",
        (weather(5), meets("plains", 6), lost("forest", 3), events("forest", 1)),
        tests=((JURADO, FAIL), (HOPLITA, PASS), (RASTREADOR, PASS)),
    ),
    Leg(
        "forest",
        "make_camp",
        (weather(3), meets("plains", 6), Die("make_camp", 2, row="Grupo")),
        {"per_character": {JURADO: "rest"}},
    ),
    Leg(
        "forest",
        "rest",
        (weather(4), meets("plains", 1)),
        tests=((JURADO, PASS), (HOPLITA, FAIL), (RASTREADOR, PASS)),
    ),
    Leg(
        "forest",
        "fish",
        (weather(6), meets("plains", 6), food("forest", "Pescar", 6), Die("accidents", 8)),
    ),
    # Day 2 begins in Floresta: Colinas, Florestas e Montanhas, 2:6.
    Leg("forest", "hunt", (weather(1), meets("forest", 3), food("forest", "Caçar", 4))),
    Leg(
        "forest",
        "forage",
        (weather(2), meets("forest", 2), food("forest", "Forragear", 6), Die("accidents", 6)),
    ),
    Leg("forest", "explore", (weather(6), meets("forest", 6), events("forest", 7, "1d8"))),
    Leg(
        "forest",
        "advance",
        (weather(6), meets("forest", 6), lost("forest", 6), events("forest", 5)),
        {"mode": "mounted"},
    ),
    Leg(
        "mountain",
        "craft",
        (weather(6), meets("forest", 6)),
        {"per_character": {HOPLITA: "other"}},
        tests=((JURADO, PASS), (RASTREADOR, FAIL)),
    ),
    Leg(
        "mountain",
        "other",
        (weather(6), meets("forest", 6), Die("camp_mishaps", 6), Die("camp_mishap_rations", 3)),
        {"per_character": {HOPLITA: "rest"}},
    ),
    # Day 3 begins in Montanha: Colinas, Florestas e Montanhas, 2:6.
    Leg(
        "mountain",
        "advance",
        (weather(1), meets("mountain", 6), lost("mountain", 1), events("mountain", 4)),
    ),
    Leg(
        "swamp", "advance", (weather(1), meets("mountain", 6), lost("swamp", 4), events("swamp", 2))
    ),
    Leg("swamp", "make_camp", (weather(2), meets("mountain", 6), Die("make_camp", 6, row="Grupo"))),
    Leg(
        "swamp",
        "rest",
        (
            weather(2),
            meets("mountain", 6),
            Die("camp_mishaps", 8),
            Die("camp_mishap_encounter", 2, row="8"),
        ),
        tests=((JURADO, PASS), (HOPLITA, PASS), (RASTREADOR, PASS)),
    ),
    Leg(
        "swamp", "advance", (weather(3), meets("mountain", 6), lost("swamp", 6), events("swamp", 6))
    ),
    Leg("steppe", "forage", (weather(4), meets("mountain", 6), food("steppe", "Forragear", 1))),
)


def threshold(die: Die) -> int:
    text = cell_of_row(die.key, die.row, die.column)
    return int(text.split(":")[0])


def cell_of_row(key, label, column=None):
    table = BY_KEY[key]
    row = next(r for r in table.rows if r.label == label)
    return row.cells[table.columns.index(column or table.columns[0])]


def check_against_the_text(roll: Roll, die: Die) -> None:
    details = roll.details
    assert details["procedure_table"] == die.key and roll.dice == [die.face]
    if die.row is not None:  # a chance: N:6, it happens on 1 to N
        assert details["row"] == die.row
        assert details["text"] == cell_of_row(die.key, die.row, die.column)
        assert details["happened"] is (die.face <= threshold(die))
    else:
        assert details["text"] == cell(die.key, die.face, die.column)
        if die.die:
            assert details["die"] == die.die


def drifted(row: int, face: int) -> int:
    """The text's drift: 1 lowers the weather a row, 2 raises it; the ends hold it."""
    return {1: max(1, row - 1), 2: min(6, row + 1)}.get(face, row)


def test_three_days_through_each_activity_and_each_region(scene, mestre, server_dice):
    exploration = begin(scene, mestre, server_dice, face=4)
    row = 4
    seen_regions, seen_activities = set(), set()
    for number, leg in enumerate(DAYS, start=1):
        server_dice(*[die.face for die in leg.dice])
        event = travel(exploration, mestre, leg.activity, region=leg.region, **leg.kwargs)
        rolls = list(event.rolls.order_by("sequence"))
        assert len(rolls) == len(leg.dice), (number, [r.details["procedure_table"] for r in rolls])
        for roll, die in zip(rolls, leg.dice, strict=True):
            check_against_the_text(roll, die)
        row = drifted(row, leg.dice[0].face)
        assert exploration.weather == row
        assert exploration.weather_text == cell("weather_spring", row)
        day, round_of_day = divmod(number - 1, 6)
        assert (exploration.day, exploration.day_round) == (day + 1, round_of_day + 1)
        assert event.data["day"] == day + 1 and event.data["round"] == round_of_day + 1
        asked = list(ExplorationTest.objects.filter(asked_in=event))
        faces_of = dict(leg.tests)
        assert sorted(t.character for t in asked) == sorted(faces_of)
        for test in asked:
            made = gurps_roll(scene, mestre, test.character, faces_of[test.character])
            journey.exploration_journey_test(
                exploration=exploration, user=mestre, test=test.code, roll=made.sequence
            )
        exploration.refresh_from_db()
        seen_regions.add(leg.region)
        seen_activities |= {leg.activity, *leg.kwargs.get("per_character", {}).values()}
        yield_checks(number, exploration, event)
    assert seen_regions == set(REGION_BY_KEY)
    assert seen_activities == {a.key for a in ACTIVITIES}
    # 3 rounds on foot (1/2), 4 mounted (1); lost in two of them (Tabela C: hills 2, mountain 1),
    # and «o grupo perdido não avança» (pendência procedure:lost)
    assert exploration.hexes == "4"
    assert exploration.travel_rounds == 18 and exploration.day == 3
    assert chain.rolls_verify(scene.week.campaign).ok


def yield_checks(number: int, exploration: Exploration, event) -> None:
    """What the text says each round leaves, checked where it shows."""
    party = exploration.party
    keys = {p["key"] for p in event.data["pendencies"]}
    if number == 1:
        assert "Tabela A (Andando): 1/2 hexágono(s); 1/2 na jornada." in " ".join(event.lines)
    if number == 2:
        assert event.data["encounter"] is True and "procedure:undefined-results" in keys
    if number == 3:
        assert exploration.advance_streak == 3
        assert "teste de CON DC 12" in " ".join(event.lines)
        assert {"procedure:forced-march-con", "procedure:forced-march-count"} <= keys
        assert party[JURADO]["rest_owed"] == 2 and party[HOPLITA]["rest_owed"] == 0
    if number == 4:
        assert exploration.camp_safe and exploration.advance_streak == 0
        assert party[JURADO]["rest_owed"] == 1 and "procedure:activities-per-player" in keys
    if number == 5:
        assert party[JURADO]["rest_owed"] == 0 and exploration.exhaustion_points == 0
        assert "procedure:rest-interruption" in keys
    if number == 6:
        assert "Fim do dia 1." in event.lines
        assert all(m["rested_today"] for m in party.values())  # day 1's, until day 2 opens
    if number == 7:
        assert exploration.day_region == "forest"
        assert [party[n]["rested_today"] for n in PARTY] == [False, False, False]
    if number == 8:
        assert "procedure:disadvantage-desv" in keys  # Tabela F 6: «DESV pelo próximo dia»
    if number == 10:
        assert not exploration.camp_safe and exploration.travel_mode == "mounted"
    if number == 11:
        lines = " ".join(event.lines)
        assert (
            f"{JURADO}: Criar — 1. O texto pede um Teste de DES modificado pela Tabela G: \u221210"
            in lines
        )
        assert "procedure:craft-ammunition-des" in keys
    if number == 12:
        assert "Percalço 6: 1d4" in " ".join(event.lines)
        assert [party[n]["exhaustion"] for n in PARTY] == [1, 0, 1]
        assert exploration.exhaustion_points == 2
    if number == 16:
        assert "procedure:camp-mishap-8-chance" in keys
        assert [party[n]["exhaustion"] for n in PARTY] == [0, 0, 0]
    if number == 18:
        assert exploration.day_region == "mountain" and exploration.hex_region == "steppe"


# --- the forced march, the day's rest ------------------------------------------------------------


def advance_round(exploration, mestre, server_dice, *, region="plains", **kwargs):
    """An Avançar round in which nothing happens: weather 6, encounter 6, not lost, Nada."""
    server_dice(6, 6, 6, 5)
    return travel(exploration, mestre, "advance", region=region, **kwargs)


def resolve(scene, mestre, exploration, event, faces_of):
    for test in ExplorationTest.objects.filter(asked_in=event):
        faces = faces_of.get(test.character, PASS)
        made = gurps_roll(scene, mestre, test.character, faces, test.modifier or 0)
        journey.exploration_journey_test(
            exploration=exploration, user=mestre, test=test.code, roll=made.sequence
        )
    exploration.refresh_from_db()


def test_a_forced_march_of_four_rounds(scene, mestre, server_dice):
    exploration = begin(scene, mestre, server_dice)
    first = advance_round(exploration, mestre, server_dice, mode="walking")
    second = advance_round(exploration, mestre, server_dice)
    assert not ExplorationTest.objects.exists()  # «até 2 rodadas consecutivas sem penalidade»
    assert "Forçando" not in " ".join(first.lines + second.lines)

    third = advance_round(exploration, mestre, server_dice)
    asked = ExplorationTest.objects.filter(asked_in=third)
    assert sorted(t.character for t in asked) == sorted(PARTY)
    assert {t.asks for t in asked} == {"teste de CON DC 12"}
    assert {t.pendency for t in asked} == {"procedure:forced-march-con"}
    with pytest.raises(ServiceError) as waiting:
        advance_round(exploration, mestre, server_dice)
    assert waiting.value.code == "tests_pending"
    resolve(scene, mestre, exploration, third, {JURADO: FAIL})
    assert exploration.party[JURADO]["rest_owed"] == 2

    fourth = advance_round(exploration, mestre, server_dice)
    assert {t.asks for t in ExplorationTest.objects.filter(asked_in=fourth)} == {
        "teste de CON DC 15"  # Tabela B: «rodadas subsequentes +3»
    }
    assert exploration.advance_streak == 4
    # the Jurado advanced instead of resting the 2 rounds he owed: the point of exhaustion
    assert exploration.party[JURADO] == {"rested_today": False, "rest_owed": 0, "exhaustion": 1}
    assert exploration.exhaustion_points == 1 and exploration.exhaustion_undecided == 1
    assert exploration_services.EXHAUSTION_PENDENCY in {p["key"] for p in fourth.data["pendencies"]}
    resolve(scene, mestre, exploration, fourth, {HOPLITA: FAIL})
    assert exploration.party[HOPLITA]["rest_owed"] == 2
    assert exploration.hexes == "2"  # four rounds on foot, 1/2 each

    # The Hoplita rests the two rounds she owes while the others explore: no point.
    server_dice(6, 6, 8, 4)  # weather, encounter, Tabela D 1d8 for the others, Tabela H (4: Nada)
    travel(exploration, mestre, "explore", per_character={HOPLITA: "rest"})
    assert exploration.advance_streak == 0 and exploration.party[HOPLITA]["rest_owed"] == 1
    server_dice(6, 6, 4)
    sixth = travel(exploration, mestre, "rest")
    assert exploration.party[HOPLITA]["rest_owed"] == 0
    # the day's sixth round: all rested today, so the day costs nothing more
    assert "Fim do dia 1." in sixth.lines and exploration.exhaustion_points == 1


def test_a_day_without_rest_costs_each_one_the_exhaustion_point(scene, mestre, server_dice):
    exploration = begin(scene, mestre, server_dice)
    for round_of_day in range(1, 6):
        server_dice(6, 6, 5)  # weather, encounter, Tabela D (1d8: Nada)
        event = travel(exploration, mestre, "explore", per_character={HOPLITA: "other"})
        assert exploration.exhaustion_points == 0, round_of_day
    server_dice(6, 6, 5, 4)  # the 6th round: the Rastreador rests (Tabela H 4: Nada)
    event = travel(exploration, mestre, "explore", per_character={RASTREADOR: "rest"})
    assert exploration.day_round == 6
    assert [exploration.party[n]["exhaustion"] for n in PARTY] == [1, 1, 0]
    assert exploration.exhaustion_points == 2 and exploration.exhaustion_undecided == 2
    lines = " ".join(event.lines)
    assert f"{JURADO}: 1 ponto de exaustão — «Cada dia sem realizar essa ação" in lines
    assert "Fim do dia 1." in event.lines
    # the Mestre chooses the GURPS consequence of each point, as in the dungeon
    exploration_services.exploration_consequence(
        exploration=exploration, user=mestre, text=f"{JURADO}: 1 ponto de Fadiga (§6.1)"
    )
    exploration.refresh_from_db()
    assert exploration.exhaustion_undecided == 1
    # the next round opens day 2, its region the hex it begins in
    server_dice(6, 6, 5)
    event = travel(exploration, mestre, "explore", region="swamp")
    assert (exploration.day, exploration.day_round, exploration.day_region) == (2, 1, "swamp")
    assert event.rolls.get(details__procedure_table="encounter_by_region").details["row"] == (
        "Pântano"
    )
    assert all(not m["rested_today"] for m in exploration.party.values())


def test_the_day_s_encounter_chance_is_the_region_it_began_in(scene, mestre, server_dice):
    exploration = begin(scene, mestre, server_dice, region="swamp")
    server_dice(6, 3, 6, 6)  # a swamp day: 3:6, so 3 is an encounter
    first = travel(exploration, mestre, "advance", mode="walking")
    assert first.data["encounter"] is True
    server_dice(6, 3, 6, 6)  # now in the steppe, but the day began in the swamp: still 3:6
    second = travel(exploration, mestre, "advance", region="steppe")
    encounter = second.rolls.get(details__procedure_table="encounter_by_region")
    assert encounter.details["row"] == "Pântano" and encounter.details["happened"] is True
    lost = second.rolls.get(details__procedure_table="losing_direction")
    assert lost.details["row"] == "Estepes"  # Tabela C reads the hex the party is in


# --- the weather ---------------------------------------------------------------------------------


@pytest.mark.parametrize("face", [3, 4, 5, 6])
def test_faces_3_to_6_keep_the_weather_and_name_the_pendency(scene, mestre, server_dice, face):
    exploration = begin(scene, mestre, server_dice, season="autumn", face=5)
    server_dice(face, 6, 5)
    event = travel(exploration, mestre, "explore", region="forest")
    assert (exploration.weather, exploration.weather_text) == (5, "Ameno e chuvoso")
    assert "procedure:weather-drift-3-6" in {p["key"] for p in event.data["pendencies"]}
    assert "O texto não diz o que acontece com este resultado." in event.lines[1]


def test_the_ends_of_the_season_s_table_hold_the_weather(scene, mestre, server_dice):
    exploration = begin(scene, mestre, server_dice, season="summer", face=6)
    server_dice(2, 6, 5)  # «Aumente em 1 o clima» at row 6
    event = travel(exploration, mestre, "explore", region="hills")
    assert exploration.weather == 6 and exploration.weather_text == "Sufocante e ensolarado"
    assert "já na ponta da tabela" in " ".join(event.lines)
    assert "procedure:weather-drift-edges" in {p["key"] for p in event.data["pendencies"]}


def test_what_the_arbitro_writes_in_the_tables_is_what_the_journey_applies(
    scene, mestre, arbitro, server_dice
):
    from sessions.procedure import services as procedure_services

    campaign = scene.week.campaign
    tables = {
        key: procedure_services.procedure_table(key, campaign)
        for key in ("weather_drift", "forced_march")
    }
    procedure_services.random_table_row_edit(
        row=tables["weather_drift"].rows.get(label="3-6"),
        user=arbitro,
        cells=["Aumente em 1 o clima"],
        reason="Decisão: com 3 a 6 o clima esquenta.",
    )
    procedure_services.random_table_row_edit(
        row=tables["forced_march"].rows.get(label="1 rodada extra"),
        user=arbitro,
        cells=["10"],
        reason="Decisão: a marcha forçada começa mais leve.",
    )
    exploration = begin(scene, mestre, server_dice, face=2)
    server_dice(4, 6, 6, 5)
    travel(exploration, mestre, "advance", mode="walking")
    assert exploration.weather == 3  # the Árbitro's 3-6 row, applied
    advance_round(exploration, mestre, server_dice)
    third = advance_round(exploration, mestre, server_dice)
    assert {t.asks for t in ExplorationTest.objects.filter(asked_in=third)} == {
        "teste de CON DC 10"
    }


def test_a_resolved_pendency_is_what_the_round_shows(scene, mestre, arbitro, server_dice):
    from canon import services as canon_services
    from canon.models import Divergence

    divergence = Divergence.objects.get(
        campaign=scene.week.campaign, source_key="procedure:forced-march-con"
    )
    canon_services.divergence_resolve(
        divergence=divergence, user=arbitro, resolution="Teste de HT, −1 por rodada extra."
    )
    exploration = begin(scene, mestre, server_dice)
    advance_round(exploration, mestre, server_dice, mode="walking")
    advance_round(exploration, mestre, server_dice)
    third = advance_round(exploration, mestre, server_dice)
    held = next(p for p in third.data["pendencies"] if p["key"] == "procedure:forced-march-con")
    assert held["status"] == "resolved"
    assert held["in_force"] == "Teste de HT, −1 por rodada extra."


# --- what is refused, and loses nothing ---------------------------------------------------------


def _refused(exploration, mestre, **kwargs):
    before = (Roll.objects.count(), exploration.revision)
    with pytest.raises(ServiceError) as error:
        journey.exploration_travel(exploration=exploration, user=mestre, **kwargs)
    exploration.refresh_from_db()
    assert (Roll.objects.count(), exploration.revision) == before
    return error.value


def test_a_round_without_a_region_is_refused_naming_region(scene, mestre, server_dice):
    exploration = exploration_services.exploration_start(scene=scene, user=mestre, danger="unsafe")
    server_dice(4)
    journey.exploration_journey_start(exploration=exploration, user=mestre, season="spring")
    exploration.refresh_from_db()
    error = _refused(exploration, mestre, activity="explore")
    assert (error.field, error.message) == ("region", journey.REGION_REQUIRED)
    error = _refused(exploration, mestre, activity="explore", region="Pântano")
    assert (error.field, error.message) == ("region", journey.REGION_UNKNOWN)


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        ({"activity": "swim"}, "activity", journey.ACTIVITY_UNKNOWN),
        ({"activity": ""}, "activity", journey.ACTIVITY_UNKNOWN),
        ({"activity": "advance"}, "mode", journey.MODE_REQUIRED),
        ({"activity": "advance", "mode": "flying"}, "mode", journey.MODE_UNKNOWN),
        (
            {"activity": "advance", "mode": "walking", "per_character": {JURADO: "rest"}},
            "per_character",
            journey.ADVANCE_TOGETHER,
        ),
        (
            {"activity": "rest", "per_character": {JURADO: "advance"}},
            "per_character",
            journey.ADVANCE_TOGETHER,
        ),
        (
            {"activity": "rest", "per_character": {"Ninguém": "craft"}},
            "per_character",
            journey.NOT_IN_PARTY.format(name="Ninguém"),
        ),
        (
            {"activity": "rest", "per_character": {JURADO: "nap"}},
            "per_character",
            journey.ACTIVITY_UNKNOWN,
        ),
    ],
)
def test_bad_input_names_the_field_and_rolls_nothing(
    scene, mestre, server_dice, kwargs, field, message
):
    exploration = begin(scene, mestre, server_dice)
    error = _refused(exploration, mestre, region="plains", **kwargs)
    assert (error.field, error.message) == (field, message)


def test_a_round_before_the_journey_asks_for_the_season(scene, mestre):
    exploration = exploration_services.exploration_start(scene=scene, user=mestre, danger="unsafe")
    error = _refused(exploration, mestre, activity="explore", region="plains")
    assert (error.field, error.code) == ("season", "journey_not_started")
    with pytest.raises(ServiceError) as bad:
        journey.exploration_journey_start(exploration=exploration, user=mestre, season="monsoon")
    assert (bad.value.field, bad.value.message) == ("season", journey.SEASON_UNKNOWN)


def test_the_journey_begins_once(scene, mestre, server_dice):
    exploration = begin(scene, mestre, server_dice)
    with pytest.raises(ServiceError) as error:
        journey.exploration_journey_start(exploration=exploration, user=mestre, season="winter")
    assert error.value.field == "season"


def test_a_round_waits_for_the_end_of_a_dungeon_turn(scene, mestre, server_dice):
    exploration = begin(scene, mestre, server_dice)
    server_dice(6)
    exploration_services.exploration_turn_start(exploration=exploration, user=mestre)
    exploration.refresh_from_db()
    error = _refused(exploration, mestre, activity="explore", region="plains")
    assert error.code == "turn_started"


def test_only_the_table_travels(scene, mestre, jogador, server_dice):
    exploration = begin(scene, mestre, server_dice)
    error = _refused(exploration, jogador, activity="explore", region="plains")
    assert error.code == "forbidden"


def test_the_same_round_twice_is_one_round(scene, mestre, server_dice):
    exploration = begin(scene, mestre, server_dice)
    server_dice(6, 6, 5)
    first = travel(exploration, mestre, "explore", region="plains", request_key="r1")
    again = travel(exploration, mestre, "explore", region="plains", request_key="r1")
    assert first.pk == again.pk and exploration.day_round == 1


# --- the text's tests, resolved by a GURPS roll --------------------------------------------------


def _forced(scene, mestre, server_dice):
    exploration = begin(scene, mestre, server_dice)
    advance_round(exploration, mestre, server_dice, mode="walking")
    advance_round(exploration, mestre, server_dice)
    third = advance_round(exploration, mestre, server_dice)
    return exploration, ExplorationTest.objects.filter(asked_in=third).get(character=JURADO)


def _test_refused(exploration, mestre, test, roll):
    with pytest.raises(ServiceError) as error:
        journey.exploration_journey_test(exploration=exploration, user=mestre, test=test, roll=roll)
    return error.value


def test_the_test_takes_a_gurps_test_of_this_scene_made_after_it_was_asked(
    scene, mestre, server_dice
):
    early = gurps_roll(scene, mestre, JURADO, PASS)  # before the text asked anything
    exploration, asked = _forced(scene, mestre, server_dice)
    table_roll = Roll.objects.filter(details__procedure_table="weather_drift").last()
    hoplita = gurps_roll(scene, mestre, HOPLITA, PASS)
    hidden = log_services.roll_create(
        scene=scene,
        user=mestre,
        attribute="ht",
        character=scene.characters.get(name=JURADO),
        hidden=True,
        source=ScriptedSource(PASS),
    )
    cases = [
        ("nonsense", 1, "test", journey.TEST_UNKNOWN),
        (asked.code, 0, "roll", journey.ROLL_BAD),
        (asked.code, 99_999, "roll", journey.ROLL_UNKNOWN.format(roll=99_999)),
        (asked.code, table_roll.sequence, "roll", None),
        (asked.code, hoplita.sequence, "roll", None),
        (asked.code, hidden.sequence, "roll", None),
        (asked.code, early.sequence, "roll", journey.ROLL_TOO_EARLY.format(roll=early.sequence)),
    ]
    for test, roll, where, message in cases:
        error = _test_refused(exploration, mestre, test, roll)
        assert error.field == where, (test, roll)
        if message:
            assert error.message == message
    made = gurps_roll(scene, mestre, JURADO, PASS)
    event = journey.exploration_journey_test(
        exploration=exploration, user=mestre, test=asked.code, roll=made.sequence
    )
    asked.refresh_from_db()
    assert (asked.passed, asked.roll_id, asked.resolved_in_id) == (True, made.pk, event.pk)
    assert list(event.rolls.all()) == [made]
    # a roll that names no character (the Mestre's, for whoever) resolves one test only
    anyone = log_services.roll_create(
        scene=scene,
        user=mestre,
        label="HT",
        base_level=12,
        kind="attribute",
        source=ScriptedSource(PASS),
    )
    first, second = ExplorationTest.objects.filter(asked_in=asked.asked_in, roll__isnull=True)
    journey.exploration_journey_test(
        exploration=exploration, user=mestre, test=first.code, roll=anyone.sequence
    )
    error = _test_refused(exploration, mestre, second.code, anyone.sequence)
    assert error.message == journey.ROLL_USED.format(roll=anyone.sequence)
    error = _test_refused(exploration, mestre, asked.code, made.sequence)
    assert error.field == "test"


def test_a_failed_rest_test_loses_the_recovery_and_a_passed_one_gives_it(
    scene, mestre, server_dice
):
    exploration = begin(scene, mestre, server_dice)
    exploration.party[JURADO]["exhaustion"] = 2
    exploration.party[HOPLITA]["exhaustion"] = 2
    exploration.save(update_fields=["party"])
    server_dice(6, 1, 5)  # an encounter (Planície 1:6) interrupts the rest; Tabela H 5
    event = travel(exploration, mestre, "rest", region="plains")
    assert {t.asks for t in ExplorationTest.objects.filter(asked_in=event)} == {
        "teste de CON DC 12"
    }
    assert exploration.party[JURADO]["exhaustion"] == 2  # the recovery waits for the test
    resolve(scene, mestre, exploration, event, {JURADO: PASS, HOPLITA: FAIL})
    assert exploration.party[JURADO]["exhaustion"] == 1
    assert exploration.party[HOPLITA]["exhaustion"] == 2
    assert all(m["rested_today"] for m in exploration.party.values())  # it still counts


def test_the_tally_counts_the_exploration_s_own_dice_only(scene, mestre, server_dice):
    exploration = begin(scene, mestre, server_dice)
    server_dice(6, 6, 5)
    travel(exploration, mestre, "explore", region="plains")
    for _ in range(3):  # the scene's own rolls while the descent is open: not its dice
        log_services.roll_create(
            scene=scene,
            user=mestre,
            label="Observação",
            base_level=12,
            kind="skill",
            source=ScriptedSource(PASS),
        )
    tally = exploration_services.exploration_tally(exploration)
    assert tally.dice == [("d6", 3), ("d8", 1)]  # initial weather, drift, encounter; Tabela D


def test_every_pendency_the_tracker_names_is_in_the_seed():
    from canon.seed import PROCEDURE_DIVERGENCES
    from sessions.exploration import activities

    seeded = {item.source_key for item in PROCEDURE_DIVERGENCES}
    named = {value for name, value in vars(activities).items() if name.startswith("P_")}
    named |= {key for _, key in activities.MENTIONS}
    named |= {exploration_services.EXHAUSTION_PENDENCY, exploration_services.SURPRISE_PENDENCY}
    assert named <= seeded, named - seeded
