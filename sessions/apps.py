from django.apps import AppConfig


class MesaConfig(AppConfig):
    """The table: weeks, scenes, the scene log and its rolls, the trackers and the procedure.

    The package is ``sessions`` as the design asks, but the label is ``mesa`` so it does
    not clash with ``django.contrib.sessions``.
    """

    name = "sessions"
    label = "mesa"
    verbose_name = "Mesa"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The sheet pages show the table's fights and scenes; sheets sits below and imports
        # nothing of sessions, so the table hands its functions in (sheets.table).
        from sessions.combat.sheet import campaign_table, sheet_fight
        from sheets import table

        table.provide(fight=sheet_fight, campaign_table=campaign_table)
