"""The Árbitro's registers (divergences, decisions, corrections) live here.

The homologation queue of this first slice works on ``sheets.SheetVersion`` through
``sheets.services``; the registers come with their own issue.
"""
