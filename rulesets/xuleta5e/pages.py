"""The Xuleta's pages part: not built yet (issue 22)."""

PAGES = None
