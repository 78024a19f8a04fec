"""The rules pages (rules.views): /regras/, /regras/casa/, /regras/leituras/ and the
calculator at /regras/calculadora/.

The tables are read back from the rendered HTML with the standard library's parser and
compared with ``gurps.rulebook.all_tables()``; the calculator's numbers are the canon's,
read from the canon's own text where it prints them.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

from gurps.errors import (
    BAD_DAMAGE,
    DISTANCE_NOT_A_NUMBER,
    FALL_DR_OUTSIDE_CANON,
    FALL_HEIGHT_NOT_A_NUMBER,
    NEGATIVE_DISTANCE,
    NO_ROLL_AT_THREE_OR_LESS,
    RANGE_BEYOND_TABLE,
    ST_ABOVE_DAMAGE_TABLE,
    ST_TOO_LOW,
)
from gurps.house import HOUSE_SETTINGS
from gurps.readings import READINGS
from gurps.rulebook import all_tables
from tests.gurps.helpers import canon_section, canon_table
from tests.pins import SESSION_QUERIES
from tests.sheets.pages import content, text

URLS = {
    "rules": "/regras/",
    "rules-house": "/regras/casa/",
    "rules-readings": "/regras/leituras/",
    "rules-calculator": "/regras/calculadora/",
}
CALCULATOR = URLS["rules-calculator"]
OUTSIDE_CANON = "O cânone não tem este número"


class PageReader(HTMLParser):
    """Collects every element id, every ``<table data-table>`` as (columns, rows) of cell
    texts, and every link's href."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.hrefs: list[str] = []
        self.tables: dict[str, tuple[list[str], list[list[str]]]] = {}
        self._table: str | None = None
        self._row: list[str] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag == "a" and "href" in attrs:
            self.hrefs.append(attrs["href"])
        if tag == "table" and "data-table" in attrs:
            self._table = attrs["data-table"]
            self.tables[self._table] = ([], [])
        elif self._table and tag == "tr":
            self._row = []
        elif self._table and tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if not self._table:
            return
        if tag in ("td", "th") and self._cell is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            columns, rows = self.tables[self._table]
            if not columns:
                columns.extend(self._row)
            else:
                rows.append(self._row)
            self._row = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def read(html: str) -> PageReader:
    reader = PageReader()
    reader.feed(html)
    return reader


def field_errors(html: str, name: str) -> list[str]:
    """The error messages printed inside the field wrapper of the form field ``name``."""
    match = re.search(
        rf'<div class="field[^"]*" data-field="{re.escape(name)}">(.*?)</div>', html, re.S
    )
    assert match, f"no field {name!r} on the page"
    return [
        text(m) for m in re.findall(r'<span class="error"[^>]*>(.*?)</span>', match.group(1), re.S)
    ]


def result(html: str, calculator: str) -> str:
    """The text of a calculator's result panel."""
    match = re.search(rf'data-testid="result-{calculator}">(.*?)</section>', html, re.S)
    assert match, f"no result panel for {calculator!r}"
    return text(match.group(1))


def marked(html: str, name: str) -> str:
    match = re.search(rf'data-testid="{re.escape(name)}"[^>]*>(.*?)</', html, re.S)
    assert match, f"nothing marked {name!r}"
    return text(match.group(1))


def calculate(client, calculator: str, htmx: bool = True, **fields):
    data = {"calculadora": calculator, **{f"{calculator}-{k}": v for k, v in fields.items()}}
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(CALCULATOR, data, headers=headers)


# --- the pages: where they are, who reads them ---------------------------------------------------


@pytest.mark.parametrize(("name", "url"), URLS.items())
def test_each_page_is_where_the_site_links_it(name, url):
    assert reverse(name) == url


