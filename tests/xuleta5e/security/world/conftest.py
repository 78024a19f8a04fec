"""The world tests' Xuleta campaign: three characters in a scene (the contract's sheets stood
in), the Mestre, the Árbitro and a jogador, the server's dice."""

from tests.xuleta5e.world.conftest import (  # noqa: F401 - fixtures
    campaign,
    characters,
    people,
    quote,
    scene,
    server_dice,
    stub_sheets,
)
