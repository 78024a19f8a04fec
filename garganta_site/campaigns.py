"""A campaign comes into being with its registers and its tables: ``campaign_create`` is the one
way in (the admin, the demo, an import of an empty database, a test), and ``campaigns_seed_all``
runs after every ``migrate``, so a new canon item or procedure table reaches campaigns that
already exist.

It sits above the apps (like the API's mount) because it composes them: the canon's own
pendências and decisions (``canon.services.registers_seed``), the procedure's random tables
(``sessions.procedure.services``) and the Árbitro's skill cost table and skill catalogue
(``canon.skills``).
"""

from __future__ import annotations

from django.db import connections, transaction
from django.db.migrations.executor import MigrationExecutor

from campaigns.models import Campaign
from canon.services import registers_seed
from canon.skills import skill_tables_seed
from sessions.procedure.services import procedure_tables_seed


def campaign_seed(*, campaign: Campaign) -> None:
    """Give ``campaign`` everything a campaign starts with; idempotent (what is there stays as
    the Árbitro left it)."""
    registers_seed(campaign=campaign)
    procedure_tables_seed(campaign=campaign)
    skill_tables_seed(campaign=campaign)


@transaction.atomic
def campaign_create(*, slug: str, name: str) -> Campaign:
    """Create a campaign with its registers and tables. The slug is its public id (URLs);
    raises ``IntegrityError`` if it is taken."""
    campaign = Campaign.objects.create(slug=slug, name=name)
    campaign_seed(campaign=campaign)
    return campaign


def campaigns_seed_all() -> None:
    """Seed every campaign of the database (after ``migrate``)."""
    for campaign in Campaign.objects.order_by("pk"):
        campaign_seed(campaign=campaign)


def fully_migrated(using: str = "default") -> bool:
    """Whether the database's schema is at the newest migration (not mid-way, not rolled back
    to an older target, where the registers' tables may not match the code)."""
    executor = MigrationExecutor(connections[using])
    return not executor.migration_plan(executor.loader.graph.leaf_nodes())


def seed_after_migrate(sender, using: str = "default", **kwargs) -> None:
    """The ``post_migrate`` receiver (connected once, in ``canon.apps``): Django's own hook for
    rows that must exist after a schema change, as ``contenttypes`` uses it."""
    if fully_migrated(using):
        campaigns_seed_all()
