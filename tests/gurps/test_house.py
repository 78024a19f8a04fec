"""The campaign's departures from the book as named settings (gurps.house; canon §8)."""

from __future__ import annotations

import re

import pytest

from gurps.errors import UNKNOWN_HOUSE_SETTING, InvalidValue
from gurps.house import (
    BOOK_NOT_STATED,
    CANON_TABLES,
    CRITICAL_HIT_TABLE_BOTH_WAYS,
    CRITICAL_HIT_TREATMENT,
    HOUSE_DEATH_RULE_DECIDED,
    HOUSE_DEATH_RULES,
    HOUSE_RULE_LINES,
    HOUSE_SETTINGS,
    WORLD_ACTIONS_PER_WEEK,
    CriticalHitTreatment,
    house_setting,
)
from tests.gurps.helpers import CANON_PATH, canon_section, canon_table

KEYS = {
    "hidden_rolls_recorded",
    "turn_order_tie_break",
    "critical_hit_table",
    "death_by_kind",
    "falls_table",
    "overpenetration_caps",
    "fencer_dagger_parries",
    "spell_critical_failure",
    "explosive_fireball_damage",
    "no_spell_without_magery",
    "high_mana",
    "mestre_rolls_everything",
    "three_world_actions",
    "week_is_real_week",
}
HOUSE_HEADING = "# 8. O que esta campanha faz diferente do livro"
DATE = re.compile(r"\d{2}/\d{2}/\d{4}")


def _canon_lines() -> list[str]:
    return CANON_PATH.read_text(encoding="utf-8").splitlines()


def section_text(section: str) -> str:
    """The canon's text of ``section`` ("4.12", "5b", "8"), subsections included, markdown
    bold and line breaks flattened."""
    lines = _canon_lines()
    pattern = re.compile(rf"^(#+) {re.escape(section)}[ .]")
    start = next(i for i, line in enumerate(lines) if pattern.match(line))
    level = len(pattern.match(lines[start])[1])
    body = []
    for line in lines[start + 1 :]:
        heading = re.match(r"^(#+) ", line)
        if heading and len(heading[1]) <= level:
            break
        body.append(line.lstrip("> "))
    return " ".join(" ".join(body).replace("**", "").split())


def test_the_settings_are_exactly_the_named_ones() -> None:
    assert set(HOUSE_SETTINGS) == KEYS
    for key, setting in HOUSE_SETTINGS.items():
        assert setting.key == key
        assert house_setting(key) is setting


@pytest.mark.parametrize("key", ["", "mana_alta", None, 3])
def test_an_unknown_setting_is_an_invalid_value(key) -> None:
    with pytest.raises(InvalidValue) as caught:
        house_setting(key)
    assert (caught.value.field, caught.value.message) == ("key", UNKNOWN_HOUSE_SETTING)


@pytest.mark.parametrize("key", sorted(KEYS))
def test_each_decision_is_worded_and_dated_as_the_canon_says(key: str) -> None:
    setting = HOUSE_SETTINGS[key]
    texts = [section_text(part.strip()) for part in setting.section.split(",")]
    if setting.decision is not None:
        assert any(setting.decision in text for text in texts), setting.decision
    if setting.decided is not None:
        assert DATE.fullmatch(setting.decided)
        assert any(setting.decided in text for text in texts), setting.decided
    if setting.decision and DATE.search(setting.decision):
        assert DATE.search(setting.decision)[0] == setting.decided
    for text in (setting.title, setting.book, setting.table):
        assert isinstance(text, str) and text.strip()


def test_every_numbered_decision_and_fixing_of_the_canon_has_a_setting() -> None:
    canon = " ".join(" ".join(_canon_lines()).replace("**", "").split())
    decisions = {setting.decision for setting in HOUSE_SETTINGS.values()}
    for number, date in re.findall(r"Decisão (\d+), aplicada em (\d{2}/\d{2}/\d{4})", canon):
        setting = next(s for s in HOUSE_SETTINGS.values() if s.decision == f"Decisão {number}")
        assert setting.decided == date
    for wording in re.findall(r"(?:[Ff]ixado|Corrigido) em \d{2}/\d{2}/\d{4}", canon):
        assert wording in decisions, wording


def test_where_is_what_section_8_points_to() -> None:
    rows = {text: where for text, where in canon_table(HOUSE_HEADING)}
    linked = {line.setting for line in HOUSE_RULE_LINES if line.setting}
    for line in HOUSE_RULE_LINES:
        assert rows[line.text] == line.where_text
    for key, setting in HOUSE_SETTINGS.items():
        if key in linked:
            assert setting.where is not None
        elif setting.where is not None:
            assert setting.where in rows.values(), key
    assert HOUSE_SETTINGS["critical_hit_table"].where is None  # §8 does not list it


def test_three_world_actions_a_week() -> None:
    words = {"Uma": 1, "Duas": 2, "Três": 3, "Quatro": 4}
    said = re.search(r"(\w+) ações de mundo por semana", section_text("8"))
    assert words[said[1]] == WORLD_ACTIONS_PER_WEEK
    assert "Cenas livres, ilimitadas" in HOUSE_SETTINGS["three_world_actions"].table


def test_the_critical_hit_is_the_table_both_ways() -> None:
    text = section_text("4.8")
    assert "Fixado em 13/09/2026: esta mesa usa a Tabela de Golpes Fulminantes" in text
    assert "Vale nos dois sentidos" in text
    assert CRITICAL_HIT_TREATMENT is CriticalHitTreatment.TABLE
    assert CRITICAL_HIT_TABLE_BOTH_WAYS is True


def test_the_death_rule_date_is_the_settings() -> None:
    assert HOUSE_DEATH_RULE_DECIDED == HOUSE_SETTINGS["death_by_kind"].decided
    assert all(rule.decided == HOUSE_DEATH_RULE_DECIDED for rule in HOUSE_DEATH_RULES)
    assert f"Fixado em {HOUSE_DEATH_RULE_DECIDED}." in canon_section(
        "## 5.4.1 Quem morre quando — regra de casa"
    )


def test_the_death_table_cells_are_the_rules() -> None:
    (table,) = [t for t in CANON_TABLES if t.key == "death_by_kind"]
    assert table.rows == tuple(
        (rule.who, rule.dies_at_text, rule.checks_text) for rule in HOUSE_DEATH_RULES
    )
    assert [row[:3] for row in canon_table("## 5.4.1 Quem morre quando — regra de casa")] == [
        list(row) for row in table.rows
    ]


def test_where_the_canon_says_nothing_of_the_book_the_setting_says_so() -> None:
    for key in ("falls_table", "overpenetration_caps"):
        assert HOUSE_SETTINGS[key].book == BOOK_NOT_STATED
        assert "livro" not in section_text(HOUSE_SETTINGS[key].section)
