"""The procedure's tables on the pages: the Mestre's panel on the scene page, the list every
member reads, and the Árbitro's change of a row."""

from __future__ import annotations

from django.urls import reverse

from procedure.tables import TABLES
from sessions.models import RandomTableRowChange, Roll
from sessions.procedure import services as procedure_services
from tests.pins import SESSION_QUERIES


def _roll_url(scene):
    return reverse("procedure-roll-add", kwargs={"code": scene.code})


def test_the_mestre_gets_the_procedure_panel(client_for, mestre, scene):
    page = client_for(mestre).get(scene.get_absolute_url()).content.decode()
    assert 'data-testid="procedure-panel"' in page
    assert "accidents|Acidentes||1d10" in page
    assert "events|Florestas e Pântanos||1d8" in page
    assert "forage_hunt_fish|Caçar|Floresta|1d6" in page
    assert "panic|" not in page  # read, not rolled


def test_a_jogador_gets_no_procedure_panel(client_for, jogador, scene):
    page = client_for(jogador).get(scene.get_absolute_url()).content.decode()
    assert 'data-testid="procedure-panel"' not in page


def test_the_mestre_rolls_and_the_log_shows_the_row(
    client_for, mestre, jogador, scene, server_dice
):
    server_dice(8)
    client = client_for(mestre)
    response = client.post(
        _roll_url(scene),
        {"procedure-choice": "accidents|Acidentes||1d10", "procedure-request_key": "a1"},
    )
    assert response.status_code == 302
    roll = Roll.objects.get()
    assert roll.details["row"] == "8"
    page = client_for(jogador).get(scene.get_absolute_url()).content.decode()
    assert "Cai e torce o tornozelo." in page
    assert "Tabela F: Acidentes" in page


def test_a_chance_roll_from_the_panel_says_whether_it_happened(
    client_for, mestre, scene, server_dice
):
    server_dice(6)
    client_for(mestre).post(
        _roll_url(scene),
        {"procedure-choice": "make_camp|Seguro|Grupo|1d6", "procedure-request_key": "a2"},
    )
    roll = Roll.objects.get()
    assert (roll.details["threshold"], roll.details["happened"]) == (5, False)
    page = client_for(mestre).get(scene.get_absolute_url()).content.decode()
    assert "Não aconteceu" in page


def test_the_same_form_posted_twice_rolls_once(client_for, mestre, scene, server_dice):
    server_dice(3, 4)
    data = {"procedure-choice": "affliction|Aflição||1d8", "procedure-request_key": "same"}
    client = client_for(mestre)
    client.post(_roll_url(scene), data)
    client.post(_roll_url(scene), data)
    assert Roll.objects.count() == 1


