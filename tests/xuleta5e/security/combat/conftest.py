"""The combat tests' Xuleta campaign (Mestre, Árbitro, jogador, a scene, the server's dice)."""

from tests.xuleta5e.combat.conftest import (  # noqa: F401 - fixtures
    campaign,
    people,
    quote,
    scene,
    server_dice,
)
