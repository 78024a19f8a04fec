"""The procedure engine (``procedure/``), no database: each test quotes the line of
``docs/canon/sessao-do-mestre.txt`` it holds the engine to."""

from __future__ import annotations

import ast
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from procedure import clock, dungeon, exhaustion, journey, supplies, tables, timers
from procedure.errors import BadDie, ProcedureError, UnknownChoice, UnknownTable
from procedure.rolling import signed
from tests.gurps.helpers import PROCEDURE_PATH

TEXT = PROCEDURE_PATH.read_text(encoding="utf-8")
ENGINE = Path(__file__).resolve().parents[2] / "procedure"


def quoted(line: str) -> str:
    """The line as the text writes it (the test fails if the text no longer says it)."""
    assert line in TEXT, line
    return line


# --- the engine is pure -------------------------------------------------------------------------


def test_the_engine_imports_only_the_standard_library_and_itself():
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top not in ("django", "gurps", "dice", "rulesets", "sessions"), (path, name)


# --- the clock ----------------------------------------------------------------------------------


def test_a_travel_round_is_4_hours_of_24_turns():
    quoted("1 dia tem 6 rodadas de viagem (4h/rodada)")
    assert (clock.ROUNDS_PER_DAY, clock.ROUND_HOURS) == (6, 4)
    assert clock.TRAVEL_ROUND_TURNS == 24
    quoted("Encontros aleatórios são testados a cada x turnos de exploração (10 min.)")
    assert clock.TURNS_PER_HOUR * clock.TURN_MINUTES == 60


def test_elapsed_counts_turns_rounds_and_sleep():
    assert clock.elapsed_minutes(3, 1, 8) == 3 * 10 + 4 * 60 + 8 * 60
    assert clock.elapsed_text(clock.elapsed_minutes(1, 0, 0)) == "0h10"


# --- tables -------------------------------------------------------------------------------------


def test_every_table_stands_under_a_heading_of_the_text():
    for table in tables.TABLES:
        assert table.source.split(":")[0].strip() in TEXT, table.key


def test_an_unknown_table_is_refused_in_portuguese():
    with pytest.raises(UnknownTable, match="Tabela do procedimento desconhecida: nada"):
        tables.table("nada")
    assert tables.table("make_camp").kind == tables.CHANCE


def test_die_sides():
    assert tables.die_sides("1d10") == 10
    with pytest.raises(BadDie, match="1dN"):
        tables.die_sides("2d6")
    assert issubclass(BadDie, ProcedureError)


def test_the_chance_reading():
    quoted("Em um resultado de 1:6, o encontro acontece, sempre no Fim do Turno.")
    assert tables.chance_threshold("1:6") == 1
    assert [tables.happens(face, 1) for face in range(1, 7)] == [True] + [False] * 5
    quoted("Mortal\t1:6 todo turno de exploração")
    assert tables.chance_every("1:6 todo turno de exploração") == 1
    quoted("Inseguro\t3:6 a cada 4 horas.")
    assert tables.chance_every("3:6 a cada 4 horas.") == 4


@given(st.integers(1, 6), st.integers(1, 6))
def test_a_chance_of_n_in_6_happens_on_exactly_n_faces(threshold, face):
    happened = [f for f in range(1, 7) if tables.happens(f, threshold)]
    assert len(happened) == threshold
    assert tables.happens(face, threshold) == (face in happened)


def test_every_rolled_table_of_the_text_covers_its_die():
    for table in tables.TABLES:
        if table.kind != tables.ROLL or not table.die:
            continue
        spans = [(row.low, row.high) for row in table.rows]
        for die in (table.die, *table.other_dice):
            assert tables.complete(spans, tables.die_sides(die)), (table.key, die)


