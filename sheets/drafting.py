"""A draft's skill lines made whole: the level derived from the points, or the points from the
level, by the Árbitro's cost table (``gurps.skill_costs``), before the draft is saved.

The player gives attribute, difficulty and points and the level comes out (or the level, and
what it costs); a line the table cannot explain says why, next to the field at fault, and is not
saved until he fixes it. Both given: kept as typed, and the audit says whether they agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

from gurps import skill_costs
from gurps.audit import CatalogueSkill
from gurps.errors import InvalidValue
from gurps.skill_costs import ATTRIBUTE_NAMES, CostRow
from gurps.skills import best_default

NEEDS_POINTS_OR_LEVEL = "Diga os pontos (o NH sai da tabela) ou o NH (os pontos saem dela)."
ZERO_POINTS_NEEDS_A_DEFAULT = (
    "Com 0 ponto vale o pré-definido (§3.3), e esta perícia não tem um que a ficha alcance: "
    "ponha pontos, diga o NH ou tire a linha."
)


def as_decimal(points) -> Decimal:
    """Exact points as the sheet stores them (halves: one decimal place)."""
    value = Fraction(points)
    return Decimal(value.numerator) / Decimal(value.denominator)


def _default_level(line, attributes, levels, catalogue) -> int | None:
    entry = next((e for e in catalogue if e.name.casefold() == line["name"].casefold()), None)
    defaults = entry.default_list() if entry is not None else None
    if defaults is None:
        return None
    used = best_default(defaults=defaults, attributes=attributes, skills=levels)
    return used.level if used is not None else None


def _resolve(line: dict, attributes, levels, table, catalogue) -> tuple[dict, dict[str, str]]:
    """One line with its missing side filled, or the errors by field."""
    attribute = line["attribute"]
    common = {
        "attribute": attributes[attribute],
        "kind": skill_costs.skill_kind_for(attribute),
        "difficulty": line["difficulty"],
        "table": table,
        "attribute_name": ATTRIBUTE_NAMES[attribute],
    }
    points, level = line.get("points"), line.get("level")
    try:
        # A column the table lacks is refused even with both given (a physical Very Hard).
        skill_costs.check_column(table, common["kind"], line["difficulty"])
        if points is not None and level is None and points == 0:
            level = _default_level(line, attributes, levels, catalogue)
            if level is None:
                return line, {"points": ZERO_POINTS_NEEDS_A_DEFAULT}
        elif points is not None and level is None:
            level = skill_costs.level_bought(points=points, **common).level
        elif level is not None and points is None:
            points = skill_costs.points_for_level(level=level, **common).points
        elif points is None and level is None:
            return line, {"points": NEEDS_POINTS_OR_LEVEL}
    except InvalidValue as error:
        field = error.field if error.field in ("difficulty", "level", "points") else "points"
        return line, {field: error.message}
    return {**line, "level": level, "points": as_decimal(points)}, {}


def resolve_skill_lines(
    *,
    attributes: dict[str, int],
    lines: Sequence[dict],
    table: Sequence[CostRow],
    catalogue: Sequence[CatalogueSkill] = (),
) -> tuple[list[dict], dict[int, dict[str, str]]]:
    """Each line (name, attribute, difficulty, level or None, points or None) with both level
    and points, and the errors by line index and field where the table cannot give the missing
    one (a level below the table, points that reach no row, a column the table lacks; 0 points
    where no default applies)."""
    levels = {line["name"]: line["level"] for line in lines if line.get("level") is not None}
    resolved, errors = [], {}
    for index, line in enumerate(lines):
        whole, said = _resolve(line, attributes, levels, table, catalogue)
        resolved.append(whole)
        if said:
            errors[index] = said
    return resolved, errors
