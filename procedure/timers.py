"""The descent's timers (light, spells), run down by the clock: «O Mestre atualiza os timers e
os registros de tempo, com atenção especial às fontes de luz» (Fim do Turno), and «Total
escuridão sempre torna o nível de perigo Mortal.»
"""

from __future__ import annotations


def run_down(remaining: int, turns: int) -> int:
    """A lit timer's turns left after ``turns`` exploration turns (not below 0: out)."""
    return max(0, remaining - turns)


def darkness_falls(light_went_out: bool, still_lit: bool, already_dark: bool) -> bool:
    """Whether the party is now in total darkness: a light went out, none is still lit, and
    it was not dark already."""
    return light_went_out and not still_lit and not already_dark
