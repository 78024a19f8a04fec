"""The sistema001's fight fixtures (a campaign on it, a scene, the server's dice)."""

from tests.sessions.native_combat.conftest import (  # noqa: F401 - fixtures
    campaign,
    people,
    scene,
    server_dice,
)
