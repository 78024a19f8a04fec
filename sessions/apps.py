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
