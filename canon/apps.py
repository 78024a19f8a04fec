from django.apps import AppConfig


class CanonConfig(AppConfig):
    name = "canon"
    verbose_name = "Cânone e homologação"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The canon's own register items must exist in every campaign of every database, not
        # only the demo: after each migrate, and when a campaign is created (canon.signals).
        from django.db.models.signals import post_migrate, post_save

        from canon import signals

        post_migrate.connect(signals.seed_after_migrate, sender=self)
        post_save.connect(
            signals.seed_new_campaign, sender="sheets.Campaign", dispatch_uid="canon_seed"
        )
