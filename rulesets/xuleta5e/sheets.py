"""The Xuleta's sheets part: not built yet (issue 22)."""

SHEETS = None
