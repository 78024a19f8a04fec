"""The procedure's random tables: every row against the text of sessao-do-mestre.txt, the seed,
the server's rolls on them (chained, Mestre only, idempotent) and the Árbitro's row edits."""

from __future__ import annotations

import re

import pytest

from campaigns.errors import ServiceError
from garganta_site.founding import campaign_create
from procedure import tables as procedure_data
from procedure.tables import TABLES
from sessions.log import chain
from sessions.log import services as log_services
from sessions.models import RandomTable, RandomTableRow, RandomTableRowChange, Roll
from sessions.procedure import services as procedure_services
from tests.gurps.helpers import PROCEDURE_PATH, ScriptedSource

TEXT = PROCEDURE_PATH.read_text(encoding="utf-8")
LINES = TEXT.split("\n")

KEYS = {
    "weather_spring",
    "weather_summer",
    "weather_autumn",
    "weather_winter",
    "weather_drift",
    "encounter_by_region",
    "travel_advance",
    "forced_march",
    "losing_direction",
    "events",
    "forage_hunt_fish",
    "accidents",
    "craft_ammunition",
    "camp_mishaps",
    "camp_mishap_rations",
    "camp_mishap_encounter",
    "exhaustion",
    "panic",
    "affliction",
    "make_camp",
    "danger_levels",
    "dungeon_mishaps",
    "dungeon_rest",
    "surprise",
    "monster_arrival",
}


def _tab_blocks() -> list[tuple[int, list[list[str]]]]:
    """Every tab-separated block of the text: (line index of its header, its lines' cells)."""
    blocks, index = [], 0
    while index < len(LINES):
        if "\t" in LINES[index]:
            start, block = index, []
            while index < len(LINES) and "\t" in LINES[index]:
                block.append(LINES[index].split("\t"))
                index += 1
            blocks.append((start, block))
        else:
            index += 1
    return blocks


def _block_under(source: str) -> list[list[str]]:
    """The first tab-separated block after the line ``source``."""
    heading = LINES.index(source)
    return next(block for start, block in _tab_blocks() if start > heading)


def _after(source: str, line: str) -> bool:
    """``line`` is a whole line of the text, after the heading ``source``."""
    heading = LINES.index(source)
    return line in LINES[heading + 1 :]


# --- the data against the text ------------------------------------------------------------------


def test_every_table_the_issue_names_is_there_once():
    assert [t.key for t in TABLES].__len__() == len(KEYS)
    assert {t.key for t in TABLES} == KEYS


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.key)
def test_its_source_is_a_heading_line_of_the_text(table):
    assert table.source in LINES


@pytest.mark.parametrize("table", [t for t in TABLES if t.layout == "tab"], ids=lambda t: t.key)
def test_every_row_of_a_tabulated_table_is_the_text_s(table):
    header, *rows = _block_under(table.source)
    assert header == [table.header, *table.columns]
    assert rows == [[row.label, *row.cells] for row in table.rows]


@pytest.mark.parametrize("table", [t for t in TABLES if t.layout == "season"], ids=lambda t: t.key)
def test_every_row_of_a_season_column_is_the_text_s(table):
    header, *rows = _block_under(table.source)
    column = header.index(table.columns[0])
    assert [line[column] for line in rows] == [f"{row.label}. {row.cells[0]}" for row in table.rows]
    assert [(row.low, row.high) for row in table.rows] == [(n, n) for n in range(1, 7)]


def test_every_tab_separated_block_of_the_text_is_a_table():
    headers = {(t.header, *t.columns) for t in TABLES if t.layout == "tab"}
    seasons = tuple(t.columns[0] for t in TABLES if t.layout == "season")
    for _, (header, *_rows) in _tab_blocks():
        assert tuple(header) in headers or tuple(header) == seasons, header


