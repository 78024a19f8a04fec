"""A roll is never changed or deleted (docs/DESIGN.md, invariant 2 (Rolls are append-only);
sessions.models.Roll)."""

from __future__ import annotations

import pytest
from django.db.models import ProtectedError

from sessions.log import services as log_services
from sessions.models import Roll


@pytest.fixture
def roll(scene, mestre):
    return log_services.roll_create(
        scene=scene, user=mestre, label="Observação", base_level=13, kind="skill"
    )


def test_a_stored_roll_cannot_be_saved_again(roll):
    total = roll.total
    roll.total = 3 if total != 3 else 4
    with pytest.raises(PermissionError):
        roll.save()
    assert Roll.objects.get(pk=roll.pk).total == total


def test_a_roll_read_back_cannot_be_saved_either(roll):
    stored = Roll.objects.get(pk=roll.pk)
    with pytest.raises(PermissionError):
        stored.save(update_fields=["label"])


def test_a_roll_cannot_be_deleted(roll):
    with pytest.raises(PermissionError):
        roll.delete()
    assert Roll.objects.filter(pk=roll.pk).exists()


def test_the_scene_of_a_roll_cannot_be_deleted(roll, scene):
    with pytest.raises(ProtectedError):
        scene.delete()
    assert Roll.objects.filter(pk=roll.pk).exists()


def test_a_queryset_cannot_delete_or_update_rolls_either(roll):
    with pytest.raises(PermissionError):
        Roll.objects.filter(pk=roll.pk).update(total=3)
    with pytest.raises(PermissionError):
        Roll.objects.filter(pk=roll.pk).delete()
