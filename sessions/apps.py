from django.apps import AppConfig


class MesaConfig(AppConfig):
    """The table: weeks, scenes, the scene log and its rolls.

    The package is ``sessions`` as the design asks, but the label is ``mesa`` so it does
    not clash with ``django.contrib.sessions``.
    """

    name = "sessions"
    label = "mesa"
    verbose_name = "Mesa"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The procedure's tables must exist in every campaign (sessions.signals).
        from django.db.models.signals import post_migrate, post_save

        from sessions import signals

        post_migrate.connect(signals.seed_after_migrate, sender=self)
        post_save.connect(
            signals.seed_new_campaign,
            sender="sheets.Campaign",
            dispatch_uid="mesa_procedure_tables_seed",
        )