def test_the_weather_drift_is_the_text_s_and_says_the_text_is_silent_on_3_to_6():
    table = procedure_data.BY_KEY["weather_drift"]
    for row in table.rows[:2]:
        assert _after(table.source, f"{row.label} – {row.cells[0]}")
    assert table.rows[2].label == "3-6"
    assert table.rows[2].cells == (procedure_data.SILENT,)
    assert not any(re.match(r"^[3-6] – ", line) for line in LINES)


def test_the_encounters_by_region_are_the_text_s():
    table = procedure_data.BY_KEY["encounter_by_region"]
    for row in table.rows:
        assert _after(table.source, f"{row.label}: {row.cells[0]}")
    heading = LINES.index(table.source)
    region_lines = [line for line in LINES[heading : heading + 12] if re.search(r": \d:6$", line)]
    assert len(region_lines) == len(table.rows)


def test_tabela_h_row_8_keeps_the_text_s_backslash():
    row = next(r for r in procedure_data.BY_KEY["camp_mishaps"].rows if r.label == "8")
    assert row.cells[0].endswith("Role 1d6. 3:6 \\| Encontro Aleatório.")
    assert "8\t" + row.cells[0] in LINES


def test_the_dice_rows_6_and_8_of_tabela_h_name_are_tables_of_their_own():
    rations = procedure_data.BY_KEY["camp_mishap_rations"]
    assert (rations.die, [r.label for r in rations.rows]) == ("1d4", ["1", "2", "3", "4"])
    assert "Perca 1d4 rações entre o grupo." in TEXT
    encounter = procedure_data.BY_KEY["camp_mishap_encounter"]
    assert encounter.rows[0].cells == ("3:6",)
    assert "Role 1d6. 3:6 \\| Encontro Aleatório." in TEXT
    for table in (rations, encounter):
        assert table.source == "Tabela H: Percalços"


def test_make_camp_is_the_text_s():
    table = procedure_data.BY_KEY["make_camp"]
    assert table.rows[0].cells == ("5:6",)
    assert _after(table.source, "1. Role 1d6. Em um resultado de 5:6 o grupo está seguro.")


def test_surprise_is_the_text_s():
    table = procedure_data.BY_KEY["surprise"]
    assert table.rows[0].cells == ("2:6",)
    heading = LINES.index("2. Ações dos Jogadores")
    assert "Em um resultado de 2:6, o lado está surpreso." in "\n".join(LINES[:heading])
    assert "Quando aplicável, cada lado rola 1d6 para conferir se está surpreso." in TEXT


def test_the_monsters_arrival_is_the_text_s():
    table = procedure_data.BY_KEY["monster_arrival"]
    for row in table.rows:
        assert _after(table.source, f"{row.label} {row.cells[0]}")
    assert [(row.low, row.high) for row in table.rows] == [(1, 3), (4, 6)]


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.key)
def test_a_die_named_in_the_header_is_the_table_s_die(table):
    named = re.findall(r"\((1d\d+)(?:-(1d\d+))?\)", table.header)
    if named:
        assert [d for d in named[0] if d] == [table.die, *table.other_dice]


@pytest.mark.parametrize("table", [t for t in TABLES if t.kind == "roll"], ids=lambda t: t.key)
def test_a_rolled_table_covers_every_face_of_its_dice_once(table):
    sides = max(int(d[2:]) for d in (table.die, *table.other_dice))
    for face in range(1, sides + 1):
        covering = [
            r
            for r in table.rows
            if r.low is not None and r.low <= face and (r.high is None or face <= r.high)
        ]
        assert len(covering) == 1, (table.key, face)


@pytest.mark.parametrize("table", [t for t in TABLES if t.kind == "chance"], ids=lambda t: t.key)
def test_every_cell_of_a_chance_table_reads_as_n_in_6(table):
    for row in table.rows:
        for cell in row.cells:
            assert procedure_data.chance_threshold(cell) in range(1, 7)


