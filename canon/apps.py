from django.apps import AppConfig


class CanonConfig(AppConfig):
    name = "canon"
    verbose_name = "Cânone e homologação"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # After each migrate, every campaign gets the canon items and procedure tables that a
        # new release brings (garganta_site.founding); a new campaign gets them from
        # campaign_create. Connected here once: canon is the last of the project's apps.
        from django.db.models.signals import post_migrate

        from garganta_site.founding import seed_after_migrate

        post_migrate.connect(seed_after_migrate, sender=self)
