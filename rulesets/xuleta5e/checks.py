"""The Xuleta's checks part: not built yet (issue 22)."""

CHECKS = None
