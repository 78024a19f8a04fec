"""The scene log as one ordered timeline (canon §1.4): a jogador's declaration; the Mestre's
modifiers for it, announced as their own entry; the roll that uses exactly those modifiers;
narration. Nothing attaches a modifier to a roll after the fact (docs/DESIGN.md,
invariant 3 (Modifiers before dice)).
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse
from django.utils.html import escape

from campaigns.errors import ServiceError
from sessions.log import chain, timeline
from sessions.log import services as log_services
from sessions.log.services import (
    ANNOUNCEMENT_NEEDS_DECLARATION,
    DECLARATION_OTHER_CHARACTER,
    MODIFIERS_NOT_ANNOUNCED,
    NARRATION_EMPTY,
    Modifier,
)
from sessions.models import ModifierAnnouncement, Narration, Roll
from sessions.weeks import services as weeks_services
from tests.sessions.conftest import skill_target
from tests.sheets.pages import content, text

HTMX = {"HTTP_HX_REQUEST": "true"}
DECLARED = "Procuro marcas de mordida na rocha, com a tocha baixa."


@pytest.fixture
def declaration(scene, rastreador, rastreadora):
    return log_services.declaration_create(
        scene=scene, character=rastreador, user=rastreadora, text=DECLARED
    )


def _announce(scene, mestre, declaration, *modifiers, note=""):
    return log_services.announcement_create(
        scene=scene, user=mestre, declaration=declaration, modifiers=modifiers, note=note
    )


def _roll(scene, mestre, character, declaration=None, **kwargs):
    fields = {"label": "Observação", "base_level": 13, "kind": "skill", **kwargs}
    return log_services.roll_create(
        scene=scene, user=mestre, character=character, declaration=declaration, **fields
    )


# --- the order --------------------------------------------------------------------------------


def test_the_log_reads_declaration_announcement_roll_narration_in_order(
    client_for, scene, mestre, rastreadora, rastreador, declaration
):
    _announce(scene, mestre, declaration, Modifier("penumbra", -2), note="Rola-se Observação.")
    roll = _roll(scene, mestre, rastreador, declaration)
    log_services.narration_create(scene=scene, user=mestre, text="Você vê a marca, fresca.")

    html = content(client_for(rastreadora).get(reverse("scene", kwargs={"code": scene.code})))
    positions = [
        html.index(DECLARED),
        html.index("Modificadores anunciados"),
        html.index(f'data-testid="roll-{roll.sequence}"'),
        html.index("Você vê a marca, fresca."),
    ]
    assert positions == sorted(positions, reverse=True)  # the newest first (a phone's top)
    assert "penumbra <strong>−2</strong>" in html
    assert "Rola-se Observação." in html
    entries = timeline.scene_log_entries(
        scene, membership=rastreadora.membership_set.get(), user=rastreadora
    )
    assert [e.kind for e in entries] == ["declaration", "announcement", "roll", "narration"]


def test_the_jogador_sees_the_announcement_before_any_die(
    client_for, scene, mestre, rastreadora, declaration
):
    _announce(scene, mestre, declaration, Modifier("penumbra", -2))
    client = client_for(rastreadora)
    response = client.get(reverse("scene-log", kwargs={"code": scene.code}) + "?n=1")
    assert response.status_code == 200
    assert "Modificadores anunciados" in content(response)
    assert not Roll.objects.exists()


# --- the roll uses exactly the announced modifiers -------------------------------------------


def test_a_roll_answering_a_declaration_carries_exactly_the_announced_modifiers(
    scene, mestre, rastreador, declaration
):
    announcement = _announce(
        scene, mestre, declaration, Modifier("penumbra", -2), Modifier("tocha baixa", 1)
    )
    roll = _roll(scene, mestre, rastreador, declaration)
    assert roll.announcement == announcement
    assert roll.modifiers == [
        {"label": "penumbra", "value": -2},
        {"label": "tocha baixa", "value": 1},
    ]
    assert roll.effective_level == 12
    assert '"announcement":"' + str(announcement.code) + '"' in (chain.roll_canonical_content(roll))


def test_the_latest_announcement_before_the_roll_is_the_one_used(
    scene, mestre, rastreador, declaration
):
    _announce(scene, mestre, declaration, Modifier("penumbra", -2))
    latest = _announce(scene, mestre, declaration, Modifier("escuridão", -5))
    roll = _roll(scene, mestre, rastreador, declaration)
    assert (roll.announcement, roll.effective_level) == (latest, 8)


def test_a_roll_answering_an_unannounced_declaration_has_no_modifiers(
    scene, mestre, rastreador, declaration
):
    roll = _roll(scene, mestre, rastreador, declaration)
    assert (roll.modifiers, roll.announcement, roll.effective_level) == ([], None, 13)


def test_a_roll_answering_a_declaration_takes_no_typed_modifiers(
    scene, mestre, rastreador, declaration
):
    _announce(scene, mestre, declaration, Modifier("penumbra", -2))
    with pytest.raises(ServiceError) as refused:
        _roll(scene, mestre, rastreador, declaration, modifiers=[Modifier("surpresa", -4)])
    assert (refused.value.field, refused.value.message) == ("modifiers", MODIFIERS_NOT_ANNOUNCED)
    assert not Roll.objects.exists()


def test_the_roll_form_refuses_typed_modifiers_for_a_declaration_next_to_them(
    client_for, scene, mestre, rastreador, declaration
):
    data = {
        "target": skill_target(rastreador, "Observação"),
        "declaration": str(declaration.pk),
        "mod_label_0": "surpresa",
        "mod_value_0": "-4",
    }
    response = client_for(mestre).post(reverse("roll-add", kwargs={"code": scene.code}), data)
    assert response.status_code == 422
    assert f'<span class="error">{escape(MODIFIERS_NOT_ANNOUNCED)}</span>' in content(response)
    assert not Roll.objects.exists()


def test_the_roll_form_answering_a_declaration_uses_the_announcement(
    client_for, scene, mestre, rastreador, declaration
):
    _announce(scene, mestre, declaration, Modifier("penumbra", -2))
    data = {"target": skill_target(rastreador, "Observação"), "declaration": str(declaration.pk)}
    response = client_for(mestre).post(reverse("roll-add", kwargs={"code": scene.code}), data)
    assert response.status_code == 302
    roll = Roll.objects.get()
    assert (roll.effective_level, roll.modifiers) == (11, [{"label": "penumbra", "value": -2}])


def test_a_roll_answering_someone_elses_declaration_is_refused(scene, mestre, jurado, declaration):
    with pytest.raises(ServiceError) as refused:
        _roll(scene, mestre, jurado, declaration)
    assert refused.value.message == DECLARATION_OTHER_CHARACTER.format(
        name="Rastreador de Uruk-Kalam"
    )


# --- nothing attaches modifiers to a roll after the fact --------------------------------------


def test_an_announcement_after_the_roll_does_not_touch_it(scene, mestre, rastreador, declaration):
    roll = _roll(scene, mestre, rastreador, declaration)
    before = (roll.modifiers, roll.effective_level, roll.hash)
    _announce(scene, mestre, declaration, Modifier("penumbra", -2))
    stored = Roll.objects.get(pk=roll.pk)
    assert (stored.modifiers, stored.effective_level, stored.hash) == before
    assert stored.announcement is None
    assert chain.rolls_verify(scene.week.campaign).ok


def test_a_modifier_cannot_be_added_to_an_existing_roll(scene, mestre, rastreador, demo):
    roll = _roll(scene, mestre, rastreador)
    # Not through the model ...
    roll.modifiers = [*roll.modifiers, {"label": "depois do dado", "value": 3}]
    with pytest.raises(PermissionError):
        roll.save()
    with pytest.raises(PermissionError):
        Roll.objects.filter(pk=roll.pk).update(modifiers=[{"label": "x", "value": 3}])
    # ... nor through an announcement (it names a declaration, never a roll) ...
    assert "roll" not in {f.name for f in ModifierAnnouncement._meta.get_fields()}
    # ... nor through any page or API path ...
    for path in (
        f"/cenas/{scene.code}/rolar/{roll.code}/",
        f"/api/v1/scenes/{scene.code}/rolls/{roll.code}",
        f"/api/v1/scenes/{scene.code}/rolls/{roll.code}/modifiers",
    ):
        client_response = _post_as(mestre, path)
        assert client_response in (404, 405), path
    assert Roll.objects.get(pk=roll.pk).modifiers == []
    # ... and behind the site's back it breaks the chain at that roll.
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Roll._meta.db_table} SET modifiers = %s, effective_level = %s WHERE id = %s",
            ['[{"label": "depois do dado", "value": 3}]', 16, roll.pk],
        )
    report = chain.rolls_verify(demo)
    assert (report.ok, report.first_broken) == (False, roll.sequence)


def _post_as(user, path) -> int:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.post(
        path, '{"label": "x", "value": 3}', content_type="application/json"
    ).status_code


# --- who announces and narrates --------------------------------------------------------------


@pytest.mark.parametrize("username", ["jogador", "rastreadora"])
def test_a_jogador_does_not_announce_or_narrate(
    client_for, django_user_model, scene, declaration, username
):
    client = client_for(django_user_model.objects.get(username=username))
    announce = {"announce-declaration": str(declaration.pk), "announce-mod_label_0": "x"}
    assert (
        client.post(reverse("announcement-add", kwargs={"code": scene.code}), announce).status_code
        == 403
    )
    narrate = {"narration-text": "Eu narro"}
    assert (
        client.post(reverse("narration-add", kwargs={"code": scene.code}), narrate).status_code
        == 403
    )
    assert not ModifierAnnouncement.objects.exists() and not Narration.objects.exists()


def test_the_announcement_form_works(client_for, scene, mestre, declaration):
    data = {
        "announce-declaration": str(declaration.pk),
        "announce-mod_label_0": "penumbra",
        "announce-mod_value_0": "-2",
        "announce-note": "Rola-se Observação.",
    }
    response = client_for(mestre).post(
        reverse("announcement-add", kwargs={"code": scene.code}), data, **HTMX
    )
    assert response.status_code == 200
    assert "log-changed" in response["HX-Trigger"]
    announcement = ModifierAnnouncement.objects.get()
    assert (announcement.declaration, announcement.modifiers, announcement.note) == (
        declaration,
        [{"label": "penumbra", "value": -2}],
        "Rola-se Observação.",
    )


def test_an_announcement_without_modifiers_says_so(client_for, scene, mestre, declaration):
    _announce(scene, mestre, declaration)
    html = content(client_for(mestre).get(reverse("scene", kwargs={"code": scene.code})))
    assert "sem modificadores" in text(html)


def test_an_announcement_needs_a_declaration_next_to_the_field(client_for, scene, mestre):
    data = {"announce-mod_label_0": "penumbra", "announce-mod_value_0": "-2"}
    response = client_for(mestre).post(
        reverse("announcement-add", kwargs={"code": scene.code}), data
    )
    assert response.status_code == 422
    assert f'<span class="error">{escape(ANNOUNCEMENT_NEEDS_DECLARATION)}</span>' in content(
        response
    )
    assert not ModifierAnnouncement.objects.exists()


def test_the_same_announcement_posted_twice_is_recorded_once(
    client_for, scene, mestre, declaration
):
    client = client_for(mestre)
    data = {
        "announce-declaration": str(declaration.pk),
        "announce-request_key": "a" * 32,
        "announce-mod_label_0": "penumbra",
        "announce-mod_value_0": "-2",
    }
    url = reverse("announcement-add", kwargs={"code": scene.code})
    client.post(url, data)
    client.post(url, data)
    assert ModifierAnnouncement.objects.count() == 1


def test_the_narration_form_works_and_refuses_an_empty_one(client_for, scene, mestre):
    client = client_for(mestre)
    url = reverse("narration-add", kwargs={"code": scene.code})
    response = client.post(url, {"narration-text": "   "})
    assert response.status_code == 422
    assert f'<span class="error">{escape(NARRATION_EMPTY)}</span>' in content(response)
    assert client.post(url, {"narration-text": "A tocha apaga."}).status_code == 302
    assert Narration.objects.get().text == "A tocha apaga."


def test_the_mestre_poll_brings_new_declarations_into_every_list(
    client_for, scene, mestre, declaration
):
    from tests.sessions.log.test_scene_log import tail_url

    client = client_for(mestre)
    tail = tail_url(content(client.get(reverse("scene", kwargs={"code": scene.code}))))
    log_services.narration_create(scene=scene, user=mestre, text="Você ouve passos.")
    html = content(client.get(tail))
    for select_id in (
        "id_declaration",
        "id_announce-declaration",
        "id_damage-declaration",
        "id_table-declaration",
        "id_contest-declaration",
    ):
        assert (
            f'id="{select_id}" hx-on::oob-before-swap="keepChoice(event)" hx-swap-oob="true"'
            in (html)
        )
    assert "Rastreador de Uruk-Kalam: Procuro marcas" in html


def test_a_week_with_its_report_submitted_closes_the_forms(client_for, scene, mestre, rastreadora):
    week = scene.week
    weeks_services.report_write(week=week, user=mestre, text="Relatório")
    weeks_services.report_submit(week=week, user=mestre)
    for user in (mestre, rastreadora):
        html = content(client_for(user).get(reverse("scene", kwargs={"code": scene.code})))
        assert "Registro fechado" in html
        assert reverse("roll-add", kwargs={"code": scene.code}) not in html
        assert reverse("declaration-add", kwargs={"code": scene.code}) not in html
