"""The canon's own items are in every campaign's registers (canon.services.registers_seed):
§9, the slips of the canon README, the open readings, the decisions the canon states."""

from __future__ import annotations

import datetime as dt

import pytest
from django.apps import apps

from campaigns.models import Campaign
from canon import seed
from canon.models import Correction, Decision, Divergence
from canon.services import registers_seed
from garganta_site.founding import campaign_create, seed_after_migrate
from gurps import readings
from gurps.house import HOUSE_SETTINGS


def _decision(campaign, key) -> Decision:
    return Decision.objects.prefetch_related("corrections").get(campaign=campaign, source_key=key)


def _divergence(campaign, key) -> Divergence:
    return Divergence.objects.get(campaign=campaign, source_key=key)


def test_a_new_campaign_starts_with_the_canons_registers(db):
    campaign = campaign_create(slug="nova", name="Nova")
    assert Decision.objects.filter(campaign=campaign).count() == len(seed.DECISIONS)
    assert Correction.objects.filter(campaign=campaign).count() == len(seed.CORRECTIONS)
    expected = (
        len(seed.CANON_DIVERGENCES)
        + len(seed.SLIPS)
        + len(readings.READINGS)
        + len(seed.PROCEDURE_DIVERGENCES)
        + len(seed.SKILL_DIVERGENCES)
    )
    assert Divergence.objects.filter(campaign=campaign).count() == expected


def test_the_seed_is_idempotent_and_keeps_what_the_arbitro_did(demo, arbitro):
    divergence = _divergence(demo, "canon:9.3")
    Divergence.objects.filter(pk=divergence.pk).update(
        status="resolved", resolved_on=dt.date(2026, 11, 1), resolution="NT 3, por decisão."
    )
    count = registers_seed(campaign=demo)
    assert (count.decisions, count.corrections, count.divergences) == (0, 0, 0)
    assert _divergence(demo, "canon:9.3").resolution == "NT 3, por decisão."


def test_after_migrate_every_campaign_is_seeded_again(demo, outsider):
    Divergence.objects.filter(source_key="slip:1.1-odds-truncated").delete()
    seed_after_migrate(sender=apps.get_app_config("canon"), using="default")
    assert _divergence(demo, "slip:1.1-odds-truncated").is_open
    other = Campaign.objects.get(slug="outra")
    assert _divergence(other, "slip:1.1-odds-truncated").is_open


def test_a_reading_added_later_becomes_an_open_divergence(demo, monkeypatch):
    extra = readings.Reading("a_new_question", "4.9", "ST 21 na tabela de dano?", "Não há número.")
    monkeypatch.setattr(readings, "READINGS", (*readings.READINGS, extra))
    assert registers_seed(campaign=demo).divergences == 1
    found = _divergence(demo, "reading:a_new_question")
    assert (found.section, found.title, found.reading) == ("4.9", extra.question, extra.answer)
    assert found.is_open


def test_every_reading_is_an_open_divergence_with_the_sites_answer(demo):
    for reading in readings.READINGS:
        found = _divergence(demo, f"reading:{reading.key}")
        assert found.is_open
        assert found.description == reading.question
        assert found.reading == reading.answer
        assert found.section == reading.section


@pytest.mark.parametrize("item", [1, 2])
def test_items_1_and_2_of_section_9_were_resolved_on_8_september(demo, item):
    found = _divergence(demo, f"canon:9.{item}")
    assert found.status == "resolved"
    assert found.opened_on == found.resolved_on == dt.date(2026, 9, 8)
    assert "a linha fica como registro" in found.resolution


@pytest.mark.parametrize("item", [3, 5, 6, 7, 8])
def test_the_other_items_of_section_9_are_open(demo, item):
    found = _divergence(demo, f"canon:9.{item}")
    assert found.is_open
    assert found.opened_on == dt.date(2026, 9, 8)


def test_item_4_is_resolved_by_the_critical_hit_decision_of_4_8(demo):
    found = _divergence(demo, "canon:9.4")
    assert found.status == "resolved"
    assert found.resolved_on == dt.date(2026, 9, 13)
    assert found.decision == _decision(demo, "canon:4.8")


@pytest.mark.parametrize(
    "key, section",
    [
        ("slip:4.10-row-4", "4.10"),
        ("slip:5d-blind-fighting", "5d"),
        ("slip:1.1-odds-truncated", "1.1"),
    ],
)
def test_the_three_slips_of_the_canon_readme_are_open(demo, key, section):
    found = _divergence(demo, key)
    assert found.is_open
    assert found.section == section


@pytest.mark.parametrize(
    "key, number, day",
    [
        ("canon:4.12", 27, dt.date(2026, 9, 13)),
        ("canon:4.13", 29, dt.date(2026, 9, 13)),
        ("canon:4.14", 30, dt.date(2026, 9, 13)),
        ("canon:4.15", 33, dt.date(2026, 9, 13)),
        ("canon:1.6", None, dt.date(2026, 9, 10)),
        ("canon:4.2", None, dt.date(2026, 9, 10)),
        ("canon:5.4.1", None, dt.date(2026, 9, 10)),
        ("canon:4.8", None, dt.date(2026, 9, 13)),
        ("canon:4.11-v7", None, dt.date(2026, 9, 12)),
    ],
)
def test_the_decisions_the_canon_states_with_its_numbers_and_dates(demo, key, number, day):
    found = _decision(demo, key)
    assert (found.number, found.decided_on) == (number, day)


def test_no_decision_number_is_invented(demo):
    numbers = set(
        Decision.objects.filter(campaign=demo, number__isnull=False).values_list(
            "number", flat=True
        )
    )
    assert numbers == {27, 29, 30, 33}


def test_the_explosive_fireball_is_a_correction_of_the_12_09_decision(demo):
    decision = _decision(demo, "canon:4.11-v7")
    (correction,) = decision.corrections.all()
    assert correction.corrected_on == dt.date(2026, 9, 13)
    assert correction.before == decision.text  # the decision keeps what it said
    assert "1d por ponto" in decision.text
    assert "1d a cada 2 pontos" in correction.after
    assert decision.now["text"] == correction.after
    assert "vence o verbete" in correction.reason


def test_every_house_setting_links_to_a_decision_of_the_same_date(demo):
    decisions = {
        d.house_key: d for d in Decision.objects.filter(campaign=demo).exclude(house_key="")
    }
    assert decisions.keys() == HOUSE_SETTINGS.keys()
    for key, setting in HOUSE_SETTINGS.items():
        decision = decisions[key]
        corrected = [c.corrected_on for c in decision.corrections.all()]
        day = max(corrected) if corrected else decision.decided_on
        shown = day.strftime("%d/%m/%Y") if day else None
        assert shown == setting.decided, key
        if setting.decision and setting.decision.startswith("Decisão "):
            assert decision.number == int(setting.decision.split()[1]), key


def test_the_command_seeds_and_says_how_many(demo, capsys):
    from django.core.management import call_command

    Divergence.objects.filter(campaign=demo, source_key="canon:9.8").delete()
    call_command("seed_registers")
    assert "a-garganta: 0 decisões, 0 correções e 1 pendências novas" in capsys.readouterr().out
