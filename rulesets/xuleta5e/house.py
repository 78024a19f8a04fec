"""The Xuleta campaign's house settings: where the session procedure and the Xuleta disagree, the
Árbitro decides which text wins (issue 22, §6). Owned by the procedure part; the pages part
publishes them. Empty until built."""

HOUSE_SETTINGS: tuple = ()