@pytest.mark.parametrize("url", URLS.values())
def test_it_requires_login(client, db, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response.url.startswith("/entrar/")


def test_the_calculator_requires_login_to_post(client, db):
    response = client.post(CALCULATOR, {"calculadora": "odds", "odds-level": "12"})
    assert response.status_code == 302
    assert response.url.startswith("/entrar/")


@pytest.mark.parametrize("url", URLS.values())
@pytest.mark.parametrize("username", ["jogador", "mestre", "arbitro"])
def test_it_works_for_every_member(client_for, django_user_model, demo, url, username):
    user = django_user_model.objects.get(username=username)
    assert client_for(user).get(url).status_code == 200


@pytest.mark.parametrize("url", URLS.values())
def test_rules_are_not_campaign_data_so_an_outsider_reads_them_too(client_for, outsider, url):
    assert client_for(outsider).get(url).status_code == 200


@pytest.mark.parametrize("url", [URLS["rules"], URLS["rules-house"], URLS["rules-readings"]])
def test_a_rules_page_reads_nothing_but_the_session_and_the_user(
    client_for, jogador, django_assert_num_queries, url
):
    client = client_for(jogador)
    with django_assert_num_queries(1 + SESSION_QUERIES):  # the user, and the session
        assert client.get(url).status_code == 200


# --- /regras/: every table of the engine -----------------------------------------------------------


@pytest.fixture
def index(client_for, jogador) -> str:
    return content(client_for(jogador).get(URLS["rules"]))


@pytest.mark.parametrize("table", all_tables(), ids=lambda table: table.key)
def test_the_index_shows_exactly_each_tables_columns_and_rows(index, table):
    shown = read(index).tables
    assert table.key in shown, f"table {table.key!r} is not on /regras/"
    columns, rows = shown[table.key]
    assert columns == [" ".join(c.split()) for c in table.columns]
    # `06` (a canon document) is shown as code, not as raw backticks.
    assert rows == [[" ".join(cell.replace("`", "").split()) for cell in row] for row in table.rows]


def test_the_index_shows_every_table_and_nothing_else(index):
    assert set(read(index).tables) == {table.key for table in all_tables()}


@pytest.mark.parametrize("table", all_tables(), ids=lambda table: table.key)
def test_each_table_has_its_anchor_and_its_sections_anchor(index, table):
    ids = read(index).ids
    assert f"tabela-{table.key}" in ids
    assert "secao-" + re.sub(r"[^0-9a-z]+", "-", table.section.lower()).strip("-") in ids


def test_every_canon_section_has_an_anchor_even_without_a_table(index):
    ids = set(read(index).ids)
    for section in ("1.3", "2.1", "4.6", "4.7", "5.4.1", "5b", "6.2", "7.3", "8"):
        assert "secao-" + section.replace(".", "-") in ids


def test_anchors_are_unique(index):
    ids = read(index).ids
    assert len(ids) == len(set(ids))


def test_the_table_of_contents_links_only_to_anchors_on_the_page(index):
    reader = read(index)
    local = [href[1:] for href in reader.hrefs if href.startswith("#")]
    assert local
    assert set(local) <= set(reader.ids)


def _card(html: str, key: str) -> str:
    match = re.search(
        rf'<article class="canon-table-card" id="tabela-{key}">(.*?)</article>', html, re.S
    )
    assert match, f"no card for {key!r}"
    return text(re.sub(r"</?code>", "", match.group(1)))  # `17` is shown as <code>17</code>


def test_each_table_cites_its_book_page(index):
    assert "MB pág. 73–74" in _card(index, "basic_damage")
    assert "MB pág. 76" in _card(index, "encumbrance")
    assert "MB pág. 86, 202" in _card(index, "critical")
    assert "MAGIA pág. 11" in _card(index, "missile_spells")


@pytest.mark.parametrize(
    "table", [t for t in all_tables() if t.decided], ids=lambda table: table.key
)
def test_a_house_table_says_when_it_was_decided(index, table):
    assert f"regra da casa, decidida em {table.decided}" in _card(index, table.key)


@pytest.mark.parametrize(
    "table", [t for t in all_tables() if not t.decided], ids=lambda table: table.key
)
def test_a_book_table_has_no_house_badge(index, table):
    assert "regra da casa" not in _card(index, table.key)


@pytest.mark.parametrize(
    "table", [t for t in all_tables() if t.note or t.notes], ids=lambda table: table.key
)
def test_each_table_shows_its_notes(index, table):
    card = _card(index, table.key)
    for note in ((table.note,) if table.note else ()) + table.notes:
        assert " ".join(note.replace("`", "").split()) in card


def test_the_tables_are_grouped_by_the_canons_chapters(index):
    html = index
    first_chapter = html.index('id="capitulo-1"')
    fourth_chapter = html.index('id="capitulo-4"')
    assert first_chapter < html.index('id="tabela-odds"') < fourth_chapter
    assert fourth_chapter < html.index('id="tabela-basic_damage"')
    assert "1. A rolagem" in text(html)
    assert "4. Combate" in text(html)


# --- /regras/casa/ and /regras/leituras/ ---------------------------------------------------------


def test_the_house_page_lists_every_setting(client_for, jogador):
    html = content(client_for(jogador).get(URLS["rules-house"]))
    page = text(re.sub(r"</?code>", "", html))
    for setting in HOUSE_SETTINGS.values():
        assert f'data-setting="{setting.key}"' in html
        for words in (setting.title, setting.book, setting.table):
            assert " ".join(words.replace("`", "").split()) in page
        if setting.decided:
            assert setting.decided in page


def test_the_house_page_links_each_setting_to_its_section_on_the_index(client_for, jogador):
    client = client_for(jogador)
    house = read(content(client.get(URLS["rules-house"])))
    index_ids = set(read(content(client.get(URLS["rules"]))).ids)
    anchors = [href.split("#", 1)[1] for href in house.hrefs if href.startswith("/regras/#")]
    assert len(anchors) >= len(HOUSE_SETTINGS)
    assert set(anchors) <= index_ids


def test_a_house_tables_badge_leads_to_its_setting_on_the_house_page(client_for, jogador):
    client = client_for(jogador)
    index = read(content(client.get(URLS["rules"])))
    house_ids = set(read(content(client.get(URLS["rules-house"]))).ids)
    badges = [href for href in index.hrefs if href.startswith("/regras/casa/#")]
    assert badges
    assert {href.split("#", 1)[1] for href in badges} <= house_ids


def test_the_readings_page_links_each_reading_to_its_section_on_the_index(client_for, jogador):
    client = client_for(jogador)
    readings = read(content(client.get(URLS["rules-readings"])))
    index_ids = set(read(content(client.get(URLS["rules"]))).ids)
    anchors = [href.split("#", 1)[1] for href in readings.hrefs if href.startswith("/regras/#")]
    assert len(anchors) >= len(READINGS)
    assert set(anchors) <= index_ids


def test_the_readings_page_lists_every_reading(client_for, jogador):
    html = content(client_for(jogador).get(URLS["rules-readings"]))
    page = text(html)
    assert (
        "Leituras em aberto: onde o cânone não decide, o site usa esta leitura até o Árbitro "
        "decidir" in page
    )
    for reading in READINGS:
        assert f'data-reading="{reading.key}"' in html
        assert " ".join(reading.question.split()) in page
        assert " ".join(reading.answer.split()) in page


# --- the sheet links each derived number to its rule ---------------------------------------------


def test_the_sheet_links_its_numbers_to_anchors_that_exist_on_the_index(
    client_for, jogador, jurado
):
    client = client_for(jogador)
    sheet = read(content(client.get(reverse("sheet", kwargs={"code": jurado.code}))))
    rule_links = {href for href in sheet.hrefs if href.startswith("/regras/#")}
    for anchor in ("tabela-encumbrance", "tabela-basic_damage", "secao-4-7", "tabela-odds"):
        assert f"/regras/#{anchor}" in rule_links
    index_ids = set(read(content(client.get(URLS["rules"]))).ids)
    assert {href.split("#", 1)[1] for href in rule_links} <= index_ids


# --- the calculator ----------------------------------------------------------------------------


def test_the_calculator_reads_nothing_but_the_session_and_the_user(
    client_for, jogador, django_assert_num_queries
):
    client = client_for(jogador)
    with django_assert_num_queries(1 + SESSION_QUERIES):  # the user, and the session
        assert client.get(CALCULATOR).status_code == 200
    with django_assert_num_queries(1 + SESSION_QUERIES):  # the user, and the session
        assert calculate(client, "damage", st="12", weapon="GDP+1 perf").status_code == 200


def test_the_calculator_shows_four_empty_forms(client_for, jogador):
    html = content(client_for(jogador).get(CALCULATOR))
    for name in ("odds", "damage", "fall", "range"):
        assert f'id="calc-{name}"' in html
        assert f'name="calculadora" value="{name}"' in html


@pytest.mark.parametrize(("level", "chance"), canon_table("## 1.1 Como se rola"))
def test_odds_at_a_level_are_the_canons(client_for, jogador, level, chance):
    html = content(calculate(client_for(jogador), "odds", level=level))
    assert marked(html, "odds-percent") == chance


def test_odds_at_12_show_the_criticals(client_for, jogador):
    html = content(calculate(client_for(jogador), "odds", level="12"))
    # 3 or 4: 1 + 3 = 4 of 216 rolls; 17 or 18: 3 + 1 = 4 of 216 (§1.2).
    assert marked(html, "odds-critical-success") == "1,8%"
    assert marked(html, "odds-critical-failure") == "1,8%"
    panel = result(html, "odds")
    assert "com 3 ou 4" in panel
    assert "com 17 ou 18" in panel


def test_odds_at_3_or_less_say_that_nobody_rolls(client_for, jogador):
    html = content(calculate(client_for(jogador), "odds", level="3"))
    assert NO_ROLL_AT_THREE_OR_LESS in result(html, "odds")


@pytest.mark.parametrize("st", ["12", "4", "20"])
def test_damage_at_a_st_is_the_canons_row(client_for, jogador, st):
    rows = {row[0]: row for row in canon_table("### Dano básico por ST")}
    _, thrust, swing = rows["4 ou menos" if st == "4" else st]
    html = content(calculate(client_for(jogador), "damage", st=st, weapon=""))
    assert (marked(html, "thrust"), marked(html, "swing")) == (thrust, swing)


def test_st_12_gives_thrust_1d_minus_1_and_swing_1d_plus_2(client_for, jogador):
    # The canon's hoplita (§4.9): "ST 12 ... GDP 1d−1"; the gládio in swing "1d+2".
    html = content(calculate(client_for(jogador), "damage", st="12", weapon=""))
    assert marked(html, "thrust") == "1d−1"
    assert marked(html, "swing") == "1d+2"


def test_a_weapon_text_adds_its_bonus(client_for, jogador):
    html = content(calculate(client_for(jogador), "damage", st="12", weapon="GDP+1 perf"))
    assert marked(html, "weapon-damage") == "1d"
    assert "perfuração" in result(html, "damage")


def test_the_canons_fall_of_6_metres_does_6d_minus_12(client_for, jogador):
    assert "6D−12" in canon_section("## 4.12 Quedas")
    html = content(calculate(client_for(jogador), "fall", metres="6", armour="none", dr="0"))
    assert marked(html, "fall-damage") == "6D−12"


def test_acrobatics_and_mail_lower_a_fall(client_for, jogador):
    # §4.12: "quem cai de 20 m e passa cai de 15"; "cota de malha de RD 4 protege com 2".
    response = calculate(
        client_for(jogador), "fall", metres="20", acrobatics_passed="on", armour="metal", dr="4"
    )
    html = content(response)
    assert marked(html, "fall-damage") == "15D−30"
    assert marked(html, "fall-dr") == "2"


def test_leather_does_not_protect_against_a_fall(client_for, jogador):
    html = content(calculate(client_for(jogador), "fall", metres="6", armour="leather", dr="2"))
    assert marked(html, "fall-dr") == "0"


def test_a_fall_in_other_armour_keeps_the_damage_and_says_the_canon_has_no_number(
    client_for, jogador
):
    html = content(calculate(client_for(jogador), "fall", metres="6", armour="other", dr="3"))
    assert marked(html, "fall-damage") == "6D−12"
    panel = result(html, "fall")
    assert OUTSIDE_CANON in panel
    assert FALL_DR_OUTSIDE_CANON in panel


@pytest.mark.parametrize(
    ("distance", "speed", "modifier"),
    [("9", "0", "−4"), ("5", "7", "−5"), ("13,5", "", "−5"), ("1000", "0", "−16")],
)
def test_range_is_the_canons(client_for, jogador, distance, speed, modifier):
    # §4.11: "Alvo parado a 9 m é 9 ... alvo a 5 m correndo a 7 m/s é 12, e vale a linha dos
    # 13,5 m."
    html = content(calculate(client_for(jogador), "range", distance_m=distance, speed_mps=speed))
    assert marked(html, "range-modifier") == modifier


def test_with_htmx_only_the_calculators_panel_comes_back(client_for, jogador):
    response = calculate(client_for(jogador), "odds", level="12")
    html = content(response)
    assert response.status_code == 200
    assert "<html" not in html
    assert html.strip().startswith('<section class="card calc" id="calc-odds"')
    assert 'id="calc-damage"' not in html


def test_without_javascript_the_whole_page_comes_back_with_the_answer(client_for, jogador):
    response = calculate(client_for(jogador), "odds", htmx=False, level="12")
    html = content(response)
    assert response.status_code == 200
    assert "<html" in html
    assert marked(html, "odds-percent") == "74%"
    assert 'id="calc-range"' in html


@pytest.mark.parametrize("htmx", [True, False])
@pytest.mark.parametrize(
    ("calculator", "fields", "field", "message"),
    [
        ("damage", {"st": "0", "weapon": ""}, "damage-st", ST_TOO_LOW),
        ("damage", {"st": "12", "weapon": "espada grande"}, "damage-weapon", BAD_DAMAGE),
        ("range", {"distance_m": "-3", "speed_mps": "0"}, "range-distance_m", NEGATIVE_DISTANCE),
        (
            "range",
            {"distance_m": "1e999999", "speed_mps": "0"},
            "range-distance_m",
            DISTANCE_NOT_A_NUMBER,
        ),
        ("fall", {"metres": "muito", "armour": "none"}, "fall-metres", FALL_HEIGHT_NOT_A_NUMBER),
    ],
)
def test_bad_input_shows_the_engines_message_next_to_the_field(
    client_for, jogador, htmx, calculator, fields, field, message
):
    response = calculate(client_for(jogador), calculator, htmx=htmx, **fields)
    assert response.status_code == 200
    html = content(response)
    assert field_errors(html, field) == [message]
    # What was typed is kept.
    typed = next(iter(v for k, v in fields.items() if f"{calculator}-{k}" == field))
    assert f'value="{typed}"' in html


def test_a_non_number_gets_the_forms_message_next_to_the_field(client_for, jogador):
    html = content(calculate(client_for(jogador), "odds", level="doze"))
    assert field_errors(html, "odds-level")
    assert 'data-testid="odds-percent"' not in html


def test_an_unknown_calculator_is_a_bad_request(client_for, jogador):
    response = client_for(jogador).post(CALCULATOR, {"calculadora": "dados"})
    assert response.status_code == 400


def _divergence_links(html: str) -> list[str]:
    return [href for href in read(html).hrefs if href.startswith(reverse("divergence-new"))]


@pytest.mark.parametrize("username", ["arbitro", "mestre"])
def test_st_21_says_the_canon_has_no_number_and_offers_a_divergence_to_the_table(
    client_for, django_user_model, demo, username
):
    user = django_user_model.objects.get(username=username)
    html = content(calculate(client_for(user), "damage", st="21", weapon=""))
    panel = result(html, "damage")
    assert OUTSIDE_CANON in panel
    assert ST_ABOVE_DAMAGE_TABLE in panel
    links = _divergence_links(html)
    assert len(links) == 1
    query = parse_qs(urlsplit(links[0]).query)
    assert query["secao"] == ["4.9"]
    assert "ST 21" in query["contexto"][0]
    assert ST_ABOVE_DAMAGE_TABLE in query["contexto"][0]


def test_the_divergence_form_opens_with_the_section_and_the_context(client_for, arbitro):
    client = client_for(arbitro)
    html = content(calculate(client, "damage", st="21", weapon=""))
    form = content(client.get(_divergence_links(html)[0].replace("&amp;", "&")))
    assert ST_ABOVE_DAMAGE_TABLE in form
    assert 'value="4.9"' in form


def test_a_jogador_sees_the_canon_has_no_number_but_no_divergence_link(client_for, jogador):
    html = content(calculate(client_for(jogador), "damage", st="21", weapon=""))
    assert OUTSIDE_CANON in result(html, "damage")
    assert not _divergence_links(html)


def test_a_range_past_1000_m_says_the_canon_has_no_number(client_for, arbitro):
    html = content(calculate(client_for(arbitro), "range", distance_m="990", speed_mps="20"))
    panel = result(html, "range")
    assert OUTSIDE_CANON in panel
    assert RANGE_BEYOND_TABLE in panel
    assert [parse_qs(urlsplit(link).query)["secao"] for link in _divergence_links(html)] == [
        ["4.11"]
    ]
