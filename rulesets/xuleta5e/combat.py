"""The Xuleta's combat part: not built yet (issue 22)."""

COMBAT = None
ROLL_KINDS: dict[str, str] = {}
