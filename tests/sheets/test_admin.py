"""The admin keeps a submitted or homologated version as it is (docs/DESIGN.md,
invariant 6 (A homologated sheet does not change))."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sheets.models import Possession, SheetVersion


@pytest.fixture
def admin_client_(client, demo, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("raiz", password="x"))
    return client


@pytest.fixture
def homologated(jurado) -> SheetVersion:
    return SheetVersion.objects.get(character=jurado, number=1)


def test_the_admin_shows_a_homologated_version_with_read_only_fields(admin_client_, homologated):
    response = admin_client_.get(reverse("admin:sheets_sheetversion_change", args=[homologated.pk]))
    assert response.status_code == 200
    assert 'name="st"' not in response.content.decode()


def test_the_admin_does_not_change_a_homologated_version(admin_client_, homologated):
    url = reverse("admin:sheets_sheetversion_change", args=[homologated.pk])
    admin_client_.post(url, {"st": "20", "status": "draft"})
    homologated.refresh_from_db()
    assert (homologated.st, homologated.status) == (13, "homologated")


def test_the_admin_does_not_delete_a_homologated_version(admin_client_, jurado, homologated):
    url = reverse("admin:sheets_sheetversion_delete", args=[homologated.pk])
    admin_client_.post(url, {"post": "yes"})
    assert SheetVersion.objects.filter(pk=homologated.pk).exists()
    assert Possession.objects.filter(character=jurado, item__isnull=False).count() == 4