def test_a_bad_choice_is_shown_next_to_the_field(client_for, mestre, scene):
    response = client_for(mestre).post(
        _roll_url(scene), {"procedure-choice": "panic|Efeito||1d6"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 422
    assert not Roll.objects.exists()


def test_a_modifier_off_the_table_is_refused_next_to_it(client_for, mestre, scene, server_dice):
    server_dice(10)
    response = client_for(mestre).post(
        _roll_url(scene),
        {"procedure-choice": "accidents|Acidentes||1d10", "procedure-modifier": "3"},
    )
    assert response.status_code == 422
    assert "poderia dar 11, que não tem linha: nada foi rolado" in response.content.decode()
    assert not Roll.objects.exists()


def test_a_jogador_cannot_roll(client_for, jogador, scene):
    response = client_for(jogador).post(
        _roll_url(scene), {"procedure-choice": "accidents|Acidentes||1d10"}
    )
    assert response.status_code == 403
    assert not Roll.objects.exists()


def test_the_tables_page_lists_every_table_with_its_source(client_for, jogador):
    page = client_for(jogador).get(reverse("procedure-tables")).content.decode()
    for table in TABLES:
        assert f'data-testid="procedure-table-{table.key}"' in page
        assert f"«{table.source}»" in page


def test_the_tables_page_requires_login(client):
    response = client.get(reverse("procedure-tables"))
    assert response.status_code == 302


def test_the_tables_page_query_count_is_pinned(client_for, jogador, django_assert_num_queries):
    client = client_for(jogador)
    # session, user, memberships with campaigns, tables, their rows
    with django_assert_num_queries(4 + SESSION_QUERIES):
        client.get(reverse("procedure-tables"))


def test_the_arbitro_changes_a_row_and_the_page_keeps_what_it_said(client_for, arbitro, demo):
    table = procedure_services.procedure_table("accidents", demo)
    client = client_for(arbitro)
    url = reverse("procedure-row-edit", kwargs={"code": table.code, "position": 5})
    response = client.post(
        url, {"row-5-cell_0": "É emboscado por 1 lobo.", "row-5-reason": "Fauna do andar 3."}
    )
    assert response.status_code == 302
    change = RandomTableRowChange.objects.get()
    assert change.old_cells == ["É emboscado por 1 predador (lobo, urso, pantera etc)"]
    page = client.get(reverse("procedure-table", kwargs={"code": table.code})).content.decode()
    assert "É emboscado por 1 predador (lobo, urso, pantera etc)" in page
    assert "É emboscado por 1 lobo." in page
    assert "Fauna do andar 3." in page


def test_a_row_change_needs_a_reason(client_for, arbitro, demo):
    table = procedure_services.procedure_table("accidents", demo)
    url = reverse("procedure-row-edit", kwargs={"code": table.code, "position": 5})
    response = client_for(arbitro).post(url, {"row-5-cell_0": "x", "row-5-reason": ""})
    assert response.status_code == 422
    assert not RandomTableRowChange.objects.exists()


def test_only_the_arbitro_changes_a_row(client_for, mestre, jogador, outsider, demo):
    table = procedure_services.procedure_table("accidents", demo)
    url = reverse("procedure-row-edit", kwargs={"code": table.code, "position": 5})
    data = {"row-5-cell_0": "x", "row-5-reason": "y"}
    assert client_for(mestre).post(url, data).status_code == 403
    assert client_for(jogador).post(url, data).status_code == 403
    assert client_for(outsider).post(url, data).status_code == 404
    assert not RandomTableRowChange.objects.exists()


def test_a_member_reads_a_table_without_the_edit_forms(client_for, jogador, demo):
    table = procedure_services.procedure_table("accidents", demo)
    page = client_for(jogador).get(reverse("procedure-table", kwargs={"code": table.code}))
    assert page.status_code == 200
    assert "mudar a linha" not in page.content.decode()


# --- the Árbitro's own tables: «a Tabela de Encontros da Região atual» --------------------------


def test_the_arbitro_adds_a_regional_table_and_its_rows_on_the_page(client_for, arbitro, scene):
    from sessions.models import RandomTable

    client = client_for(arbitro)
    page = client.get(reverse("procedure-tables")).content.decode()
    assert 'data-testid="table-add"' in page
    slug = scene.week.campaign.slug
    made = client.post(
        reverse("procedure-table-add") + f"?campanha={slug}",
        {
            "campanha": slug,
            "table-name": "Encontros do Pântano",
            "table-region": "swamp",
            "table-die": "1d4",
        },
    )
    table = RandomTable.objects.get(region="swamp")
    assert made.status_code == 302 and table.key == "encontros-swamp"
    url = reverse("procedure-row-add", kwargs={"code": table.code})
    body = {"newrow-label": "1-4", "newrow-text": "Sanguessugas gigantes", "newrow-reason": "r"}
    assert client.post(url, body).status_code == 302
    page = client.get(reverse("procedure-table", kwargs={"code": table.code})).content.decode()
    assert "Sanguessugas gigantes" in page and "nada (linha nova)" in page
    assert 'data-testid="table-incomplete"' not in page
    overlapping = client.post(url, {**body, "newrow-label": "2"})
    assert overlapping.status_code == 422


def test_a_mestre_may_not_add_a_table(client_for, mestre, scene):
    slug = scene.week.campaign.slug
    answer = client_for(mestre).post(
        reverse("procedure-table-add"), {"campanha": slug, "table-name": "X", "table-die": "1d6"}
    )
    assert answer.status_code == 403
