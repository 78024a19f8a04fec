"""The Mestre's other rolls, each a logged roll in the chain: damage expressions, the engine's
tables, quick contests (sessions.log.services.damage_roll_create, table_roll_create,
contest_create, and their forms). The server rolls every die; the rules come from gurps."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse
from django.utils.html import escape

from campaigns.errors import ServiceError
from gurps import checks, tables
from gurps.errors import FRIGHT_MARGIN_REQUIRED, INVALID_DICE_EXPRESSION
from sessions.log import chain
from sessions.log import services as log_services
from sessions.log.services import CONTEST_SAME_CHARACTER, ContestSide, Modifier
from sessions.models import Roll
from tests.gurps.helpers import ScriptedSource
from tests.sessions.conftest import skill_target
from tests.sheets.pages import content

HTMX = {"HTTP_HX_REQUEST": "true"}


def _damage(scene, mestre, expression="2d+1", dice=(4, 2), **kwargs):
    return log_services.damage_roll_create(
        scene=scene, user=mestre, expression=expression, source=ScriptedSource(dice), **kwargs
    )


# --- damage -----------------------------------------------------------------------------------


def test_a_damage_roll_rolls_the_expression_on_the_server(scene, mestre, hoplita):
    roll = _damage(scene, mestre, "2d+1", (4, 2), label="Lança", character=hoplita)
    roll = Roll.objects.get(pk=roll.pk)
    assert (roll.kind, roll.label, roll.dice, roll.total) == ("damage", "Lança", [4, 2], 7)
    assert roll.details == {"expression": "2d+1"}
    assert (roll.base_level, roll.effective_level, roll.outcome, roll.margin) == (
        None,
        None,
        "",
        None,
    )


def test_a_damage_roll_may_total_below_zero_as_rolled(scene, mestre):
    roll = _damage(scene, mestre, "1d-3", (1,))
    assert (roll.total, roll.label) == (-2, "Dano 1d−3")


def test_damage_rolls_are_in_the_chain(demo, scene, mestre):
    log_services.roll_create(scene=scene, user=mestre, label="Lança", base_level=17, kind="skill")
    roll = _damage(scene, mestre)
    assert roll.sequence == 2
    assert '"details":{"expression":"2d+1"}' in chain.roll_canonical_content(roll)
    assert chain.rolls_verify(demo) == chain.ChainReport(True, 2, None)


def test_a_changed_damage_expression_breaks_the_chain(demo, scene, mestre):
    roll = _damage(scene, mestre)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Roll._meta.db_table} SET details = %s WHERE id = %s",
            ['{"expression": "3d+1"}', roll.pk],
        )
    assert chain.rolls_verify(demo).first_broken == roll.sequence


def test_the_damage_form_works(client_for, scene, mestre, hoplita, server_dice):
    server_dice(5, 3)
    data = {
        "damage-expression": "2d",
        "damage-label": "Gládio",
        "damage-character": str(hoplita.code),
    }
    response = client_for(mestre).post(
        reverse("damage-roll-add", kwargs={"code": scene.code}), data
    )
    assert response.status_code == 302
    roll = Roll.objects.get()
    assert (roll.dice, roll.total, roll.character) == ([5, 3], 8, hoplita)
    html = content(client_for(mestre).get(reverse("scene", kwargs={"code": scene.code})))
    assert "dano 2d" in html and '<strong class="total">8</strong>' in html


def test_an_unreadable_expression_is_refused_next_to_the_field(client_for, scene, mestre):
    response = client_for(mestre).post(
        reverse("damage-roll-add", kwargs={"code": scene.code}), {"damage-expression": "2d8"}
    )
    assert response.status_code == 422
    message = INVALID_DICE_EXPRESSION.format(text="2d8")
    assert f'<span class="error">{escape(message)}</span>' in content(response)
    assert not Roll.objects.exists()


def test_a_jogador_does_not_roll_damage(client_for, rastreadora, scene):
    response = client_for(rastreadora).post(
        reverse("damage-roll-add", kwargs={"code": scene.code}), {"damage-expression": "2d"}
    )
    assert response.status_code == 403
    assert not Roll.objects.exists()


# --- tables -----------------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(tables.TABLE_TITLES))
def test_every_table_of_the_engine_rolls_and_says_what_it_says(scene, mestre, key):
    options = {"margin_of_failure": 2} if key == "fright_check" else {}
    faces = (3, 4, 4) * 4  # enough for a reroll
    expected = tables.roll_on_table(key, ScriptedSource(faces), **options)
    roll = log_services.table_roll_create(
        scene=scene, user=mestre, table_key=key, options=options, source=ScriptedSource(faces)
    )
    roll = Roll.objects.get(pk=roll.pk)
    assert (roll.kind, roll.label, roll.total) == ("table", expected.title, expected.total)
    assert roll.details["text"] == expected.text
    assert roll.details["row"] == expected.row.label
    assert roll.dice == [face for group in expected.faces for face in group]
    assert chain.rolls_verify(scene.week.campaign).ok


def test_the_fright_check_needs_its_margin_and_the_engine_says_so(client_for, scene, mestre):
    response = client_for(mestre).post(
        reverse("table-roll-add", kwargs={"code": scene.code}), {"table-table": "fright_check"}
    )
    assert response.status_code == 422
    assert escape(FRIGHT_MARGIN_REQUIRED) in content(response)
    assert not Roll.objects.exists()


def test_the_table_form_rolls_the_fright_check(client_for, scene, mestre, server_dice):
    server_dice(5, 5, 5)
    data = {"table-table": "fright_check", "table-margin_of_failure": "3"}
    response = client_for(mestre).post(reverse("table-roll-add", kwargs={"code": scene.code}), data)
    assert response.status_code == 302
    roll = Roll.objects.get()
    assert roll.total == 18
    assert roll.details["options"] == {"margin_of_failure": 3}
    html = content(client_for(mestre).get(reverse("scene", kwargs={"code": scene.code})))
    assert escape(roll.details["text"]) in html


def test_an_option_the_table_does_not_take_is_refused(client_for, scene, mestre):
    data = {"table-table": "critical_hit", "table-unarmed": "on"}
    response = client_for(mestre).post(reverse("table-roll-add", kwargs={"code": scene.code}), data)
    assert response.status_code == 422
    assert "Esta tabela não tem a opção «unarmed»." in content(response)
    assert not Roll.objects.exists()


# --- quick contests ---------------------------------------------------------------------------


def _contest(scene, mestre, hoplita, rastreador, dice, a_mods=(), b_mods=(), **kwargs):
    return log_services.contest_create(
        scene=scene,
        user=mestre,
        a=ContestSide(hoplita, "ST", 12, "attribute", tuple(a_mods)),
        b=ContestSide(rastreador, "ST", 11, "attribute", tuple(b_mods)),
        source=ScriptedSource(dice),
        **kwargs,
    )


@pytest.mark.parametrize(
    ("dice", "winner"),
    [
        ((3, 3, 3, 4, 4, 4), "a"),  # 9 vs 12, 12 vs 11: A passes, B fails
        ((5, 5, 5, 1, 2, 3), "b"),  # 15 vs 12 fails, 6 vs 11 passes
        ((3, 3, 4, 2, 2, 3), "b"),  # both pass: 10 vs 12 by 2, 7 vs 11 by 4
        ((4, 4, 4, 4, 4, 3), None),  # both pass by 0
    ],
)
def test_a_quick_contest_is_judged_by_the_engine(scene, mestre, hoplita, rastreador, dice, winner):
    roll = _contest(scene, mestre, hoplita, rastreador, dice)
    a = checks.roll_success(ScriptedSource(dice[:3]), 12, "attribute")
    b = checks.roll_success(ScriptedSource(dice[3:]), 11, "attribute")
    assert roll.details["winner"] == checks.quick_contest(a, b)
    assert roll.details["winner"] == winner
    assert (roll.kind, roll.character, roll.dice, roll.total) == (
        "contest",
        hoplita,
        list(dice[:3]),
        sum(dice[:3]),
    )
    assert roll.details["b"]["dice"] == list(dice[3:])
    assert roll.label == "ST × ST"


def test_each_side_of_a_contest_has_its_own_modifiers(scene, mestre, hoplita, rastreador):
    roll = _contest(
        scene,
        mestre,
        hoplita,
        rastreador,
        (3, 3, 3, 3, 3, 3),
        a_mods=[Modifier("chão molhado", -2)],
        b_mods=[Modifier("alavanca", 1)],
    )
    assert (roll.details["a"]["effective_level"], roll.details["b"]["effective_level"]) == (10, 12)
    assert roll.modifiers == [{"label": "chão molhado", "value": -2}]


def test_a_contest_is_between_two_different_characters(scene, mestre, hoplita):
    with pytest.raises(ServiceError) as refused:
        _contest(scene, mestre, hoplita, hoplita, (3,) * 6)
    assert refused.value.message == CONTEST_SAME_CHARACTER
    assert not Roll.objects.exists()


def test_a_contest_is_in_the_chain(demo, scene, mestre, hoplita, rastreador):
    roll = _contest(scene, mestre, hoplita, rastreador, (3, 3, 3, 4, 4, 4))
    assert '"winner":"a"' in chain.roll_canonical_content(roll)
    assert chain.rolls_verify(demo).ok
    # Tamper behind the model's back, in SQL both databases take (jsonb on PostgreSQL).
    tampered = dict(roll.details, winner="b")
    details = Roll._meta.get_field("details").get_db_prep_value(tampered, connection)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Roll._meta.db_table} SET details = %s WHERE id = %s", [details, roll.pk]
        )
    assert chain.rolls_verify(demo).first_broken == roll.sequence


def test_the_contest_form_works(client_for, scene, mestre, hoplita, rastreador, server_dice):
    server_dice(3, 3, 3, 6, 6, 5)
    data = {
        "contest-a_target": skill_target(hoplita, "Lança"),
        "contest-a_mod_label_0": "terreno ruim",
        "contest-a_mod_value_0": "-2",
        "contest-b_target": skill_target(rastreador, "Faca"),
    }
    response = client_for(mestre).post(reverse("contest-add", kwargs={"code": scene.code}), data)
    assert response.status_code == 302
    roll = Roll.objects.get()
    assert roll.details["winner"] == "a"
    assert (roll.details["a"]["effective_level"], roll.details["b"]["effective_level"]) == (15, 14)
    html = content(client_for(mestre).get(reverse("scene", kwargs={"code": scene.code})))
    assert "Vence Hoplita de Ônfalos" in html


def test_the_contest_form_offers_no_defence(client_for, scene, mestre):
    html = content(client_for(mestre).get(reverse("scene", kwargs={"code": scene.code})))
    contest = html[html.index('name="contest-a_target"') :]
    contest = contest[: contest.index("</select>")]
    assert "Esquiva" not in contest and "Lança 17 · 98%" in contest


def test_other_kinds_are_never_hidden(scene, mestre, hoplita, rastreador):
    for roll in (
        _damage(scene, mestre),
        _contest(scene, mestre, hoplita, rastreador, (3,) * 6),
    ):
        assert (roll.hidden, roll.name) == (False, "")