@given(
    st.lists(st.integers(1, 20), min_size=1, max_size=6, unique=True).map(sorted),
    st.integers(-5, 5),
)
def test_a_total_off_the_table_is_one_no_row_holds(cuts, modifier):
    # Rows 1..c1, c1+1..c2, … cover 1..max(cuts); a die of max(cuts) with a modifier may leave.
    spans, low = [], 1
    for cut in cuts:
        spans.append((low, cut))
        low = cut + 1
    sides = cuts[-1]
    off = tables.total_off_table(spans, sides, modifier)
    totals = range(1 + modifier, sides + modifier + 1)
    if off is None:
        assert all(tables.row_index(spans, t) is not None for t in totals)
    else:
        assert tables.row_index(spans, off) is None
        assert off == next(t for t in totals if tables.row_index(spans, t) is None)


def test_rows_the_arbitro_adds():
    assert tables.row_range("7+") == (7, None)
    assert tables.inside_die(1, 2, 4) and not tables.inside_die(3, 5, 4)
    assert not tables.inside_die(3, 2, 6)
    assert tables.overlap([(1, 2), (3, None)], 4, 4, 6) == 1
    assert tables.overlap([(1, 2)], 3, None, 6) is None


# --- the journey --------------------------------------------------------------------------------


def test_the_journey_counts_its_rounds_and_days():
    assert journey.day_turns(0, 0) == (1, 1)
    assert journey.day_turns(1, 5) == (1, 6)
    assert journey.day_turns(1, 6) == (2, 1)
    assert journey.day_closes(6) and not journey.day_closes(5)


def test_forced_march():
    quoted("Personagens podem avançar por até 2 rodadas consecutivas sem penalidade.")
    assert not journey.advance_forced(2) and journey.advance_forced(3)
    quoted("1 rodada extra\t12")
    quoted("rodadas subsequentes\t+3")
    assert [journey.forced_march_dc(n, "12", "+3") for n in (1, 2, 3)] == [12, 15, 18]
    assert journey.forced_march_dc(1, "doze", "+3") is None


def test_the_weather_drifts_within_its_table():
    quoted("Role 1d6 cada Rodada de Exploração (4h) do dia.")
    assert journey.weather_step("Diminua em 1 o clima") == -1
    assert journey.weather_after(1, -1) == (1, True)
    assert journey.weather_after(3, None) == (3, False)


@given(st.integers(1, 6), st.one_of(st.none(), st.integers(-3, 3)))
def test_the_weather_stays_a_row_of_the_season(row, step):
    after, held = journey.weather_after(row, step)
    assert 1 <= after <= 6
    assert held == (step is not None and after != row + step)


def test_hexes():
    quoted("Andando\t1/2")
    assert journey.hexes_per_round("1/2") == Fraction(1, 2)
    assert journey.hexes_text(Fraction(11, 2)) == "5 1/2"
    assert journey.hexes_text(Fraction(1, 2)) == "1/2"


def test_a_choice_outside_its_set_is_refused_with_the_message():
    assert journey.choice("forest", journey.REGION_BY_KEY, "x").label == "Floresta"
    with pytest.raises(UnknownChoice, match="Estação"):
        journey.choice("monsoon", journey.SEASON_BY_KEY, "Estação do ano.")
    with pytest.raises(UnknownChoice):
        journey.choice(3, journey.SEASON_BY_KEY, "Estação do ano.")


# --- exhaustion ---------------------------------------------------------------------------------


def test_rest_recovers_one_point_not_below_zero():
    quoted("4. Recupera 1 de dano em cada atributo, 1 de sanidade e 1 de exaustão.")
    member = exhaustion.fresh_member()
    assert exhaustion.recover(member) == (0, 0)
    exhaustion.gain(member)
    assert exhaustion.gain(member) == 2
    assert exhaustion.recover(member) == (2, 1)


@given(st.integers(0, 50), st.integers(0, 60))
def test_exhaustion_never_goes_below_zero(gains, rests):
    member = exhaustion.fresh_member()
    for _ in range(gains):
        exhaustion.gain(member)
    for _ in range(rests):
        exhaustion.recover(member)
    assert member["exhaustion"] == max(0, gains - rests)


