"""The two receivers that seed the canon's own register items (canon.services.registers_seed).

The project keeps side effects out of signals; this is the one exception the registers need,
because a campaign created anywhere (the admin, a shell, a test) must start with the canon's
pendências and decisions, and so must every campaign of a database after a ``migrate`` that
brings a new reading or a new canon item.
"""

from __future__ import annotations

from django.db import connections
from django.db.migrations.executor import MigrationExecutor


def _fully_migrated(using: str) -> bool:
    executor = MigrationExecutor(connections[using])
    return not executor.migration_plan(executor.loader.graph.leaf_nodes())


def seed_after_migrate(sender, using="default", **kwargs) -> None:
    """After ``migrate``: seed every campaign, if the schema is complete (not when migrating
    backwards or to an older target, where the registers' tables may not match)."""
    if not _fully_migrated(using):
        return
    from canon.services import registers_seed_all

    registers_seed_all()


def seed_new_campaign(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    if created and not raw:
        from canon.services import registers_seed

        registers_seed(campaign=instance)
