"""The rules pages of a Xuleta campaign (issue 22, item 7): /regras/?campanha=<slug> renders the
Xuleta's chapters and tables from the engine's data, in the text's words; its readings page and
its registers hold the engine's stated readings as open pendências; the vocabularies API
publishes its closed sets."""

from __future__ import annotations

import pytest

from campaigns.models import Membership
from garganta_site.founding import campaign_create
from tests.canon.test_rules_pages import PageReader
from xuleta.readings import all_readings
from xuleta.tables import all_tables
from xuleta.text import CHAPTERS

pytestmark = pytest.mark.django_db


@pytest.fixture
def xuleta(mestre):
    campaign = campaign_create(slug="xuleta", name="A Xuleta", ruleset="xuleta5e")
    Membership.objects.create(user=mestre, campaign=campaign, role=Membership.Role.MESTRE)
    return campaign


def _read(answer) -> PageReader:
    assert answer.status_code == 200
    reader = PageReader()
    reader.feed(answer.content.decode())
    return reader


def test_the_rules_page_shows_the_xuletas_tables_in_its_words(client_for, mestre, xuleta):
    page = client_for(mestre).get("/regras/", {"campanha": xuleta.slug})
    reader = _read(page)
    assert set(reader.tables) == {t.key for t in all_tables()}
    columns, rows = reader.tables["modificadors"]
    assert columns == ["Puntuació", "Modificador"]
    assert rows[0] == ["1", "−5"] and rows[-1] == ["30", "+10"]
    assert reader.tables["habilitats"][1][11] == ["Percepció", "Saviesa"]
    assert reader.tables["nivells_esgotament"][1][5] == ["6", "Mort"]
    text = page.content.decode()
    assert "Xuleta — Regles ràpides" in text and "Como se joga" not in text
    for number, title in CHAPTERS.items():
        assert f"capitulo-{number}" in reader.ids, title
    # Every heading of the text is anchored (a section without a table at its chapter's end).
    assert "secao-4-2" in reader.ids and "secao-1-16" in reader.ids


def test_the_readings_page_lists_the_engines_readings(client_for, mestre, xuleta):
    page = client_for(mestre).get("/regras/leituras/", {"campanha": xuleta.slug})
    assert page.status_code == 200
    text = page.content.decode()
    for reading in all_readings():
        assert reading.answer.split("(")[0].strip()[:30] in text.replace("&#x27;", "'")


def test_the_house_page_answers(client_for, mestre, xuleta):
    assert client_for(mestre).get("/regras/casa/", {"campanha": xuleta.slug}).status_code == 200


def test_a_xuleta_campaign_seeds_each_reading_as_an_open_pendencia(xuleta):
    from canon.models import Divergence

    found = Divergence.objects.filter(campaign=xuleta, source_key__startswith="reading:xuleta5e:")
    assert {d.source_key.rsplit(":", 1)[1] for d in found} == {r.key for r in all_readings()}
    assert all(d.status == Divergence.Status.OPEN and d.reading for d in found)
    assert all(d.document == "Xuleta — Regles ràpides" for d in found)
    # None of the GURPS canon's own.
    assert not Divergence.objects.filter(campaign=xuleta, source_key__startswith="slip:").exists()


def test_the_vocabularies_api_publishes_the_xuletas_sets(client):
    answer = client.get("/api/v1/rules/vocabularies", {"ruleset": "xuleta5e"})
    assert answer.status_code == 200
    found = {v["name"]: v for v in answer.json()}
    assert {
        "ability",
        "skill",
        "condition",
        "exhaustion_level",
        "edge",
        "roll",
        "difficulty_class",
        "damage_type",
        "spellcasting_class",
    } <= set(found)
    abilities = [(t["key"], t["label"]) for t in found["ability"]["terms"]]
    assert abilities[0] == ("str", "Força") and len(abilities) == 6
    conditions = {t["key"]: t for t in found["condition"]["terms"]}
    assert len(conditions) == 15
    assert conditions["prone"]["label"] == "Tombat"
    assert (
        "Aixecar-te costa la meitat de la teva velocitat."
        in conditions["prone"]["details"]["effects"]
    )
    skill = next(t for t in found["skill"]["terms"] if t["key"] == "Sigil")
    assert skill["details"]["ability"] == "dex"
    assert [t["key"] for t in found["edge"]["terms"]] == ["none", "advantage", "disadvantage"]
    assert found["difficulty_class"]["terms"][1] == {
        "key": "10",
        "label": "Fàcil",
        "details": {"dc": 10},
    }
    # The session procedure's sets follow, as for every ruleset.
    assert "danger" in found


def test_the_rules_nav_keeps_the_campaign(client_for, mestre, xuleta):
    html = client_for(mestre).get("/regras/", {"campanha": xuleta.slug}).content.decode()
    for path in ("/regras/", "/regras/casa/", "/regras/leituras/", "/regras/calculadora/"):
        assert f'href="{path}?campanha={xuleta.slug}"' in html


def test_the_calculator_of_a_xuleta_campaign_is_the_d20_s(client_for, mestre, xuleta):
    """d20 + 5 against DC 15 with advantage: 1 − (9/20)² = 319/400 (the odds API's number)."""
    client = client_for(mestre)
    page = client.get("/regras/calculadora/", {"campanha": xuleta.slug}).content.decode()
    assert 'data-calculator="d20"' in page and "3d6" not in page
    asked = {"campanha": xuleta.slug, "bonus": 5, "dc": 15, "edge": "advantage", "roll": "attack"}
    html = client.get("/regras/calculadora/", asked).content.decode()
    assert 'data-testid="d20-exact">319/400<' in html and "79.75%" in html
    assert 'data-testid="d20-critical">39/400<' in html
    panel = client.get("/regras/calculadora/", asked, headers={"HX-Request": "true"})
    assert panel.content.decode().lstrip().startswith('<section class="card calc" id="calc-d20"')
    refused = client.get("/regras/calculadora/", {**asked, "edge": "x"}).content.decode()
    assert 'role="alert"' in refused and "d20-exact" not in refused


def test_the_house_page_says_which_alternative_is_in_force(client_for, mestre, xuleta):
    """Each house question has two alternatives: the Xuleta's in force until the Árbitro
    decides, the other shown as the alternative; a decision moves «em vigor»."""
    from canon.models import Decision

    def statuses():
        html = client_for(mestre).get("/regras/casa/", {"campanha": xuleta.slug})
        assert html.status_code == 200
        text = html.content.decode()
        found = {}
        for key in ("marcha_forcada", "exaustao", "descanso"):
            for side in ("xuleta", "procedimento"):
                article = text.split(f'id="casa-xuleta5e_{key}_{side}"')[1].split("</article>")[0]
                found[key, side] = (
                    "em vigor" if 'data-testid="house-in-force"' in article else "alternativa"
                )
        return found, text

    found, text = statuses()
    assert all(
        v == ("em vigor" if side == "xuleta" else "alternativa") for (_, side), v in found.items()
    )
    assert "o padrão, até o Árbitro decidir" in text
    Decision.objects.create(
        campaign=xuleta,
        number=1,
        title="Marcha forçada",
        text="Vale a Tabela B.",
        house_key="xuleta5e_marcha_forcada_procedimento",
    )
    found, _ = statuses()
    assert found["marcha_forcada", "procedimento"] == "em vigor"
    assert found["marcha_forcada", "xuleta"] == "alternativa"
    assert found["exaustao", "xuleta"] == "em vigor"
