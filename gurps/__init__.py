"""The rules engine of A Garganta: GURPS Classic (*Módulo Básico*) as the campaign's canon
(``como-se-joga.md``) writes it.

Pure Python, standard library only. Each module follows a part of the canon; every table is
data carrying its canon section and book page; numbers the canon lacks raise
``gurps.errors.OutsideCanon`` instead of being estimated.
"""
