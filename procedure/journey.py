"""The journey: the hexcrawl's rounds of travel as ``sessao-do-mestre.txt`` counts them
(«Rodadas de Viagem»), its closed sets (seasons, activities, ways of advancing, regions) and the
readings of the cells its steps look up (the weather's drift, Tabela B's DC, Tabela A's hexes,
Tabela G's modifier).

Each number below is the text's, with the line it stands in. What the tables hold (chances,
DCs, modifiers, hexes) is read from the campaign's own tables, which the Árbitro maintains: the
functions here only read a cell the way the text writes it. Pure Python.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from procedure.clock import ROUNDS_PER_DAY
from procedure.errors import UnknownChoice

# "Personagens podem avançar por até 2 rodadas consecutivas sem penalidade."
FREE_ADVANCE_ROUNDS = 2
# "Em caso de falha, o personagem deve descansar por 2 rodadas antes de realizar qualquer outra
# atividade ou receber 1 ponto de exaustão."
FORCED_MARCH_REST_ROUNDS = 2
# Tabela B's two rows, by label: "1 rodada extra" (the DC) and "rodadas subsequentes" (its rise).
FORCED_MARCH_FIRST = "1 rodada extra"
FORCED_MARCH_STEP = "rodadas subsequentes"


@dataclass(frozen=True)
class Choice:
    """One value of a closed set the journey takes: its key (the API's), its label (the
    text's word) and, where it picks a table, the table's key."""

    key: str
    label: str
    table: str = ""


SEASONS: tuple[Choice, ...] = (
    # "No início da sessão, role o clima inicial, dependendo da estação do ano."
    Choice("spring", "Primavera", "weather_spring"),
    Choice("summer", "Verão", "weather_summer"),
    Choice("autumn", "Outono", "weather_autumn"),
    Choice("winter", "Inverno", "weather_winter"),
)

# "Em cada rodada de viagem, um jogador pode escolher uma das seguintes atividades: Avançar,
# Explorar, Criar, Forragear/Caçar/Pescar, Levantar Acampamento, Descansar ou outras atividades
# fora do escopo das regras." Forragear/Caçar/Pescar is one activity with three columns of
# Tabela E: each is its own value here, so the column is never a guess.
ACTIVITIES: tuple[Choice, ...] = (
    Choice("advance", "Avançar"),
    Choice("explore", "Explorar"),
    Choice("forage", "Forragear", "Forragear"),
    Choice("hunt", "Caçar", "Caçar"),
    Choice("fish", "Pescar", "Pescar"),
    Choice("craft", "Criar"),
    Choice("make_camp", "Levantar Acampamento"),
    Choice("rest", "Descansar"),
    Choice("other", "Outra atividade (fora do escopo das regras)"),
)
FOOD_ACTIVITIES = ("forage", "hunt", "fish")

# Tabela A: Avançar, by its rows' labels.
MODES: tuple[Choice, ...] = (
    Choice("walking", "Andando"),
    Choice("mounted", "Montado / Dirigindo"),
    Choice("sailing", "Navegando"),
)


@dataclass(frozen=True)
class Region:
    """A kind of hex as the text names them (Estepe, Planície, Colinas, Floresta, Montanha,
    Pântano), and the row (or, in Tabela D, the column) each table gives it. The text groups
    them differently in each table; each entry below is the table's own label that names it."""

    key: str
    label: str
    encounter: str  # Encontros Aleatórios: "Estepe e Planície: 1:6" …
    losing: str  # Tabela C: Perdendo a direção (its rows)
    events: str  # Tabela D: Eventos (its columns)
    food: str  # Tabela E: Forragear/Caçar/Pescar (its rows)
    craft: str  # Tabela G: Criar Munição (its rows)


REGIONS: tuple[Region, ...] = (
    Region(
        "steppe", "Estepe", "Estepe e Planície", "Estepes", "Planície e Estepes", "Estepe", "Estepe"
    ),
    Region(
        "plains",
        "Planície",
        "Estepe e Planície",
        "Planície, Colinas, Floresta",
        "Planície e Estepes",
        "Planície e Colinas",
        "Planície / Colinas",
    ),
    Region(
        "hills",
        "Colinas",
        "Colinas, Florestas e Montanhas",
        "Planície, Colinas, Floresta",
        "Colinas e Montanhas",
        "Planície e Colinas",
        "Planície / Colinas",
    ),
    Region(
        "forest",
        "Floresta",
        "Colinas, Florestas e Montanhas",
        "Planície, Colinas, Floresta",
        "Florestas e Pântanos",
        "Floresta",
        "Floresta",
    ),
    Region(
        "mountain",
        "Montanha",
        "Colinas, Florestas e Montanhas",
        "Pântano, Montanha",
        "Colinas e Montanhas",
        "Montanha",
        "Montanha",
    ),
    Region(
        "swamp",
        "Pântano",
        "Pântano",
        "Pântano, Montanha",
        "Florestas e Pântanos",
        "Pântano",
        "Pântano",
    ),
)

SEASON_BY_KEY = {c.key: c for c in SEASONS}
ACTIVITY_BY_KEY = {c.key: c for c in ACTIVITIES}
MODE_BY_KEY = {c.key: c for c in MODES}
REGION_BY_KEY = {r.key: r for r in REGIONS}


def choice(value, by_key: dict, message: str):
    """``by_key[value]``; ``UnknownChoice(message)`` for a value outside the set (or not a str)."""
    found = by_key.get(value) if isinstance(value, str) else None
    if found is None:
        raise UnknownChoice(message)
    return found


def labels(choices) -> str:
    """«key: label; …», for a closed set's description in the OpenAPI and the MCP tools."""
    return "; ".join(f"{c.key}: {c.label}" for c in choices)


def ordinal(n: int) -> str:
    return f"{n}ª"


_WEATHER_STEP = re.compile(r"^\s*(?P<verb>Diminua|Aumente) em (?P<n>[0-9]+) o clima", re.IGNORECASE)


def weather_step(cell: str) -> int | None:
    """How many rows of the season's table a drift cell moves the weather: «Diminua em 1 o
    clima» → −1, «Aumente em 1 o clima» → +1; None for a cell that says neither (the text's
    faces 3–6 say nothing: ``SILENT``)."""
    found = _WEATHER_STEP.match(cell or "")
    if found is None:
        return None
    n = int(found["n"])
    return -n if found["verb"].lower() == "diminua" else n


def weather_after(row: int, step: int | None, rows: int = 6) -> tuple[int, bool]:
    """(the weather's row after a drift of ``step``, whether an end of the table held it).
    «Diminua» is the row with the smaller number; at row 1 the weather does not go lower and
    at the last row not higher (pendência procedure:weather-drift-edges); no step, no change."""
    if step is None:
        return row, False
    moved = row + step
    held = min(max(moved, 1), rows)
    return held, held != moved


def forced_march_dc(extra_round: int, first: str, step: str) -> int | None:
    """Tabela B: Forçando o Avanço. The DC of the ``extra_round``-th round beyond 2 in a row:
    «1 rodada extra — 12», «rodadas subsequentes — +3» gives 12, 15, 18 … None when a cell does
    not read as a number (the Árbitro keeps the table)."""
    try:
        base, rise = int(first.strip()), int(step.strip())
    except (AttributeError, ValueError):
        return None
    return base + rise * (extra_round - 1)


def hexes_per_round(cell: str) -> Fraction | None:
    """Tabela A: Avançar: «1/2», «1», «2» hexes a round; None for a cell that is not one."""
    try:
        value = Fraction(cell.strip())
    except (AttributeError, ValueError, ZeroDivisionError):
        return None
    return value if value >= 0 else None


def table_modifier(cell: str) -> int | None:
    """Tabela G: Criar Munição: «-6», «+0», «-10»; None for a cell that is not a number."""
    try:
        return int(cell.strip())
    except (AttributeError, ValueError):
        return None


def hexes_text(value: Fraction) -> str:
    """A number of hexes as a reader says it: «1/2», «2», «5 1/2»."""
    whole, part = divmod(value.numerator, value.denominator)
    if not part:
        return str(whole)
    fraction = f"{part}/{value.denominator}"
    return f"{whole} {fraction}" if whole else fraction


def advance_forced(streak: int) -> bool:
    """Whether the ``streak``-th Avançar in a row is beyond the free ones: «Personagens podem
    avançar por até 2 rodadas consecutivas sem penalidade.»"""
    return streak > FREE_ADVANCE_ROUNDS


def day_opens(day: int, day_round: int) -> bool:
    """Whether the next round of travel opens a day: the journey's first (``day`` 0), or after
    the 6th round of one: «1 dia tem 6 rodadas de viagem (4h/rodada)»."""
    return day == 0 or day_round >= ROUNDS_PER_DAY


def day_closes(day_round: int) -> bool:
    """Whether the round just played was the day's last (the 6th)."""
    return day_round >= ROUNDS_PER_DAY


def day_turns(day: int, day_round: int) -> tuple[int, int]:
    """(day, round of the day) of the next round of travel, from where the journey stands
    (``day`` 0 before the first)."""
    if day_opens(day, day_round):
        return day + 1, 1
    return day, day_round + 1
