"""The combat sequence of the Mestre's table (canon §4.10).

``table`` holds the table as data; the rest runs one attack through its steps 3 to 10:
``inputs`` (what is said before the dice), ``plan`` (all of it checked before the first die),
``attack_steps`` (3–5), ``damage_steps`` (6–9), ``consequence_steps`` (10), ``log`` (how a
step is written in the scene log), ``results`` and ``resolve`` (``resolve_attack``, which
calls the steps in order). ``gurps.combat`` re-exports the public names.
"""
