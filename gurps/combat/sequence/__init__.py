"""The combat sequence of the Mestre's table (canon §4.10).

``table`` holds the table as data; the rest runs one attack through its steps 3 to 10:
``inputs`` (what is said before the dice), ``plan`` (all of it checked before the first die),
``results`` and ``resolve`` (``resolve_attack``). ``gurps.combat`` re-exports the public names.
"""
