from __future__ import annotations

from gurps.errors import (
    INVALID_DICE_EXPRESSION,
    NO_ROLL_AT_THREE_OR_LESS,
    ST_ABOVE_DAMAGE_TABLE,
    ST_TOO_LOW,
    GurpsError,
    InvalidDiceExpression,
    InvalidValue,
    NoRollAtThreeOrLess,
    OutsideCanon,
)


def test_an_invalid_value_is_a_value_error_that_names_its_field() -> None:
    error = InvalidValue("st", ST_TOO_LOW)
    assert isinstance(error, GurpsError) and isinstance(error, ValueError)
    assert (error.field, error.message, str(error)) == ("st", ST_TOO_LOW, ST_TOO_LOW)


def test_outside_canon_names_the_canon_section() -> None:
    error = OutsideCanon("4.9", ST_ABOVE_DAMAGE_TABLE)
    assert (error.rule, str(error)) == ("4.9", ST_ABOVE_DAMAGE_TABLE)


def test_no_roll_keeps_the_effective_level() -> None:
    error = NoRollAtThreeOrLess(2)
    assert (error.effective_level, str(error)) == (2, NO_ROLL_AT_THREE_OR_LESS)


def test_an_invalid_dice_expression_quotes_the_text() -> None:
    error = InvalidDiceExpression("1d8")
    assert isinstance(error, ValueError)
    assert (error.text, str(error)) == ("1d8", INVALID_DICE_EXPRESSION.format(text="1d8"))
