"""The Mestre's session procedure (``docs/canon/sessao-do-mestre.txt``) as a pure engine.

Its tables as data, each with the heading it stands under in the text (``procedure.tables``);
the journey's closed sets, rounds and readings of a cell (``procedure.journey``); the clock of
turns, hours and rounds (``procedure.clock``); the exhaustion count (``procedure.exhaustion``);
the dungeon's cadence, hour without rest, arrival, surprise and sleep (``procedure.dungeon``);
the food, water and ammunition books (``procedure.supplies``); the text's d20 points a ruleset
resolves (``procedure.asks``); the dice it is rolled with (``procedure.rolling``).

The procedure was written for another game (CON, DES, DC, exhaustion): this engine says what
the text says, and a campaign's ruleset says how its asks resolve (``rulesets.base.ProcedurePart``).
Errors are ``procedure.errors.ProcedureError`` with a Portuguese message.

Pure Python, standard library only: no Django import, no rule system's engine.
"""
