"""Sistema 001 — the combat chapter («4. Combate», docs/canon/outro-sistema-combate.txt) as a
pure engine: no Django, no other ruleset; randomness only from a ``source`` argument.

Modules: ``errors`` (Sistema001Error, AwaitsArbitro), ``attributes`` (the six attributes, their
bonus, movement), ``fighters`` (Fighter, Weapon, the vocabularies), ``rolls`` (one die with
vantagem/desvantagem, tests against an ND), ``initiative``, ``turns``, ``timing`` (durations),
``conditions``, ``readings`` (the pendências and the chapter's slips); ``attacks``, ``damage``,
``maneuvers``, ``situations``, ``objects``, ``quick``, ``tables``.
"""
