"""The Mestre's roll from the scene page (sessions.log.views.roll_add).

The form names what to roll against and the modifiers; the server rolls (docs/DESIGN.md,
invariants 1 (The server rolls), 3 (Modifiers before dice), 5 (No roll at 3 or less)). The
rastreador's Observação is 13; in penumbra (−2) he rolls against 11.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from gurps.errors import NO_ROLL_AT_THREE_OR_LESS
from sessions.log.services import LABEL_EMPTY, MODIFIER_LABEL_EMPTY
from sessions.models import Roll
from sheets.models import CharacterState, Skill
from tests.sessions.conftest import skill_target
from tests.sheets.pages import content

HTMX = {"HTTP_HX_REQUEST": "true"}


def _url(scene) -> str:
    return reverse("roll-add", kwargs={"code": scene.code})


def _observation_in_penumbra(rastreador, **extra) -> dict:
    return {
        "target": skill_target(rastreador, "Observação"),
        "mod_label_0": "penumbra",
        "mod_value_0": "-2",
        **extra,
    }


def _custom(label="Sentir a emboscada", level="12", kind="skill", **extra) -> dict:
    return {"target": "custom", "label": label, "base_level": level, "kind": kind, **extra}


def test_it_works(client_for, mestre, scene, rastreador):
    client = client_for(mestre)
    response = client.post(_url(scene), _observation_in_penumbra(rastreador))

    assert response.status_code == 302
    assert response.url == reverse("scene", kwargs={"code": scene.code})
    roll = Roll.objects.get()
    assert (roll.label, roll.base_level, roll.effective_level) == ("Observação", 13, 11)
    assert roll.modifiers == [{"label": "penumbra", "value": -2}]
    assert roll.character == rastreador
    assert roll.rolled_by == mestre

    html = content(client.get(response.url))
    assert f'data-testid="roll-{roll.sequence}"' in html
    assert "contra <strong>11</strong>" in html
    assert "(NH 13, penumbra −2)" in html
    assert f'<strong class="total">{roll.total}</strong>' in html


def test_it_requires_login(client, scene, rastreador):
    response = client.post(_url(scene), _observation_in_penumbra(rastreador))
    assert response.url.startswith("/entrar/")
    assert not Roll.objects.exists()


@pytest.mark.parametrize("username", ["jogador", "jogadora", "rastreadora"])
def test_it_checks_the_role(client_for, django_user_model, scene, rastreador, username):
    user = django_user_model.objects.get(username=username)
    response = client_for(user).post(_url(scene), _observation_in_penumbra(rastreador))
    assert response.status_code == 403
    assert not Roll.objects.exists()


def test_it_checks_membership(client_for, outsider, scene, rastreador):
    response = client_for(outsider).post(_url(scene), _observation_in_penumbra(rastreador))
    assert response.status_code == 404
    assert not Roll.objects.exists()


def test_the_arbitro_may_roll(client_for, arbitro, scene, rastreador):
    response = client_for(arbitro).post(_url(scene), _observation_in_penumbra(rastreador))
    assert response.status_code == 302
    assert Roll.objects.get().rolled_by == arbitro


def test_with_htmx_it_renders_the_workspace_and_asks_the_log_to_refresh(
    client_for, mestre, scene, rastreador
):
    response = client_for(mestre).post(_url(scene), _observation_in_penumbra(rastreador), **HTMX)
    assert response.status_code == 200
    html = content(response)
    assert "<html" not in html
    assert html.lstrip().startswith('<div id="workspace">')
    assert "log-changed" in response["HX-Trigger"]
    assert Roll.objects.count() == 1


def test_the_dice_come_from_the_server_whatever_the_form_says(
    client_for, mestre, scene, rastreador, server_dice
):
    server_dice(1, 2, 3)
    forged = _observation_in_penumbra(
        rastreador, dice="6 6 6", dice_0="6", total="18", outcome="critical_success", margin="9"
    )
    client_for(mestre).post(_url(scene), forged)

    roll = Roll.objects.get()
    assert (roll.dice, roll.total) == ([1, 2, 3], 6)
    assert (roll.outcome, roll.margin) == ("success", 5)


def test_the_same_form_posted_twice_rolls_once(client_for, mestre, scene, rastreador):
    client = client_for(mestre)
    data = _observation_in_penumbra(rastreador, request_key="3f1c0d1e9a8b4c7d")
    client.post(_url(scene), data)
    client.post(_url(scene), data)
    assert Roll.objects.count() == 1


def test_two_forms_roll_twice(client_for, mestre, scene, rastreador):
    client = client_for(mestre)
    client.post(_url(scene), _observation_in_penumbra(rastreador, request_key="a" * 32))
    client.post(_url(scene), _observation_in_penumbra(rastreador, request_key="b" * 32))
    assert list(Roll.objects.values_list("sequence", flat=True)) == [1, 2]


def test_it_refuses_a_skill_at_effective_level_3_and_says_why(client_for, mestre, scene):
    response = client_for(mestre).post(_url(scene), _custom(level="3"))
    assert response.status_code == 422
    assert escape(NO_ROLL_AT_THREE_OR_LESS) in content(response)
    assert not Roll.objects.exists()


def test_it_rolls_a_defence_at_effective_level_2(client_for, mestre, scene):
    data = _custom(label="Esquiva, caído", level="4", kind="defence")
    data.update(mod_label_0="caído", mod_value_0="-2")
    assert client_for(mestre).post(_url(scene), data).status_code == 302
    assert Roll.objects.get().effective_level == 2


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_custom(label=""), LABEL_EMPTY),
        (_custom(mod_label_0="", mod_value_0="-2"), MODIFIER_LABEL_EMPTY),
    ],
)
def test_it_refuses_bad_input_and_rolls_nothing(client_for, mestre, scene, data, message):
    response = client_for(mestre).post(_url(scene), data)
    assert response.status_code == 422
    assert f'<span class="error">{escape(message)}</span>' in content(response)
    assert not Roll.objects.exists()


@pytest.mark.parametrize(
    "target",
    ["", "nada", "00000000-0000-0000-0000-000000000000|attr:st"],
)
def test_it_refuses_a_target_not_offered(client_for, mestre, scene, target):
    response = client_for(mestre).post(_url(scene), {"target": target})
    assert response.status_code == 422
    assert not Roll.objects.exists()


def test_it_refuses_a_skill_of_another_version(client_for, mestre, scene, hoplita):
    # Espada Curta 15 is on the hoplita's submitted version 2, not on her homologated one.
    pending = Skill.objects.get(version__character=hoplita, version__number=2, name="Espada Curta")
    response = client_for(mestre).post(
        _url(scene), {"target": f"{hoplita.code}|skill:{pending.pk}"}
    )
    assert response.status_code == 422
    assert not Roll.objects.exists()


# --- the level comes from the sheet (docs/DESIGN.md, invariant 10 (Levels from the sheet)) --------


def test_the_form_offers_the_sheets_lines_with_level_and_chance(client_for, mestre, scene):
    html = content(client_for(mestre).get(reverse("scene", kwargs={"code": scene.code})))
    roll_form = html[html.index('name="target"') :]
    roll_form = roll_form[: roll_form.index("</select>")]
    # §1.1: 13 passes 83% of the time (truncated, as the canon's table), 14 → 90%.
    assert "Rastreamento 13 · 83%" in roll_form and "DX 14 · 90%" in roll_form
    assert "Vontade 12 · 74%" in roll_form


def test_an_attribute_of_the_sheet_is_rolled_at_its_level_under_fatigue(
    client_for, mestre, scene, rastreador
):
    """§6.2: ST 11 with 2 points of fatigue tests at 9."""
    CharacterState.objects.update_or_create(character=rastreador, defaults={"fatigue_lost": 2})
    data = {"target": f"{rastreador.code}|attr:st"}
    assert client_for(mestre).post(_url(scene), data).status_code == 302
    roll = Roll.objects.get()
    assert (roll.label, roll.kind, roll.base_level) == ("ST", "attribute", 9)
    assert roll.details["level"]["text"] == "ST 11 − 2 por fadiga = 9"


def test_a_skill_the_sheet_lacks_is_rolled_at_its_default(client_for, mestre, scene, rastreador):
    """§3.3: the Rastreador, ST 11 and DX 14, climbs at 9 — not at a level typed in."""
    data = _custom(label="Escalada", level="", custom_character=str(rastreador.code))
    assert client_for(mestre).post(_url(scene), data).status_code == 302
    roll = Roll.objects.get()
    assert (roll.base_level, roll.details["level"]["text"]) == (
        9,
        "Escalada 9 por pré-definido DX−5",
    )


def test_a_level_typed_for_a_character_with_a_sheet_must_agree(
    client_for, mestre, scene, rastreador
):
    data = _custom(label="Escalada", level="14", custom_character=str(rastreador.code))
    response = client_for(mestre).post(_url(scene), data)
    assert response.status_code == 422
    assert escape("O nível 14 não confere com a ficha de Rastreador de Uruk-Kalam") in content(
        response
    )
    assert not Roll.objects.exists()
