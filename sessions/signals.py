"""The two receivers that seed the procedure's tables (sessions.procedure.procedure_tables_seed).

Like ``canon.signals``, the one exception to "no signals": a campaign created anywhere (the
admin, a shell, a test) must start with the procedure's tables, and so must every campaign
of a database after a ``migrate`` that brings a new table.
"""

from __future__ import annotations


def seed_after_migrate(sender, using="default", **kwargs) -> None:
    from canon.signals import _fully_migrated

    if not _fully_migrated(using):
        return
    from sessions.procedure import procedure_tables_seed_all

    procedure_tables_seed_all()


def seed_new_campaign(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    if created and not raw:
        from sessions.procedure import procedure_tables_seed

        procedure_tables_seed(campaign=instance)
