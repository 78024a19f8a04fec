"""The dice engine's one error and its Portuguese messages (the user reads them)."""

from __future__ import annotations

# The limits of a written expression; a roll or a distribution past them is refused.
MAX_DICE = 100  # dice in one term, e.g. 100d6
MIN_SIDES = 2
MAX_SIDES = 100  # d100; the exact distribution's cost grows with count × sides
MAX_TERMS = 20  # dice terms and constants in one expression
MAX_DIGITS = 9  # of any number written in it
# Σ count × sides of the pools whose exact distribution is computed: icepool takes ~1 s at 600
# (100d6, 30d20) and grows about with its square (20d100: ~4 s; 100d100kh50: minutes).
MAX_DISTRIBUTION_FACES = 600

EMPTY = "escreva uma expressão de dados, p.ex. «2d6+1», «1d20» ou «2d20kh1»."
BAD_TEXT = "não entendi «{rest}»: escreva p.ex. «2d6+1», «1d20», «4d6kh3» ou «2d20kl1»."
NO_TERM = "falta um termo depois do último «+» ou «−»."
NO_SIDES = "falta o número de faces depois do «d» (p.ex. «1d20»)."
DICE_COUNT = f"o número de dados vai de 1 a {MAX_DICE}."
SIDES = f"um dado tem de {MIN_SIDES} a {MAX_SIDES} faces."
NO_KEEP_COUNT = "diga quantos dados manter depois de «kh» ou «kl» (p.ex. «2d20kh1»)."
KEEP_COUNT = "não dá para manter {keep} de {count} dado(s): mantenha de 1 a {count}."
TOO_MANY_FACES = (
    f"dados demais para a chance exata: no máximo {MAX_DISTRIBUTION_FACES} "
    "somando dados × faces de cada termo (p.ex. 100d6 ou 30d20)."
)
BIG_NUMBER = "número grande demais: «{digits}»."
TOO_MANY_TERMS = f"no máximo {MAX_TERMS} termos numa expressão."
TEMPLATE = "Expressão de dados inválida «{text}»: {reason}"


class InvalidDice(ValueError):
    """A dice expression that cannot be read or built; ``str()`` is the Portuguese message.

    ``text`` is what was given (the expression's text, or its canonical form when built in
    code) and ``reason`` the sentence that says what is wrong.
    """

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(TEMPLATE.format(text=text, reason=reason))
        self.text = text
        self.reason = reason
