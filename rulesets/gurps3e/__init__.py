"""The canon's ruleset: GURPS Classic (*Módulo Básico*) with the house rules, behind the
``Ruleset`` interface. Each part is a thin adapter over ``gurps/`` in a module of its own
(``dice``, ``checks``, ``sheets``, ``combat``, ``procedure``, ``pages``); nothing here computes a
rule — the engine does.
"""