def test_the_panic_table_ranges_are_read_from_the_text():
    rows = procedure_data.BY_KEY["panic"].rows
    assert [(r.low, r.high, r.open_ended) for r in rows] == [
        (1, 1, False),
        (2, 4, False),
        (5, 7, False),
        (8, 10, False),
        (11, 13, False),
        (14, None, True),
    ]


# --- the seed -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_fresh_campaign_gets_every_table_and_every_row():
    campaign = campaign_create(slug="nova", name="Nova")
    tables = procedure_services.procedure_tables(campaign)
    assert [t.key for t in tables] == [t.key for t in TABLES]
    for data, table in zip(TABLES, tables, strict=True):
        assert (table.name, table.source, table.die, table.kind) == (
            data.name,
            data.source,
            data.die,
            data.kind,
        )
        assert table.columns == list(data.columns)
        assert [(r.label, r.low, r.high, r.cells) for r in table.rows.all()] == [
            (r.label, r.low, r.high, list(r.cells)) for r in data.rows
        ]


@pytest.mark.django_db
def test_the_seed_is_idempotent_and_keeps_the_arbitro_s_changes(demo, arbitro):
    row = procedure_services.procedure_table("accidents", demo).rows.get(label="9")
    procedure_services.random_table_row_edit(
        row=row, user=arbitro, cells=["Um lobo ataca."], reason="Fauna da Garganta."
    )
    assert procedure_services.procedure_tables_seed(campaign=demo) == 0
    assert RandomTable.objects.filter(campaign=demo).count() == len(TABLES)
    row.refresh_from_db()
    assert row.cells == ["Um lobo ataca."]


@pytest.mark.django_db
def test_the_seed_puts_back_a_missing_table(demo):
    RandomTable.objects.filter(campaign=demo, key="surprise").delete()
    assert procedure_services.procedure_tables_seed(campaign=demo) == 1
    assert procedure_services.procedure_table("surprise", demo).rows.count() == 1


# --- rolling ------------------------------------------------------------------------------------


def test_it_lands_on_the_row_of_the_die(scene, mestre):
    roll = procedure_services.procedure_roll(
        scene=scene, user=mestre, key="accidents", source=ScriptedSource([7])
    )
    assert roll.kind == Roll.Kind.TABLE
    assert roll.dice == [7] and roll.total == 7
    assert roll.details == {
        "procedure_table": "accidents",
        "die": "1d10",
        "column": "Acidentes",
        "modifier": 0,
        "row": "7",
        "text": "Sofre por carrapatos ou sanguessugas. 1 de dano por rodada até se livrar.",
        "source": "Tabela F: Acidentes",
        "document": "Sessão do Mestre",
        "face": 7,
    }
    assert chain.rolls_verify(scene.week.campaign).ok


def test_a_range_row_takes_every_face_in_it(scene, mestre):
    for face in (1, 5):
        roll = procedure_services.procedure_roll(
            scene=scene, user=mestre, key="dungeon_mishaps", source=ScriptedSource([face])
        )
        assert (roll.details["row"], roll.details["text"]) == ("1-5", "Nada")


def test_it_rolls_a_column_of_the_events_with_1d8_when_exploring(scene, mestre):
    roll = procedure_services.procedure_roll(
        scene=scene,
        user=mestre,
        key="events",
        column="Florestas e Pântanos",
        die="1d8",
        source=ScriptedSource([7]),
    )
    assert roll.details["row"] == "7"
    assert roll.details["text"] == "Peregrinos"
    assert roll.details["die"] == "1d8"
    assert roll.label == "Tabela D: Eventos — Florestas e Pântanos"


def test_the_events_default_to_1d6(scene, mestre):
    source = ScriptedSource([6])
    roll = procedure_services.procedure_roll(
        scene=scene, user=mestre, key="events", column="Colinas e Montanhas", source=source
    )
    assert roll.details["die"] == "1d6"
    assert roll.details["text"] == "Nada"


def test_a_table_of_several_columns_needs_one(scene, mestre):
    with pytest.raises(ServiceError) as refused:
        procedure_services.procedure_roll(scene=scene, user=mestre, key="events")
    assert refused.value.field == "column"


