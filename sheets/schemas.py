"""The API's schemas of a sheet's derived numbers and the readings they rest on: shared by the
sheets API (GET /sheets/{id}) and the rules API (POST /rules/derived), which sits above.

Moved from rules.api.
"""

from __future__ import annotations

from typing import Literal
from uuid import UUID

from ninja import Field, Schema

from gurps import derived
from gurps.readings import READINGS


class EncumbranceOut(Schema):
    level: int | None
    name: str


class NamedValueOut(Schema):
    name: str
    value: int


class DerivedOut(Schema):
    hp: int
    hp_remaining: int
    staggered: bool = Field(description="3 PV ou menos: Deslocamento e Esquiva à metade (§5.4)")
    fatigue: int
    st_after_fatigue: int
    basic_speed: float
    encumbrance: EncumbranceOut
    move: int
    dodge: int
    block: int | None
    parries: list[NamedValueOut]
    passive_defense: int
    damage_resistance: int
    dodge_total: int
    block_total: int | None
    parries_total: list[NamedValueOut]
    move_halved: bool = Field(description="Deslocamento à metade (§5.4 ou §6.2)")


class ReadingOut(Schema):
    """A number of the sheet that rests on an open reading (``gurps.readings``): the question
    the canon leaves open, the answer the site uses until the Árbitro decides, and the
    pendência of his register that holds it."""

    value: str = Field(
        description="O número: hp, fatigue, basic_speed, encumbrance, move, dodge, "
        "passive_defense, block, parry:<arma> (as chaves de derived)"
    )
    reading: str = Field(description="A chave da leitura (regras: /regras/leituras/)")
    section: str
    question: str
    answer: str = Field(description="A resposta que o site usa até a decisão do Árbitro")
    divergence: UUID | None = Field(description="A pendência do Árbitro que a guarda, se há")
    divergence_status: Literal["open", "resolved"] | None


def reading_pairs(result: derived.Derived) -> list[tuple[str, str]]:
    """(number, reading key) of each derived number that rests on an open reading."""
    found = {r.key for r in READINGS}
    return [
        (value, key)
        for value, how in result.explanations.items()
        for key in (how.readings if how else ())
        if key in found
    ]


def readings_out(pairs: list[tuple[str, str]]) -> list[dict]:
    """The readings as ``ReadingOut`` rows, without their pendência (no campaign here)."""
    found = {r.key: r for r in READINGS}
    return [
        {
            "value": value,
            "reading": key,
            "section": found[key].section,
            "question": found[key].question,
            "answer": found[key].answer,
            "divergence": None,
            "divergence_status": None,
        }
        for value, key in pairs
    ]


def derived_out(result: derived.Derived) -> dict:
    """The API's derived block (also used by GET /sheets/{id})."""
    return {
        "hp": result.hp,
        "hp_remaining": result.hp_remaining,
        "staggered": result.staggered,
        "fatigue": result.fatigue,
        "st_after_fatigue": result.st_after_fatigue,
        "basic_speed": float(result.basic_speed),
        "encumbrance": {"level": result.encumbrance.level, "name": result.encumbrance.name},
        "move": result.move,
        "dodge": result.dodge,
        "block": result.block,
        "parries": [{"name": p.name, "value": p.value} for p in result.parries],
        "passive_defense": result.passive_defense,
        "damage_resistance": result.damage_resistance,
        "move_halved": result.move_halved,
        "dodge_total": result.dodge_total,
        "block_total": result.block_total,
        "parries_total": [{"name": p.name, "value": p.value} for p in result.parries_total],
    }
