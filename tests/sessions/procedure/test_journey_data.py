"""The journey's data: the text's closed sets (seasons, regions, activities, ways of advancing),
each region's row in every table that names it, and the arithmetic the text gives (the weather's
drift, Tabela B's DC rising by 3, Tabela A's hexes, Tabela G's modifiers) — checked against the
text of sessao-do-mestre.txt. The weather never leaves the season's table."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from procedure import tables as procedure_data
from procedure.tables import ACTIVITIES, BY_KEY, MODES, REGIONS, SEASONS
from tests.gurps.helpers import PROCEDURE_PATH

TEXT = PROCEDURE_PATH.read_text(encoding="utf-8")
LINES = TEXT.split("\n")


def _rows(key):
    return [row.label for row in BY_KEY[key].rows]


def test_the_numbers_of_a_day_are_the_text_s():
    assert "1 dia tem 6 rodadas de viagem (4h/rodada)" in LINES
    assert (procedure_data.ROUNDS_PER_DAY, procedure_data.ROUND_HOURS) == (6, 4)
    assert "Personagens podem avançar por até 2 rodadas consecutivas sem penalidade." in LINES
    assert procedure_data.FREE_ADVANCE_ROUNDS == 2
    assert "o personagem deve descansar por 2 rodadas antes de realizar" in TEXT
    assert procedure_data.FORCED_MARCH_REST_ROUNDS == 2
    assert [procedure_data.FORCED_MARCH_FIRST, procedure_data.FORCED_MARCH_STEP] == _rows(
        "forced_march"
    )


def test_each_season_is_a_column_of_the_weather_table():
    header = next(line for line in LINES if line.startswith("Primavera\t"))
    assert [s.label for s in SEASONS] == header.split("\t")
    for season in SEASONS:
        assert BY_KEY[season.table].columns == (season.label,)


def test_the_activities_are_the_text_s_list():
    line = next(line for line in LINES if line.startswith("Avançar, Explorar"))
    for choice in ACTIVITIES:
        word = choice.label.split(" (")[0].removeprefix("Outra atividade")
        assert word in line or choice.key == "other"
    assert "outras atividades fora do escopo das regras" in line
    # Forragear/Caçar/Pescar: one value per column of Tabela E
    food = [c.table for c in ACTIVITIES if c.key in procedure_data.FOOD_ACTIVITIES]
    assert food == list(BY_KEY["forage_hunt_fish"].columns)


def test_the_ways_of_advancing_are_tabela_a_s_rows():
    assert [m.label for m in MODES] == _rows("travel_advance")


@pytest.mark.parametrize(
    ("attribute", "key", "part"),
    [
        ("encounter", "encounter_by_region", "rows"),
        ("losing", "losing_direction", "rows"),
        ("events", "events", "columns"),
        ("food", "forage_hunt_fish", "rows"),
        ("craft", "craft_ammunition", "rows"),
    ],
)
def test_each_region_has_its_row_in_each_table_and_each_row_a_region(attribute, key, part):
    labels = _rows(key) if part == "rows" else list(BY_KEY[key].columns)
    named = {getattr(region, attribute) for region in REGIONS}
    assert named == set(labels)
    for region in REGIONS:
        words = getattr(region, attribute)
        # the region's own word (or its plural, as the tables write them) is in its label
        stem = region.label.rstrip("s")[:5]
        assert stem in words, (region.key, words)


def test_the_weather_drift_reads_the_text_s_two_faces_and_nothing_else():
    drift = BY_KEY["weather_drift"]
    steps = [procedure_data.weather_step(row.cells[0]) for row in drift.rows]
    assert steps == [-1, 1, None]
    assert "1 – Diminua em 1 o clima" in LINES and "2 – Aumente em 1 o clima" in LINES


def test_the_ends_of_the_table_hold_the_weather():
    assert procedure_data.weather_after(1, -1) == (1, True)
    assert procedure_data.weather_after(6, 1) == (6, True)
    assert procedure_data.weather_after(3, -1) == (2, False)
    assert procedure_data.weather_after(3, None) == (3, False)


@given(
    season=st.sampled_from(SEASONS),
    start=st.integers(min_value=1, max_value=6),
    faces=st.lists(st.integers(min_value=1, max_value=6), max_size=60),
)
def test_the_weather_never_leaves_the_season_s_table(season, start, faces):
    table = BY_KEY[season.table]
    drift = BY_KEY["weather_drift"]
    row = start
    for face in faces:
        cell = next(r for r in drift.rows if r.low <= face <= r.high).cells[0]
        row, _ = procedure_data.weather_after(
            row, procedure_data.weather_step(cell), len(table.rows)
        )
        assert 1 <= row <= len(table.rows)
        label = next(r for r in table.rows if r.low == row).cells[0]
        assert f"{row}. {label}" in TEXT


def test_tabela_b_s_dc_rises_by_3_a_round():
    first, step = (row.cells[0] for row in BY_KEY["forced_march"].rows)
    assert [procedure_data.forced_march_dc(n, first, step) for n in (1, 2, 3, 4)] == [
        12,
        15,
        18,
        21,
    ]
    assert procedure_data.forced_march_dc(1, "doze", step) is None


def test_tabela_a_s_hexes_and_tabela_g_s_modifiers_are_read_from_their_cells():
    hexes = [procedure_data.hexes_per_round(r.cells[0]) for r in BY_KEY["travel_advance"].rows]
    assert hexes == [Fraction(1, 2), 1, 2]
    modifiers = [procedure_data.table_modifier(r.cells[0]) for r in BY_KEY["craft_ammunition"].rows]
    assert modifiers == [-6, -4, 0, 0, -10]
    assert procedure_data.hexes_per_round("meio") is None


def test_every_closed_set_says_its_labels():
    assert procedure_data.labels(MODES) == (
        "walking: Andando; mounted: Montado / Dirigindo; sailing: Navegando"
    )
