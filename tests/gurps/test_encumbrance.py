from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

import pytest

from gurps.encumbrance import (
    CANNOT_LIFT_NAME,
    ENCUMBRANCE_LEVELS,
    LIFT_MULTIPLIER,
    LIFT_ONLY_NAME,
    encumbrance,
    encumbrance_bounds,
    lift_max_kg,
)
from gurps.errors import NEGATIVE_WEIGHT, ST_TOO_LOW, WEIGHT_NOT_A_NUMBER, InvalidValue
from tests.gurps.helpers import canon_section, canon_table


def _canon_multiplier(cell: str) -> int:
    return 1 if cell == "ST kg" else int(cell.split("×")[0])


def _canon_penalty(cell: str) -> int:
    return 0 if cell == "—" else -int(re.match(r"−(\d+)", cell)[1])


def test_the_carga_table_is_the_canons_table() -> None:
    rows = canon_table("## 2.2 Carga")
    parsed = []
    for name_cell, weight, cost in rows:
        name, level = re.fullmatch(r"(.+) \((\d)\)", name_cell).groups()
        parsed.append((int(level), name, _canon_multiplier(weight), _canon_penalty(cost)))
    assert parsed == [
        (row.level, row.name, row.multiplier, row.move_penalty) for row in ENCUMBRANCE_LEVELS
    ]
    assert all((row.section, row.page) == ("2.2", "76") for row in ENCUMBRANCE_LEVELS)


def test_the_lift_limit_is_the_canons() -> None:
    assert f"{LIFT_MULTIPLIER} × ST é o maior peso que se ergue" in canon_section("## 2.2 Carga")


@pytest.mark.parametrize(
    ("kg", "level", "name"),
    [
        (0, 0, "Nenhuma"),
        (13, 0, "Nenhuma"),
        ("13.001", 1, "Leve"),
        (26, 1, "Leve"),
        (Decimal("26.5"), 2, "Média"),
        (39, 2, "Média"),
        (78, 3, "Pesada"),
        (130, 4, "Muito Pesada"),
    ],
)
def test_every_bound_is_inclusive(kg: object, level: int, name: str) -> None:
    load = encumbrance(13, kg)
    assert (load.level, load.name, load.can_move, load.can_lift) == (level, name, True, True)


def test_between_10_and_15_times_st_it_is_lifted_not_carried() -> None:
    load = encumbrance(13, Fraction(1301, 10))
    assert (load.level, load.name, load.can_move, load.can_lift) == (
        None,
        LIFT_ONLY_NAME,
        False,
        True,
    )
    assert load.max_kg == 195
    assert encumbrance(13, 195).name == LIFT_ONLY_NAME


def test_above_15_times_st_it_is_not_even_lifted() -> None:
    load = encumbrance(13, "195,5")
    assert (load.level, load.name, load.max_kg, load.can_lift) == (
        None,
        CANNOT_LIFT_NAME,
        None,
        False,
    )


def test_it_converts_weights_exactly() -> None:
    assert encumbrance(13, 0.1).carried_kg == Fraction(1, 10)
    assert encumbrance(13, "12,5").carried_kg == Fraction(25, 2)
    assert encumbrance(13, Decimal("13.001")).carried_kg == Fraction(13001, 1000)


def test_bounds_at_st_13() -> None:
    assert [kg for _, kg in encumbrance_bounds(13)] == [13, 26, 39, 78, 130]
    assert lift_max_kg(13) == 195


def test_it_rejects_negative_weight() -> None:
    with pytest.raises(InvalidValue) as caught:
        encumbrance(13, -1)
    assert (caught.value.field, caught.value.message) == ("carried_kg", NEGATIVE_WEIGHT)


@pytest.mark.parametrize("kg", ["muito", float("nan"), float("inf"), True, None])
def test_it_rejects_a_weight_that_is_not_a_number(kg: object) -> None:
    with pytest.raises(InvalidValue) as caught:
        encumbrance(13, kg)  # type: ignore[arg-type]
    assert (caught.value.field, caught.value.message) == ("carried_kg", WEIGHT_NOT_A_NUMBER)


def test_it_rejects_st_0() -> None:
    with pytest.raises(InvalidValue) as caught:
        encumbrance(0, 1)
    assert (caught.value.field, caught.value.message) == ("st", ST_TOO_LOW)
