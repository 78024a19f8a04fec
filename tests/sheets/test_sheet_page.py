"""The sheet page (sheets.views.sheet_detail): the homologated sheet plus the state in play.

The Jurado de Gapheim of the seed carries mail (11.5 kg, PD 3), a medium shield (7 kg, PD 2),
a gládio (1.5 kg) and a pack (3 kg): 23 kg at ST 13, Carga Leve (1), Move 5, Dodge 5,
Block 7 and, with PD 5, Block 12 (canon §4.6: 7 + 2 + 3 = 12).
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sheets.models import Possession
from tests.pins import SESSION_QUERIES
from tests.sheets.pages import content, row, section, stat


def _url(character) -> str:
    return reverse("sheet", kwargs={"code": character.code})


def test_it_works(client_for, jogador, jurado):
    response = client_for(jogador).get(_url(jurado))
    assert response.status_code == 200
    assert "Jurado de Gapheim" in content(response)


def test_it_requires_login(client, jurado):
    response = client.get(_url(jurado))
    assert response.status_code == 302
    assert response.url.startswith("/entrar/")


def test_it_checks_membership(client_for, outsider, jurado):
    assert client_for(outsider).get(_url(jurado)).status_code == 404


def test_it_answers_404_for_an_unknown_character(client_for, jogador):
    url = reverse("sheet", kwargs={"code": "00000000-0000-0000-0000-000000000000"})
    assert client_for(jogador).get(url).status_code == 404


@pytest.mark.parametrize("username", ["jogadora", "rastreadora", "mestre", "arbitro"])
def test_every_member_reads_the_homologated_sheet(client_for, django_user_model, jurado, username):
    user = django_user_model.objects.get(username=username)
    assert client_for(user).get(_url(jurado)).status_code == 200


def test_it_shows_the_jurados_carga_move_and_defences(client_for, jogador, jurado):
    html = content(client_for(jogador).get(_url(jurado)))

    assert "versão 1" in html
    assert stat(html, "carried-kg") == "23 kg"  # 11.5 + 7 + 1.5 + 3
    assert stat(html, "encumbrance") == "Leve (1)"
    assert stat(html, "move") == "5"
    assert stat(html, "dodge") == "5"
    # Defesa Passiva: mail 3 + shield 2.
    assert '<strong data-testid="pd">5</strong>' in html
    # Defence, active value, value with PD.
    assert row(html, "Esquiva")[:3] == ["Esquiva", "5", "10"]
    assert row(html, "Bloquear")[:3] == ["Bloquear", "7", "12"]


def test_it_shows_the_hoplitas_weapon_damage_from_st_12(client_for, jogadora, hoplita):
    html = content(client_for(jogadora).get(_url(hoplita)))
    weapons = section(html, "Armas")

    # Gládio "Bal corte": swing at ST 12 is 1d+2. Lança "GDP+1 perf": thrust 1d-1, +1 → 1d.
    assert row(weapons, "Gládio")[:3] == ["Gládio", "Bal corte", "1d+2"]
    assert row(weapons, "Lança")[:3] == ["Lança", "GDP+1 perf", "1d"]
    assert row(section(html, "Perícias"), "Lança")[2] == "17"


def test_it_shows_the_loot_left_on_the_ground_as_not_carried(client_for, jogador, jurado):
    html = content(client_for(jogador).get(_url(jurado)))
    loot = row(html, "Espólio de Barnabé (morto no andar 6) espólio")
    assert loot[-1].startswith("pegar")


def test_it_gives_state_forms_only_to_who_may_change_the_state(client_for, jogadora, jurado):
    html = content(client_for(jogadora).get(_url(jurado)))
    assert reverse("loot-add", kwargs={"code": jurado.code}) not in html
    assert "carregar/" not in html


def test_it_shows_drafts_and_submitted_versions_only_to_the_owner_and_the_table(
    client_for, jogador, jogadora, mestre, hoplita
):
    # The seed has the hoplita's version 2 waiting for the Árbitro.
    assert "Versão 2: <strong>Enviada ao Árbitro" in content(
        client_for(jogadora).get(_url(hoplita))
    )
    assert "Versão 2: <strong>Enviada ao Árbitro" in content(client_for(mestre).get(_url(hoplita)))
    assert "Versão 2" not in content(client_for(jogador).get(_url(hoplita)))


def test_its_query_count_is_pinned(client_for, jogador, jurado, django_assert_num_queries):
    client = client_for(jogador)
    client.get(_url(jurado))  # sets the CSRF cookie, which the kept page's forms carry
    client.get(_url(jurado))
    # Warm: session, user, the character (with the reader's membership and the state), the
    # fingerprint of its versions and possessions (sheets.reads.sheet_revision), and the
    # running fights it is in, for the live region and an attack waiting for its defence
    # (sheets.live.sheet_fight, §4.6).
    with django_assert_num_queries(4 + SESSION_QUERIES):
        assert client.get(_url(jurado)).status_code == 200


def test_a_kept_page_still_gets_a_fresh_loot_key_each_time(client_for, jogador, jurado):
    client = client_for(jogador)
    keys = set()
    for _ in range(3):
        html = content(client.get(_url(jurado)))
        (key,) = re.findall(r'name="request_key" value="([0-9a-f]{32})"', html)
        keys.add(key)
    assert len(keys) == 3


def test_its_query_count_does_not_grow_with_the_items(
    client_for, jogador, jurado, django_assert_num_queries
):
    client = client_for(jogador)
    client.get(_url(jurado))  # the first visit makes the state in play; count from then on
    cache.clear()  # cold: the version's blocks are read and drawn
    with CaptureQueriesContext(connection) as cold:
        client.get(_url(jurado))
    with CaptureQueriesContext(connection) as warm:  # the version's blocks come from the cache
        client.get(_url(jurado))
    assert len(warm.captured_queries) < len(cold.captured_queries)
    Possession.objects.bulk_create(
        Possession(character=jurado, loot_name=f"Presa {n}", loot_weight_kg=Decimal("0.1"))
        for n in range(30)
    )
    cache.clear()
    with django_assert_num_queries(len(cold.captured_queries)):
        response = client.get(_url(jurado))
    assert "Presa 29" in content(response)
    with django_assert_num_queries(len(warm.captured_queries)):
        response = client.get(_url(jurado))
    assert "Presa 29" in content(response)


# The page reuses its drawn blocks while nothing they are computed from changed
# (sheets.reads.sheet_revision). Each change below goes around the services, straight to
# the table, so the test would catch a block kept by a key that forgot a column.


def test_a_state_changed_behind_the_services_back_shows_at_once(client_for, jogador, jurado):
    client = client_for(jogador)
    html = content(client.get(_url(jurado)))
    assert stat(html, "move") == "5"
    client.get(_url(jurado))  # warm
    Possession.objects.filter(character=jurado, item__name="Cota de malha").update(quantity=4)
    html = content(client.get(_url(jurado)))
    # 3 more mail coats: 23 + 34.5 = 57.5 kg at ST 13 is Carga Pesada (3): Move 6 − 3 = 3
    # where Leve (1) gave 6 − 1 = 5 (§2.2).
    assert stat(html, "carried-kg") == "57,5 kg"
    assert stat(html, "encumbrance") == "Pesada (3)"
    assert stat(html, "move") == "3"


def test_hit_points_lost_show_in_the_head_at_once(client_for, jogador, jurado):
    from sheets.models import CharacterState

    client = client_for(jogador)
    client.get(_url(jurado))
    client.get(_url(jurado))
    CharacterState.objects.update_or_create(character=jurado, defaults={"hp_lost": 9})
    html = content(client.get(_url(jurado)))
    # HT 12 → 12 PV; 9 lost leaves 3, and under 1/3 of PV Move and Dodge halve (§5.4).
    assert "3/12" in html
    assert "caem à metade" in html


def test_a_reader_who_cannot_change_the_state_never_gets_the_owners_forms(
    client_for, jogador, jogadora, jurado
):
    owner_html = content(client_for(jogador).get(_url(jurado)))
    assert "pertences" in owner_html  # the owner's carry forms
    reader_html = content(client_for(jogadora).get(_url(jurado)))
    assert "/pertences/" not in reader_html
    assert "Propor alteração da ficha" not in reader_html


def test_no_template_syntax_reaches_the_page(client_for, jogador, jurado):
    """A ``{# … #}`` comment over two lines is not a comment to Django: it would be shown."""
    html = content(client_for(jogador).get(_url(jurado)))
    assert "{#" not in html and "{%" not in html and "{{" not in html