def test_it_refuses_an_unknown_die_column_or_table(scene, mestre):
    for kwargs, field in (
        ({"key": "accidents", "die": "1d6"}, "die"),
        ({"key": "accidents", "column": "Nada"}, "column"),
        ({"key": "no_such_table"}, "key"),
    ):
        with pytest.raises(ServiceError) as refused:
            procedure_services.procedure_roll(scene=scene, user=mestre, **kwargs)
        assert refused.value.field == field
    assert not Roll.objects.exists()


def test_a_reference_table_is_not_rolled(scene, mestre):
    for key in ("panic", "exhaustion", "travel_advance"):
        with pytest.raises(ServiceError) as refused:
            procedure_services.procedure_roll(scene=scene, user=mestre, key=key)
        assert refused.value.field == "key"


def test_the_modifier_moves_the_total_and_a_total_off_the_table_is_refused_before_the_die(
    scene, mestre
):
    # Tabela D: Eventos has rows 1–8; rolled on 1d6, +2 keeps every total (3–8) on the table.
    roll = procedure_services.procedure_roll(
        scene=scene,
        user=mestre,
        key="events",
        column="Planície e Estepes",
        modifier=2,
        source=ScriptedSource([3]),
    )
    assert (roll.total, roll.details["row"], roll.details["modifier"]) == (5, "5", 2)
    # Tabela H has rows 1–10 on 1d10: +1 could give 11, so nothing is rolled at all.
    before = Roll.objects.count()
    unused = ScriptedSource([10])
    with pytest.raises(ServiceError) as refused:
        procedure_services.procedure_roll(
            scene=scene, user=mestre, key="camp_mishaps", modifier=1, source=unused
        )
    assert refused.value.message == procedure_services.MODIFIER_LEAVES_THE_TABLE.format(
        name="Tabela H: Percalços", total=11, modifier="+1"
    )
    assert unused.values == [10] and Roll.objects.count() == before


def test_a_chance_happens_on_1_to_n(scene, mestre):
    for face, happened in ((1, True), (5, True), (6, False)):
        roll, result = procedure_services.procedure_chance(
            scene=scene,
            user=mestre,
            key="forage_hunt_fish",
            row_label="Floresta",
            column="Caçar",
            source=ScriptedSource([face]),
        )
        assert result is happened
        assert roll.details["threshold"] == 5
        assert roll.details["happened"] is happened
        assert roll.details["row"] == "Floresta"
        assert roll.details["column"] == "Caçar"
        assert roll.details["text"] == "5:6"
        assert roll.details["source"] == "Tabela E: Forragear/Caçar/Pescar"
    assert chain.rolls_verify(scene.week.campaign).ok


@pytest.mark.parametrize(
    ("key", "row", "threshold"),
    [
        ("encounter_by_region", "Pântano", 3),
        ("losing_direction", "Estepes", 1),
        ("make_camp", "Grupo", 5),
        ("surprise", "Cada lado", 2),
        ("danger_levels", "Arriscado", 1),
        ("dungeon_rest", "Mortal", 3),
    ],
)
def test_every_chance_table_reads_its_threshold(scene, mestre, key, row, threshold):
    hit, happened = procedure_services.procedure_chance(
        scene=scene, user=mestre, key=key, row_label=row, source=ScriptedSource([threshold])
    )
    miss, missed = procedure_services.procedure_chance(
        scene=scene, user=mestre, key=key, row_label=row, source=ScriptedSource([threshold + 1])
    )
    assert (happened, missed) == (True, False)
    assert hit.details["threshold"] == miss.details["threshold"] == threshold


