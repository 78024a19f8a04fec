"""A fight that its ruleset's combat part plays whole (the sistema001's, issue 23): the same
``Combat``, ``Combatant`` and ``CombatEvent`` rows as GURPS's tracker, every die a ``Roll`` in the
campaign's chain, the same lock, replay and events (``sessions.tracker``); the rules are the
ruleset's only, reached through ``rulesets.registry`` (import-linter forbids an engine here).

``services`` the writes and the read, ``api`` the REST operations (``/api/v1/fights``),
``tools`` the MCP tools, ``panel`` what the scene page shows.
"""
