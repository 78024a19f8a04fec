"""The level is derived, not typed; a whole proposal (sheets.draft_views.draft_edit): the draft
page completes each skill line by the Árbitro's table, shows the audit before sending, takes
advantages, disadvantages, quirks, items and weapons, and refuses bad input beside the field
without losing anything of the draft."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from campaigns.confirm import CONFIRMED
from gurps.errors import (
    NEGATIVE_SKILL_POINTS,
    PHYSICAL_HAS_NO_VERY_HARD,
    SKILL_POINTS_NOT_IN_HALVES,
)
from sheets import services
from sheets.drafting import NEEDS_POINTS_OR_LEVEL, ZERO_POINTS_NEEDS_A_DEFAULT
from sheets.forms import ATTRIBUTE_ERRORS
from sheets.models import SheetVersion
from tests.sheets.pages import content, text


@pytest.fixture
def draft(jogador, jurado) -> SheetVersion:
    return services.sheet_draft_create(character=jurado, user=jogador)


def _url(character) -> str:
    return reverse("draft", kwargs={"code": character.code})


def _skills(lines) -> dict:
    data = {
        "skills-TOTAL_FORMS": str(len(lines)),
        "skills-INITIAL_FORMS": "0",
        "skills-MIN_NUM_FORMS": "0",
        "skills-MAX_NUM_FORMS": "1000",
    }
    for index, line in enumerate(lines):
        for key, value in zip(
            ("name", "attribute", "difficulty", "points", "level"), line, strict=True
        ):
            data[f"skills-{index}-{key}"] = "" if value is None else str(value)
    return data


def _formset(prefix, lines) -> dict:
    data = {
        f"{prefix}-TOTAL_FORMS": str(len(lines)),
        f"{prefix}-INITIAL_FORMS": "0",
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }
    for index, line in enumerate(lines):
        data.update({f"{prefix}-{index}-{k}": v for k, v in line.items()})
    return data


def _post(client, character, *lines, attributes=None, **extra):
    data = {"st": 13, "dx": 12, "iq": 10, "ht": 12, "notes": "", **(attributes or {})}
    data.update(_skills(lines))
    data.update(extra)
    return client.post(_url(character), data)


def _snapshot(version) -> tuple:
    version = SheetVersion.objects.get(pk=version.pk)
    return (
        version.attributes(),
        sorted((s.name, s.level, s.points) for s in version.skills.all()),
        sorted((t.name, t.points) for t in version.traits.all()),
        sorted((i.name, i.weight_kg) for i in version.items.all()),
    )


def test_the_level_comes_from_the_points(client_for, jogador, jurado, draft):
    response = _post(client_for(jogador), jurado, ("Escudo", "dx", "E", "8", None))
    assert response.status_code == 302
    assert draft.skills.get().level == 15  # DX 12 + 3


def test_the_points_come_from_the_level(client_for, jogador, jurado, draft):
    response = _post(client_for(jogador), jurado, ("Arco", "dx", "H", None, 13))
    assert response.status_code == 302
    assert draft.skills.get().points == Decimal("8")  # DX+1 in Physical/Hard


def test_half_a_point_is_read_as_the_sheet_writes_it(client_for, jogador, jurado, draft):
    _post(client_for(jogador), jurado, ("Observação", "iq", "A", "½", None))
    assert (draft.skills.get().level, draft.skills.get().points) == (8, Decimal("0.5"))


def test_zero_points_take_the_default(client_for, jogador, rastreadora, rastreador):
    draft = services.sheet_draft_create(character=rastreador, user=rastreadora)
    attributes = {"st": 11, "dx": 14, "iq": 12, "ht": 11}
    response = _post(
        client_for(rastreadora),
        rastreador,
        ("Escalada", "dx", "A", "0", None),
        attributes=attributes,
    )
    assert response.status_code == 302
    assert draft.skills.get().level == 9  # DX−5 (§3.3)


def test_both_typed_are_kept_and_the_audit_says_they_do_not_agree(
    client_for, jogador, jurado, draft
):
    client = client_for(jogador)
    assert _post(client, jurado, ("Escudo", "dx", "E", "8", 14)).status_code == 302
    assert (draft.skills.get().level, draft.skills.get().points) == (14, Decimal("8"))
    html = text(content(client.get(_url(jurado))))
    assert "A ficha diz NH 14, mas 8 pontos em Física/Fácil compram DX+3: 12 + 3 = 15." in html


@pytest.mark.parametrize(
    ("line", "field", "message"),
    [
        (("Escudo", "dx", "E", "-2", None), "points", NEGATIVE_SKILL_POINTS),
        (("Escudo", "dx", "E", "0,3", None), "points", SKILL_POINTS_NOT_IN_HALVES.format(points="0,3")),
        (("Escudo", "dx", "E", "1,25", 13), "points", SKILL_POINTS_NOT_IN_HALVES.format(points="1,25")),
        (("Escudo", "dx", "VH", "4", None), "difficulty", PHYSICAL_HAS_NO_VERY_HARD),
        (("Escudo", "dx", "VH", "4", 12), "difficulty", PHYSICAL_HAS_NO_VERY_HARD),
        (("Escudo", "dx", "E", None, None), "points", NEEDS_POINTS_OR_LEVEL),
        (("Cozinhar", "iq", "E", "0", None), "points", ZERO_POINTS_NEEDS_A_DEFAULT),
    ],
)  # fmt: skip
def test_bad_input_is_refused_beside_the_field_and_the_draft_stays(
    client_for, jogador, jurado, draft, line, field, message
):
    before = _snapshot(draft)
    response = _post(client_for(jogador), jurado, line, notes="Não perca esta nota.")
    assert response.status_code == 422
    html = content(response)
    assert f'<span class="error">{message}</span>' in html
    assert "Não perca esta nota." in html  # what was typed comes back
    if line[3] is not None:
        assert f'name="skills-0-points" value="{line[3]}"' in html
    assert _snapshot(draft) == before


def test_a_level_below_the_table_is_refused_beside_the_level(client_for, jogador, jurado, draft):
    response = _post(client_for(jogador), jurado, ("Escudo", "dx", "E", None, 8))
    assert response.status_code == 422
    assert "NH 8 é DX−4: abaixo da primeira linha da coluna Física/Fácil" in content(response)


@pytest.mark.parametrize(("value", "message"), [(0, "min_value"), (1000, "max_value")])
def test_an_attribute_of_0_or_1000_is_refused(client_for, jogador, jurado, draft, value, message):
    before = _snapshot(draft)
    response = _post(
        client_for(jogador), jurado, ("Escudo", "dx", "E", "4", None), attributes={"dx": value}
    )
    assert response.status_code == 422
    assert ATTRIBUTE_ERRORS[message] in content(response)
    assert _snapshot(draft) == before


def test_a_text_in_another_script_is_a_name_not_a_number(client_for, jogador, jurado, draft):
    response = _post(client_for(jogador), jurado, ("Escudo", "dx", "E", "八", None))
    assert response.status_code == 422
    assert "Pontos de perícia são um número" in content(response)


def test_the_preview_computes_without_saving(client_for, jogador, jurado, draft):
    before = _snapshot(draft)
    client = client_for(jogador)
    response = _post(client, jurado, ("Escudo", "dx", "E", "8", None), preview="1")
    assert response.status_code == 200
    assert 'data-testid="derived-0"' in content(response)
    assert "8 pontos → <strong>NH 15</strong>" in content(response)
    assert _snapshot(draft) == before


def test_with_htmx_the_preview_answers_the_live_region_and_each_lines_cell(
    client_for, jogador, jurado, draft
):
    client = client_for(jogador)
    data = {"st": 13, "dx": 12, "iq": 10, "ht": 12, "notes": "", "preview": "1"}
    data.update(_skills([("Escudo", "dx", "E", "8", None), ("Arco", "dx", "H", None, 13)]))
    response = client.post(_url(jurado), data, HTTP_HX_REQUEST="true")
    html = content(response)
    assert html.lstrip().startswith('<div id="draft-live"')
    assert '<output id="skill-derived-0" data-testid="derived-0" hx-swap-oob="true">' in html
    assert "NH 13 → <strong>8 pontos</strong>" in html
    assert "<form" not in html  # the inputs are never swapped: nothing typed is lost


def test_the_page_has_level_and_points_side_by_side(client_for, jogador, jurado, draft):
    html = content(client_for(jogador).get(_url(jurado)))
    assert "<th>Pontos</th><th>NH</th><th>Pela tabela</th>" in html
    assert "4 pontos → <strong>NH 14</strong>" in html  # the Escudo, DX 12 + 2


# --- whole proposals: traits, items, weapons --------------------------------------------------------


def _whole(draft, traits, items, **extra):
    data = {**draft.attributes(), "notes": ""}
    data.update(
        _skills(
            [(s.name, s.attribute, s.difficulty, s.points, s.level) for s in draft.skills.all()]
        )
    )
    data.update(_formset("traits", traits))
    data.update(_formset("items", items))
    data.update(extra)
    return data


ITEM = {
    "weight_kg": "1",
    "quantity": "1",
    "passive_defense": "0",
    "damage_resistance": "0",
    "carried_by_default": "on",
}


def test_a_draft_adds_changes_and_removes_traits_items_and_weapons(
    client_for, jogador, arbitro, jurado, draft
):
    items = [
        {**ITEM, "name": "Cota de malha", "weight_kg": "11,5", "passive_defense": "3", "damage_resistance": "5"},
        {**ITEM, "name": "Escudo médio", "weight_kg": "7", "passive_defense": "2", "is_shield": "on", "skill_name": "Escudo"},
        {**ITEM, "name": "Arco curto", "damage": "GDP perf", "skill_name": "Arco",
         "ranged_snap_shot": "10", "ranged_accuracy": "1", "ranged_half_damage_m": "120", "ranged_max_m": "180"},
    ]  # fmt: skip
    traits = [
        {"name": "Reflexos em Combate", "kind": "advantage", "key": "combat_reflexes", "points": "15"},
        {"name": "Fala sozinho", "kind": "quirk", "key": "", "points": "-1"},
    ]  # fmt: skip
    client = client_for(jogador)
    response = client.post(_url(jurado), _whole(draft, traits, items, submit="1", **CONFIRMED))
    assert response.status_code == 302
    draft.refresh_from_db()
    assert draft.status == SheetVersion.Status.SUBMITTED
    bow = draft.items.get(name="Arco curto")
    assert (bow.damage, bow.ranged_snap_shot, bow.ranged_half_damage_m) == ("GDP perf", 10, 120)
    assert draft.traits.get(name="Reflexos em Combate").key == "combat_reflexes"
    queue = text(content(client_for(arbitro).get("/homologacao/")))
    assert (
        "Reflexos em Combate (não havia) vantagem, 15 pts, o motor lê: Reflexos em Combate" in queue
    )
    assert "Cota de malha 11,5 kg, PD 3/RD 4 11,5 kg, PD 3/RD 5" in queue
    assert (
        "Gládio 1,5 kg, Bal corte, perícia Espada Curta, apara Comum (½) (saiu da ficha)" in queue
    )
    assert (
        "Arco curto (não havia) 1 kg, GDP perf, perícia Arco, TR 10, Prec 1, ½D 120 m, Máx 180 m"
        in queue
    )


def test_an_unreadable_damage_is_refused_beside_the_field(client_for, jogador, jurado, draft):
    before = _snapshot(draft)
    items = [{**ITEM, "name": "Maça", "damage": "muito dano"}]
    response = client_for(jogador).post(_url(jurado), _whole(draft, [], items))
    assert response.status_code == 422
    assert "Dano ilegível" in content(response)
    assert 'value="muito dano"' in content(response)
    assert _snapshot(draft) == before


def test_a_post_without_the_trait_and_item_rows_keeps_them(client_for, jogador, jurado, draft):
    before = _snapshot(draft)
    _post(client_for(jogador), jurado, ("Escudo", "dx", "E", "4", None))
    assert _snapshot(draft)[2:] == before[2:]
