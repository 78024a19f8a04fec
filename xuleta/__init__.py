"""The Xuleta (``docs/canon/xuleta-5e-ca.txt``): a d20 quick-rules sheet in Catalan, as an engine.

Pure Python, like ``gurps/`` for the canon: no Django, every die from the ``source`` given
(``dice.rolling.RandomSource``), every rule with its sentence quoted in its docstring or test.
The site reaches it only through ``rulesets.xuleta5e`` (docs/DESIGN.md, «Rulesets»). Its words
(the abilities, skills, conditions) are the text's own, in Catalan; the site's messages are
Portuguese.
"""
