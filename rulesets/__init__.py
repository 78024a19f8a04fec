"""The rule systems a campaign may declare (docs/DESIGN.md, «Rulesets»).

A ruleset is an engine package of pure Python (``gurps/`` for the canon) plus a thin adapter
behind the one ``Ruleset`` interface of ``rulesets.base``, made of parts (dice, checks, sheets,
combat, procedure, pages), any of which a ruleset may lack. The agnostic code (weeks, scenes, the
log and its chain, hidden rolls, homologation's envelope, the registers, the trackers' plumbing)
asks ``rulesets.registry.ruleset_for(key)`` and never imports an engine.

Pure Python: no Django import anywhere in this package.
"""
