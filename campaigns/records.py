"""The append-only base of every register row (rolls, announcements, corrections, tracker
events): written once, never changed, never deleted (docs/DESIGN.md,
invariants 2 (Rolls are append-only) and 6 (A homologated sheet does not change))."""

from __future__ import annotations

from django.db import models


class AppendOnly(models.Model):
    """A row that is written once: ``save`` of a stored row and ``delete`` refuse."""

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise PermissionError(f"{self._meta.verbose_name}: um registro nunca é alterado.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError(f"{self._meta.verbose_name}: um registro nunca é apagado.")
