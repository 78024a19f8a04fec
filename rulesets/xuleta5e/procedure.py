"""The Xuleta's procedure part: not built yet (issue 22)."""

PROCEDURE = None
