"""The scene checks' Xuleta campaign: Aina with a sheet (``check_data`` by hand), Bernat
without, the Mestre, the server's dice."""

from tests.xuleta5e.checks.test_scene_checks import (  # noqa: F401 - fixtures
    server_dice,
    sheets,
    world,
)