# --- the dungeon --------------------------------------------------------------------------------


def test_the_hour_without_rest():
    quoted(
        "A cada 1 hora de exploração, os personagens precisam descansar por um turno de "
        "exploração ou sofrer 1 ponto de exaustão."
    )
    count, points = 0, 0
    for _ in range(13):
        hour = dungeon.turn_ended(count, rested=False)
        count, points = hour.turns_since_rest, points + hour.exhausted
    assert points == 2 and count == 1  # the 7th and 13th turns without rest
    assert dungeon.turn_ended(6, rested=False).exhausted
    assert dungeon.turn_ended(5, rested=False).rest_next
    assert dungeon.turn_ended(5, rested=True) == dungeon.HourCount(0)
    assert dungeon.rest_due(6) and dungeon.turns_to_rest(4) == 2


def test_encounter_cadence():
    quoted("Arriscado\t1:6 a cada 2 turnos de exploração")
    assert [dungeon.check_due(n, 2) for n in (0, 1)] == [False, True]


def test_monster_arrival():
    quoted("1:3 Os monstros chegam na sala onde os personagens estão.")
    quoted("4:6 Os monstros chegam em uma sala adjacente.")
    assert [dungeon.arrival(t) for t in range(1, 7)] == ["room"] * 3 + ["adjacent"] * 3


def test_surprise():
    quoted(
        "Em um resultado de 2:6, o lado está surpreso. Caso os dois lados estejam, ninguém tem "
        "um turno de surpresa."
    )
    assert dungeon.surprise(True, True) == "nobody"
    assert dungeon.surprise(True, False) == "party"
    assert dungeon.surprise(False, True) == "monsters"
    assert dungeon.surprise(False, False) == "none"


def test_sleep():
    quoted(
        "Dormir por 8 horas em uma dungeon cheia de monstros é um processo extremamente difícil."
    )
    assert dungeon.sleep_checks(8, 2) == [2, 4, 6, 8]
    assert dungeon.sleep_checks(3, 4) == []
    assert dungeon.sleep_is_rest(8) and not dungeon.sleep_is_rest(7)
    for row in dungeon.MISHAP_TEST_ROWS:
        line = next(r for r in tables.table("dungeon_mishaps").rows if r.label == row)
        assert dungeon.MISHAP_ASKS in line.cells[0]


# --- timers and supplies ------------------------------------------------------------------------


def test_timers():
    assert timers.run_down(3, 24) == 0 and timers.run_down(30, 24) == 6
    assert timers.darkness_falls(True, False, False)
    assert not timers.darkness_falls(True, True, False)


def test_rest_consumes_ones_own_then_the_common_stock():
    quoted("2. Cada membro do grupo consome 1 unidade de comida e 1 de água.")
    stock = supplies.Stock(counts={supplies.COMMON: {**supplies.empty(), "food": 1}})
    assert stock.consume("Ana", "food", "x") == supplies.COMMON
    assert stock.consume("Ana", "food", "x") is None


@given(st.integers(0, 5), st.lists(st.integers(0, 4), min_size=1, max_size=4), st.integers(0, 12))
def test_losing_rations_takes_what_there_is_common_first(common, members, amount):
    names = [f"p{i}" for i in range(len(members))]
    counts = {supplies.COMMON: {**supplies.empty(), "food": common}}
    counts.update({n: {**supplies.empty(), "food": c} for n, c in zip(names, members, strict=True)})
    stock = supplies.Stock(counts=counts)
    lost = stock.lose(names, "food", amount, "Percalço 6")
    assert lost == min(amount, common + sum(members))
    assert stock.have(supplies.COMMON, "food") == max(0, common - amount)
    assert sum(-d for _, _, d, _ in stock.changes) == lost


def test_signed():
    assert [signed(2), signed(0), signed(-3)] == ["+2", "0", "\u22123"]
