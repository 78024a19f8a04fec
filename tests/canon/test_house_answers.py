"""A decision's house rule is the campaign's ruleset's: the sistema001 publishes, as house
settings, the answers the Árbitro may give to its readings that refuse until he decides
(``rulesets.sistema001.house``); a GURPS campaign neither offers nor takes them, and a
sistema001 campaign does not take GURPS's."""

from __future__ import annotations

import pytest

from campaigns.errors import ServiceError
from campaigns.models import Membership
from canon import services
from garganta_site.founding import campaign_create
from rulesets.registry import house_setting, ruleset_for
from rulesets.sistema001 import house
from sistema001.readings import READINGS
from sistema001.rolls import COMPARISONS
from tests.api.conftest import post_json
from tests.sheets.pages import content

pytestmark = pytest.mark.django_db

SUPERA = "sistema001_teste_supera_nd"
IGUALA = "sistema001_teste_iguala_nd"
NEW = "/console/decisoes/nova/"


@pytest.fixture
def s001(arbitro):
    """A sistema001 campaign whose Árbitro is the demo's Árbitro too."""
    made = campaign_create(slug="s001", name="Campanha do Sistema 001", ruleset="sistema001")
    Membership.objects.create(user=arbitro, campaign=made, role=Membership.Role.ARBITRO)
    return made


def test_every_refusing_reading_has_the_arbitros_options():
    """Each reading the engine refuses on (``refuses=True``) is answered by at least two house
    settings of the sistema001, each giving the engine an answer it takes."""
    refusing = {r.key for r in READINGS if r.refuses}
    assert refusing and refusing == set(house.OPTIONS)
    for options in house.OPTIONS.values():
        assert len(options) >= 2
        assert {o.answer for o in options} <= set(COMPARISONS)
    pages = ruleset_for("sistema001").pages.house_settings()
    assert [s.key for s in pages] == [SUPERA, IGUALA]


def test_the_newest_decision_among_the_options_is_in_force():
    log = [
        {"key": IGUALA, "decision": "Decisão 1"},
        {"key": "falls_table", "decision": "Decisão 2"},  # another ruleset's: ignored
        {"key": SUPERA, "decision": "Decisão 3"},
    ]
    (answer,) = house.answers(log).values()
    assert (answer.value, answer.decision) == ("maior", "Decisão 3")
    assert house.answers(log[:2])["test_pass_comparison"].value == "maior_ou_igual"
    assert house.answers([]) == {}


def test_a_gurps_campaign_does_not_offer_them(client_for, arbitro, demo):
    assert house_setting(SUPERA, "gurps3e") is None
    assert house_setting(SUPERA, "sistema001").title == "O teste passa só quando supera o ND"
    html = content(client_for(arbitro).get(NEW))
    assert "falls_table" in html and SUPERA not in html and IGUALA not in html
    with pytest.raises(ServiceError) as refused:
        services.decision_create(
            campaign=demo, user=arbitro, title="Empate", text="Empate passa.", house_key=IGUALA
        )
    assert refused.value.field == "house_key"
    answer = post_json(
        client_for(arbitro),
        "/api/v1/console/decisions",
        {"campaign": "a-garganta", "title": "Empate", "text": "Empate passa.", "house_key": SUPERA},
    )
    assert answer.status_code == 422 and answer.json()["field"] == "house_key"


def test_a_sistema001_campaign_offers_its_own_and_takes_no_gurps_key(client_for, arbitro, s001):
    """The Árbitro of both campaigns sees both rulesets' settings, each named with its ruleset;
    the service takes a key of the chosen campaign's ruleset only."""
    html = content(client_for(arbitro).get(NEW))
    assert "O teste passa só quando supera o ND (Sistema 001 (capítulo de combate))" in html
    assert SUPERA in html and IGUALA in html and "falls_table" in html
    with pytest.raises(ServiceError) as refused:
        services.decision_create(
            campaign=s001, user=arbitro, title="Quedas", text="Quedas.", house_key="falls_table"
        )
    assert refused.value.field == "house_key"
    decision = services.decision_create(
        campaign=s001, user=arbitro, title="Empate", text="Empate passa.", house_key=IGUALA
    )
    assert decision.house_title == "O teste passa quando iguala ou supera o ND"
    assert decision.rules_url == f"/regras/casa/?campanha=s001#casa-{IGUALA}"
    page = content(client_for(arbitro).get("/regras/casa/", {"campanha": "s001"}))
    assert f'id="casa-{SUPERA}"' in page and f'id="casa-{IGUALA}"' in page
