from django.apps import AppConfig


class ConsoleConfig(AppConfig):
    """The Árbitro's console: the homologation queue and the registers' pages and API. No models
    (its data is canon's and sheets'); an app for its templates (still named ``canon/…``)."""

    name = "console"
    verbose_name = "Console do Árbitro"
