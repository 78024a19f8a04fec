from django.apps import AppConfig


class SheetsConfig(AppConfig):
    name = "sheets"
    verbose_name = "Fichas"
    default_auto_field = "django.db.models.BigAutoField"