def test_a_chance_needs_a_known_row_and_a_chance_table(scene, mestre):
    with pytest.raises(ServiceError) as refused:
        procedure_services.procedure_chance(
            scene=scene, user=mestre, key="make_camp", row_label="Nada"
        )
    assert refused.value.field == "row_label"
    with pytest.raises(ServiceError) as refused:
        procedure_services.procedure_chance(
            scene=scene, user=mestre, key="accidents", row_label="6"
        )
    assert refused.value.field == "key"
    with pytest.raises(ServiceError) as refused:
        procedure_services.procedure_roll(scene=scene, user=mestre, key="make_camp")
    assert refused.value.field == "key"


def test_a_jogador_is_refused(scene, jogador, outsider):
    for user in (jogador, outsider):
        with pytest.raises(ServiceError) as refused:
            procedure_services.procedure_roll(scene=scene, user=user, key="accidents")
        assert refused.value.code == "forbidden"
        with pytest.raises(ServiceError) as refused:
            procedure_services.procedure_chance(
                scene=scene, user=user, key="make_camp", row_label="Grupo"
            )
        assert refused.value.code == "forbidden"
    assert not Roll.objects.exists()


def test_the_arbitro_rolls_too(scene, arbitro):
    roll = procedure_services.procedure_roll(
        scene=scene, user=arbitro, key="affliction", source=ScriptedSource([1])
    )
    assert roll.details["text"].startswith("Fobia.")


def test_the_same_request_key_rolls_once(scene, mestre):
    first = procedure_services.procedure_roll(
        scene=scene, user=mestre, key="accidents", request_key="k1", source=ScriptedSource([9])
    )
    again = procedure_services.procedure_roll(
        scene=scene, user=mestre, key="accidents", request_key="k1", source=ScriptedSource([2])
    )
    assert again.pk == first.pk
    chance, happened = procedure_services.procedure_chance(
        scene=scene,
        user=mestre,
        key="make_camp",
        row_label="Grupo",
        request_key="k2",
        source=ScriptedSource([6]),
    )
    chance_again, happened_again = procedure_services.procedure_chance(
        scene=scene,
        user=mestre,
        key="make_camp",
        row_label="Grupo",
        request_key="k2",
        source=ScriptedSource([1]),
    )
    assert (chance_again.pk, happened_again) == (chance.pk, happened) == (chance.pk, False)
    assert Roll.objects.count() == 2


def test_a_request_key_reused_for_another_ask_is_a_conflict(scene, mestre):
    procedure_services.procedure_roll(
        scene=scene, user=mestre, key="accidents", request_key="k1", source=ScriptedSource([9])
    )
    with pytest.raises(ServiceError) as refused:
        procedure_services.procedure_roll(
            scene=scene, user=mestre, key="camp_mishaps", request_key="k1"
        )
    assert refused.value.code == "idempotency_conflict"


def test_a_closed_scene_takes_no_roll(scene, mestre):
    scene.status = scene.Status.CLOSED
    scene.save()
    with pytest.raises(ServiceError) as refused:
        procedure_services.procedure_roll(scene=scene, user=mestre, key="accidents")
    assert refused.value.code == "scene_closed"


def test_procedure_rolls_chain_with_the_other_rolls(scene, mestre, jurado):
    log_services.damage_roll_create(
        scene=scene, user=mestre, expression="1d", source=ScriptedSource([3])
    )
    procedure_services.procedure_roll(
        scene=scene, user=mestre, key="accidents", source=ScriptedSource([1])
    )
    procedure_services.procedure_chance(
        scene=scene, user=mestre, key="surprise", row_label="Cada lado", source=ScriptedSource([2])
    )
    report = chain.rolls_verify(scene.week.campaign)
    assert (report.ok, report.count) == (True, 3)
    assert list(Roll.objects.values_list("sequence", flat=True)) == [1, 2, 3]


# --- the Árbitro's changes ----------------------------------------------------------------------


