"""The Árbitro's skill cost table and skill catalogue (canon.skills): seeded in every campaign
from the transcription, with a pendência asking him to confirm it; changed with history."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.errors import ServiceError
from canon import seed, skill_data, skills
from canon.models import SkillCatalogueChange, SkillCostRowChange
from garganta_site.founding import campaign_create
from gurps.errors import COST_TABLE_DASH_AFTER_NUMBER, PHYSICAL_HAS_NO_VERY_HARD
from tests.gurps.helpers import skill_cost_tables
from tests.sheets.pages import content

COSTS_URL = "/console/custo-de-pericias/"
CATALOGUE_URL = "/console/catalogo-de-pericias/"


def _physical(campaign):
    return campaign.skill_cost_tables.get(kind="physical")


def test_the_seed_is_the_transcription_cell_by_cell(demo):
    for kind, (columns, lines) in skill_cost_tables().items():
        table = demo.skill_cost_tables.get(kind=kind)
        assert table.columns == columns
        stored = [(r.label, r.relative, r.cells) for r in table.rows.order_by("position")]
        assert stored == lines


def test_every_new_campaign_gets_the_tables_the_catalogue_and_the_pendencia(db):
    campaign = campaign_create(slug="nova", name="Nova")
    assert campaign.skill_cost_tables.count() == 2
    assert campaign.skills.count() == len(skill_data.CATALOGUE)
    pending = campaign.divergences.get(source_key=seed.SKILL_COSTS_KEY)
    assert pending.is_open and "`02` §4" in pending.title
    assert campaign.divergences.get(source_key=seed.SKILL_CATALOGUE_KEY).is_open


def test_seeding_again_keeps_what_the_arbitro_changed(demo, arbitro):
    row = _physical(demo).rows.get(relative=0)
    skills.skill_cost_row_edit(row=row, user=arbitro, cells=["1", "2", "3"], reason="O 02 §4.")
    assert skills.skill_tables_seed(campaign=demo) == 0
    row.refresh_from_db()
    assert row.cells == ["1", "2", "3"]


def test_the_engine_reads_the_campaigns_table(demo):
    table = skills.cost_table(demo)
    assert {row.kind.value for row in table} == {"physical", "mental"}
    assert len(table) == sum(len(lines) for _, lines in skill_cost_tables().values())


def test_a_row_edit_keeps_what_the_row_said(demo, arbitro):
    row = _physical(demo).rows.get(relative=3)
    change = skills.skill_cost_row_edit(
        row=row, user=arbitro, cells=["8", "16", "20"], reason="O 02 §4 diz 20."
    )
    assert (change.old_cells, change.new_cells, change.by) == (
        ["8", "16", "24"],
        ["8", "16", "20"],
        arbitro,
    )
    row.refresh_from_db()
    assert row.cells == ["8", "16", "20"]


@pytest.mark.parametrize(
    ("cells", "reason", "message"),
    [
        (["1", "2", "4"], "Nada.", skills.ROW_UNCHANGED),
        (["1", "2", "5"], "", skills.REASON_REQUIRED),
        (["—", "2", "4"], "Um traço.", COST_TABLE_DASH_AFTER_NUMBER.format(column="Fácil", kind="física")),
    ],
)  # fmt: skip
def test_a_row_edit_that_does_not_read_changes_nothing(demo, arbitro, cells, reason, message):
    row = _physical(demo).rows.get(relative=0)
    with pytest.raises(ServiceError) as refused:
        skills.skill_cost_row_edit(row=row, user=arbitro, cells=cells, reason=reason)
    assert refused.value.message == message
    row.refresh_from_db()
    assert row.cells == ["1", "2", "4"]
    assert not SkillCostRowChange.objects.exists()


@pytest.mark.parametrize("username", ["mestre", "jogador"])
def test_only_the_arbitro_edits_a_row(demo, django_user_model, username):
    row = _physical(demo).rows.get(relative=0)
    with pytest.raises(ServiceError) as refused:
        skills.skill_cost_row_edit(
            row=row,
            user=django_user_model.objects.get(username=username),
            cells=["1", "2", "5"],
            reason="Tentei.",
        )
    assert refused.value.code == "forbidden"


# --- the catalogue --------------------------------------------------------------------------------


def test_the_catalogue_holds_the_canons_defaults(demo):
    by_name = {entry.name: entry for entry in skills.skill_catalogue(demo)}
    assert by_name["Escalada"].defaults == ["ST−5", "DX−5"]
    assert by_name["Arremesso de Mágica"].defaults == ["Arremesso", "DX−3"]
    assert by_name["Escrita antiga de Ámenti"].defaults_rule == "none"
    assert (by_name["Escudo"].attribute, by_name["Escudo"].difficulty) == ("dx", "E")
    assert (by_name["Natação"].attribute, by_name["Natação"].difficulty) == ("", "")


def _fields(**changes):
    fields = {
        "name": "Arco",
        "attribute": "dx",
        "difficulty": "H",
        "defaults_rule": "listed",
        "defaults": "DX−6",
        "source": "MB pág. 49",
    }
    return {**fields, **changes}


def test_an_entry_edit_keeps_what_it_said(demo, arbitro):
    entry = demo.skills.get(name="Arco")
    change = skills.skill_catalogue_entry_edit(
        entry=entry, user=arbitro, reason="A descrição do livro.", **_fields()
    )
    assert change.before["defaults_rule"] == "general"
    assert change.after["defaults"] == ["DX−6"]
    entry.refresh_from_db()
    assert entry.defaults_text == "DX−6"


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"defaults": ""}, "defaults", skills.DEFAULTS_REQUIRED),
        ({"defaults_rule": "general"}, "defaults", skills.DEFAULTS_NOT_WITH_RULE),
        ({"name": "Escudo"}, "name", skills.NAME_TAKEN.format(name="Escudo")),
        ({"name": "  "}, "name", skills.NAME_REQUIRED),
        ({"defaults": "DX-"}, "defaults", None),
    ],
)
def test_an_entry_edit_that_does_not_read_changes_nothing(demo, arbitro, changes, field, message):
    entry = demo.skills.get(name="Arco")
    before = entry.snapshot()
    with pytest.raises(ServiceError) as refused:
        skills.skill_catalogue_entry_edit(
            entry=entry, user=arbitro, reason="Teste.", **_fields(**changes)
        )
    assert refused.value.field == field
    if message:
        assert refused.value.message == message
    entry.refresh_from_db()
    assert entry.snapshot() == before
    assert not SkillCatalogueChange.objects.exists()


def test_an_entry_added_records_its_creation(demo, arbitro):
    entry = skills.skill_catalogue_entry_add(
        campaign=demo,
        user=arbitro,
        reason="Aparece na descida.",
        **_fields(name="Natação de Ámenti", defaults_rule="none", defaults=""),
    )
    (change,) = entry.changes.all()
    assert change.before == {} and change.after["name"] == "Natação de Ámenti"


# --- the pages ------------------------------------------------------------------------------------


def test_the_cost_page_works(client_for, jogador, demo):
    html = content(client_for(jogador).get(COSTS_URL))
    assert "atributo +3" in html and "cada +1 a mais" in html
    assert "Perícias mentais (base IQ)" in html
    assert "Registrar a mudança" not in html  # only the Árbitro changes a row


def test_the_cost_page_requires_login(client):
    assert client.get(COSTS_URL).url.startswith("/entrar/")


def test_the_arbitro_changes_a_row_on_the_page_and_the_history_shows_it(client_for, arbitro, demo):
    table = _physical(demo)
    url = reverse("skill-cost-row-edit", args=[table.code, 4])
    data = {"row-4-cell_0": "1", "row-4-cell_1": "2", "row-4-cell_2": "3", "row-4-reason": "O 02."}
    response = client_for(arbitro).post(url, data)
    assert response.status_code == 302
    html = content(client_for(arbitro).get(COSTS_URL))
    assert "Dizia: «1» | «2» | «4» · Passou a dizer: «1» | «2» | «3»" in html


def test_a_refused_row_edit_shows_the_message_beside_the_form_and_keeps_the_cells(
    client_for, arbitro, demo
):
    table = _physical(demo)
    url = reverse("skill-cost-row-edit", args=[table.code, 4])
    data = {"row-4-cell_0": "1", "row-4-cell_1": "x", "row-4-cell_2": "4", "row-4-reason": "?"}
    response = client_for(arbitro).post(url, data)
    assert response.status_code == 422
    html = content(response)
    assert "Célula ilegível" in html
    assert 'name="row-4-cell_1" value="x"' in html


def test_the_catalogue_page_works_and_the_arbitro_adds_a_skill(client_for, arbitro, jogador, demo):
    assert "Escalada" in content(client_for(jogador).get(CATALOGUE_URL))
    data = {
        "campanha": demo.slug,
        "nova-name": "Sobrevivência",
        "nova-attribute": "iq",
        "nova-difficulty": "A",
        "nova-defaults_rule": "general",
        "nova-defaults": "",
        "nova-source": "MB",
        "nova-reason": "Aparece na descida.",
    }
    response = client_for(arbitro).post(reverse("skill-catalogue-add"), data)
    assert response.status_code == 302
    assert demo.skills.filter(name="Sobrevivência").exists()


def test_a_refused_catalogue_entry_keeps_what_was_typed(client_for, arbitro, demo):
    entry = demo.skills.get(name="Arco")
    prefix = f"e-{entry.code}"
    data = {f"{prefix}-{k}": v for k, v in _fields(defaults="DX menos seis").items()}
    data[f"{prefix}-reason"] = "Teste."
    response = client_for(arbitro).post(reverse("skill-catalogue-edit", args=[entry.code]), data)
    assert response.status_code == 422
    html = content(response)
    assert "Pré-definido ilegível" in html
    assert 'value="DX menos seis"' in html


def test_a_physical_very_hard_is_a_column_the_table_lacks(demo):
    from gurps.skill_costs import check_column

    with pytest.raises(Exception) as refused:
        check_column(skills.cost_table(demo), "physical", "VH")
    assert str(refused.value) == PHYSICAL_HAS_NO_VERY_HARD
