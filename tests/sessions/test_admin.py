"""The admin shows rolls and never adds, changes or deletes one (docs/DESIGN.md,
invariant 2 (Rolls are append-only))."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sessions.log import services as log_services
from sessions.models import Roll


@pytest.fixture
def admin_client_(client, demo, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("raiz", password="x"))
    return client


@pytest.fixture
def roll(scene, mestre):
    return log_services.roll_create(
        scene=scene, user=mestre, label="Observação", base_level=13, kind="skill"
    )


def test_the_admin_lists_rolls(admin_client_, roll):
    response = admin_client_.get(reverse("admin:mesa_roll_changelist"))
    assert response.status_code == 200
    assert "Observação" in response.content.decode()


def test_the_admin_shows_a_roll_read_only(admin_client_, roll):
    url = reverse("admin:mesa_roll_change", args=[roll.pk])
    assert admin_client_.get(url).status_code == 200
    assert admin_client_.post(url, {"total": "3", "label": "x"}).status_code == 403
    assert Roll.objects.get(pk=roll.pk).label == "Observação"


def test_the_admin_does_not_add_a_roll(admin_client_, demo):
    assert admin_client_.get(reverse("admin:mesa_roll_add")).status_code == 403


def test_the_admin_does_not_delete_a_roll(admin_client_, roll):
    url = reverse("admin:mesa_roll_delete", args=[roll.pk])
    assert admin_client_.post(url, {"post": "yes"}).status_code == 403
    assert Roll.objects.filter(pk=roll.pk).exists()


def test_the_admin_has_no_bulk_delete_of_rolls(admin_client_, roll):
    response = admin_client_.post(
        reverse("admin:mesa_roll_changelist"),
        {"action": "delete_selected", "_selected_action": [roll.pk], "post": "yes"},
    )
    assert response.status_code in (200, 302, 403)
    assert Roll.objects.filter(pk=roll.pk).exists()