def test_the_arbitro_s_row_edit_keeps_the_old_text(demo, scene, arbitro, mestre):
    row = procedure_services.procedure_table("accidents", demo).rows.get(label="9")
    change = procedure_services.random_table_row_edit(
        row=row,
        user=arbitro,
        cells=["É emboscado por 1 lobo da Garganta."],
        reason="Fauna do andar 3.",
    )
    assert change.old_cells == ["É emboscado por 1 predador (lobo, urso, pantera etc)"]
    assert change.new_cells == ["É emboscado por 1 lobo da Garganta."]
    assert (change.by, change.reason) == (arbitro, "Fauna do andar 3.")
    row.refresh_from_db()
    assert row.cells == ["É emboscado por 1 lobo da Garganta."]
    roll = procedure_services.procedure_roll(
        scene=scene, user=mestre, key="accidents", source=ScriptedSource([9])
    )
    assert roll.details["text"] == "É emboscado por 1 lobo da Garganta."
    with pytest.raises(PermissionError):
        change.save()
    with pytest.raises(PermissionError):
        change.delete()


def test_a_second_edit_keeps_both_old_texts(demo, arbitro):
    row = procedure_services.procedure_table("exhaustion", demo).rows.get(label="3")
    procedure_services.random_table_row_edit(row=row, user=arbitro, cells=["a"], reason="um")
    procedure_services.random_table_row_edit(row=row, user=arbitro, cells=["b"], reason="dois")
    changes = list(RandomTableRowChange.objects.filter(row=row))
    assert [(c.old_cells, c.new_cells) for c in changes] == [
        (["1d4 de dano de CON / dia"], ["a"]),
        (["a"], ["b"]),
    ]


def test_only_the_arbitro_edits_a_row(demo, mestre, jogador):
    row = procedure_services.procedure_table("accidents", demo).rows.get(label="9")
    for user in (mestre, jogador):
        with pytest.raises(ServiceError) as refused:
            procedure_services.random_table_row_edit(row=row, user=user, cells=["x"], reason="y")
        assert refused.value.message == procedure_services.ONLY_THE_ARBITRO_EDITS
    assert not RandomTableRowChange.objects.exists()


def test_a_row_edit_needs_a_reason_a_change_and_one_cell_per_column(demo, arbitro):
    table = procedure_services.procedure_table("events", demo)
    row = table.rows.get(label="1")
    for cells, reason, message in (
        (["a", "b", "c"], " ", procedure_services.ROW_EDIT_NEEDS_REASON),
        (list(row.cells), "r", procedure_services.ROW_EDIT_UNCHANGED),
        (["a"], "r", procedure_services.ROW_EDIT_CELLS.format(count=3)),
    ):
        with pytest.raises(ServiceError) as refused:
            procedure_services.random_table_row_edit(
                row=row, user=arbitro, cells=cells, reason=reason
            )
        assert refused.value.message == message
    assert RandomTableRow.objects.get(pk=row.pk).cells == list(row.cells)


def test_a_chance_cell_the_tracker_cannot_read_or_a_huge_cell_is_refused(demo, arbitro):
    row = procedure_services.procedure_table("danger_levels", demo).rows.get(label="Arriscado")
    for cells, message in (
        (["abc"], procedure_services.CELL_NOT_A_CHANCE.format(cell="abc")),
        (
            ["1:6 " + "x" * 3000],
            procedure_services.ROW_TEXT_TOO_LONG.format(limit=procedure_services.ROW_TEXT_MAX),
        ),
    ):
        with pytest.raises(ServiceError) as refused:
            procedure_services.random_table_row_edit(row=row, user=arbitro, cells=cells, reason="r")
        assert refused.value.message == message
    assert not RandomTableRowChange.objects.exists()


def test_a_chance_takes_no_modifier_on_the_panel(demo):
    from sessions.procedure.forms import CHANCE_TAKES_NO_MODIFIER
    from sessions.procedure.views import procedure_form

    form = procedure_form(
        demo,
        {
            "procedure-choice": "danger_levels|Encontros Aleatórios|Mortal|1d6",
            "procedure-modifier": "5",
        },
    )
    assert not form.is_valid()
    assert form.errors["modifier"] == [CHANCE_TAKES_NO_MODIFIER]
