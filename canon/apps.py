from django.apps import AppConfig


class CanonConfig(AppConfig):
    name = "canon"
    verbose_name = "Cânone e homologação"
    default_auto_field = "django.db.models.BigAutoField"
