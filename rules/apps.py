from django.apps import AppConfig


class RulesConfig(AppConfig):
    """The rules pages (/regras/), the rules API and the calculator. No models; an app for its
    templates (still named ``canon/regras/…``)."""

    name = "rules"
    verbose_name = "Regras"
