"""The sheet page of a Xuleta character (the same URL as GURPS's): each number with its formula
and section, the exact chance beside each check and save, the state's conditions and
exhaustion with their effects."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sheets import ruleset_data
from tests.pins import SESSION_QUERIES

pytestmark = pytest.mark.django_db


def page(client, character, **params):
    return client.get(reverse("sheet", args=[character.code]), params)


def test_the_page_shows_every_number_with_its_formula(aina, client_of):
    response = page(client_of("jogador"), aina)
    assert response.status_code == 200
    assert [t.name for t in response.templates][0] == "sheets/sheet_xuleta5e.html"
    html = response.content.decode()
    assert 'data-testid="xuleta-sheet"' in html
    assert "(15 − 10) ÷ 2, arrodonint cap avall = +2" in html  # Força's modifier
    assert "§4.1 Prova de característica" in html
    assert "10 + Percepció +3 = 13" in html
    assert "mod. de Força +2 (cos a cos: Força) + competència +2 = +4" in html
    assert "1d8 + 2 (el mateix modificador que has fet servir per atacar), tallant" in html
    assert 'data-testid="sheet-hp">28/28<' in html
    assert "Propor alteração da ficha" in html  # the owner's


def test_the_exact_chance_beside_each_check_and_save(aina, client_of):
    html = page(client_of("mestre"), aina).content.decode()
    # Percepció +3 against DC 15: 9/20 = 45 % (d20 + 3 ≥ 15 on 12–20).
    assert 'data-testid="chance-skills.Percepció-15">45 %<' in html
    assert 'title="9/20"' in html
    # Força save +4 against DC 10: 15/20 = 75 %.
    assert 'data-testid="chance-saves.str-10">75 %<' in html
    assert "CD habituals" in html


def test_the_dc_picker_adds_the_asked_dc(aina, client_of):
    html = page(client_of("jogador"), aina, cd="12").content.decode()
    assert 'data-testid="chance-checks.dex-12">50 %<' in html  # +1 vs 12: 10/20
    response = page(client_of("jogador"), aina, cd="99")
    assert response.status_code == 422
    assert "A CD vai de 1 a 40" in response.content.decode()
    assert 'data-testid="chance-checks.dex-15"' in response.content.decode()  # still drawn


def test_conditions_and_exhaustion_from_the_state(aina, client_of):
    ruleset_data.data_state_write(
        character=aina, data={"conditions": ["paralyzed"], "exhaustion": 3, "hp_lost": 4}
    )
    html = page(client_of("jogador"), aina).content.decode()
    assert 'data-testid="condition-paralyzed"' in html
    assert 'data-testid="condition-incapacitated"' in html  # «Estàs incapacitat»
    assert "Falles sense tirar les salvacions de Força i Destresa." in html
    assert "Desavantatge en tirades d&#x27;atac i salvacions" in html
    # Força's save fails without a roll: 0 %; Constitució's has disadvantage: +4 vs 10 is
    # 1 − (5/20)² … the kept lower die ≥ 6: (15/20)² = 225/400 = 56,25 %.
    assert 'data-testid="chance-saves.str-10">0 %<' in html
    assert 'data-testid="chance-saves.con-10">56,25 %<' in html
    assert 'data-testid="sheet-hp">24/28<' in html
    assert "9 m → 4,5 m (esgotament 3: Velocitat a la meitat)" not in html  # paralysed: 0
    assert "Paralitzat: velocitat 0" in html


def test_a_character_without_a_homologated_sheet(campaign, people, client_of, sheet_data):
    from sheets.models import Character

    bare = Character.objects.create(campaign=campaign, owner=people["jogador"], name="Bru")
    ruleset_data.data_draft_create(character=bare, user=people["jogador"], data=sheet_data)
    response = page(client_of("jogador"), bare)
    assert response.status_code == 200
    html = response.content.decode()
    assert "ainda não tem ficha homologada" in html
    assert "Rascunho" in html


def test_the_live_region_has_nothing_to_draw(aina, client_of):
    client = client_of("jogador")
    url = reverse("sheet-live", args=[aina.code])
    assert client.get(url, headers={"HX-Request": "true"}).status_code == 204
    assert client.get(url).status_code == 200


def test_outsiders_do_not_see_it(aina, client, django_user_model):
    outsider = django_user_model.objects.create_user(
        "x-fora",
        password="x-fora-1234",  # pragma: allowlist secret
    )
    client.force_login(outsider)
    assert page(client, aina).status_code == 404


def test_its_query_count_is_pinned(aina, client_of, django_assert_num_queries):
    client = client_of("jogador")
    client.get(reverse("sheet", args=[aina.code]))
    # Session, user, the character (with the reader's membership, the state and the
    # campaign's ruleset), its versions (with who decided them), the readings' pendências the
    # Árbitro resolved. The numbers are computed.
    with django_assert_num_queries(4 + SESSION_QUERIES):
        assert page(client, aina).status_code == 200


def test_the_kept_page_follows_the_state_and_the_dc(aina, client_of):
    client = client_of("jogador")
    assert 'data-testid="sheet-hp">28/28<' in page(client, aina).content.decode()
    ruleset_data.data_state_write(character=aina, data={"hp_lost": 6, "conditions": ["prone"]})
    html = page(client, aina).content.decode()
    assert 'data-testid="sheet-hp">22/28<' in html
    assert 'data-testid="condition-prone"' in html
    assert 'data-testid="chance-checks.dex-12"' in page(client, aina, cd="12").content.decode()
    refused = page(client, aina, cd="0")
    assert refused.status_code == 422 and "A CD vai de 1 a 40" in refused.content.decode()


def test_a_reading_the_arbitro_resolved_says_so_on_the_kept_page(aina, client_of, people):
    from canon.models import Divergence
    from canon.services import divergence_resolve, reading_source_key

    client = client_of("jogador")
    html = page(client, aina).content.decode()
    assert html.count("Pendência aberta para o Árbitro.") >= 2  # the AC and the hit die
    assert "Pendência resolvida pelo Árbitro." not in html
    divergence_resolve(
        divergence=Divergence.objects.get(
            source_key=reading_source_key("xuleta5e", "sheet_ac_input")
        ),
        user=people["arbitro"],
        resolution="A CA é a da ficha.",
    )
    html = page(client, aina).content.decode()
    assert html.count("Pendência resolvida pelo Árbitro.") == 1


def test_gurps_s_defaults_page_is_a_portuguese_404_for_a_json_sheet(aina, client_of):
    """«E sem a perícia?» is GURPS's (§3.3): a Xuleta sheet has no such page, not a 500."""
    response = client_of("jogador").get(reverse("sheet-defaults", args=[aina.code]))
    assert response.status_code == 404
    html = response.content.decode()
    assert "não tem essa página" in html and "Xuleta" in html
    assert reverse("sheet", args=[aina.code]) in html
